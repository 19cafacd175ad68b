"""Mirrors pkg/scheduler/framework/plugins/volumezone/volume_zone.go.

The zone and region labels of the PVs a pod's bound PVCs name must match the node's (when the node
has any of those labels). InPlacePodVerticalScalingSchedulerPreemption is off in v1.37.2.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cycle_state import CycleState, NotFoundError
from ..events import (NODE, PERSISTENT_VOLUME, PERSISTENT_VOLUME_CLAIM, STORAGE_CLASS, ActionType,
                      ClusterEvent, ClusterEventWithHint, HintResult)
from ..interfaces import FilterPlugin, Handle, PreFilterPlugin, PreFilterResult
from ..nodeinfo import NodeInfo
from ..status import SUCCESS, Code, Status
from ..types import Pod
from ..volumes import PersistentVolume, PersistentVolumeClaim, StorageClass, not_found, objects_of
from ..volumes.types import WAIT_FOR_FIRST_CONSUMER
from .hint_util import QUEUE, QUEUE_SKIP, as_objects, queue_on_error

NAME = "VolumeZone"
PRE_FILTER_STATE_KEY = "PreFilter" + NAME

ERR_REASON_CONFLICT = "node(s) had no available volume zone"

# v1.LabelFailureDomainBetaZone, v1.LabelFailureDomainBetaRegion, v1.LabelTopologyZone, v1.LabelTopologyRegion
TOPOLOGY_LABELS = ("failure-domain.beta.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/region",
                   "topology.kubernetes.io/zone", "topology.kubernetes.io/region")
_TO_GA = {TOPOLOGY_LABELS[0]: TOPOLOGY_LABELS[2], TOPOLOGY_LABELS[1]: TOPOLOGY_LABELS[3]}
MULTI_ZONE_DELIMITER = "__"  # cloudvolume.LabelMultiZoneDelimiter


@dataclass(frozen=True)
class PVTopology:
    pv_name: str
    key: str
    values: frozenset[str]


@dataclass
class StateData:
    topologies: list[PVTopology]

    def clone(self) -> "StateData":
        return self


def label_zones_to_set(value: str) -> frozenset[str] | None:
    """`LabelZonesToSet`: None (an error) when an element is empty after trimming."""
    zones = [z.strip() for z in value.split(MULTI_ZONE_DELIMITER)]
    return None if any(not z for z in zones) else frozenset(zones)


def pv_topologies(pv: PersistentVolume) -> list[PVTopology]:
    """`getPVTopologies`: one entry per topology label of the PV whose value parses."""
    out = []
    for key in TOPOLOGY_LABELS:
        if key in pv.labels:
            zones = label_zones_to_set(pv.labels[key])
            if zones is not None:
                out.append(PVTopology(pv.name, key, zones))
    return out


def claim_names(pod: Pod) -> list[str]:
    return [str(v["persistentVolumeClaim"].get("claimName", "")) for v in pod.volumes
            if v.get("persistentVolumeClaim") is not None]


class VolumeZone(PreFilterPlugin, FilterPlugin):
    NAME = NAME

    def __init__(self, handle: Handle | None = None) -> None:
        self.handle = handle

    @classmethod
    def new(cls, args: Any, handle: Handle) -> "VolumeZone":
        return cls(handle)

    def _pv_topologies_of(self, pod: Pod) -> tuple[list[PVTopology], Status]:
        """`getPVbyPod`."""
        objects = objects_of(self.handle)
        out: list[PVTopology] = []
        for name in claim_names(pod):
            if not name:
                return [], Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
                                      "PersistentVolumeClaim had no name")
            pvc = objects.pvc(pod.namespace, name)
            if pvc is None:
                return [], Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
                                      not_found("PersistentVolumeClaim", name))
            if not pvc.volume_name:
                class_name = pvc.storage_class
                if not class_name:
                    return [], Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
                                          "PersistentVolumeClaim had no pv name and storageClass name")
                sc = objects.storage_class(class_name)
                if sc is None:
                    return [], Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
                                          not_found("StorageClass", class_name))
                if sc.volume_binding_mode == WAIT_FOR_FIRST_CONSUMER:
                    continue  # the volume will be provisioned where the pod goes
                return [], Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "PersistentVolume had no name")
            pv = objects.pv(pvc.volume_name)
            if pv is None:
                return [], Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
                                      not_found("PersistentVolume", pvc.volume_name))
            out.extend(pv_topologies(pv))
        return out, SUCCESS

    def pre_filter(self, state: CycleState, pod: Pod,
                   nodes: list[NodeInfo]) -> tuple[PreFilterResult | None, Status]:
        topologies, status = self._pv_topologies_of(pod)
        if not status.is_success():
            return None, status
        if not topologies:
            return None, Status.new(Code.SKIP)
        state.write(PRE_FILTER_STATE_KEY, StateData(topologies))
        return None, SUCCESS

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status:
        if not pod.volumes:
            return SUCCESS
        try:
            topologies = state.read(PRE_FILTER_STATE_KEY).topologies
        except NotFoundError:
            topologies, status = self._pv_topologies_of(pod)
            if not status.is_success():
                return status
        labels = node_info.node.labels if node_info.node is not None else {}
        if not any(k in labels for k in TOPOLOGY_LABELS):
            return SUCCESS  # nodes without zone labels accept any volume
        for topology in topologies:
            value = labels.get(topology.key, labels.get(_TO_GA.get(topology.key, topology.key)))
            if value is None or value not in topology.values:
                return Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_CONFLICT)
        return SUCCESS

    def events_to_register(self) -> list[ClusterEventWithHint]:
        return [
            ClusterEventWithHint(ClusterEvent(STORAGE_CLASS, ActionType.ADD), after_storage_class_added),
            ClusterEventWithHint(ClusterEvent(NODE, ActionType.ADD | ActionType.UPDATE_NODE_LABEL)),
            ClusterEventWithHint(ClusterEvent(PERSISTENT_VOLUME_CLAIM, ActionType.ADD | ActionType.UPDATE),
                                 after_pvc_change),
            ClusterEventWithHint(ClusterEvent(PERSISTENT_VOLUME, ActionType.ADD | ActionType.UPDATE),
                                 after_pv_change),
        ]


def after_pvc_change(pod: Pod, old: object, new: object) -> HintResult:
    """Queue when the pod names the claim."""
    _, pvc, err = as_objects(PersistentVolumeClaim, old, new)
    if err:
        return queue_on_error(err)
    if pvc is None or pvc.namespace != pod.namespace:
        return QUEUE_SKIP
    return QUEUE if pvc.name in claim_names(pod) else QUEUE_SKIP


def after_storage_class_added(pod: Pod, old: object, new: object) -> HintResult:
    """Queue for a WaitForFirstConsumer class only."""
    _, sc, err = as_objects(StorageClass, None, new)
    if err:
        return queue_on_error(err)
    return QUEUE if sc.volume_binding_mode == WAIT_FOR_FIRST_CONSUMER else QUEUE_SKIP


def after_pv_change(pod: Pod, old: object, new: object) -> HintResult:
    """Queue on a new PV, or when a PV's topology labels changed."""
    before, after, err = as_objects(PersistentVolume, old, new)
    if err:
        return queue_on_error(err)
    if before is None:
        return QUEUE
    return QUEUE if pv_topologies(before) != pv_topologies(after) else QUEUE_SKIP
