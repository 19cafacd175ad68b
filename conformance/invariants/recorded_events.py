"""Invariants on the events a scheduler records."""

from __future__ import annotations

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
