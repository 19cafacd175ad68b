"""Invariants on the events a scheduler records."""

from __future__ import annotations

import re

from reference.probe import PROBE_NAMES

from ..recipes.first_pod import pick
from ..recipes.situations import Situation
from .attempts import traced_from_start
from .base import invariant
from .faults import fired
from .run import Run

NOTE_LENGTH_LIMIT = 1024  # validation.NoteLengthLimit: the API server's cap on an event's note


def truncated(message: str) -> str:
    """What upstream writes to the FailedScheduling event: the message, cut to the note limit."""
    return message if len(message) <= NOTE_LENGTH_LIMIT else message[:NOTE_LENGTH_LIMIT - 4] + " ..."


@invariant("failed-scheduling-event-message",
           "A pod left unschedulable has a FailedScheduling event whose message is its condition's message, "
           "truncated to 1024 characters (the last four replaced by ` ...`) only when it is longer.",
           "schedule_one.go handleSchedulingFailure (truncateMessage; spec §3.2)",
           requires=(), rules=("event-truncation",))
def failed_scheduling_event_message(run: Run) -> None:
    for pod, result in run.outcome.pods.items():
        if result.phase != "unschedulable" or not result.condition:
            continue
        messages = [str(e.get("message", "")) for e in run.outcome.events
                    if e.get("pod") == pod and e.get("reason") == "FailedScheduling"]
        if not messages:
            continue  # whether an event is recorded at all is not this invariant's concern
        if any(f.get("pod") == pod for f in fired(run, "fail", "event")):
            continue  # a fault dropped an event write: the condition's may be the one lost
        want = truncated(str(result.condition.get("message", "")))
        run.exercise()
        # Any of them: a real-time backend may report the condition of an attempt whose event came earlier.
        if want not in messages:
            raise run.violation("no FailedScheduling event carries the condition's message, truncated to the "
                                "note limit", pod=pod, expected=want, actual=messages[-1])


# The error a Filter plugin's status becomes (framework.go RunFilterPlugins: `fmt.Errorf("running %q filter
# plugin: %w", pl.Name(), status.AsError())`); AsError is nil for Wait and Skip, which Go renders so.
_FILTER_ERROR = re.compile(r'running "(?P<plugin>[^"]+)" filter plugin: ')
NIL_WRAPPED = "%!w(<nil>)"


def _filter_error(record) -> str | None:
    """The error text a probe's Filter answer fails the cycle with; None for a verdict (Success or a
    rejection)."""
    code = record.get("code")
    if code in ("Wait", "Skip"):
        inner = NIL_WRAPPED
    elif code == "Error":
        inner = ", ".join(record.get("reasons") or ())
    else:
        return None
    return f'running "{record["plugin"]}" filter plugin: {inner}'


@invariant("filter-error-message",
           "A cycle a probe's Filter fails (Error, or Wait or Skip, which Filter does not define) ends with "
           "the message `running \"<plugin>\" filter plugin: <error>`: the reasons of an Error, `%!w(<nil>)` "
           "for a Wait or Skip, whose AsError is nil.",
           "framework.go RunFilterPlugins (fmt.Errorf with %w of status.AsError()); schedule_one.go "
           "findNodesThatPassFilters, handleSchedulingFailure (spec §1.1)",
           situation=Situation({"filter": ["Probe0"]}, lambda draw, nodes: ({"Probe0": {"Filter": {
               "code": pick(draw, ("Error", "Wait", "Skip")),
               "reasons": [pick(draw, ("boom", "disk full"))]}}}, {})),
           rules=("error-message-nil-wrap",))
