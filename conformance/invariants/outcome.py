"""How a failed attempt ends: the PodScheduled reason and the FitError message.

Both read the pod's last attempt, so they only judge pods whose last attempt the trace shows: the
backend counts attempts in the queue and the count matches the probe cycles, or every attempt
starts with a probe (`traced_from_start`).
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable

from reference.probe import PROBE_NAMES
from reference.scheduler.fit_error import NO_NODES_AVAILABLE_ERROR

from ..recipes.first_pod import condition, fit_error
from ..recipes.situations import Situation
from .attempts import ignorable, last_attempt_seen, may_be_nominated, scoring_failed
from .base import invariant
from .filtering import filtering_phase
from .run import REJECTIONS, Record, Run

SCHEDULER_ERROR, UNSCHEDULABLE = "SchedulerError", "Unschedulable"
PAST_FILTERING = ("PreScore", "Score", "NormalizeScore", "Reserve", "Unreserve", "Permit", "PreBindPreFlight",
                  "PreBind", "Bind", "PostBind")
PAST_SCORING = PAST_FILTERING[3:]


# --- condition-classification -----------------------------------------------------------------

def classify(run: Run, pod: str, attempt: int) -> tuple[str, Record] | None:
    """The condition reason the attempt's first deciding record implies, with that record; None when
    no record decides (e.g. every node was rejected by plugins the trace cannot see)."""
    filters_decide = all(p in PROBE_NAMES for p in run.plugins_at(pod, "postFilter")) \
        and not may_be_nominated(run, pod, attempt)
    bad_scores = scoring_failed(run, pod, attempt)
    records = sorted((*run.probe_records(pod, attempt), *run.extender_records(pod, attempt=attempt)),
                     key=lambda r: r["seq"])
    prefilter_rejected = None
    allowed: set[str] | None = None
    for r in records:
        point, code = r["point"], r.get("code")
        if point == "PreFilter":
            if code == "UnschedulableAndUnresolvable":
                return UNSCHEDULABLE, r
            if code in ("Error", "Pending", "Wait"):
                return SCHEDULER_ERROR, r
            if code == "Unschedulable":
                prefilter_rejected = r
            if code == "Success" and "result" in r:
                allowed = set(r["result"]) if allowed is None else allowed & set(r["result"])
                if not allowed:
                    return UNSCHEDULABLE, r
        elif point == "Filter" and filters_decide and code not in REJECTIONS and code != "Success":
            return SCHEDULER_ERROR, r
        elif point == "PostFilter":
            return UNSCHEDULABLE, r
        elif point in ("AddPod", "RemovePod") and code != "Success":
            return SCHEDULER_ERROR, r  # while filtering (a preemption's dry run comes after PostFilter)
        elif point == "PreScore" and code not in ("Success", "Skip"):
            return SCHEDULER_ERROR, r
        elif point in ("Score", "NormalizeScore") and code != "Success":
            return SCHEDULER_ERROR, r
        elif point in PAST_SCORING and bad_scores:
            return SCHEDULER_ERROR, r
        elif point in ("Reserve", "Permit", "PreBind", "Bind") and code in REJECTIONS:
            return UNSCHEDULABLE, r
        elif point in ("Reserve", "PreBind") and code != "Success" or point == "Permit" and code in ("Error", "Skip"):
            return SCHEDULER_ERROR, r
        elif point == "PreBindPreFlight" and code not in ("Success", "Skip"):
            return SCHEDULER_ERROR, r
        elif point == "Bind" and code not in ("Success", "Skip"):
            return SCHEDULER_ERROR, r
        elif point == "Reject" and r.get("delivered"):
            return UNSCHEDULABLE, r
        elif point in ("extender.filter", "extender.bind") and _extender_error_decides(run, pod, attempt, r):
            return SCHEDULER_ERROR, r
    if bad_scores:
        return SCHEDULER_ERROR, records[-1]
    if prefilter_rejected is not None and all(p in PROBE_NAMES for p in run.plugins_at(pod, "preFilter")):
        return UNSCHEDULABLE, prefilter_rejected
    return None


def backoff_kind(run: Run, pod: str, attempt: int) -> str | None:
    """'error' when the attempt's failure sends the pod to error backoff (no rejector plugin: errors,
    and PreBind or Bind rejections after the queue let go of the pod), 'rejected' when plugins
    rejected it, None when no record decides."""
    decided = classify(run, pod, attempt)
    if decided is None:
        return None
    reason, record = decided
    return "error" if reason == SCHEDULER_ERROR or record["point"] in ("PreBind", "Bind") else "rejected"


def _extender_error_decides(run: Run, pod: str, attempt: int, r: Record) -> bool:
    """A non-ignorable extender's error fails the attempt, except a filter error on the nominated node
    alone, which upstream only logs."""
    if r.get("code") != "Error" or ignorable(run, str(r.get("extender", ""))):
        return False
    single = r["point"] == "extender.filter" and len(r.get("nodes") or ()) < 2 and len(run.node_names) > 1
    return not (single and may_be_nominated(run, pod, attempt))


@invariant("condition-classification",
           "The PodScheduled reason follows the first deciding status of the pod's last attempt: errors, and "
           "rejections at PreScore or Score, give SchedulerError; rejections at PreFilter, Filter (no feasible "
           "node), Reserve, Permit, PreBind and Bind give Unschedulable; without a traced error no SchedulerError.",
           "schedule_one.go handleSchedulingFailure; framework.go Run* (spec §1.2, §3.1, §11.13)",
           situation=Situation(
               {p: ["Probe0"] for p in ("preFilter", "filter", "preScore", "reserve", "permit", "preBind", "bind")},
               condition, min_nodes=2),
           focus={"points": ("PreFilter", "PreScore", "Score", "Reserve", "Permit", "PreBind", "Bind"),
                                 "default_plugins": False, "max_pods": 6},
           rules=("code-matrix-prefilter", "code-matrix-filter", "code-matrix-prescore-score",
                  "code-matrix-reserve-permit", "legal-codes", "prefilter-rejection-no-filter",
                  "add-remove-pod-error", "filter-error-fails-cycle", "postfilter-does-not-schedule",
                  "prescore-error", "score-error", "preflight-failure", "condition-reason", "all-bind-skip",
                  "status-patch-on-change"))
def condition_classification(run: Run) -> None:
    for pod in run.live_pods:
        result = run.outcome.pods.get(pod)
        if result is None or result.phase not in ("unschedulable", "error") or not result.condition:
            continue
        attempt = last_attempt_seen(run, pod)
        decided = classify(run, pod, attempt) if attempt is not None else None
        reason = result.condition.get("reason")
        if decided is None:
            if attempt is not None and _fully_traced(run, pod):
                run.exercise()
                errors = [r for r in run.extender_records(pod, attempt=attempt) if r.get("code") == "Error"]
                if reason == SCHEDULER_ERROR and not errors:
                    raise run.violation(f"attempt {attempt} ended with SchedulerError but "
                                        "no plugin or extender of the pod's profile failed in it", pod=pod,
                                        expected="Unschedulable, or an error in the trace", actual=reason,
                                        records=tuple(run.probe_records(pod, attempt)[-6:]))
            continue
        run.exercise()
        expected, record = decided
        if reason != expected:
            raise run.violation(f"attempt {attempt} ended at {record['point']} "
                                f"({record.get('code')}) but the condition reason is {reason}", pod=pod,
                                plugin=str(record.get("plugin") or record.get("extender", "")),
                                status=str(record.get("code", "")), expected=expected, actual=reason, records=(record,))


# Plugins that never fail a pod in the generated scenarios, besides probes (every call traced).
_QUIET = {"PrioritySort", "DefaultBinder"}
_POINTS = ("preEnqueue", "preFilter", "filter", "postFilter", "preScore", "score", "reserve", "permit", "preBind",
           "bind", "postBind")


def _fully_traced(run: Run, pod: str) -> bool:
    """Every plugin of the pod's profile that could fail it is a probe: an error must show in the trace."""
    return all(p in PROBE_NAMES or p in _QUIET for point in _POINTS for p in run.plugins_at(pod, point))


