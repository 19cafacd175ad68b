"""Mirrors pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go.

The reference models no PVCs and no node volume state. Only the volume kinds this plugin reads
matter: persistentVolumeClaim (ReadWriteOncePod tracking) and the inline gcePersistentDisk,
awsElasticBlockStore, rbd and iscsi (disk conflicts). A pod with any of them raises
NotModelledError; for other pods the plugin returns upstream's codes (PreFilter Skip).
InPlacePodVerticalScalingSchedulerPreemption is off in v1.37.2.
"""

from __future__ import annotations

from typing import Mapping

from ..cycle_state import CycleState
from ..events import ASSIGNED_POD, NODE, PERSISTENT_VOLUME_CLAIM, ActionType, ClusterEvent, ClusterEventWithHint
from ..errors import NotModelledError
from ..interfaces import FilterPlugin, PreFilterPlugin, PreFilterResult
from ..nodeinfo import NodeInfo, PodInfo
from ..status import Code, Status
from ..types import Pod
from .hint_util import without_hints

NAME = "VolumeRestrictions"
PRE_FILTER_STATE_KEY = "PreFilter" + NAME

ERR_REASON_DISK_CONFLICT = "node(s) had no available disk"
ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT = (
    "node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod")

# Volume sources whose conflicts Filter checks (`needsRestrictionsCheck`).
RESTRICTED_SOURCES = ("gcePersistentDisk", "awsElasticBlockStore", "rbd", "iscsi")
PVC_SOURCE = "persistentVolumeClaim"

_MISSING_STATE = f'cannot read "{PRE_FILTER_STATE_KEY}" from cycleState'


def _has_source(volume: Mapping, source: str) -> bool:
    return volume.get(source) is not None


def relevant_volumes(pod: Pod) -> list[str]:
    """Names of the pod's volumes this plugin would read (PVCs and the restricted inline disks)."""
    return [str(v.get("name", "")) for v in pod.volumes
            if any(_has_source(v, s) for s in (PVC_SOURCE, *RESTRICTED_SOURCES))]


def check_modelled(pod: Pod) -> None:
    """Raise NotModelledError when the pod has volumes whose outcome needs PVC or disk state."""
    names = relevant_volumes(pod)
    if names:
        raise NotModelledError(
            f"pod {pod.key}: volumes {names} (persistentVolumeClaim, gcePersistentDisk, awsElasticBlockStore, rbd, "
            f"iscsi) are not modelled by the reference: {NAME} needs PVC access modes and disk state; remove "
            "those volumes or use the upstream backend")


class VolumeRestrictions(PreFilterPlugin, FilterPlugin):
    NAME = NAME

    def pre_filter(self, state: CycleState, pod: Pod,
                   nodes: list[NodeInfo]) -> tuple[PreFilterResult | None, Status]:
        """Skip: without PVCs or restricted inline disks there is nothing to check."""
        check_modelled(pod)
        return None, Status.new(Code.SKIP)

    def pre_filter_extensions(self) -> "VolumeRestrictions":
        return self

    def add_pod(self, state: CycleState, pod: Pod, to_add: PodInfo, node_info: NodeInfo) -> Status:
        """State exists only for pods with PVCs (not modelled), so this errors like upstream without it."""
        check_modelled(pod)
        return Status.as_status(_MISSING_STATE)

    def remove_pod(self, state: CycleState, pod: Pod, to_remove: PodInfo, node_info: NodeInfo) -> Status:
        check_modelled(pod)
        return Status.as_status(_MISSING_STATE)

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status:
        """No restricted volume can conflict, so only the missing PreFilter state is reported."""
        check_modelled(pod)
        return Status.as_status(_MISSING_STATE)

    def events_to_register(self) -> list[ClusterEventWithHint]:
        """Upstream's registrations; their hints read PVCs and pods' volumes (`without_hints`)."""
        return without_hints(
            ClusterEvent(ASSIGNED_POD, ActionType.DELETE),
            ClusterEvent(NODE, ActionType.ADD),
            ClusterEvent(PERSISTENT_VOLUME_CLAIM, ActionType.ADD),
        )
