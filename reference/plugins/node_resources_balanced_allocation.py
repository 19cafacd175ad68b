"""Mirrors pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go.

Args: v1 defaults.go SetDefaults_NodeResourcesBalancedAllocationArgs and
validation_pluginargs.go ValidateNodeResourcesBalancedAllocationArgs.

Feature gates at their v1.37.2 defaults: DRAExtendedResource (GA) would let DRA devices count
for an extended resource the node does not list; no DeviceClasses are modelled, so it never
does. SignPod (pod signatures) has no counterpart in the reference framework.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Mapping

from ..cycle_state import CycleState, NotFoundError
from ..interfaces import Handle, PreScorePlugin, ScorePlugin
from ..nodeinfo import NodeInfo
from ..registry import PluginArgs
from ..status import SUCCESS, Code, Status
from ..types import Pod
from . import resource_args as ra
from .resource_allocation import ResourceAllocationScorer, is_best_effort
from .resource_args import DEFAULT_RESOURCES, FieldError, ResourceSpec
from .resource_strategies import balanced_resource_scorer

NAME = "NodeResourcesBalancedAllocation"
PRE_SCORE_STATE_KEY = "PreScore" + NAME


@dataclass(frozen=True)
class NodeResourcesBalancedAllocationArgs(PluginArgs):
    KIND: ClassVar[str] = "NodeResourcesBalancedAllocationArgs"

    resources: tuple[ResourceSpec, ...] = DEFAULT_RESOURCES

    @classmethod
    def from_config(cls, raw: Mapping[str, Any] | None, path: str) -> "NodeResourcesBalancedAllocationArgs":
        o = ra.fields(raw, path, ("resources",))
        resources = ra.items(o, "resources", path, ra.resource_spec)
        args = cls(ra.default_weights(resources) if resources else DEFAULT_RESOURCES)
        ra.raise_if_any(validate(args, path))
        return args

    def to_config(self) -> dict[str, Any]:
        return {"resources": [r.to_config() for r in self.resources]}


def validate(args: NodeResourcesBalancedAllocationArgs, path: str) -> list[FieldError]:
    """Names unique, every weight exactly 1."""
    errs: list[FieldError] = []
    seen: set[str] = set()
    for i, resource in enumerate(args.resources):
        item = ra.index(ra.child(path, "resources"), i)
        if resource.name in seen:
            errs.append(ra.duplicate(ra.child(item, "name"), resource.name))
        else:
            seen.add(resource.name)
        if resource.weight != 1:
            errs.append(ra.invalid(ra.child(item, "weight"), resource.weight, "must be 1"))
    return errs


class PreScoreState:
    def __init__(self, pod_requests_list: list[int]) -> None:
        self.pod_requests = pod_requests_list

    def clone(self) -> "PreScoreState":
        return self


class NodeResourcesBalancedAllocation(PreScorePlugin, ScorePlugin):
    """Favours nodes whose resource usage stays balanced, using actual (not non-zero) requests."""

    NAME = NAME
    ARGS = NodeResourcesBalancedAllocationArgs

    def __init__(self, args: NodeResourcesBalancedAllocationArgs) -> None:
        self.scorer = ResourceAllocationScorer(NAME, balanced_resource_scorer, tuple(args.resources),
                                               use_requested=True)

    @classmethod
    def new(cls, args: NodeResourcesBalancedAllocationArgs | None,
            handle: Handle | None) -> "NodeResourcesBalancedAllocation":
        """`NewBalancedAllocation`: validates with an empty field path."""
        args = args if args is not None else NodeResourcesBalancedAllocationArgs()
        ra.raise_if_any(validate(args, ""))
        return cls(args)

    def pre_score(self, state: CycleState, pod: Pod, nodes: list[NodeInfo]) -> Status:
        """Skip for best-effort pods, so they do not all pile onto one node (kubernetes#129138)."""
        requests = self.scorer.pod_resource_request_list(pod)
        if is_best_effort(requests):
            return Status.new(Code.SKIP)
        state.write(PRE_SCORE_STATE_KEY, PreScoreState(requests))
        return SUCCESS

    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> tuple[int, Status]:
        """Without PreScore state: recompute, and score a best-effort pod 0."""
        try:
            requests = state.read(PRE_SCORE_STATE_KEY).pod_requests
        except NotFoundError:
            requests = self.scorer.pod_resource_request_list(pod)
            if is_best_effort(requests):
                return 0, SUCCESS
        return self.scorer.score(node_info, requests)

    def score_extensions(self) -> None:
        return None


__all__ = [
    "NAME",
    "NodeResourcesBalancedAllocation",
    "NodeResourcesBalancedAllocationArgs",
    "PRE_SCORE_STATE_KEY",
    "validate",
]
