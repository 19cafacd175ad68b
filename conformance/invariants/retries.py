"""The queue's timing of a failed pod: its next attempt comes at the latest when its backoff ends (queue.py
bounds it from below), and its PreEnqueue runs when it enters backoffQ, not when it leaves."""

from __future__ import annotations

from reference.probe import PROBE_NAMES

from ..recipes.first_pod import retried
from ..recipes.situations import Situation
from .attempts import traced_from_start
from .base import invariant
from .faults import fired_between
from .outcome import backoff_kind
from .queue import TIME_TOLERANCE, attempt_start, retries
from .run import Record, Run

# backoff_queue.go backoffQOrderingWindowDuration: a backoff ends at its window's start, and the pod is
# released at the next window (the flush ticks, and Pop checks, on whole windows).
ORDERING_WINDOW = 1.0


def consecutive_errors(kinds: list[str | None]) -> int | None:
    """The queue's ConsecutiveErrorsCount after these attempts (a rejection resets it), None when an attempt
    the trace cannot classify leaves it unknown."""
    count = 0
    for kind in reversed(kinds):
        if kind is None:
            return None
        if kind != "error":
            break
        count += 1
    return count


def _interrupted(run: Run, pod: str, lo: float, hi: float) -> bool:
    """Whether something other than the backoff timer may have held the pod in [lo, hi]: a timeline event (an
    update may re-run PreEnqueue, a deletion ends the pod), a fault, or a PreEnqueue call that refused it."""
    lo, hi = lo - TIME_TOLERANCE, hi + TIME_TOLERANCE
    if any(lo <= float(e.get("at", 0.0)) <= hi for e in run.outcome.timeline):
        return True
    refused = [r for r in run.records(pod, point="PreEnqueue")
               if lo <= r["t"] <= hi and r.get("code") != "Success"]
    return bool(refused) or fired_between(run, lo, hi)


@invariant("error-backoff-bounded",
           "After k consecutive attempts that failed with an error, a pod that is attempted again starts "
           "its next attempt at most min(podInitialBackoffSeconds x 2^(k-1), podMaxBackoffSeconds) + 1 s "
           "after the failure (the backoff's end, aligned down to the 1-second ordering window, is released "
           "at the next window), unless a timeline event, a fault or a PreEnqueue refusal came between.",
           "backend/queue/backoff_queue.go getBackoffTime, calculateBackoffDuration, alignToWindow, "
           "isEntityBackingoff, waitUntilAlignedWithOrderingWindow; scheduling_queue.go Run, Pop, "
           "AddUnschedulableIfNotPresent (spec §6.3)",
           requires=("virtual-time",),
           situation=Situation({p: ["Probe0"] for p in ("preFilter", "filter", "reserve")}, retried),
           rules=("error-backoff",))
def error_backoff_bounded(run: Run) -> None:
    initial, maximum = run.config.pod_initial_backoff_seconds, run.config.pod_max_backoff_seconds
    for pod, attempt, following, kinds, start, failed in retries(run):
        count = consecutive_errors(kinds)
        if not count or start is None or _interrupted(run, pod, failed, start["t"]):
            continue
        run.exercise()
        latest = min(initial * 2 ** (count - 1), maximum) + ORDERING_WINDOW
        if start["t"] - failed > latest + TIME_TOLERANCE:
            raise run.violation(f"attempt {following} started {start['t'] - failed:g}s after attempt "
                                f"{attempt} failed with its error number {count} in a row", pod=pod,
                                expected=f"<= {latest:g}s", actual=f"{start['t'] - failed:g}s",
                                records=(start,))


def _attempt_end(run: Run, pod: str, attempt: int) -> Record:
    """The attempt's last record of its own (the PreEnqueue records tagged with it come after its failure)."""
    own = [r for r in run.probe_records(pod, attempt) if r["point"] not in ("PreEnqueue", "Allow", "Reject")]
    return max([*own, *run.extender_records(pod, attempt=attempt)], key=lambda r: r["seq"])


@invariant("preenqueue-on-backoff-entry",
           "With SchedulerPopFromBackoffQ (on by default), a pod that failed with an error runs PreEnqueue "
           "when it enters backoffQ, at the failure, and not again when it leaves: between the failure and "
           "its next attempt its PreEnqueue records all come at the failure's time (unless a timeline event "
           "or a fault came between).",
           "backend/queue/scheduling_queue.go moveToBackoffQ, moveToActiveQ (movesFromBackoffQ), "
           "requeueEntityWithQueueingStrategy (spec §2.1, §6.1)",
           requires=("virtual-time",),
           situation=Situation({"preEnqueue": ["Probe0"], "preFilter": ["Probe0"], "filter": ["Probe0"],
                                "reserve": ["Probe0"]}, retried),
           rules=("pre-enqueue-on-backoff-entry",))
def preenqueue_on_backoff_entry(run: Run) -> None:
    for pod in run.live_pods:
        plugins = run.plugins_at(pod, "preEnqueue")
        if not plugins or plugins[0] not in PROBE_NAMES or not traced_from_start(run, pod):
            continue  # a plugin the trace cannot see may have refused before the first probe
        attempts = run.attempts(pod)
        for attempt, following in zip(attempts, attempts[1:]):
            start = attempt_start(run, pod, following)
            if backoff_kind(run, pod, attempt) != "error" or start is None:
                continue
            end = _attempt_end(run, pod, attempt)
            if _interrupted(run, pod, end["t"], start["t"]):
                continue
            calls = [r for r in run.records(pod, point="PreEnqueue") if end["seq"] < r["seq"] < start["seq"]]
            run.exercise()
            late = [r for r in calls if r["t"] > end["t"] + TIME_TOLERANCE]
            if late or not calls:
                what = f"ran again at {late[0]['t']:g}s, when the pod left backoffQ" if late else \
                    "did not run when the pod entered backoffQ"
                raise run.violation(f"after attempt {attempt} failed with an error at {end['t']:g}s, "
                                    f"PreEnqueue {what}", pod=pod, plugin=plugins[0],
                                    expected=f"PreEnqueue at {end['t']:g}s only",
                                    actual=[r["t"] for r in calls], records=(end, *calls, start))
