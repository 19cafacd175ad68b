"""Liveness at quiescence: a pod the stock Filter plugins accept somewhere is not left pending.

Judged on the final cluster state with the reference's own plugins and the profile's args, so it
catches lost wakeups and wrong requeueing in any scheduler without a probe. It says nothing (could
not judge) where the final state does not decide: a profile with plugins or extenders the
reference cannot evaluate (probes, a user's plugins: their answers are scripted or unknown), a pod
held at Permit somewhere (its node is unknown), a pod the reference does not model, or a reference
run that stopped retrying the pod (`max_attempts`). After preemption only nominated pods are judged:
a pod rejected because of another's nomination has no event to wake it when that nomination moves.

On a wall-clock backend (a cluster) the run ends once nothing changed for a moment, which may be
while a woken pod waits out its backoff. There only pods that needed no wakeup are judged: pods
whose filters only get stricter as pods are added, in a run where no pod left the cluster (no
preemption, no binding that could fail after Reserve). Every state such a pod was tried in held a
subset of the final pods, so fitting the final state means it fitted at its first attempt.
"""

from __future__ import annotations

from reference.cycle_state import CycleState
from reference.nodeinfo import PodInfo
from reference.plugins import inter_pod_affinity, node_affinity, node_name, node_ports, \
    node_unschedulable, pod_topology_spread, taint_toleration
from reference.plugins.node_resources_fit_request import ERR_REASON_TOO_MANY_PODS
from reference.plugins.pod_topology_spread.common import DO_NOT_SCHEDULE
from reference.types import Pod

from ..recipes.constrained import Constrained
from .base import invariant
from .judge import Judge
from .run import Run

# Points whose plugins can keep a pod from binding.
DECIDING = ("preEnqueue", "preFilter", "filter", "postFilter", "reserve", "permit", "preBind", "bind")
REFERENCE_MAX_ATTEMPTS = 8
INSUFFICIENT = "Insufficient "  # NodeResourcesFit: "Insufficient <resource>"
STOCK_REASONS = frozenset({
    ERR_REASON_TOO_MANY_PODS, node_name.ERR_REASON, node_ports.ERR_REASON, node_unschedulable.ERR_REASON_UNSCHEDULABLE,
    taint_toleration.ERR_REASON_UNTOLERATED, node_affinity.ERR_REASON_POD, node_affinity.ERR_REASON_ENFORCED,
    node_affinity.ERR_REASON_CONFLICT, inter_pod_affinity.filtering.ERR_REASON_AFFINITY_RULES_NOT_MATCH,
    inter_pod_affinity.filtering.ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
    inter_pod_affinity.filtering.ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
    pod_topology_spread.filtering.ERR_REASON_CONSTRAINTS_NOT_MATCH,
    pod_topology_spread.filtering.ERR_REASON_NODE_LABEL_NOT_MATCH,
})  # ReferenceBackend's default: run_until_idle stops retrying a pod after that


class Nominations:
    """The nominator of the final state: unbound pods' last nominatedNodeName."""

    def __init__(self, pods: dict[str, list[PodInfo]]) -> None:
        self.pods = pods

    def nominated_pods_for_node(self, node_name: str) -> list[PodInfo]:
        return self.pods.get(node_name, [])


def stock_reasons(message: str) -> bool:
    """Whether every reason of a FitError message (`0/N nodes are available: 2 reason, ...`) is one
    the stock Filter plugins give: a reason a scheduler's own plugin gave cannot be judged."""
    head, sep, rest = message.partition(" nodes are available: ")
    if not sep or not head.startswith("0/"):
        return False
    histogram = rest.split(". ", 1)[0].rstrip(".")
    for item in histogram.split(", "):
        count, _, reason = item.partition(" ")
        reason = reason if count.isdigit() else item
        if reason not in STOCK_REASONS and not reason.startswith(INSUFFICIENT):
            return False
    return True


