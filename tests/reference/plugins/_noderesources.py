"""Shared runner for the NodeResourcesFit scoring-strategy tables (least/most allocated, requested to
capacity ratio)."""

from __future__ import annotations

from reference.cycle_state import CycleState
from reference.nodeinfo import Snapshot
from reference.plugins.node_resources_fit import NodeResourcesFit
from reference.plugins.node_resources_fit_args import NodeResourcesFitArgs, ScoringStrategy
from reference.status import SUCCESS
from reference.types import Node, Pod


def run_scores(strategy: ScoringStrategy, pod: Pod, nodes: list[Node], existing=()) -> list:
    """NewFit, one PreScore, then Score on each node of a snapshot: [(score, status), ...]."""
    snapshot = Snapshot(nodes, existing)
    plugin = NodeResourcesFit.new(NodeResourcesFitArgs(scoring_strategy=strategy), None)
    state = CycleState()
    assert plugin.pre_score(state, pod, snapshot.node_info_list) == SUCCESS
    return [plugin.score(state, pod, snapshot.get(n.name)) for n in nodes]
