"""Preemption: which pods the scheduler may delete, and for whom.

`deleted` names victims but not their preemptor, so both checks look for a workload pod that could
have been it: one of higher priority that may preempt (preemptionPolicy is not Never).
"""

from __future__ import annotations

from reference import codec
from reference.types import Pod

from .attempts import failure_messages
from .base import Violation, invariant
from .run import Run


def known_pods(run: Run) -> dict[str, Pod]:
    """Pre-bound and workload pods by key."""
    pods = {p.key: p for p in (codec.pod_from_manifest(m) for m in run.scenario.pods)}
    pods.update(run.pod_objects)
    return pods


def victim_node(run: Run, victim: Pod) -> str:
    """Where the victim ran: its scenario node, else the node it was last bound to."""
    bound = run.bound_in(victim.key)
    return victim.node_name or (bound[-1]["node"] if bound else "")


def preemptors_above(run: Run, victim: Pod) -> list[str]:
    """Workload pods that may preempt the victim: higher priority, preemptionPolicy not Never."""
    return [k for k, p in run.pod_objects.items() if k != victim.key and p.preemption_policy != "Never"
            and p.effective_priority > victim.effective_priority]


def _ends_at(run: Run, pod: str, node: str) -> bool:
    result = run.outcome.pods.get(pod)
    return any(b["node"] == node for b in run.bound_in(pod)) or bool(
        pod in run.live_pods and result is not None and result.nominated_node_name == node)


def _settled(run: Run, pod: str) -> bool:
    """Where the pod ended says where it was nominated: it is bound or nominated, not deleted, and
    never failed in a way that clears a nomination (every failure was a FitError over all nodes)."""
    result = run.outcome.pods.get(pod)
    if pod not in run.live_pods or result is None or not (run.bound_in(pod) or result.nominated_node_name):
        return False
    prefix = f"0/{len(run.node_names)} nodes are available"
    return all(m.startswith(prefix) for m in failure_messages(run, pod))


def victims(run: Run):
    """(victim, its node, workload pods ending nominated to or bound on that node, whether every
    possible preemptor's end is known) for each deleted pod whose node is known.

    The preemptor is nominated to the victims' node and, once they are gone, is bound there unless a
    pod of even higher priority took the room first (then that pod ends there). Only a later failure
    that clears the nomination (not a FitError) can move it elsewhere, so conclusions need every pod
    that could have preempted to be `_settled`."""
    pods = known_pods(run)
    for key in run.outcome.deleted:
        victim = pods.get(key)
        node = victim_node(run, victim) if victim is not None else ""
        if node:
            there = [p for p in run.pod_objects if p != key and _ends_at(run, p, node)]
            yield victim, node, there, all(_settled(run, p) for p in preemptors_above(run, victim))


@invariant("preemption-evicts-lower-priority-only",
           "Every pod the scheduler deleted has a lower priority than some workload pod that may preempt, and than "
           "one of the pods that end nominated to or bound on its node.",
           "preemption/preemption.go SelectVictimsOnNode, PodEligibleToPreemptOthers (spec §2.6)",
           requires=("preemption",))
def preemption_evicts_lower_priority_only(run: Run) -> None:
    for victim, node, there, known in victims(run):
        above = preemptors_above(run, victim)
        if above and (not there or not known or any(p in above for p in there)):
            continue
        priorities = {p: run.pod_objects[p].effective_priority for p in (there or run.pod_objects)}
        raise Violation("preemption-evicts-lower-priority-only", f"{victim.key} (priority "
                        f"{victim.effective_priority}) was deleted on {node} but "
                        f"{'no workload pod that may preempt' if not above else 'no pod ending there'} has a higher "
                        "priority", pod=victim.key, expected=f"priority below one of {priorities}",
                        actual=victim.effective_priority)


@invariant("preemptor-nominated",
           "When the scheduler deleted a pod on a node, some workload pod ends nominated to or bound on that node.",
           "schedule_one.go handleSchedulingFailure (NominatingInfo); preemption/preemption.go Preempt "
           "(spec §2.6)", requires=("preemption",))
def preemptor_nominated(run: Run) -> None:
    for victim, node, there, known in victims(run):
        if there or not known:
            continue
        above = preemptors_above(run, victim)
        raise Violation("preemptor-nominated", f"{victim.key} was deleted on {node} but no pod ends nominated to or "
                        "bound on it", pod=victim.key, expected=f"one of {above} nominated to or bound on {node}",
                        actual={p: run.outcome.pods[p].node or run.outcome.pods[p].nominated_node_name for p in above})
