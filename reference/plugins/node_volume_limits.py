"""Mirrors pkg/scheduler/framework/plugins/nodevolumelimits/csi.go (CSILimits, named NodeVolumeLimits).

A node's CSINode gives each CSI driver an attach limit; the pod's new volumes (PVC-backed, or inline
in-tree volumes CSI migration translates) plus those already attached there (its pods' and its
VolumeAttachments') must fit. VolumeLimitScaling is on in v1.37.2 (beta): a driver that opts in
(preventPodSchedulingIfMissing) must be installed on the node. InPlacePodVerticalScalingSchedulerPreemption
is off. Deviations: upstream names a PVC that no PV backs yet by a random per-plugin volume-ID prefix,
here the prefix is fixed (it only keeps such volumes apart from real ones); an in-tree GCE PD PV's
translated handle leaves its zone UNSPECIFIED as an inline disk's does (upstream reads the PV's zone
labels), which matters only when two pods mount the same disk through differently zoned PVs.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..cycle_state import CycleState
from ..events import (ASSIGNED_POD, CSI_NODE, PERSISTENT_VOLUME_CLAIM, VOLUME_ATTACHMENT, ActionType,
                      ClusterEvent, ClusterEventWithHint, HintResult)
from ..interfaces import FilterPlugin, Handle, PreFilterPlugin, PreFilterResult
from ..nodeinfo import NodeInfo
from ..status import SUCCESS, Code, Status
from ..types import Pod
from ..volumes import CSINode, PersistentVolumeClaim, VolumeAttachment, VolumeObjects, not_found, objects_of
from ..volumes.claims import claim_name, volume_is_for_pod
from ..volumes.csi_translation import BY_PLUGIN_NAME, IN_TREE, MIGRATION_ON, inline_source, translate_inline
from .hint_util import QUEUE, QUEUE_SKIP, as_objects, queue_on_error

NAME = "NodeVolumeLimits"

ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED = "node(s) exceed max volume count"
VOLUME_ID_PREFIX = "reference"


class NotFound(Exception):
    """A lister's NotFound, wrapped (`apierrors.IsNotFound` still holds)."""


def _claim(pod: Pod, volume: Mapping) -> str | None:
    named = claim_name(pod, volume)
    return None if named is None else named[0]


def is_counted(volume: Mapping) -> bool:
    return volume.get("persistentVolumeClaim") is not None or volume.get("ephemeral") is not None \
        or bool(inline_source(volume))


def migration_on(csi_node: CSINode | None, plugin_name: str) -> bool:
    """`isCSIMigrationOn`."""
    return csi_node is not None and plugin_name in MIGRATION_ON


