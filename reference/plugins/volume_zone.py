"""Mirrors pkg/scheduler/framework/plugins/volumezone/volume_zone.go.

Only persistentVolumeClaim volumes carry zones (through their bound PV); the reference models
no PVCs or PVs, so a pod with one raises NotModelledError. Other pods get upstream's codes:
PreFilter Skip, Filter Success. InPlacePodVerticalScalingSchedulerPreemption is off in v1.37.2.
"""

from __future__ import annotations

from ..cycle_state import CycleState
from ..events import (NODE, PERSISTENT_VOLUME, PERSISTENT_VOLUME_CLAIM, STORAGE_CLASS, ActionType,
                     ClusterEvent, ClusterEventWithHint)
from ..errors import NotModelledError
from ..interfaces import FilterPlugin, PreFilterPlugin, PreFilterResult
from ..nodeinfo import NodeInfo
from ..status import SUCCESS, Code, Status
from ..types import Pod
from .hint_util import without_hints

NAME = "VolumeZone"
PRE_FILTER_STATE_KEY = "PreFilter" + NAME

ERR_REASON_CONFLICT = "node(s) had no available volume zone"


def pvc_volumes(pod: Pod) -> list[str]:
    return [str(v.get("name", "")) for v in pod.volumes if v.get("persistentVolumeClaim") is not None]


def check_modelled(pod: Pod) -> None:
    names = pvc_volumes(pod)
    if names:
        raise NotModelledError(
            f"pod {pod.key}: persistentVolumeClaim volumes {names} are not modelled by the reference: {NAME} needs "
            "PVCs, PVs and StorageClasses; remove those volumes or use the upstream backend")


class VolumeZone(PreFilterPlugin, FilterPlugin):
    NAME = NAME

    def pre_filter(self, state: CycleState, pod: Pod,
                   nodes: list[NodeInfo]) -> tuple[PreFilterResult | None, Status]:
        """Skip: without PVCs there are no PV topologies to match."""
        check_modelled(pod)
        return None, Status.new(Code.SKIP)

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status:
        """With no PV topologies every node matches, zone labels or not."""
        check_modelled(pod)
        return SUCCESS

    def events_to_register(self) -> list[ClusterEventWithHint]:
        """Upstream's registrations; their hints read StorageClasses, PVCs and PVs (`without_hints`)."""
        return without_hints(
            ClusterEvent(STORAGE_CLASS, ActionType.ADD),
            ClusterEvent(NODE, ActionType.ADD | ActionType.UPDATE_NODE_LABEL),
            ClusterEvent(PERSISTENT_VOLUME_CLAIM, ActionType.ADD | ActionType.UPDATE),
            ClusterEvent(PERSISTENT_VOLUME, ActionType.ADD | ActionType.UPDATE),
        )
