"""Mirrors pkg/scheduler/framework/plugins/podtopologyspread/filtering.go.

Feature gate InPlacePodVerticalScalingSchedulerPreemption is off in v1.37.2, so a deferred
resize never makes PreFilter skip or Filter pass.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...nodeinfo import NodeInfo
from ...status import SUCCESS, Code, Status
from ...types import Node, Pod
from ..node_affinity.selector import RequiredNodeAffinity
from .common import Constraint, count_pods_match_selector, node_labels_match_spread_constraints, selector_matches

PRE_FILTER_STATE_KEY = "PreFilterPodTopologySpread"
ERR_REASON_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints"
ERR_REASON_NODE_LABEL_NOT_MATCH = ERR_REASON_CONSTRAINTS_NOT_MATCH + " (missing required label)"

MAX_INT32 = 2**31 - 1


@dataclass
class CriticalPath:
    topology_value: str = ""
    match_num: int = MAX_INT32


class CriticalPaths:
    """The two domains with the fewest matches; `paths[0].match_num` is always the minimum."""

    def __init__(self, paths: tuple[CriticalPath, CriticalPath] | None = None) -> None:
        self.paths = list(paths) if paths else [CriticalPath(), CriticalPath()]

    def update(self, tp_val: str, num: int) -> None:
        p = self.paths
        i = 0 if tp_val == p[0].topology_value else 1 if tp_val == p[1].topology_value else -1
        if i >= 0:
            p[i].match_num = num
            if p[0].match_num > p[1].match_num:
                p[0], p[1] = p[1], p[0]
        elif num < p[0].match_num:
            p[1] = CriticalPath(p[0].topology_value, p[0].match_num)
            p[0] = CriticalPath(tp_val, num)
        elif num < p[1].match_num:
            p[1] = CriticalPath(tp_val, num)

    def as_tuples(self) -> tuple[tuple[str, int], tuple[str, int]]:
        return (self.paths[0].topology_value, self.paths[0].match_num), (self.paths[1].topology_value,
                                                                        self.paths[1].match_num)

    def clone(self) -> "CriticalPaths":
        return CriticalPaths(tuple(CriticalPath(p.topology_value, p.match_num) for p in self.paths))


@dataclass
class PreFilterState:
    """Per constraint: the critical paths and the matching-pod count per topology value."""

    constraints: list[Constraint] = field(default_factory=list)
    critical_paths: list[CriticalPaths] = field(default_factory=list)
    tp_value_to_match_num: list[dict[str, int]] = field(default_factory=list)

    def min_match_num(self, i: int, min_domains: int) -> int:
        """The global minimum; 0 while fewer than `min_domains` domains are eligible."""
        if len(self.tp_value_to_match_num[i]) < min_domains:
            return 0
        return self.critical_paths[i].paths[0].match_num

    def clone(self) -> "PreFilterState":
        return PreFilterState(self.constraints, [p.clone() for p in self.critical_paths],
                              [dict(m) for m in self.tp_value_to_match_num])

    def update_with_pod(self, updated: Pod, preemptor: Pod, node: Node | None, delta: int) -> None:
        """`updateWithPod`: count `updated` in (+1) or out (-1) of the domains of `node`."""
        if updated.namespace != preemptor.namespace or node is None:
            return
        if not node_labels_match_spread_constraints(node.labels, self.constraints):
            return
        required = RequiredNodeAffinity.of(preemptor)
        for i, c in enumerate(self.constraints):
            if not selector_matches(c.selector, updated.labels):
                continue
            if not c.match_node_inclusion_policies(preemptor, node, required):
                continue
            v = node.labels[c.topology_key]
            self.tp_value_to_match_num[i][v] = self.tp_value_to_match_num[i].get(v, 0) + delta
            self.critical_paths[i].update(v, self.tp_value_to_match_num[i][v])


def cal_pre_filter_state(pod: Pod, constraints: list[Constraint], nodes: list[NodeInfo]) -> PreFilterState:
    """`calPreFilterState` once the constraints are known."""
    if not constraints:
        return PreFilterState()
    state = PreFilterState(constraints, [], [{} for _ in constraints])
    required = RequiredNodeAffinity.of(pod)
    for info in nodes:
        node = info.node
        assert node is not None
        if not node_labels_match_spread_constraints(node.labels, constraints):
            continue
        for i, c in enumerate(constraints):
            if not c.match_node_inclusion_policies(pod, node, required):
                continue
            value = node.labels[c.topology_key]
            counts = state.tp_value_to_match_num[i]
            counts[value] = counts.get(value, 0) + count_pods_match_selector(info.pods, c.selector, pod.namespace)
    for counts in state.tp_value_to_match_num:
        paths = CriticalPaths()
        for value, num in counts.items():
            paths.update(value, num)
        state.critical_paths.append(paths)
    return state


def filter_node(state: PreFilterState, pod: Pod, node: Node) -> Status:
    """`Filter` once the state is read: every hard constraint's skew must stay within maxSkew."""
    for i, c in enumerate(state.constraints):
        tp_val = node.labels.get(c.topology_key)
        if tp_val is None:
            return Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_NODE_LABEL_NOT_MATCH)
        self_match = 1 if selector_matches(c.selector, pod.labels) else 0
        skew = state.tp_value_to_match_num[i].get(tp_val, 0) + self_match - state.min_match_num(i, c.min_domains)
        if skew > c.max_skew:
            return Status.new(Code.UNSCHEDULABLE, ERR_REASON_CONSTRAINTS_NOT_MATCH)
    return SUCCESS


__all__ = [
    "CriticalPath",
    "CriticalPaths",
    "ERR_REASON_CONSTRAINTS_NOT_MATCH",
    "ERR_REASON_NODE_LABEL_NOT_MATCH",
    "PRE_FILTER_STATE_KEY",
    "PreFilterState",
    "cal_pre_filter_state",
    "filter_node",
]
