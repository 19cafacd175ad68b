"""Mirrors the cluster-event types of staging/src/k8s.io/kube-scheduler/framework/types.go:
`ActionType`, the `EventResource` names, `ClusterEvent`, `QueueingHint` and `ClusterEventWithHint`,
which a plugin's `events_to_register` (EnqueueExtensions) returns.

A hint function takes (pod, old object, new object) and returns (hint, error text or None), like
upstream's QueueingHintFn returns (QueueingHint, error); the queue treats an error as Queue.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Callable

from .types import Pod


class ActionType(enum.IntFlag):
    """One bit per kind of change, in upstream's order; UPDATE_NODE_* only for Node events,
    UPDATE_POD_* only for Pod events."""

    ADD = enum.auto()
    DELETE = enum.auto()
    UPDATE_NODE_ALLOCATABLE = enum.auto()
    UPDATE_NODE_LABEL = enum.auto()
    UPDATE_NODE_TAINT = enum.auto()  # taints or spec.unschedulable
    UPDATE_NODE_CONDITION = enum.auto()
    UPDATE_NODE_ANNOTATION = enum.auto()
    UPDATE_NODE_DECLARED_FEATURE = enum.auto()
    UPDATE_NODE_PREEMPTION_POLICY = enum.auto()
    UPDATE_POD_LABEL = enum.auto()
    UPDATE_POD_SCALE_DOWN = enum.auto()
    UPDATE_POD_SCALE_UP = enum.auto()
    UPDATE_POD_TOLERATION = enum.auto()
    UPDATE_POD_SCHEDULING_GATES_ELIMINATED = enum.auto()
    UPDATE_POD_GENERATED_RESOURCE_CLAIM = enum.auto()
    ALL = (1 << 15) - 1
    UPDATE = ALL & ~(ADD | DELETE)


# EventResource values ("group/Kind" outside the core group).
POD = "Pod"
ASSIGNED_POD = "AssignedPod"
UNSCHEDULED_POD = "UnscheduledPod"
TARGET_POD = "TargetPod"
NODE = "Node"
PERSISTENT_VOLUME = "PersistentVolume"
PERSISTENT_VOLUME_CLAIM = "PersistentVolumeClaim"
CSI_NODE = "storage.k8s.io/CSINode"
CSI_DRIVER = "storage.k8s.io/CSIDriver"
VOLUME_ATTACHMENT = "storage.k8s.io/VolumeAttachment"
CSI_STORAGE_CAPACITY = "storage.k8s.io/CSIStorageCapacity"
STORAGE_CLASS = "storage.k8s.io/StorageClass"
RESOURCE_CLAIM = "resource.k8s.io/ResourceClaim"
RESOURCE_SLICE = "resource.k8s.io/ResourceSlice"
DEVICE_CLASS = "resource.k8s.io/DeviceClass"
POD_GROUP = "scheduling.k8s.io/PodGroup"
COMPOSITE_POD_GROUP = "scheduling.k8s.io/CompositePodGroup"
WILDCARD = "*"


class QueueingHint(enum.Enum):
    QUEUE_SKIP = "QueueSkip"
    QUEUE = "Queue"


@dataclass(frozen=True)
class ClusterEvent:
    resource: str  # an EventResource value above
    action_type: ActionType


HintResult = tuple[QueueingHint, "str | None"]
QueueingHintFn = Callable[[Pod, Any, Any], HintResult]


@dataclass(frozen=True)
class ClusterEventWithHint:
    event: ClusterEvent
    hint: QueueingHintFn | None = None  # None: always Queue (upstream's defaultQueueingHintFn)


__all__ = [
    "ASSIGNED_POD", "COMPOSITE_POD_GROUP", "CSI_DRIVER", "CSI_NODE", "CSI_STORAGE_CAPACITY", "ActionType",
    "ClusterEvent", "ClusterEventWithHint", "DEVICE_CLASS", "HintResult", "NODE", "PERSISTENT_VOLUME",
    "PERSISTENT_VOLUME_CLAIM", "POD", "POD_GROUP", "QueueingHint", "QueueingHintFn", "RESOURCE_CLAIM",
    "RESOURCE_SLICE", "STORAGE_CLASS", "TARGET_POD", "UNSCHEDULED_POD", "VOLUME_ATTACHMENT", "WILDCARD",
]
