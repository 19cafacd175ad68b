"""Preemption: which pods the scheduler may delete, and for whom.

`deleted` names victims but not their preemptor, so both checks look for a workload pod that could
have been it: one of higher priority that may preempt (preemptionPolicy is not Never).
"""

from __future__ import annotations

import re

from reference import codec
from reference.plugins.default_preemption import MSG_FOUND
from reference.plugins.preemption.executor import PREEMPTED_MESSAGE
from reference.types import Pod

from ..recipes.constrained import Preempting
from ..recipes.deletion import PreemptedWhileWaiting
from ..recipes.situations import Either, EqualPriorityPreemption
from .attempts import failure_messages
from .base import invariant
from .faults import fired
from .judge import Judge
from .liveness import (DECIDING, REFERENCE_MAX_ATTEMPTS, Nominations, feasible_nodes, final_pods, monotone,
                       stock_reasons)
from .run import Run

# DefaultPreemption's PostFilter message, in the FitError's (preemption/preemption.go Preempt).
_PREEMPTING = re.compile(MSG_FOUND.format("(.+?)", r"(\d+)"))


def known_pods(run: Run) -> dict[str, Pod]:
    """Pre-bound and workload pods by key."""
    manifests = [*run.scenario.pods, *(m for state in run.cluster.states[1:] for m in
                                       state.objects.values() if m["kind"] == "Pod")]
    pods = {p.key: p for p in (codec.pod_from_manifest(m) for m in manifests) if p.node_name}
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
           requires=("preemption",),
           situation=EqualPriorityPreemption(),
           rules=("victims-lower-priority",))
def preemption_evicts_lower_priority_only(run: Run) -> None:
    for victim, node, there, known in victims(run):
        run.exercise()
        above = preemptors_above(run, victim)
        # A preemptor bound on another node (asynchronous preemption) no longer holds the victim's room: any pod may
        # end there.
        moved_on = any(b["node"] != node for p in above for b in run.bound_in(p))
        if above and (not there or not known or moved_on or any(p in above for p in there)):
            continue
        priorities = {p: run.pod_objects[p].effective_priority for p in (there or run.pod_objects)}
        raise run.violation(f"{victim.key} (priority "
                            f"{victim.effective_priority}) was deleted on {node} but "
                            f"{'no workload pod that may preempt' if not above else 'no pod ending there'} has a higher "
                            "priority", pod=victim.key, expected=f"priority below one of {priorities}",
                            actual=victim.effective_priority)


def failed_attempts(run: Run, pod: str) -> int:
    """How many of the pod's attempts failed, each able to preempt on one node: all of them, but the one that
    placed it (bound or waiting at Permit). Without the queue's counter (or after a restart fault, which starts
    a new queue counting afresh): as many as there are nodes."""
    result = run.outcome.pods.get(pod)
    if "queue-attempts" not in run.capabilities or result is None or fired(run, "restart"):
        return len(run.node_names) or 1
    return max(result.attempts - (result.phase in ("bound", "waiting")), 0)


def deleted_by_node(run: Run) -> dict[str, list[Pod]]:
    """The deleted pods whose node is known, by node, in deletion order."""
    pods = known_pods(run)
    on_node: dict[str, list[Pod]] = {}
    for key in run.outcome.deleted:
        victim = pods.get(key)
        node = victim_node(run, victim) if victim is not None else ""
        if node:
            on_node.setdefault(node, []).append(victim)
    return on_node


def unaccounted_victim_nodes(run: Run) -> list[str]:
    """Nodes whose deletions no distinct failed attempt of a pod that may preempt them all accounts for.

    One attempt preempts on one node (PostFilter nominates one); a maximum bipartite matching of victim nodes to
    failed attempts leaves the nodes returned here over."""
    on_node = deleted_by_node(run)
    eligible = {node: [p for p in preemptors_above(run, victims[0])
                       if all(p in preemptors_above(run, v) for v in victims[1:])]
                for node, victims in on_node.items()}
    # Kuhn's augmenting paths over attempt slots: each preemptor has one slot per failed attempt.
    slots = [(p, i) for p in sorted({p for ps in eligible.values() for p in ps}) for i in range(failed_attempts(run, p))]
    holder: dict[tuple[str, int], str] = {}

    def assign(node: str, seen: set[tuple[str, int]]) -> bool:
        for slot in (s for s in slots if s[0] in eligible[node] and s not in seen):
            seen.add(slot)
            if slot not in holder or assign(holder[slot], seen):
                holder[slot] = node
                return True
        return False

    return [node for node in sorted(on_node) if not assign(node, set())]


