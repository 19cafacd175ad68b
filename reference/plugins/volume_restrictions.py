"""Mirrors pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go.

Two checks: inline disks (GCE PD, AWS EBS, RBD, iSCSI) a pod on the node already mounts, and
ReadWriteOncePod claims another pod already uses (the snapshot's PVC reference counts).
InPlacePodVerticalScalingSchedulerPreemption is off in v1.37.2.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from ..cycle_state import CycleState, NotFoundError
from ..events import (ASSIGNED_POD, NODE, PERSISTENT_VOLUME_CLAIM, ActionType, ClusterEvent,
                      ClusterEventWithHint, HintResult)
from ..interfaces import FilterPlugin, Handle, PreFilterPlugin, PreFilterResult
from ..nodeinfo import NodeInfo, PodInfo
from ..status import SUCCESS, Code, Status
from ..types import Pod
from ..volumes import PersistentVolumeClaim, not_found, objects_of
from ..volumes.types import READ_WRITE_ONCE_POD
from .hint_util import QUEUE, QUEUE_SKIP, as_objects, queue_on_error

NAME = "VolumeRestrictions"
PRE_FILTER_STATE_KEY = "PreFilter" + NAME

ERR_REASON_DISK_CONFLICT = "node(s) had no available disk"
ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT = ("node(s) unavailable due to PersistentVolumeClaim with "
                                           "ReadWriteOncePod access mode already in-use by another pod")

# Volume sources whose conflicts Filter checks (`needsRestrictionsCheck`).
RESTRICTED_SOURCES = ("gcePersistentDisk", "awsElasticBlockStore", "rbd", "iscsi")

_MISSING_STATE = f'cannot read "{PRE_FILTER_STATE_KEY}" from cycleState'


@dataclass
class PreFilterState:
    read_write_once_pod_pvcs: frozenset[str]
    conflicting_pvc_ref_count: int

    def clone(self) -> "PreFilterState":
        return PreFilterState(self.read_write_once_pod_pvcs, self.conflicting_pvc_ref_count)

    def update_with_pod(self, pod: Pod, multiplier: int) -> None:
        self.conflicting_pvc_ref_count += multiplier * sum(
            1 for name in claim_names(pod) if name in self.read_write_once_pod_pvcs)


def claim_names(pod: Pod) -> list[str]:
    return [str(v["persistentVolumeClaim"].get("claimName", "")) for v in pod.volumes
            if v.get("persistentVolumeClaim") is not None]


def needs_restrictions_check(volume: Mapping) -> bool:
    return any(volume.get(s) is not None for s in RESTRICTED_SOURCES)


def _have_overlap(a: Iterable[str], b: Iterable[str]) -> bool:
    return bool(set(a) & set(b))


def is_volume_conflict(volume: Mapping, pod: Pod) -> bool:
    """`isVolumeConflict`: the same disk mounted by `pod`, unless both mount it read-only (EBS: always)."""
    for existing in pod.volumes:
        for source in RESTRICTED_SOURCES:
            mine, theirs = volume.get(source), existing.get(source)
            if mine is None or theirs is None:
                continue
            both_read_only = bool(mine.get("readOnly")) and bool(theirs.get("readOnly"))
            if source == "gcePersistentDisk" and mine.get("pdName", "") == theirs.get("pdName", "") \
                    and not both_read_only:
                return True
            if source == "awsElasticBlockStore" and mine.get("volumeID", "") == theirs.get("volumeID", ""):
                return True
            if source == "iscsi" and mine.get("iqn", "") == theirs.get("iqn", "") and not both_read_only:
                return True
            if source == "rbd" and _have_overlap(mine.get("monitors") or (), theirs.get("monitors") or ()) \
                    and mine.get("pool", "") == theirs.get("pool", "") \
                    and mine.get("image", "") == theirs.get("image", "") and not both_read_only:
                return True
    return False


def satisfy_volume_conflicts(pod: Pod, pods: Iterable[Pod]) -> bool:
    pods = list(pods)
    return not any(is_volume_conflict(v, other) for v in pod.volumes if needs_restrictions_check(v)
                   for other in pods)


class VolumeRestrictions(PreFilterPlugin, FilterPlugin):
    NAME = NAME

    def __init__(self, handle: Handle | None = None) -> None:
        self.handle = handle

    @classmethod
    def new(cls, args: Any, handle: Handle) -> "VolumeRestrictions":
        return cls(handle)

    def pre_filter(self, state: CycleState, pod: Pod,
                   nodes: list[NodeInfo]) -> tuple[PreFilterResult | None, Status]:
        needs_check = any(needs_restrictions_check(v) for v in pod.volumes)
        objects = objects_of(self.handle)
        rwop: set[str] = set()
        for name in claim_names(pod):
            pvc = objects.pvc(pod.namespace, name)
            if pvc is None:
                return None, Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
                                        not_found("PersistentVolumeClaim", name))
            if READ_WRITE_ONCE_POD in pvc.access_modes:
                rwop.add(pvc.name)
        snapshot = self.handle.snapshot() if self.handle is not None else None
        conflicts = sum(1 for name in rwop
                        if snapshot is not None and snapshot.is_pvc_used_by_pods(f"{pod.namespace}/{name}"))
        if not needs_check and conflicts == 0:
            return None, Status.new(Code.SKIP)
        state.write(PRE_FILTER_STATE_KEY, PreFilterState(frozenset(rwop), conflicts))
        return None, SUCCESS

    def pre_filter_extensions(self) -> "VolumeRestrictions":
        return self

    def _state(self, state: CycleState) -> PreFilterState | None:
        try:
            return state.read(PRE_FILTER_STATE_KEY)
        except NotFoundError:
            return None

    def add_pod(self, state: CycleState, pod: Pod, to_add: PodInfo, node_info: NodeInfo) -> Status:
        s = self._state(state)
        if s is None:
            return Status.as_status(_MISSING_STATE)
        s.update_with_pod(to_add.pod, 1)
        return SUCCESS

    def remove_pod(self, state: CycleState, pod: Pod, to_remove: PodInfo, node_info: NodeInfo) -> Status:
        s = self._state(state)
        if s is None:
            return Status.as_status(_MISSING_STATE)
        s.update_with_pod(to_remove.pod, -1)
        return SUCCESS

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status:
        if not satisfy_volume_conflicts(pod, (p.pod for p in node_info.pods)):
            return Status.new(Code.UNSCHEDULABLE, ERR_REASON_DISK_CONFLICT)
        s = self._state(state)
        if s is None:
            return Status.as_status(_MISSING_STATE)
        if s.conflicting_pvc_ref_count > 0:
            return Status.new(Code.UNSCHEDULABLE, ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT)
        return SUCCESS

    def events_to_register(self) -> list[ClusterEventWithHint]:
        return [
            ClusterEventWithHint(ClusterEvent(ASSIGNED_POD, ActionType.DELETE), after_assigned_pod_deleted),
            ClusterEventWithHint(ClusterEvent(NODE, ActionType.ADD)),
            ClusterEventWithHint(ClusterEvent(PERSISTENT_VOLUME_CLAIM, ActionType.ADD), after_pvc_added),
        ]


def after_pvc_added(pod: Pod, old: object, new: object) -> HintResult:
    """Queue when the pod names the new claim."""
    _, pvc, err = as_objects(PersistentVolumeClaim, old, new)
    if err:
        return queue_on_error(err)
    if pvc.namespace != pod.namespace:
        return QUEUE_SKIP
    return QUEUE if pvc.name in claim_names(pod) else QUEUE_SKIP


def after_assigned_pod_deleted(pod: Pod, old: object, new: object) -> HintResult:
    """Queue when the deleted pod held a disk the pod conflicts with, or shared one of its claims."""
    deleted, _, err = as_objects(Pod, old, new)
    if err:
        return queue_on_error(err)
    if deleted.namespace != pod.namespace:
        return QUEUE_SKIP
    if not satisfy_volume_conflicts(pod, [deleted]):
        return QUEUE
    return QUEUE if set(claim_names(pod)) & set(claim_names(deleted)) else QUEUE_SKIP