# --- fit-error-message --------------------------------------------------------------------------

def fit_error_head(num_all_nodes: int, reasons: Counter, prefilter_msg: str = "") -> str:
    """`FitError.Error()` without the PostFilter part: the PreFilter message, else the sorted histogram."""
    msg = f"0/{num_all_nodes} nodes are available:"
    if prefilter_msg:
        return f"{msg} {prefilter_msg}."
    histogram = sorted(f"{count} {reason}" for reason, count in reasons.items())
    return f"{msg} {', '.join(histogram)}." if histogram else msg


def expected_fit_error(run: Run, pod: str, attempt: int) -> tuple[str, str | None] | None:
    """(head, PostFilter message or None when untraced) of the FitError the attempt must end with;
    None when it did not end in one, or when plugins the trace cannot see decided it."""
    records = run.probe_records(pod, attempt)
    if any(r["point"] in PAST_FILTERING for r in records):
        rejection = _reserve_or_permit_rejection(records)
        return (fit_error_head(1, Counter(rejection.get("reasons") or ())), "") if rejection else None
    head = _filtering_head(run, pod, attempt, records)
    return None if head is None else (head, _postfilter_message(run, pod, records))


def _reserve_or_permit_rejection(records: list[Record]) -> Record | None:
    """A Reserve or Permit rejection fails the attempt with a one-node FitError for the chosen node."""
    for point in ("Reserve", "Permit"):
        for r in (x for x in records if x["point"] == point):
            if r.get("code") in REJECTIONS:
                return r
            if r.get("code") not in ("Success", "Wait"):
                return None
    return None