@invariant("preemptor-nominated",
           "Every node where the scheduler deleted pods is accounted for by its own failed attempt of a workload pod "
           "that may preempt them all (one attempt preempts on one node).",
           "schedule_one.go handleSchedulingFailure (NominatingInfo); preemption/preemption.go Preempt, "
           "executor.go prepareCandidateAsync (spec §2.6)", requires=("preemption",),
           rules=("one-node-per-preemption",))
def preemptor_nominated(run: Run) -> None:
    # Asynchronous preemption (on by default since 1.33) lets the preemptor bind elsewhere: once its own attempt
    # has preempted, a retry may run before its victims' deletions reach the cache while another node freed up.
    # So the preemptor need not end on the victims' node; only the count of preempting attempts is certain.
    if run.outcome.deleted:
        run.exercise()
    left = unaccounted_victim_nodes(run)
    if left:
        node = left[0]
        deleted = [p.key for p in deleted_by_node(run)[node]]
        candidates = {p: failed_attempts(run, p) for p in run.pod_objects}
        raise run.violation(f"pods were deleted on {node} ({', '.join(deleted)}) but no failed "
                            "attempt of a pod that may preempt them is left to account for it", pod=deleted[0],
                            expected="one failed attempt of a higher-priority pod per node with deletions",
                            actual={"nodes with deletions": sorted(deleted_by_node(run)),
                                "failed attempts per workload pod": candidates})


def may_preempt(judge: Judge, key: str) -> bool:
    """Whether the pod's profile preempts with DefaultPreemption and its preemptionPolicy lets it."""
    return (judge.run.pod_objects[key].preemption_policy != "Never"
            and "DefaultPreemption" in judge.plugins_at(key, "postFilter"))


def room_by_preemption(judge: Judge, key: str) -> list[str]:
    """The nodes where the pod's stock plugins accept it on the final state once every pod of lower priority
    on that node is gone (what SelectVictimsOnNode tries first)."""
    final, priority = final_pods(judge), judge.run.pod_objects[key].effective_priority
    return [node for node in judge.nodes if node in feasible_nodes(judge, key, Nominations({}), [
        p for p in final if p.node_name != node or p.effective_priority >= priority])]


@invariant("preemptor-finds-room",
           "In a run where no pod was deleted, no pod that may preempt is left unschedulable while some "
           "node would take it (its stock Filter plugins accept it) once every pod of lower priority there "
           "is gone.",
           "preemption/preemption.go Preempt, findCandidates; defaultpreemption/default_preemption.go "
           "SelectVictimsOnNode, PodEligibleToPreemptOthers (spec §2.6)",
           requires=("preemption", "virtual-time"),
           # Nodes full of lower-priority pods, where the preemptor must evict, and of its equals, where no
           # eviction can make room and it stays pending.
           situation=Either((Preempting(), EqualPriorityPreemption())),
           rules=("preemption-policy-never", "victims-lower-priority"))
def preemptor_finds_room(run: Run) -> None:
    # Without deletions no DefaultPreemption nominated anyone, and without probes nothing else did: the
    # final state holds every pod each attempt saw (only bindings were added), and the pods judged need no
    # other pod gone, so a node with room at the end had room at their last attempt.
    judge = Judge.timeless(run)
    if judge is None or run.outcome.deleted or run.outcome.faults or judge.config.extenders or judge.floating:
        return
    if any(r.phase == "waiting" or r.nominated_node_name for r in run.outcome.pods.values()) or not all(
            judge.stock_only(k, DECIDING) for k in run.pod_objects):
        return
    for key in run.live_pods:
        result = run.outcome.pods.get(key)
        if result is None or result.phase != "unschedulable" or key in judge.placed:
            continue
        if not may_preempt(judge, key):
            continue
        if not judge.judgeable(key) or judge.framework(key) is None or not monotone(judge, key):
            continue
        if not stock_reasons(str((result.condition or {}).get("message", ""))):
            continue
        if run.outcome.backend == "reference" and result.attempts > REFERENCE_MAX_ATTEMPTS:
            continue
        run.exercise()
        room = room_by_preemption(judge, key)
        if room:
            raise run.violation(f"{key} (priority {run.pod_objects[key].effective_priority}) was left "
                                "unschedulable without preempting, although evicting the pods of lower "
                                f"priority on {room[0]} would make room", pod=key, plugin="DefaultPreemption",
                                expected=f"a preemption (on one of {', '.join(room)})",
                                actual=(result.condition or {}).get("message", result.phase))


