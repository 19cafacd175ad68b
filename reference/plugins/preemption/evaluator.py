"""Mirrors pkg/scheduler/framework/preemption/preemption.go and util.go (pod victims only).

GenericWorkload is off by default in v1.37.2, so every pod on a node is its own victim with its
own priority (`GetVictimsOnNode`'s non-workload path); PodGroup victims are not modelled.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Callable, Sequence

from ...cycle_state import CycleState
from ...field_errors import aggregate
from ...interfaces import NodeToStatus
from ...nodeinfo import NodeInfo, Snapshot
from ...selectors import LabelSelectorError, label_selector_as_selector
from ...status import Code, Status
from ...types import Pod, PodDisruptionBudget

MIN_INT64 = -(2**63)
MAX_INT32 = 2**31 - 1
ERR_NO_NODES = "no nodes available"


@dataclass
class Victims:
    """`extenderv1.Victims`: pods ordered by decreasing importance."""

    pods: list[Pod] = field(default_factory=list)
    num_pdb_violations: int = 0


@dataclass
class Candidate:
    name: str
    victims: Victims


# SelectVictimsOnNode(state, preemptor, node_info, potential_victims, pdbs) -> (pods, violations, status)
SelectVictims = Callable[[CycleState, Pod, NodeInfo, list[Pod], Sequence[PodDisruptionBudget]],
                         tuple[list[Pod], int, Status]]


def pod_start_time(pod: Pod) -> float:
    """`util.GetPodStartTime`: pods without a start time count as starting now, which is later than any
    start time and the same for every such pod, as on upstream's virtual clock (in a synctest bubble
    time.Now() does not move within a cycle; on a wall clock two calls differ by nanoseconds, and of two
    equal-priority pods without a start time each is "older" than the other). Never the wall clock here:
    the reference's runs must replay."""
    return pod.start_time if pod.start_time is not None else math.inf


def more_important_pod(a: Pod, b: Pod) -> bool:
    """`MoreImportantVictim` for two single-pod victims: higher priority, then older start."""
    if a.effective_priority != b.effective_priority:
        return a.effective_priority > b.effective_priority
    return pod_start_time(a) < pod_start_time(b)


def sort_by_importance(pods: list[Pod]) -> list[Pod]:
    """`sort.Slice(..., MoreImportantVictim)`: ties keep input order, as Go's insertion sort does for up to 12
    pods (pdqsort, not stable, for more)."""
    return sorted(pods, key=functools.cmp_to_key(
        lambda a, b: -1 if more_important_pod(a, b) else (1 if more_important_pod(b, a) else 0)))


def pod_terminating_by_preemption(pod: Pod) -> bool:
    """`PodTerminatingByPreemption`: deleting, and the first DisruptionTarget condition is
    True/PreemptionByScheduler."""
    if pod.deletion_timestamp is None:
        return False
    for cond in pod.conditions:
        if cond.type == "DisruptionTarget":
            return cond.status == "True" and cond.reason == "PreemptionByScheduler"
    return False


def filter_pods_with_pdb_violation(pods: Sequence[Pod], pdbs: Sequence[PodDisruptionBudget]
                                   ) -> tuple[list[tuple[Pod, int]], list[Pod]]:
    """`FilterVictimsWithPDBViolation` for single-pod victims: (violating with count, non-violating)."""
    allowed = [pdb.disruptions_allowed for pdb in pdbs]

    def violating(pod: Pod) -> bool:
        if not pod.labels:
            return False
        for i, pdb in enumerate(pdbs):
            if pdb.namespace != pod.namespace:
                continue
            try:
                selector = label_selector_as_selector(pdb.selector)
            except LabelSelectorError:
                continue  # an invalid selector matches no pod
            # A PDB with a nil or empty selector matches nothing.
            if selector.empty() or not selector.matches(pod.labels):
                continue
            # A pod in status.disruptedPods was already processed by the API server; counting it
            # again would over-decrement the budget.
            if pod.name in pdb.disrupted_pods:
                continue
            allowed[i] -= 1
            if allowed[i] < 0:
                return True
        return False

    violating_pods: list[tuple[Pod, int]] = []
    non_violating: list[Pod] = []
    for pod in pods:
        if violating(pod):
            violating_pods.append((pod, 1))
        else:
            non_violating.append(pod)
    return violating_pods, non_violating


