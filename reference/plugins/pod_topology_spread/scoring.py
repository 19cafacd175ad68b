"""Mirrors pkg/scheduler/framework/plugins/podtopologyspread/scoring.go."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ...interfaces import MAX_NODE_SCORE, NodeScore
from ...nodeinfo import NodeInfo
from ...types import Pod
from ..helper import go_div
from ..node_affinity.selector import RequiredNodeAffinity
from .common import LABEL_HOSTNAME, Constraint, count_pods_match_selector, node_labels_match_spread_constraints

PRE_SCORE_STATE_KEY = "PreScorePodTopologySpread"
_INVALID_SCORE = -1


@dataclass
class PreScoreState:
    """Soft constraints, the nodes left unscored, and per-domain pod counts (hostname: at Score)."""

    constraints: list[Constraint] = field(default_factory=list)
    ignored_nodes: set[str] = field(default_factory=set)
    topology_value_to_pod_counts: list[dict[str, int]] = field(default_factory=list)
    topology_normalizing_weight: list[float] = field(default_factory=list)

    def clone(self) -> "PreScoreState":
        """Upstream shares the state: Score never writes it."""
        return self


def topology_normalizing_weight(size: int) -> float:
    """log(size + 2): counts in small topologies are not watered down by big ones."""
    return math.log(size + 2)


def score_for_count(cnt: int, max_skew: int, tp_weight: float) -> float:
    return float(cnt) * tp_weight + float(max_skew - 1)


def go_round(x: float) -> int:
    """Go's `math.Round`: half away from zero (Python's `round` goes to even)."""
    return int(math.copysign(math.floor(abs(x) + 0.5), x))


def init_pre_score_state(constraints: list[Constraint], filtered_nodes: list[NodeInfo],
                         require_all_topologies: bool) -> PreScoreState:
    """`initPreScoreState` once the constraints are known: domains come from the filtered nodes."""
    state = PreScoreState(constraints=constraints)
    if not constraints:
        return state
    state.topology_value_to_pod_counts = [{} for _ in constraints]
    topo_size = [0] * len(constraints)
    for info in filtered_nodes:
        node = info.node
        assert node is not None
        if require_all_topologies and not node_labels_match_spread_constraints(node.labels, constraints):
            state.ignored_nodes.add(node.name)
            continue
        for i, c in enumerate(constraints):
            if c.topology_key == LABEL_HOSTNAME:
                continue
            value = node.labels.get(c.topology_key, "")
            if value not in state.topology_value_to_pod_counts[i]:
                state.topology_value_to_pod_counts[i][value] = 0
                topo_size[i] += 1
    for i, c in enumerate(constraints):
        size = topo_size[i]
        if c.topology_key == LABEL_HOSTNAME:
            size = len(filtered_nodes) - len(state.ignored_nodes)
        state.topology_normalizing_weight.append(topology_normalizing_weight(size))
    return state


def count_all_nodes(state: PreScoreState, pod: Pod, all_nodes: list[NodeInfo], require_all_topologies: bool) -> None:
    """The PreScore pass over every node of the cluster, into the domains seen among filtered nodes."""
    required = RequiredNodeAffinity.of(pod)
    for info in all_nodes:
        node = info.node
        assert node is not None
        if require_all_topologies and not node_labels_match_spread_constraints(node.labels, state.constraints):
            continue
        for i, c in enumerate(state.constraints):
            if not c.match_node_inclusion_policies(pod, node, required):
                continue
            value = node.labels.get(c.topology_key, "")
            counts = state.topology_value_to_pod_counts[i]
            if value in counts:
                counts[value] += count_pods_match_selector(info.pods, c.selector, pod.namespace)


def score_node(state: PreScoreState, pod: Pod, info: NodeInfo) -> int:
    """`Score`: the weighted matching-pod counts of the node's domains, rounded."""
    node = info.node
    assert node is not None
    if node.name in state.ignored_nodes:
        return 0
    score = 0.0
    for i, c in enumerate(state.constraints):
        tp_val = node.labels.get(c.topology_key)
        if tp_val is None:
            continue
        if c.topology_key == LABEL_HOSTNAME:
            cnt = count_pods_match_selector(info.pods, c.selector, pod.namespace)
        else:
            cnt = state.topology_value_to_pod_counts[i][tp_val]
        score += score_for_count(cnt, c.max_skew, state.topology_normalizing_weight[i])
    return go_round(score)


def normalize_scores(state: PreScoreState, scores: list[NodeScore]) -> None:
    """Fewer matches score higher: 100 * (max + min - s) / max; ignored nodes score 0."""
    min_score, max_score = 2**63 - 1, 0
    for s in scores:
        if s.name in state.ignored_nodes:
            s.score = _INVALID_SCORE
            continue
        min_score = min(min_score, s.score)
        max_score = max(max_score, s.score)
    for s in scores:
        if s.score == _INVALID_SCORE:
            s.score = 0
        elif max_score == 0:
            s.score = MAX_NODE_SCORE
        else:
            s.score = go_div(MAX_NODE_SCORE * (max_score + min_score - s.score), max_score)


__all__ = [
    "PRE_SCORE_STATE_KEY",
    "PreScoreState",
    "count_all_nodes",
    "go_round",
    "init_pre_score_state",
    "normalize_scores",
    "score_for_count",
    "score_node",
    "topology_normalizing_weight",
]
