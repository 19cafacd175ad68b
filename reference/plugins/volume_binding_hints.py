"""VolumeBinding's EventsToRegister and queueing hints (volumebinding/volume_binding.go)."""

from __future__ import annotations

from ..events import (CSI_DRIVER, CSI_NODE, CSI_STORAGE_CAPACITY, NODE, PERSISTENT_VOLUME,
                      PERSISTENT_VOLUME_CLAIM, STORAGE_CLASS, ActionType, ClusterEvent, ClusterEventWithHint,
                      HintResult)
from ..types import Pod
from ..volumes import CSIDriver, CSINode, CSIStorageCapacity, PersistentVolumeClaim, StorageClass
from ..volumes.claims import claim_name
from ..volumes.types import MIGRATED_PLUGINS_ANNOTATION
from .hint_util import QUEUE, QUEUE_SKIP, as_objects, queue_on_error


def events_to_register(self: object = None) -> list[ClusterEventWithHint]:
    add_update = ActionType.ADD | ActionType.UPDATE
    return [
        ClusterEventWithHint(ClusterEvent(STORAGE_CLASS, add_update), after_storage_class_change),
        ClusterEventWithHint(ClusterEvent(PERSISTENT_VOLUME_CLAIM, add_update), after_pvc_change),
        ClusterEventWithHint(ClusterEvent(PERSISTENT_VOLUME, add_update)),
        ClusterEventWithHint(ClusterEvent(NODE, ActionType.ADD | ActionType.UPDATE_NODE_LABEL)),
        ClusterEventWithHint(ClusterEvent(CSI_NODE, add_update), after_csi_node_change),
        ClusterEventWithHint(ClusterEvent(CSI_DRIVER, ActionType.UPDATE), after_csi_driver_change),
        ClusterEventWithHint(ClusterEvent(CSI_STORAGE_CAPACITY, add_update), after_capacity_change),
    ]


def after_csi_node_change(pod: Pod, old: object, new: object) -> HintResult:
    """Queue on a new CSINode, or a changed migrated-plugins annotation."""
    if old is None:
        return QUEUE
    before, after, err = as_objects(CSINode, old, new)
    if err:
        return queue_on_error(err)
    key = MIGRATED_PLUGINS_ANNOTATION
    return QUEUE if before.annotations.get(key) != after.annotations.get(key) else QUEUE_SKIP


def after_pvc_change(pod: Pod, old: object, new: object) -> HintResult:
    """Queue when the pod's claims (or its ephemeral volumes' claims) include this one."""
    _, pvc, err = as_objects(PersistentVolumeClaim, old, new)
    if err:
        return queue_on_error(err)
    if pod.namespace != pvc.namespace:
        return QUEUE_SKIP
    names = {named[0] for v in pod.volumes if (named := claim_name(pod, v)) is not None}
    return QUEUE if pvc.name in names else QUEUE_SKIP


def after_storage_class_change(pod: Pod, old: object, new: object) -> HintResult:
    """Queue on a new class, or changed allowedTopologies."""
    before, after, err = as_objects(StorageClass, old, new)
    if err:
        return queue_on_error(err)
    if before is None or before.allowed_topologies != after.allowed_topologies:
        return QUEUE
    return QUEUE_SKIP


def after_capacity_change(pod: Pod, old: object, new: object) -> HintResult:
    """Queue on a new CSIStorageCapacity, or a larger volume limit."""
    before, after, err = as_objects(CSIStorageCapacity, old, new)
    if err:
        return queue_on_error(err)
    if before is None:
        return QUEUE
    old_limit, new_limit = before.volume_limit, after.volume_limit
    if new_limit is not None and (old_limit is None or new_limit > old_limit):
        return QUEUE
    return QUEUE_SKIP


def after_csi_driver_change(pod: Pod, old: object, new: object) -> HintResult:
    """Queue when storage capacity tracking was turned off for a driver the pod's inline CSI volumes use."""
    before, after, err = as_objects(CSIDriver, old, new)
    if err:
        return queue_on_error(err)
    for volume in pod.volumes:
        csi = volume.get("csi")
        if csi is None or csi.get("driver") != after.name:
            continue
        if before.storage_capacity and not after.storage_capacity:
            return QUEUE
    return QUEUE_SKIP


__all__ = ["events_to_register"]
