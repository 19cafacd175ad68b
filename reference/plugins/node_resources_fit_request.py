"""The pod's resource request and whether a node has room for it: computePodResourceRequest,
fitsRequest and Fits of pkg/scheduler/framework/plugins/noderesources/fit.go, shared by the
NodeResourcesFit plugin (node_resources_fit.py) and its queueing hints (node_resources_fit_hints.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..nodeinfo import NodeInfo
from ..quantity import CPU, EPHEMERAL_STORAGE, MEMORY, PODS
from ..resources import Resource, is_extended_resource_name, is_scalar_resource, pod_requests
from ..types import Pod

ERR_REASON_TOO_MANY_PODS = "Too many pods"


def insufficient_reason(resource: str) -> str:
    """"Insufficient cpu", "Insufficient example.com/foo", ..."""
    return f"Insufficient {resource}"


@dataclass(frozen=True)
class InsufficientResource:
    resource_name: str
    reason: str
    requested: int
    used: int
    capacity: int
    # The request exceeds the node's whole allocatable: preemption cannot help.
    unresolvable: bool = False


def compute_pod_resource_request(pod: Pod) -> Resource:
    """`computePodResourceRequest`: PodRequests through `Resource.SetMaxResource`, which keeps
    scalar keys even at zero and drops "pods"."""
    result = Resource()
    for name, value in pod_requests(pod).items():
        if name == CPU:
            result.milli_cpu = value
        elif name == MEMORY:
            result.memory = value
        elif name == EPHEMERAL_STORAGE:
            result.ephemeral_storage = value
        elif name != PODS and is_scalar_resource(name):
            result.scalar_resources[name] = value
    return result


def fits_request(request: Resource, node_info: NodeInfo, ignored_resources: Iterable[str] = (),
                 ignored_resource_groups: Iterable[str] = ()) -> list[InsufficientResource]:
    """`fitsRequest`: every resource the pod is short of on this node, pod count first.

    Scalar resources are checked in the pod's request order; upstream ranges over a Go map, so
    with several short scalar resources its reason order varies from run to run.
    """
    ignored, ignored_groups = frozenset(ignored_resources), frozenset(ignored_resource_groups)
    alloc, used = node_info.allocatable, node_info.requested
    out: list[InsufficientResource] = []
    if len(node_info.pods) + 1 > alloc.allowed_pod_number:
        out.append(InsufficientResource(PODS, ERR_REASON_TOO_MANY_PODS, 1, len(node_info.pods),
                                        alloc.allowed_pod_number))
    if not (request.milli_cpu or request.memory or request.ephemeral_storage or request.scalar_resources):
        return out
    for name, req, have, cap in ((CPU, request.milli_cpu, used.milli_cpu, alloc.milli_cpu),
                                 (MEMORY, request.memory, used.memory, alloc.memory),
                                 (EPHEMERAL_STORAGE, request.ephemeral_storage, used.ephemeral_storage,
                                  alloc.ephemeral_storage)):
        if req > 0 and req > cap - have:
            out.append(InsufficientResource(name, insufficient_reason(name), req, have, cap, req > cap))
    for name, req in request.scalar_resources.items():
        if req == 0:
            continue
        if is_extended_resource_name(name) and (
                name in ignored or (ignored_groups and name.split("/")[0] in ignored_groups)):
            continue
        cap, have = alloc.scalar_resources.get(name, 0), used.scalar_resources.get(name, 0)
        if req > cap - have:
            out.append(InsufficientResource(name, insufficient_reason(name), req, have, cap, req > cap))
    return out


def fits(pod: Pod, node_info: NodeInfo) -> list[InsufficientResource]:
    """`Fits`: `fits_request` for a pod, with nothing ignored (used by preemption and hints)."""
    return fits_request(compute_pod_resource_request(pod), node_info)


__all__ = ["ERR_REASON_TOO_MANY_PODS", "InsufficientResource", "compute_pod_resource_request", "fits", "fits_request",
           "insufficient_reason"]
