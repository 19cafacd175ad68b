"""Mirrors pkg/scheduler/framework/plugins/nodevolumelimits/csi.go (the CSILimits plugin, named NodeVolumeLimits).

The reference models no PVCs, CSINodes or VolumeAttachments. Only persistentVolumeClaim,
ephemeral and in-tree volumes that CSI migration can translate (csi-translation-lib
`IsInlineMigratable`) are counted; a pod with any of them raises NotModelledError. Other pods get
upstream's codes: PreFilter Skip, Filter Success. InPlacePodVerticalScalingSchedulerPreemption is
off in v1.37.2.
"""

from __future__ import annotations

from ..cycle_state import CycleState
from ..events import (ASSIGNED_POD, CSI_NODE, PERSISTENT_VOLUME_CLAIM, VOLUME_ATTACHMENT, ActionType,
                     ClusterEvent, ClusterEventWithHint)
from ..errors import NotModelledError
from ..interfaces import FilterPlugin, PreFilterPlugin, PreFilterResult
from ..nodeinfo import NodeInfo
from ..status import SUCCESS, Code, Status
from ..types import Pod
from .hint_util import without_hints

NAME = "NodeVolumeLimits"

ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED = "node(s) exceed max volume count"

# csi-translation-lib in-tree plugins whose `CanSupportInline` is true for these sources.
INLINE_MIGRATABLE_SOURCES = ("gcePersistentDisk", "awsElasticBlockStore", "cinder", "azureDisk", "azureFile",
                             "vsphereVolume", "portworxVolume")
COUNTED_SOURCES = ("persistentVolumeClaim", "ephemeral", *INLINE_MIGRATABLE_SOURCES)


def counted_volumes(pod: Pod) -> list[str]:
    """Names of the pod's volumes that count against CSI attach limits."""
    return [str(v.get("name", "")) for v in pod.volumes if any(v.get(s) is not None for s in COUNTED_SOURCES)]


def check_modelled(pod: Pod) -> None:
    names = counted_volumes(pod)
    if names:
        raise NotModelledError(
            f"pod {pod.key}: volumes {names} are not modelled by the reference: {NAME} needs PVCs, PVs, CSINodes "
            "and VolumeAttachments to count attachable volumes; remove those volumes or use the upstream backend")


class NodeVolumeLimits(PreFilterPlugin, FilterPlugin):
    NAME = NAME

    def pre_filter(self, state: CycleState, pod: Pod,
                   nodes: list[NodeInfo]) -> tuple[PreFilterResult | None, Status]:
        """Skip when no volume can count against a CSI limit."""
        check_modelled(pod)
        return None, Status.new(Code.SKIP)

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status:
        """Without counted volumes the pod adds no CSI volume, so it always fits."""
        check_modelled(pod)
        return SUCCESS

    def events_to_register(self) -> list[ClusterEventWithHint]:
        """Upstream's registrations; their hints read CSINodes, PVCs, VolumeAttachments and pods' volumes
        (`without_hints`)."""
        return without_hints(
            ClusterEvent(CSI_NODE, ActionType.ADD),
            ClusterEvent(CSI_NODE, ActionType.UPDATE),
            ClusterEvent(ASSIGNED_POD, ActionType.DELETE),
            ClusterEvent(PERSISTENT_VOLUME_CLAIM, ActionType.ADD),
            ClusterEvent(VOLUME_ATTACHMENT, ActionType.DELETE),
        )
