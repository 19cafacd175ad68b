"""The scheduling queue: which pod's first attempt starts first."""

from __future__ import annotations

from .attempts import traced_from_start
from .base import Violation, invariant
from .run import Record, Run

# Points a scheduling cycle (not a binding cycle) calls; binding cycles overlap other pods' cycles.
SCHEDULING_POINTS = ("PreFilter", "AddPod", "RemovePod", "Filter", "PostFilter", "PreScore", "Score",
                     "NormalizeScore", "Reserve", "Permit")


def first_attempt_start(run: Run, pod: str) -> Record | None:
    """The first record of the pod's first scheduling cycle."""
    return next((r for r in run.records(pod, 1) if r["point"] in SCHEDULING_POINTS), None)


def admitted_at_start(run: Run, pod: str) -> bool:
    """Not held back before its first attempt: no scheduling gates, no PreEnqueue probe said no."""
    if run.pod_objects[pod].scheduling_gates:
        return False
    return all(r.get("code") == "Success" for r in run.records(pod, 0, "PreEnqueue"))


@invariant("queue-priority-order",
           "Pods in activeQ together at the start begin their first attempts by priority (higher first), "
           "then creation order.",
           "queuesort/priority_sort.go Less; backend/queue/scheduling_queue.go Pop (spec §2.2, §11.14)")
def queue_priority_order(run: Run) -> None:
    started = []
    for index, pod in enumerate(run.pods):
        if not traced_from_start(run, pod) or not admitted_at_start(run, pod):
            continue
        record = first_attempt_start(run, pod)
        if record is not None:
            started.append((-run.pod_objects[pod].effective_priority, index, pod, record))
    started.sort(key=lambda x: x[:2])
    for earlier, later in zip(started, started[1:]):
        if later[3]["seq"] < earlier[3]["seq"]:
            raise Violation("queue-priority-order", f"{later[2]} (priority {-later[0]}) started its first attempt "
                            f"before {earlier[2]} (priority {-earlier[0]}, created earlier or of higher priority)",
                            pod=later[2], expected=[earlier[2], later[2]], actual=[later[2], earlier[2]],
                            records=(later[3], earlier[3]))
