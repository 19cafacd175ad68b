"""Mirrors pkg/scheduler/framework/plugins/noderesources/fit.go.

Args live in node_resources_fit_args.py, the request and Fits in node_resources_fit_request.py,
queueing hints in node_resources_fit_hints.py, the scoring core in resource_allocation.py and
resource_strategies.py.

Feature gates at their v1.37.2 defaults:
- DRAExtendedResource (GA): an extended resource the node does not list is handed to DRA when a
  DeviceClass maps it. The reference models no DeviceClasses, so that never happens and Filter
  checks every extended resource itself, as upstream does when no class exists.
- PodLevelResources (beta, on) and InPlacePodVerticalScaling (GA): pod-level and status
  resources are not modelled, so the pod request is the spec container request.
- InPlacePodVerticalScalingSchedulerPreemption (alpha, off): the deltas of
  adjustDeltasToAccomodateCacheDiscrepancy are the plain requests.
- TopologyAwareWorkloadScheduling (alpha, off): no placement scorer (ScorePlacement).
SignPod (pod signatures) has no counterpart in the reference framework.
"""

from __future__ import annotations

from ..cycle_state import CycleState, NotFoundError
from ..events import ClusterEventWithHint
from ..interfaces import FilterPlugin, Handle, PreFilterPlugin, PreFilterResult, PreScorePlugin, ScorePlugin
from ..nodeinfo import NodeInfo
from ..resources import Resource
from ..status import SUCCESS, Code, Status
from ..types import Pod
from . import node_resources_fit_hints
from .node_resources_fit_args import (LEAST_ALLOCATED, MOST_ALLOCATED, REQUESTED_TO_CAPACITY_RATIO,
                                      NodeResourcesFitArgs, ScoringStrategy, validate)
from .node_resources_fit_request import InsufficientResource, compute_pod_resource_request, fits_request
from .resource_allocation import ResourceAllocationScorer
from .resource_args import raise_if_any
from .resource_strategies import least_resource_scorer, most_resource_scorer, requested_to_capacity_ratio_scorer

NAME = "NodeResourcesFit"
PRE_FILTER_STATE_KEY = "PreFilter" + NAME
PRE_SCORE_STATE_KEY = "PreScore" + NAME


class PreFilterState:
    """The pod's request, computed once per cycle; never mutated, so clone shares it."""

    def __init__(self, request: Resource) -> None:
        self.request = request

    def clone(self) -> "PreFilterState":
        return self


class PreScoreState:
    def __init__(self, pod_requests_list: list[int]) -> None:
        self.pod_requests = pod_requests_list

    def clone(self) -> "PreScoreState":
        return self


def filter_status(insufficient: list[InsufficientResource]) -> Status:
    """Unschedulable with every reason; UnschedulableAndUnresolvable if any can never fit."""
    if not insufficient:
        return SUCCESS
    code = Code.UNSCHEDULABLE_AND_UNRESOLVABLE if any(r.unresolvable for r in insufficient) else Code.UNSCHEDULABLE
    return Status.new(code, *(r.reason for r in insufficient))


_STRATEGIES = {
    LEAST_ALLOCATED: lambda s: least_resource_scorer(s.resources),
    MOST_ALLOCATED: lambda s: most_resource_scorer(s.resources),
    REQUESTED_TO_CAPACITY_RATIO: lambda s: requested_to_capacity_ratio_scorer(s.resources, s.shape or ()),
}


def scorer_for(strategy: ScoringStrategy) -> ResourceAllocationScorer:
    """`getScorer` on validated args: the strategy type names the scorer."""
    return ResourceAllocationScorer(strategy.type, _STRATEGIES[strategy.type](strategy), tuple(strategy.resources))


class NodeResourcesFit(PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin):
    NAME = NAME
    ARGS = NodeResourcesFitArgs

    def __init__(self, args: NodeResourcesFitArgs) -> None:
        assert args.scoring_strategy is not None, "validate the args first"
        self.ignored_resources = frozenset(args.ignored_resources)
        self.ignored_resource_groups = frozenset(args.ignored_resource_groups)
        self.scorer = scorer_for(args.scoring_strategy)

    @classmethod
    def new(cls, args: NodeResourcesFitArgs | None, handle: Handle | None) -> "NodeResourcesFit":
        """`NewFit`: validates with an empty field path, as upstream does."""
        args = args if args is not None else NodeResourcesFitArgs.from_config(None, "")
        raise_if_any(validate(args, ""))
        return cls(args)

    # --- PreFilter / Filter -------------------------------------------------------------------

    def pre_filter(self, state: CycleState, pod: Pod,
                   nodes: list[NodeInfo]) -> tuple[PreFilterResult | None, Status]:
        state.write(PRE_FILTER_STATE_KEY, PreFilterState(compute_pod_resource_request(pod)))
        return None, SUCCESS

    def pre_filter_extensions(self) -> None:
        """Upstream has no AddPod/RemovePod: Filter reads the node's totals directly."""
        return None

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status:
        try:
            s = state.read(PRE_FILTER_STATE_KEY)
        except NotFoundError:
            return Status.as_status(f'error reading "{PRE_FILTER_STATE_KEY}" from cycleState: not found')
        return filter_status(fits_request(s.request, node_info, self.ignored_resources,
                                          self.ignored_resource_groups))

    # --- PreScore / Score ---------------------------------------------------------------------

    def pre_score(self, state: CycleState, pod: Pod, nodes: list[NodeInfo]) -> Status:
        state.write(PRE_SCORE_STATE_KEY, PreScoreState(self.scorer.pod_resource_request_list(pod)))
        return SUCCESS

    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> tuple[int, Status]:
        """Without PreScore state the pod's requests are recomputed, as upstream does."""
        try:
            requests = state.read(PRE_SCORE_STATE_KEY).pod_requests
        except NotFoundError:
            requests = self.scorer.pod_resource_request_list(pod)
        return self.scorer.score(node_info, requests)

    def score_extensions(self) -> None:
        return None

    # --- EnqueueExtensions --------------------------------------------------------------------

    def events_to_register(self) -> list[ClusterEventWithHint]:
        """`EventsToRegister`."""
        return node_resources_fit_hints.events_to_register()


__all__ = [
    "NAME",
    "NodeResourcesFit",
    "NodeResourcesFitArgs",
    "PRE_FILTER_STATE_KEY",
    "PRE_SCORE_STATE_KEY",
    "filter_status",
    "scorer_for",
]