def filter_error_message(run: Run) -> None:
    for pod, result in run.outcome.pods.items():
        condition = result.condition or {}
        message = str(condition.get("message", ""))
        named = _FILTER_ERROR.match(message)
        if condition.get("reason") != "SchedulerError" or not named or named["plugin"] not in PROBE_NAMES:
            continue
        expected = {e for r in run.outcome.calls(pod=pod, point="Filter", plugin=named["plugin"])
                    if (e := _filter_error(r)) is not None}
        if not expected:
            continue  # not this probe's own answer (it could not fail the cycle)
        run.exercise()
        if message not in expected:
            raise run.violation("the condition's message is not the error the probe's Filter answer becomes",
                                pod=pod, plugin=named["plugin"], expected=sorted(expected), actual=message)


SKIP_DELETING = "skip schedule deleting pod: "  # skipPodSchedule's FailedScheduling event: no attempt failed


def _event_messages(run: Run, pod: str, reason: str) -> list[str]:
    return [str(e.get("message", "")) for e in run.outcome.events if e.get("pod") == pod and e.get("reason") == reason
            and not str(e.get("message", "")).startswith(SKIP_DELETING)]


def _judged(run: Run) -> list[str]:
    """Live pods whose events tell the whole story: no fault (a failed event write, a restart) touched the run."""
    return [] if run.outcome.faults else list(run.live_pods)


def _bind_fails_first(draw, nodes):
    """Probe0 fails the first attempt's Bind (rejects or errs), then skips, so that DefaultBinder binds."""
    return {"Probe0": {"Bind": [{"code": pick(draw, ("Error", "Unschedulable"))}, {}]}}, {}


@invariant("scheduled-event-per-binding",
           "Every binding the scheduler made records one Normal `Scheduled` event, `Successfully assigned "
           "<namespace>/<name> to <node>`, and a pod it did not bind has none.",
           "schedule_one.go bind -> finishBinding (the event only when the binding's status is Success)",
           requires=("virtual-time",),
           situation=Situation({"preFilter": ["Probe0"], "bind": ["Probe0"]}, _bind_fails_first, min_pods=2),
           rules=("scheduled-event-iff-bound",))
def scheduled_event_per_binding(run: Run) -> None:
    for pod in _judged(run):
        want = sorted(f"Successfully assigned {pod} to {b['node']}" for b in run.outcome.bindings
                      if b.get("pod") == pod)
        got = sorted(_event_messages(run, pod, "Scheduled"))
        if want or got:
            run.exercise()
        if got != want:
            raise run.violation("the Scheduled events are not one per binding", pod=pod, expected=want, actual=got)


def failed_attempts(run: Run, pod: str) -> int | None:
    """How many of the pod's attempts failed, when the trace shows every attempt (its first PreFilter plugin is a
    probe): all of them, but the last when it bound the pod or is still under way."""
    if not traced_from_start(run, pod) or all(p in PROBE_NAMES for p in run.plugins_at(pod, "bind")):
        return None  # every Bind plugin may Skip: that failure carries no error, so no event (all-bind-skip)
    attempts = [a for a in run.attempts(pod) if a > 0]
    result = run.outcome.pods.get(pod)
    ongoing = result is not None and result.phase in ("bound", "waiting")
    return max(len(attempts) - ongoing, 0)


@invariant("failed-scheduling-event-per-attempt",
           "Every failed attempt records one Warning `FailedScheduling` event: as many as the pod's attempts that "
           "failed (all but one that bound it or is still under way).",
           "schedule_one.go handleSchedulingFailure (Eventf for every failure whose status carries an error, "
           "whether or not the pod is still in the informer's cache)",
           requires=("probes", "virtual-time"), rules=("failed-scheduling-event-per-failure",))
def failed_scheduling_event_per_attempt(run: Run) -> None:
    for pod in _judged(run):
        failed = failed_attempts(run, pod)
        if failed is None:
            continue
        events = _event_messages(run, pod, "FailedScheduling")
        if failed or events:
            run.exercise()
        if len(events) != failed:
            raise run.violation(f"{failed} failed attempt(s) but {len(events)} FailedScheduling event(s)", pod=pod,
                                expected=failed, actual=len(events))
