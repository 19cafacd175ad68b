"""Pods the timeline deletes or creates again: a deleted pod is let go at once (a waiting one rejected, none
requeued), and a pod created again under a deleted pod's name is a new pod, scheduled afresh."""

from __future__ import annotations

from reference.probe import PROBE_NAMES
from reference.scenario import pod_key
from reference.scheduler.queue import DEFAULT_MAX_BACKOFF

from ..recipes.deletion import DeletedOrRecreated
from .base import invariant
from .queue import TIME_TOLERANCE
from .run import Run

# A probe's Permit signal for a pod no longer waiting is dropped, but may still be recorded (undelivered).
_SIGNALS = ("Allow", "Reject")


def _lifetimes(run: Run) -> dict[str, list[tuple[float, float]]]:
    """Pod key -> the spans [deleted, created again) in which the pod did not exist, from the applied
    timeline events (the last span open-ended)."""
    cluster, out = run.cluster, {}
    for k, event in enumerate(cluster.applied):
        if event.kind != "Pod":
            continue
        at = cluster.times[k + 1]
        key = pod_key(event.object) if event.op == "create" and event.object else event.key
        spans = out.setdefault(key, [])
        if event.op == "delete":
            spans.append((at, float("inf")))
        elif event.op == "create" and spans and spans[-1][1] == float("inf"):
            spans[-1] = (spans[-1][0], at)
    return out


@invariant("deleted-pod-left-alone",
           "Once the timeline deleted a pod, the scheduler makes no plugin call for it until a pod of that "
           "name is created again: a pod waiting at Permit is rejected at once (its Unreserve at the "
           "deletion's time), and a pod gone during its attempt is not requeued.",
           "eventhandlers.go deletePodFromSchedulingQueue (RejectWaitingPod, SchedulingQueue.Delete); "
           "schedule_one.go handleSchedulingFailure (a pod no longer in the informer's cache is not "
           "requeued) (spec §2.13, §3.2)",
           requires=("virtual-time",), situation=DeletedOrRecreated(),
           rules=("deleted-waiting-pod", "failed-pod-gone-not-requeued"))
def deleted_pod_left_alone(run: Run) -> None:
    if not run.outcome.timeline:
        return
    for key, spans in _lifetimes(run).items():
        records = [r for r in run.records(key) if r["point"] not in _SIGNALS or r.get("delivered")]
        for gone, back in spans:
            if not any(r["t"] <= gone + TIME_TOLERANCE for r in records):
                continue  # never traced before its deletion
            run.exercise()
            late = [r for r in records if gone + TIME_TOLERANCE < r["t"] < back - TIME_TOLERANCE]
            if late:
                first = late[0]
                raise run.violation(f"{key} was deleted at {gone:g}s, but the scheduler called "
                                    f"{first['plugin']} {first['point']} for it at {first['t']:g}s", pod=key,
                                    plugin=first["plugin"], expected="no call after the deletion",
                                    actual=f"{first['point']} at {first['t']:g}s", records=tuple(late[:3]))


@invariant("recreated-pod-scheduled",
           "A pod the timeline creates again under the name of a pod it deleted is a new pod: unless gated "
           "it is attempted, so it does not end pending without a binding made after its creation.",
           "eventhandlers.go addPodToSchedulingQueue (a new pod, its own UID); the binding registry checks "
           "only that the pod is unbound (spec §2.11)",
           requires=("virtual-time",), situation=DeletedOrRecreated(), rules=("bound-once",))
def recreated_pod_scheduled(run: Run) -> None:
    if not run.outcome.timeline:
        return
    for key, spans in _lifetimes(run).items():
        created = [back for _, back in spans if back != float("inf")]
        result = run.outcome.pods.get(key)
        if not created or result is None or created[-1] + DEFAULT_MAX_BACKOFF + 1 >= run.scenario.deadline:
            continue
        if any(p in PROBE_NAMES for point in ("preEnqueue", "bind") for p in run.plugins_at(key, point)):
            continue  # a probe may hold it at PreEnqueue, or skip binding it
        manifest = run.cluster.pod(run.cluster.final(), key) or {}
        if (manifest.get("spec") or {}).get("schedulingGates"):
            continue
        run.exercise()
        if result.phase == "pending" and not any(b.get("t", -1.0) >= created[-1] - TIME_TOLERANCE
                                                 for b in run.bound_in(key)):
            raise run.violation(f"{key}, created again at {created[-1]:g}s, ended pending, never bound since",
                                pod=key, expected="attempted (bound, or unschedulable with a condition)",
                                actual=result.phase)
