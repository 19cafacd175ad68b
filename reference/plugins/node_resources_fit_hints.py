"""Mirrors the EnqueueExtensions of pkg/scheduler/framework/plugins/noderesources/fit.go
(EventsToRegister and its queueing-hint functions), on the event types of `reference.events`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..events import (ASSIGNED_POD, DEVICE_CLASS, NODE, TARGET_POD, ActionType, ClusterEvent, ClusterEventWithHint,
                      HintResult, QueueingHint)
from ..nodeinfo import NodeInfo
from ..quantity import CPU, EPHEMERAL_STORAGE, MEMORY
from ..resources import Resource, is_scalar_resource, pod_requests
from ..types import Node, Pod
from .hint_util import as_objects as _as
from .node_resources_fit_request import compute_pod_resource_request, fits

# resource.k8s.io: a DeviceClass named N also serves the implicit extended resource of this prefix.
RESOURCE_DEVICE_CLASS_PREFIX = "deviceclass.resource.kubernetes.io/"


@dataclass(frozen=True)
class DeviceClass:
    """The two DeviceClass fields the hint reads (DRA is otherwise not modelled)."""

    name: str
    extended_resource_name: str | None = None


def after_assigned_pod_delete(pod: Pod, old: Any, new: Any) -> HintResult:
    """A deleted pod frees resources only if it was bound or nominated somewhere.

    The deferred-resize branch needs InPlacePodVerticalScalingSchedulerPreemption (alpha, off).
    """
    deleted, _, err = _as(Pod, old, new)
    if err:
        return QueueingHint.QUEUE, err
    if not deleted.node_name and not deleted.nominated_node_name:
        return QueueingHint.QUEUE_SKIP, None
    return QueueingHint.QUEUE, None


def after_target_pod_scale_down(pod: Pod, old: Any, new: Any) -> HintResult:
    return QueueingHint.QUEUE, None


def have_enough_relevant_resources_decreased(target: Pod, original: Pod, modified: Pod) -> bool:
    """Some resource the target requests got smaller on a bound pod."""
    if not modified.node_name:
        return False
    before = Resource.from_list(pod_requests(original))
    after = Resource.from_list(pod_requests(modified))
    for name, value in pod_requests(target).items():
        if value == 0:
            continue
        if name in (CPU, MEMORY, EPHEMERAL_STORAGE):
            if before.get(name) > after.get(name):
                return True
        elif is_scalar_resource(name) and before.scalar_resources.get(name, 0) > after.scalar_resources.get(name, 0):
            return True
    return False


def after_assigned_pod_scale_down(pod: Pod, old: Any, new: Any) -> HintResult:
    original, modified, err = _as(Pod, old, new)
    if err:
        return QueueingHint.QUEUE, err
    if not have_enough_relevant_resources_decreased(pod, original, modified):
        return QueueingHint.QUEUE_SKIP, None
    return QueueingHint.QUEUE, None


def is_fit(pod: Pod, node: Node | None) -> bool:
    """`isFit`: the pod fits the node when it is empty."""
    if node is None:
        return False
    return not fits(pod, NodeInfo.of(node))


def have_any_requested_resources_increased(pod: Pod, original: Node, modified: Node) -> bool:
    """The allowed pod count or the allocatable of some resource the pod requests grew."""
    request = compute_pod_resource_request(pod)
    before = Resource.from_list(original.allocatable)
    after = Resource.from_list(modified.allocatable)
    if after.allowed_pod_number > before.allowed_pod_number:
        return True
    if not (request.milli_cpu or request.memory or request.ephemeral_storage or request.scalar_resources):
        return False
    if ((request.milli_cpu > 0 and after.milli_cpu > before.milli_cpu)
            or (request.memory > 0 and after.memory > before.memory)
            or (request.ephemeral_storage > 0 and after.ephemeral_storage > before.ephemeral_storage)):
        return True
    # DRA delegation (shouldDelegateResourceToDRA) never applies: no DeviceClasses are modelled.
    return any(quantity != 0 and after.scalar_resources.get(name, 0) > before.scalar_resources.get(name, 0)
               for name, quantity in request.scalar_resources.items())


def after_node_change(pod: Pod, old: Any, new: Any) -> HintResult:
    original, modified, err = _as(Node, old, new)
    if err:
        return QueueingHint.QUEUE, err
    if not is_fit(pod, modified):
        return QueueingHint.QUEUE_SKIP, None
    if original is None:
        return QueueingHint.QUEUE, None
    if not have_any_requested_resources_increased(pod, original, modified):
        return QueueingHint.QUEUE_SKIP, None
    return QueueingHint.QUEUE, None


def after_device_class_event(pod: Pod, old: Any, new: Any) -> HintResult:
    """A class added (or renamed to) an extended resource the pod requests may now serve it."""
    original, modified, err = _as(DeviceClass, old, new)
    if err:
        return QueueingHint.QUEUE, err
    requests = pod_requests(pod)
    if original is not None:
        if (original.extended_resource_name or "") == (modified.extended_resource_name or ""):
            return QueueingHint.QUEUE_SKIP, None
    elif RESOURCE_DEVICE_CLASS_PREFIX + modified.name in requests:
        return QueueingHint.QUEUE, None
    if modified.extended_resource_name is not None and modified.extended_resource_name in requests:
        return QueueingHint.QUEUE, None
    return QueueingHint.QUEUE_SKIP, None


def events_to_register() -> list[ClusterEventWithHint]:
    """Events at the v1.37.2 gate defaults: DRAExtendedResource (GA) adds DeviceClass,
    InPlacePodVerticalScaling (GA) adds the scale-down events; the scale-up events need
    InPlacePodVerticalScalingSchedulerPreemption (alpha, off)."""
    return [
        ClusterEventWithHint(ClusterEvent(ASSIGNED_POD, ActionType.DELETE), after_assigned_pod_delete),
        ClusterEventWithHint(ClusterEvent(NODE, ActionType.ADD | ActionType.UPDATE_NODE_ALLOCATABLE), after_node_change),
        ClusterEventWithHint(ClusterEvent(DEVICE_CLASS, ActionType.ADD | ActionType.UPDATE), after_device_class_event),
        ClusterEventWithHint(ClusterEvent(ASSIGNED_POD, ActionType.UPDATE_POD_SCALE_DOWN), after_assigned_pod_scale_down),
        ClusterEventWithHint(ClusterEvent(TARGET_POD, ActionType.UPDATE_POD_SCALE_DOWN), after_target_pod_scale_down),
    ]


__all__ = [
    "DeviceClass",
    "after_assigned_pod_delete",
    "after_assigned_pod_scale_down",
    "after_device_class_event",
    "after_node_change",
    "after_target_pod_scale_down",
    "events_to_register",
    "have_any_requested_resources_increased",
    "have_enough_relevant_resources_decreased",
    "is_fit",
]
