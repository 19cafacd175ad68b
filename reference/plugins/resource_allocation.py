"""Mirrors pkg/scheduler/framework/plugins/noderesources/resource_allocation.go.

The shared scoring core of NodeResourcesFit and NodeResourcesBalancedAllocation. The DRA-backed
extended-resource branch is inert here: the reference models no DeviceClasses, so upstream's
device-class lookup never finds one and the device-plugin path below is the one taken.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..nodeinfo import NodeInfo
from ..quantity import CPU, EPHEMERAL_STORAGE, MEMORY
from ..resources import NON_ZERO_DEFAULTS, is_scalar_resource, pod_requests
from ..status import SUCCESS, Code, Status
from ..types import Pod
from .resource_args import ResourceSpec
from .resource_strategies import Scorer

ERR_RESOURCES_NOT_FOUND = "resources not found"


@dataclass(frozen=True)
class ResourceAllocationScorer:
    """`resourceAllocationScorer`. `use_requested` picks the node's actual cpu/memory requests;
    otherwise both sides count containers without requests at the non-zero defaults."""

    name: str
    scorer: Scorer
    resources: tuple[ResourceSpec, ...]
    use_requested: bool = False

    def pod_resource_request(self, pod: Pod, resource: str) -> int:
        """`calculatePodResourceRequest`: PodRequests (with overhead) for one resource.

        Feature gates at their v1.37.2 defaults: InPlacePodVerticalScaling (GA) would read status
        resources and PodLevelResources (beta, on) pod-level requests; the reference models
        neither, so spec container requests are what both reduce to.
        """
        non_missing = None if self.use_requested else NON_ZERO_DEFAULTS
        return pod_requests(pod, non_missing=non_missing).get(resource, 0)

    def pod_resource_request_list(self, pod: Pod) -> list[int]:
        return [self.pod_resource_request(pod, r.name) for r in self.resources]

    def resource_allocatable_request(self, node_info: NodeInfo, resource: str) -> tuple[int, int]:
        """`calculateResourceAllocatableRequest`: (allocatable, already requested) on the node;
        (0, 0) for a resource the node does not list (which leaves it out of the score)."""
        requested = node_info.requested if self.use_requested else node_info.non_zero_requested
        if resource == CPU:
            return node_info.allocatable.milli_cpu, requested.milli_cpu
        if resource == MEMORY:
            return node_info.allocatable.memory, requested.memory
        if resource == EPHEMERAL_STORAGE:
            return node_info.allocatable.ephemeral_storage, node_info.requested.ephemeral_storage
        # Everything else, "pods" included, is looked up among the scalar resources only.
        if resource in node_info.allocatable.scalar_resources:
            return (node_info.allocatable.scalar_resources[resource],
                    node_info.requested.scalar_resources.get(resource, 0))
        return 0, 0

    def node_allocatable_request(self, node_info: NodeInfo,
                                 pod_requests_list: Sequence[int]) -> tuple[list[int], list[int], list[int]]:
        """`calculateNodeAllocatableRequest`: (requested incl. pod, allocated, allocatable)."""
        n = len(self.resources)
        requested, allocated, allocatable = [0] * n, [0] * n, [0] * n
        for i, spec in enumerate(self.resources):
            # An extended resource the pod does not request stays out of the score.
            if pod_requests_list[i] == 0 and is_scalar_resource(spec.name):
                continue
            node_allocatable, node_allocated = self.resource_allocatable_request(node_info, spec.name)
            if node_allocatable == 0:
                continue
            allocatable[i] = node_allocatable
            allocated[i] = node_allocated
            requested[i] = node_allocated + pod_requests_list[i]
        return requested, allocated, allocatable

    def score(self, node_info: NodeInfo, pod_requests_list: Sequence[int]) -> tuple[int, Status]:
        if not self.resources:
            return 0, Status.new(Code.ERROR, ERR_RESOURCES_NOT_FOUND)
        requested, allocated, allocatable = self.node_allocatable_request(node_info, pod_requests_list)
        return self.scorer(requested, allocated, allocatable), SUCCESS


def is_best_effort(pod_requests_list: Sequence[int]) -> bool:
    """`isBestEffortPod`: the pod requests none of the configured resources."""
    return all(r == 0 for r in pod_requests_list)


__all__ = ["ERR_RESOURCES_NOT_FOUND", "ResourceAllocationScorer", "is_best_effort"]