def preempted_on(run: Run, pod: str) -> dict[str, int]:
    """Node -> the most victims one of the pod's preemptions there named (its FailedScheduling messages)."""
    out: dict[str, int] = {}
    for message in failure_messages(run, pod):
        for node, count in _PREEMPTING.findall(message):
            out[node] = max(out.get(node, 0), int(count))
    return out


def _alone_on(run: Run, pod: str, node: str) -> bool:
    """Whether no other workload pod was bound, nominated or preempting on the node."""
    for other in (k for k in run.pod_objects if k != pod):
        result = run.outcome.pods.get(other)
        if any(b.get("node") == node for b in run.bound_in(other)) or node in preempted_on(run, other) or (
                result is not None and result.nominated_node_name == node) or any(
                r.get("nominate") == node for r in run.outcome.calls(pod=other, point="PostFilter")):
            return False
    return True


@invariant("preemption-victims-suffice",
           "One preemption's victims make room: where one pod alone preempted (no other workload pod may "
           "preempt the victims, nor was bound, nominated or preempting there), it deleted no more pods "
           "there than its largest preemption there named.",
           "defaultpreemption/default_preemption.go SelectVictimsOnNode (a victim is reprieved only if the "
           "preemptor still fits); preemption/preemption.go Preempt (spec §2.6)", requires=("preemption",),
           situation=Preempting(),
           rules=("victims-minimal",))
def preemption_victims_suffice(run: Run) -> None:
    if run.outcome.timeline or run.outcome.faults or any(e.preempt_verb for e in run.config.extenders):
        return
    for node, victims in deleted_by_node(run).items():
        able = {p for v in victims for p in preemptors_above(run, v)}
        if len(able) != 1:
            continue
        pod = next(iter(able))
        named = preempted_on(run, pod).get(node)
        if named is None or not _alone_on(run, pod, node):
            continue
        run.exercise()
        if len(victims) > named:
            raise run.violation(f"{pod} deleted {len(victims)} pods on {node} but none of its preemptions "
                                f"there named more than {named}: the first one's victims did not make room",
                                pod=pod, plugin="DefaultPreemption", expected=f"at most {named} deleted",
                                actual=[v.key for v in victims])


@invariant("preemption-evicts-named-victims",
           "A preemption that named victims on a node evicts there: some pod of lower priority than the "
           "preemptor on that node is deleted (without timeline events, faults, preempting extenders or pods "
           "waiting at Permit, whom a preemption rejects instead).",
           "preemption/preemption.go Preempt, executor.go prepareCandidateAsync (spec §2.6)",
           requires=("preemption",), situation=Preempting(), rules=("one-node-per-preemption",))
def preemption_evicts_named_victims(run: Run) -> None:
    if run.outcome.timeline or run.outcome.faults or any(e.preempt_verb for e in run.config.extenders) or any(
            r.get("code") == "Wait" for r in run.outcome.calls(point="Permit")):
        return
    deleted = deleted_by_node(run)
    for pod, preemptor in run.pod_objects.items():
        for node, named in preempted_on(run, pod).items():
            if not named:
                continue
            run.exercise()
            if not any(v.effective_priority < preemptor.effective_priority for v in deleted.get(node, ())):
                raise run.violation(f"{pod}'s preemption named {named} victims on {node}, but no pod of lower "
                                    "priority there was deleted", pod=pod, plugin="DefaultPreemption",
                                    expected=f"victims deleted on {node}",
                                    actual=[v.key for v in deleted.get(node, ())])


@invariant("deleted-victims-were-bound",
           "Preemption deletes a victim waiting at Permit (assumed, not bound) only after rejecting it in memory: "
           "every pod the scheduler deleted had been bound, or its wait had ended with preemption's status "
           "('preempted'); a later preemption may find it still assumed, no longer waiting, and delete it.",
           "preemption/executor.go PreemptPod (GetWaitingPod, then Preempt; else the API delete); "
           "PT TestPreemptWithPermitPlugin (spec §2.6)",
           requires=("preemption", "virtual-time"), situation=PreemptedWhileWaiting(),
           rules=("waiting-victim-rejected",))
def deleted_victims_were_bound(run: Run) -> None:
    pods = known_pods(run)
    for key in run.outcome.deleted:
        victim = pods.get(key)
        if victim is None or victim.node_name or run.bound_in(key):
            continue
        run.exercise()
        if not any(PREEMPTED_MESSAGE in m for m in failure_messages(run, key)):
            raise run.violation(f"the scheduler deleted {key}, which was never bound nor rejected in memory "
                                "first: a victim waiting at Permit is rejected, not deleted", pod=key,
                                plugin="DefaultPreemption", expected="rejected (and left pending)",
                                actual="deleted")