def monotone(judge: Judge, key: str) -> bool:
    """Whether the pod's filters only get stricter as pods are added (no required pod affinity, no hard
    spreading), so that it needs no wakeup: whatever fits the final state fitted every earlier one."""
    pod = judge.pod(key)
    if pod.affinity is not None and pod.affinity.pod_affinity is not None and pod.affinity.pod_affinity.required:
        return False
    spread = judge.filter_plugin(key, "PodTopologySpread")
    return spread is None or not spread.constraints(pod, DO_NOT_SCHEDULE)


def final_pods(judge: Judge) -> list[Pod]:
    """The pods bound at the end: the scenario's never deleted, and the workload's where they last bound."""
    return [*judge.definite, *(judge.pod(k, n) for k, n in judge.placed.items())]


def feasible_nodes(judge: Judge, pod: str, nominations: Nominations,
                   pods: list[Pod] | None = None) -> list[str]:
    """The nodes where the pod's profile's PreFilter and Filter plugins accept it on the final state (or
    next to `pods`), nominated pods of at least its priority counted, as upstream does."""
    fw = judge.framework(pod)
    snapshot = judge.snapshot(final_pods(judge) if pods is None else pods)
    fw.set_snapshot(snapshot)
    nominator, fw.nominator = fw.nominator, nominations
    try:
        state = CycleState()
        target = judge.pod(pod)
        result, status, _ = fw.run_pre_filter_plugins(state, target)
        if not status.is_success():
            return []
        names = [i.name for i in snapshot.node_info_list
                 if result is None or result.node_names is None or i.name in result.node_names]
        return [n for n in names if fw.run_filter_plugins_with_nominated_pods(
            state.clone(), target, snapshot.get(n)).is_success()]
    finally:
        fw.nominator = nominator


@invariant("schedulable-pods-bound",
           "When the scenario settles, no pod is left unschedulable that the profile's stock Filter plugins accept on "
           "some node of the final cluster state; a pod nominated to a node that still fits it ends bound.",
           "scheduling_queue.go MoveAllToActiveOrBackoffQueue and the plugins' queueing hints (EventsToRegister); "
           "schedule_one.go findNodesThatFitPod (spec §6.4)", requires=(),
           situation=Constrained("liveness"),
           rules=("liveness", "binding-failure-moves-pods"))
def schedulable_pods_bound(run: Run) -> None:
    # A changed cluster is event-wakes-pending-pod's (events.py): which events promise a retry is its rule.
    judge = Judge.timeless(run)
    if judge is None or judge.config.extenders:
        return
    if any(r.phase == "waiting" for r in run.outcome.pods.values()):
        return
    preempted = bool(run.outcome.deleted)
    wall_clock = "virtual-time" not in run.capabilities
    if wall_clock and (preempted or judge.floating):
        return
    nominated: dict[str, list[PodInfo]] = {}
    for key, result in run.outcome.pods.items():
        if key not in judge.placed and key in run.live_pods and result.nominated_node_name:
            nominated.setdefault(result.nominated_node_name, []).append(PodInfo.of(judge.pod(key)))
    nominations = Nominations(nominated)
    for key in run.live_pods:
        result = run.outcome.pods.get(key)
        if result is None or result.phase != "unschedulable" or key in judge.placed:
            continue
        if not judge.judgeable(key) or not judge.stock_only(key, DECIDING) or judge.framework(key) is None:
            continue
        if not stock_reasons(str((result.condition or {}).get("message", ""))):
            continue
        if run.outcome.backend == "reference" and result.attempts > REFERENCE_MAX_ATTEMPTS:
            continue
        if preempted and not result.nominated_node_name:
            continue
        if wall_clock and not monotone(judge, key):
            continue
        run.exercise()
        fits = feasible_nodes(judge, key, nominations)
        if fits:
            where = result.nominated_node_name if result.nominated_node_name in fits else fits[0]
            raise run.violation(f"{key} was left unschedulable although the stock Filter "
                                f"plugins accept it on {', '.join(fits)} in the final state"
                                + (f" (it is nominated to {result.nominated_node_name})"
                               if result.nominated_node_name else ""),
                                pod=key, expected=f"bound (e.g. to {where})",
                                actual=(result.condition or {}).get("message", result.phase))
