"""When a pod's next attempt must come at the latest: the queue's timers bound a retry from above (queue.py
bounds it from below)."""

from __future__ import annotations

from ..recipes.first_pod import retried
from ..recipes.situations import Situation
from .attempts import traced_from_start
from .base import invariant
from .faults import fired_between
from .outcome import backoff_kind
from .queue import TIME_TOLERANCE, _failure_time, attempt_start
from .run import Run

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
    if any(lo - TIME_TOLERANCE <= float(e.get("at", 0.0)) <= hi + TIME_TOLERANCE for e in run.outcome.timeline):
        return True
    refused = [r for r in run.records(pod, point="PreEnqueue") if lo - TIME_TOLERANCE <= r["t"] <= hi
               and r.get("code") != "Success"]
    return bool(refused) or fired_between(run, lo - TIME_TOLERANCE, hi + TIME_TOLERANCE)


@invariant("error-backoff-bounded",
           "After k consecutive attempts that failed with an error, a pod that is attempted again starts its "
           "next attempt at most min(podInitialBackoffSeconds x 2^(k-1), podMaxBackoffSeconds) + 1 s after the "
           "failure (the backoff's end, aligned down to the 1-second ordering window, is released at the next "
           "window), unless a timeline event, a fault or a PreEnqueue refusal came between.",
           "backend/queue/backoff_queue.go getBackoffTime, calculateBackoffDuration, alignToWindow, "
           "isEntityBackingoff, waitUntilAlignedWithOrderingWindow; scheduling_queue.go Run, Pop, "
           "AddUnschedulableIfNotPresent (spec §6.3)",
           requires=("virtual-time",),
           situation=Situation({"preFilter": ["Probe0"], "filter": ["Probe0"], "reserve": ["Probe0"]}, retried),
           rules=("error-backoff",))
def error_backoff_bounded(run: Run) -> None:
    initial, maximum = run.config.pod_initial_backoff_seconds, run.config.pod_max_backoff_seconds
    for pod in run.live_pods:
        if not traced_from_start(run, pod):
            continue
        attempts = run.attempts(pod)
        kinds: list[str | None] = []
        for attempt, following in zip(attempts, attempts[1:]):
            kinds.append(backoff_kind(run, pod, attempt))
            count = consecutive_errors(kinds)
            start = attempt_start(run, pod, following)
            if not count or start is None:
                continue
            failed = _failure_time(run, pod, attempt)
            if fired_between(run, failed, start["t"], "restart"):
                kinds = []  # the new scheduler's queue knows no backoff
                continue
            if _interrupted(run, pod, failed, start["t"]):
                continue
            run.exercise()
            latest = min(initial * 2 ** (count - 1), maximum) + ORDERING_WINDOW
            if start["t"] - failed > latest + TIME_TOLERANCE:
                raise run.violation(f"attempt {following} started {start['t'] - failed:g}s after attempt "
                                    f"{attempt} failed with its error number {count} in a row", pod=pod,
                                    expected=f"<= {latest:g}s", actual=f"{start['t'] - failed:g}s",
                                    records=(start,))