def _filtering_head(run: Run, pod: str, attempt: int, records: list[Record]) -> str | None:
    statuses = _node_statuses(run, pod, attempt, records)
    if statuses is None:
        return None
    n = len(run.node_names)
    counts = Counter(reason for reasons in statuses.values() for reason in reasons)
    if not all(p in PROBE_NAMES for p in run.plugins_at(pod, "preFilter")):
        return fit_error_head(n, counts) if set(statuses) == set(run.node_names) else None
    verdict = _prefilter_verdict([r for r in records if r["point"] == "PreFilter"])
    if verdict is None:
        return None
    rejected, message, allowed, with_nodes = verdict
    if rejected:
        return fit_error_head(n, Counter(), message) if not statuses else None
    candidates = set(run.node_names) if allowed is None else set(run.node_names) & allowed
    if not candidates <= set(statuses):
        return None  # a candidate passed, or plugins the trace cannot see rejected it
    if allowed is not None:
        counts[f"node(s) didn't satisfy plugin(s) [{' '.join(sorted(with_nodes))}]"] += n - len(statuses)
    return fit_error_head(n, +counts)


def _node_statuses(run: Run, pod: str, attempt: int, records: list[Record]) -> dict[str, tuple[str, ...]] | None:
    """Node -> reasons of the nodes rejected by a probe Filter (its first rejection) or an extender
    filter answer; None when an error may have ended the attempt instead."""
    statuses: dict[str, tuple[str, ...]] = {}
    for r in filtering_phase(run, pod, attempt):
        if r.get("code") in REJECTIONS:
            statuses.setdefault(r["node"], tuple(r.get("reasons") or ()))
        elif r.get("code") != "Success":
            return None
    if any(r["point"] in ("AddPod", "RemovePod") and r.get("code") != "Success" for r in records):
        return None
    for r in run.extender_records(pod, "filter", attempt):
        if r.get("code") != "Success":
            if not ignorable(run, str(r.get("extender", ""))):
                return None
            continue
        unresolvable = r.get("unresolvable") or {}
        statuses.update((node, (msg,)) for node, msg in (r.get("failed") or {}).items() if node not in unresolvable)
        statuses.update((node, (msg,)) for node, msg in unresolvable.items())
    return statuses