def nodes_for_status_code(statuses: NodeToStatus, snapshot: Snapshot, code: Code) -> list[NodeInfo]:
    """`NodeToStatus.NodesForStatusCode`; a missing absent status counts as Success (Go's nil status)."""
    absent = statuses.absent_nodes_status
    absent_code = absent.code if absent is not None else Code.SUCCESS
    if absent_code == code:
        out = []
        for info in snapshot.node_info_list:
            s = statuses.get(info.name)
            if (s.code if s is not None else Code.SUCCESS) == code:
                out.append(info)
        return out
    out = []
    for name, s in statuses.items():
        info = snapshot.get(name) if s.code == code else None
        if info is not None:
            out.append(info)
    return out


def dry_run_preemption(select: SelectVictims, state: CycleState, pod: Pod, potential: list[NodeInfo],
                       pdbs: Sequence[PodDisruptionBudget], offset: int, num_candidates: int
                       ) -> tuple[list[Candidate], NodeToStatus, str | None]:
    """`DryRunPreemption`, sequentially from `offset`: stops once a non-violating candidate exists and
    enough candidates were found (upstream cancels its parallel workers at the same point)."""
    non_violating: list[Candidate] = []
    violating: list[Candidate] = []
    statuses = NodeToStatus(absent_nodes_status=Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE))
    errors: list[str] = []
    for i in range(len(potential)):
        if non_violating and len(non_violating) + len(violating) >= num_candidates:
            break
        info = potential[(offset + i) % len(potential)]
        all_victims = [pi.pod for pi in info.pods]
        pods, violations, status = select(state.clone(), pod, info.clone(), all_victims, pdbs)
        if status.is_success() and pods:
            target = non_violating if violations == 0 else violating
            if len(target) < num_candidates:  # candidateList drops adds beyond its capacity
                target.append(Candidate(info.name, Victims(pods, violations)))
            continue
        if status.is_success():
            status = Status.as_status(f'expected at least one victim pod on node "{info.name}"')
        if status.code is Code.ERROR:
            errors.append(status.as_error() or "")
        statuses.set(info.name, status)
    return non_violating + violating, statuses, (aggregate(errors) if errors else None)


def earliest_start_time(victims: Victims) -> float:
    """`util.GetEarliestPodStartTime`: earliest start among the highest-priority victims."""
    earliest = pod_start_time(victims.pods[0])
    max_priority = victims.pods[0].effective_priority
    for pod in victims.pods:
        if pod.effective_priority == max_priority:
            earliest = min(earliest, pod_start_time(pod))
        elif pod.effective_priority > max_priority:
            max_priority, earliest = pod.effective_priority, pod_start_time(pod)
    return earliest


def pick_one_node_for_preemption(nodes_to_victims: dict[str, Victims]) -> str:
    """`pickOneNodeForPreemption` with the default score functions, applied in order until one node
    remains. Upstream iterates a Go map, so its final tie is random; here it is the first in order."""
    if not nodes_to_victims:
        return ""

    def sum_priorities(node: str) -> int:
        return -sum(p.effective_priority + MAX_INT32 + 1 for p in nodes_to_victims[node].pods)

    score_funcs: list[Callable[[str], float]] = [
        lambda n: -nodes_to_victims[n].num_pdb_violations,
        lambda n: -nodes_to_victims[n].pods[0].effective_priority,
        sum_priorities,
        lambda n: -len(nodes_to_victims[n].pods),
        lambda n: earliest_start_time(nodes_to_victims[n]),
    ]
    candidates = list(nodes_to_victims)
    for f in score_funcs:
        scores = {n: f(n) for n in candidates}
        best = max(scores.values(), default=MIN_INT64)
        selected = [n for n in candidates if scores[n] == best]
        if len(selected) == 1:
            return selected[0]
        candidates = selected
    return candidates[0]


def select_candidate(candidates: list[Candidate]) -> Candidate | None:
    """`SelectCandidate`: the only candidate, or the one `pickOneNodeForPreemption` picks."""
    if not candidates:
        return None
    if len(candidates) == 1:
        return candidates[0]
    victims = {c.name: c.victims for c in candidates}
    name = pick_one_node_for_preemption(victims)
    return Candidate(name, victims[name])