class NodeVolumeLimits(PreFilterPlugin, FilterPlugin):
    NAME = NAME

    def __init__(self, handle: Handle | None = None) -> None:
        self.handle = handle

    @classmethod
    def new(cls, args: Any, handle: Handle) -> "NodeVolumeLimits":
        return cls(handle)

    def pre_filter(self, state: CycleState, pod: Pod,
                   nodes: list[NodeInfo]) -> tuple[PreFilterResult | None, Status]:
        if any(is_counted(v) for v in pod.volumes):
            return None, SUCCESS
        return None, Status.new(Code.SKIP)

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status:
        if not pod.volumes or node_info.node is None:
            return SUCCESS
        objects = objects_of(self.handle)
        node_name = node_info.node.name
        csi_node = objects.csi_node(node_name)
        new_volumes: dict[str, str] = {}
        try:
            self._attachable(objects, pod, csi_node, True, new_volumes)
        except NotFound as exc:
            return Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, str(exc))
        except ValueError as exc:
            return Status.as_status(str(exc))
        if not new_volumes:
            return SUCCESS
        for driver in new_volumes.values():
            if not self._driver_on_node(objects, driver, csi_node):
                return Status.new(Code.UNSCHEDULABLE, f"{driver} CSI driver is not installed on the node")
        limits = {d.name: d.count for d in (csi_node.drivers if csi_node else ()) if d.count is not None}
        if not limits:
            return SUCCESS
        attached: dict[str, str] = {}
        for existing in node_info.pods:
            try:
                self._attachable(objects, existing.pod, csi_node, False, attached)
            except (NotFound, ValueError) as exc:
                return Status.as_status(str(exc))
        count: dict[str, int] = {}
        for unique, driver in attached.items():
            new_volumes.pop(unique, None)
            count[driver] = count.get(driver, 0) + 1
        for unique, driver in attachments_on(objects, node_name).items():
            if unique not in attached:
                count[driver] = count.get(driver, 0) + 1
        new_count: dict[str, int] = {}
        for driver in new_volumes.values():
            new_count[driver] = new_count.get(driver, 0) + 1
        for driver, n in new_count.items():
            if driver in limits and count.get(driver, 0) + n > limits[driver]:
                return Status.new(Code.UNSCHEDULABLE, ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED)
        return SUCCESS

    @staticmethod
    def _driver_on_node(objects: VolumeObjects, driver: str, csi_node: CSINode | None) -> bool:
        """`checkCSIDriverOnNode`: only a CSIDriver that opts in must be listed on the node's CSINode."""
        csi_driver = objects.csi_driver(driver)
        if csi_driver is None or not csi_driver.prevent_pod_scheduling_if_missing:
            return True
        return csi_node is not None and any(d.name == driver for d in csi_node.drivers)

    def _attachable(self, objects: VolumeObjects, pod: Pod, csi_node: CSINode | None, new_pod: bool,
                    result: dict[str, str]) -> None:
        """`filterAttachableVolumes`: unique volume name -> driver, for each volume of `pod` that attaches."""
        for volume in pod.volumes:
            name = _claim(pod, volume)
            if name is None:
                source = inline_source(volume)
                if source and migration_on(csi_node, IN_TREE[source].name):
                    driver, handle = translate_inline(volume)
                    result[f"{driver}/{handle}"] = driver
                continue
            if not name:
                raise ValueError("PersistentVolumeClaim had no name")
            pvc = objects.pvc(pod.namespace, name)
            if pvc is None:
                if new_pod:
                    raise NotFound(f"looking up PVC {pod.namespace}/{name}: "
                                   f"{not_found('PersistentVolumeClaim', name)}")
                continue
            if volume.get("ephemeral") is not None and (err := volume_is_for_pod(pod, pvc)):
                raise ValueError(err)
            driver, handle = self._csi_driver_info(objects, csi_node, pvc)
            if driver and handle:
                result[f"{driver}/{handle}"] = driver

    def _csi_driver_info(self, objects: VolumeObjects, csi_node: CSINode | None,
                         pvc: PersistentVolumeClaim) -> tuple[str, str]:
        """`getCSIDriverInfo`: the bound PV's CSI source (translated if in-tree), else the class's."""
        pv = objects.pv(pvc.volume_name) if pvc.volume_name else None
        if pv is None:
            return self._csi_driver_info_from_class(objects, csi_node, pvc)
        if pv.source == "csi":
            return str(pv.source_fields.get("driver", "")), str(pv.source_fields.get("volumeHandle", ""))
        plugin = IN_TREE.get(pv.source)
        if plugin is None or not migration_on(csi_node, plugin.name):
            return "", ""
        return plugin.driver, plugin.handle(pv.source_fields)

    def _csi_driver_info_from_class(self, objects: VolumeObjects, csi_node: CSINode | None,
                                    pvc: PersistentVolumeClaim) -> tuple[str, str]:
        class_name = pvc.storage_class
        sc = objects.storage_class(class_name) if class_name else None
        if sc is None:
            return "", ""
        handle = f"{VOLUME_ID_PREFIX}-{pvc.namespace}/{pvc.name}"
        plugin = BY_PLUGIN_NAME.get(sc.provisioner)
        if plugin is not None:
            return (plugin.driver, handle) if migration_on(csi_node, plugin.name) else ("", "")
        return sc.provisioner, handle

    def events_to_register(self) -> list[ClusterEventWithHint]:
        return [
            ClusterEventWithHint(ClusterEvent(CSI_NODE, ActionType.ADD)),
            ClusterEventWithHint(ClusterEvent(CSI_NODE, ActionType.UPDATE), after_csi_node_updated),
            ClusterEventWithHint(ClusterEvent(ASSIGNED_POD, ActionType.DELETE), after_assigned_pod_deleted),
            ClusterEventWithHint(ClusterEvent(PERSISTENT_VOLUME_CLAIM, ActionType.ADD), after_pvc_added),
            ClusterEventWithHint(ClusterEvent(VOLUME_ATTACHMENT, ActionType.DELETE),
                                 after_volume_attachment_deleted),
        ]


def attachments_on(objects: VolumeObjects, node_name: str) -> dict[str, str]:
    """`getNodeVolumeAttachmentInfo`: the node's VolumeAttachments of CSI PVs, unique name -> attacher."""
    out: dict[str, str] = {}
    for va in objects.all("VolumeAttachment"):
        if va.node_name != node_name or not va.attacher or va.persistent_volume_name is None:
            continue
        pv = objects.pv(va.persistent_volume_name)
        if pv is None or pv.source != "csi":
            continue
        out[f"{va.attacher}/{pv.source_fields.get('volumeHandle', '')}"] = va.attacher
    return out


def after_assigned_pod_deleted(pod: Pod, old: object, new: object) -> HintResult:
    deleted, _, err = as_objects(Pod, old, new)
    if err:
        return queue_on_error(err)
    if not deleted.volumes or (not deleted.node_name and not deleted.nominated_node_name):
        return QUEUE_SKIP
    return QUEUE if any(is_counted(v) for v in deleted.volumes) else QUEUE_SKIP


def after_pvc_added(pod: Pod, old: object, new: object) -> HintResult:
    _, pvc, err = as_objects(PersistentVolumeClaim, old, new)
    if err:
        return queue_on_error(err)
    if pvc.namespace != pod.namespace:
        return QUEUE_SKIP
    return QUEUE if any(_claim(pod, v) == pvc.name for v in pod.volumes) else QUEUE_SKIP


def after_volume_attachment_deleted(pod: Pod, old: object, new: object) -> HintResult:
    """Queue for a pod with a PVC, or an inline volume that translates to the attacher's driver."""
    va, _, err = as_objects(VolumeAttachment, old, new)
    if err:
        return queue_on_error(err)
    for volume in pod.volumes:
        if volume.get("persistentVolumeClaim") is not None:
            return QUEUE
        if inline_source(volume) and translate_inline(volume)[0] == va.attacher:
            return QUEUE
    return QUEUE_SKIP


def after_csi_node_updated(pod: Pod, old: object, new: object) -> HintResult:
    """Queue when some driver's limit grew (a missing count is 0)."""
    before, after, err = as_objects(CSINode, old, new)
    if err:
        return queue_on_error(err)
    old_limits = {d.name: d.count or 0 for d in before.drivers}
    return QUEUE if any((d.count or 0) > old_limits.get(d.name, 0) for d in after.drivers) else QUEUE_SKIP