def _prefilter_verdict(records: Iterable[Record]) -> tuple[bool, str, set[str] | None, set[str]] | None:
    """Replays RunPreFilterPlugins over probe records: (rejected, PreFilter message, the PreFilterResult
    intersection or None, plugins that returned a result); None when it ended in an error."""
    allowed: set[str] | None = None
    with_nodes: set[str] = set()
    unschedulable: Record | None = None
    for r in records:
        code = r.get("code")
        if code == "UnschedulableAndUnresolvable":
            return True, ", ".join(r.get("reasons") or ()), None, with_nodes
        if code == "Unschedulable":
            unschedulable = r  # upstream keeps the last one and runs the remaining plugins
        elif code == "Success" and "result" in r:
            with_nodes.add(r["plugin"])
            allowed = set(r["result"]) if allowed is None else allowed & set(r["result"])
            if not allowed:
                names = sorted(with_nodes)
                message = f"node(s) didn't satisfy plugin {names[0]}" if len(names) == 1 else \
                    f"node(s) didn't satisfy plugin(s) [{' '.join(names)}] simultaneously"
                return True, message, None, with_nodes
        elif code not in ("Success", "Skip"):
            return None
    if unschedulable is not None:
        return True, ", ".join(unschedulable.get("reasons") or ()), None, with_nodes
    return False, "", allowed, with_nodes


def _postfilter_message(run: Run, pod: str, records: list[Record]) -> str | None:
    """RunPostFilterPlugins' status message replayed over probe records; None when not all traced."""
    plugins = run.plugins_at(pod, "postFilter")
    if not plugins:
        return ""
    post = [r for r in records if r["point"] == "PostFilter"]
    if not post or not all(p in PROBE_NAMES for p in plugins):
        return None
    reasons: list[str] = []
    for r in post:
        code = r.get("code")
        if code in ("Success", "UnschedulableAndUnresolvable", "Error"):
            return ", ".join(r.get("reasons") or ())
        if code not in ("Unschedulable", "Pending"):
            return None
        reasons += r.get("reasons") or ()
    return ", ".join(reasons)


def _matches(message: str, expected: tuple[str, str | None]) -> bool:
    head, tail = expected
    if tail is None:
        return message == head or message.startswith(head + " ")
    return message == (f"{head} {tail}" if tail else head)


@invariant("fit-error-message",
           "An unschedulable pod's condition message is `0/N nodes are available: <PreFilter message or sorted "
           "reason histogram>.[ <PostFilter message>]`, N being the number of nodes (1 after Reserve or Permit).",
           "framework/types.go FitError.Error; schedule_one.go schedulingAlgorithm (spec §3.2, §11.20)",
           situation=Situation(
               {"preFilter": ["Probe2"], "filter": ["Probe0"], "postFilter": ["Probe1"], "reserve": ["Probe2"],
                "permit": ["Probe2"]}, fit_error, min_nodes=2),
           focus={"points": ("PreFilter", "Filter", "PostFilter", "Reserve", "Permit"), "extenders": 1,
                          "default_plugins": False, "max_pods": 6},
           rules=("prefilter-result-intersection", "prefilter-rejection-no-filter", "postfilter-does-not-schedule",
                  "fit-error-message", "no-nodes-available", "condition-message-whole",
                  "extender-unresolvable-precedence"))
def fit_error_message(run: Run) -> None:
    for pod in run.live_pods:
        result = run.outcome.pods.get(pod)
        if result is None or result.phase != "unschedulable" or not result.condition:
            continue
        message = str(result.condition.get("message", ""))
        if not run.node_names:
            run.exercise()
            if message != NO_NODES_AVAILABLE_ERROR:
                raise run.violation("with no nodes the message is not ErrNoNodesAvailable",
                                    pod=pod, expected=NO_NODES_AVAILABLE_ERROR, actual=message)
            continue
        attempt = last_attempt_seen(run, pod)
        expected = expected_fit_error(run, pod, attempt) if attempt is not None else None
        if expected is not None:
            run.exercise()
        if expected is None or _matches(message, expected):
            continue
        # A real-time backend may report a pod while its next attempt is still in flight.
        if "virtual-time" not in run.capabilities and attempt > 1:
            previous = expected_fit_error(run, pod, attempt - 1)
            if previous is not None and _matches(message, previous):
                continue
        want = expected[0] + (f" {expected[1]}" if expected[1] else "" if expected[1] is not None else " ...")
        raise run.violation(f"attempt {attempt}'s FitError message is wrong", pod=pod,
                            expected=want, actual=message, records=tuple(run.probe_records(pod, attempt)[-6:]))
