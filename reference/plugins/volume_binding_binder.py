"""Mirrors the scheduling half of pkg/scheduler/framework/plugins/volumebinding/binder.go
(`GetPodVolumeClaims`, `FindPodVolumes`) and component-helpers/storage/volume (`FindMatchingVolume`,
`CheckNodeAffinity`).

Deviations: the PV cache lists a class's PVs in name order (upstream: an informer index's order, which
decides between equally small matching PVs); a bound PV that CSI migration would translate on the node
(its plugin in the CSINode's migrated-plugins annotation) raises NotModelledError.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from ..errors import NotModelledError
from ..selectors import LabelSelectorError, label_selector_as_selector
from ..types import Node, Pod
from ..volumes import (CSIStorageCapacity, PersistentVolume, PersistentVolumeClaim, StorageClass,
                       VolumeObjects, not_found)
from ..volumes.claims import claim_name, volume_is_for_pod
from ..volumes.csi_translation import IN_TREE, MIGRATION_ON
from ..volumes.types import (ANN_SELECTED_NODE, CLAIM_LOST, MIGRATED_PLUGINS_ANNOTATION, VOLUME_AVAILABLE,
                             WAIT_FOR_FIRST_CONSUMER)
from .node_affinity.selector import LazyErrorNodeSelector

# binder.go ConflictReasons.
ERR_REASON_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind"
ERR_REASON_NODE_CONFLICT = "node(s) didn't match PersistentVolume's node affinity"
ERR_REASON_NOT_ENOUGH_SPACE = "node(s) did not have enough free storage"
ERR_REASON_PV_NOT_EXIST = "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)"
NOT_SUPPORTED_PROVISIONER = "kubernetes.io/no-provisioner"


class BinderError(Exception):
    """An error FindPodVolumes returns (the plugin's status is Error)."""


@dataclass
class PodVolumeClaims:
    bound: list[PersistentVolumeClaim] = field(default_factory=list)
    unbound_immediate: list[PersistentVolumeClaim] = field(default_factory=list)
    unbound_delay_binding: list[PersistentVolumeClaim] = field(default_factory=list)
    unbound_volumes_delay_binding: dict[str, list[PersistentVolume]] = field(default_factory=dict)


@dataclass(frozen=True)
class PodVolumes:
    """What Filter found for one node: PVs to bind (pv, pvc) and claims to provision (pvc, capacity)."""

    static_bindings: tuple[tuple[PersistentVolume, PersistentVolumeClaim], ...] = ()
    dynamic_provisions: tuple[tuple[PersistentVolumeClaim, CSIStorageCapacity | None], ...] = ()


def pod_has_pvcs(objects: VolumeObjects, pod: Pod) -> tuple[bool, str]:
    """`podHasPVCs`: whether the pod has claims, and the first problem with one ("" for none)."""
    has = False
    for volume in pod.volumes:
        named = claim_name(pod, volume)
        if named is None:
            continue
        name, ephemeral = named
        has = True
        pvc = objects.pvc(pod.namespace, name)
        if pvc is None:
            if ephemeral:
                return has, ("waiting for ephemeral volume controller to create the persistentvolumeclaim "
                             f'"{name}"')
            return has, not_found("PersistentVolumeClaim", name)
        if pvc.phase == CLAIM_LOST:
            return has, (f'persistentvolumeclaim "{pvc.name}" bound to non-existent persistentvolume '
                         f'"{pvc.volume_name}"')
        if pvc.deleting:
            return has, f'persistentvolumeclaim "{pvc.name}" is being deleted'
        if ephemeral and (err := volume_is_for_pod(pod, pvc)):
            return has, err
    return has, ""


def is_delay_binding_mode(objects: VolumeObjects, pvc: PersistentVolumeClaim) -> bool:
    """`IsDelayBindingMode`: a missing class is not delay binding."""
    sc = objects.storage_class(pvc.storage_class) if pvc.storage_class else None
    return sc is not None and sc.volume_binding_mode == WAIT_FOR_FIRST_CONSUMER


def pod_volume_claims(objects: VolumeObjects, pod: Pod) -> PodVolumeClaims:
    """`GetPodVolumeClaims` (after `podHasPVCs` found every claim)."""
    out = PodVolumeClaims()
    for volume in pod.volumes:
        named = claim_name(pod, volume)
        if named is None:
            continue
        pvc = objects.pvc(pod.namespace, named[0])
        if pvc is None:
            raise BinderError(f'error getting PVC "{pod.namespace}/{named[0]}": '
                              f'{not_found("PersistentVolumeClaim", named[0])}')
        if pvc.fully_bound:
            out.bound.append(pvc)
        elif is_delay_binding_mode(objects, pvc) and not pvc.volume_name:
            out.unbound_delay_binding.append(pvc)
        else:
            out.unbound_immediate.append(pvc)
    for pvc in out.unbound_delay_binding:
        out.unbound_volumes_delay_binding[pvc.storage_class] = objects.pvs_of_class(pvc.storage_class)
    return out


def node_affinity_matches(pv: PersistentVolume, labels: Mapping[str, str]) -> bool:
    """`CheckNodeAffinity` with a node of only these labels; a parse error does not match."""
    if pv.node_affinity is None:
        return True
    return LazyErrorNodeSelector.of(pv.node_affinity).match(Node(name="", labels=dict(labels)))


def _is_bound_to(pv: PersistentVolume, pvc: PersistentVolumeClaim) -> bool:
    """`IsVolumeBoundToClaim`."""
    ref = pv.claim_ref
    if ref is None or (ref.name, ref.namespace) != (pvc.name, pvc.namespace):
        return False
    return not ref.uid or ref.uid == pvc.uid


def find_matching_volume(pvc: PersistentVolumeClaim, pvs: list[PersistentVolume], node: Node,
                         excluded: set[str]) -> PersistentVolume | None:
    """`FindMatchingVolume` with delayBinding and VolumeAttributesClass (GA) on: a PV pre-bound to the claim,
    else the smallest Available PV of its class, size, mode, selector, node affinity and access modes."""
    try:
        selector = label_selector_as_selector(pvc.selector) if pvc.selector is not None else None
    except LabelSelectorError as exc:
        raise BinderError(f"error creating internal label selector for claim: {pvc.key}: {exc}") from None
    requested = pvc.request or 0
    smallest: PersistentVolume | None = None
    for pv in pvs:
        if pv.name in excluded or (pv.claim_ref is not None and not _is_bound_to(pv, pvc)):
            continue
        if pv.capacity < requested or pv.volume_mode != pvc.volume_mode:
            continue
        if pv.volume_attributes_class_name != pvc.volume_attributes_class_name or pv.deleting:
            continue
        affinity_ok = node_affinity_matches(pv, node.labels)
        if _is_bound_to(pv, pvc):
            return pv if affinity_ok else None
        if pv.phase != VOLUME_AVAILABLE or (selector is not None and not selector.matches(pv.labels)):
            continue
        if pv.storage_class != pvc.storage_class or not affinity_ok:
            continue
        if not set(pvc.access_modes) <= set(pv.access_modes):
            continue
        if smallest is None or smallest.capacity > pv.capacity:
            smallest = pv
    return smallest


def _check_bound_claims(objects: VolumeObjects, claims: list[PersistentVolumeClaim],
                        node: Node) -> tuple[bool, bool]:
    """`checkBoundClaims`: (node affinity satisfied, every PV found)."""
    csi_node = objects.csi_node(node.name)
    annotation = csi_node.annotations.get(MIGRATED_PLUGINS_ANNOTATION, "") if csi_node else ""
    migrated = set(annotation.split(","))
    for pvc in claims:
        pv = objects.pv(pvc.volume_name)
        if pv is None:
            return True, False
        plugin = IN_TREE.get(pv.source)
        if plugin is not None and plugin.name in MIGRATION_ON and plugin.name in migrated:
            raise NotModelledError(
                f"PersistentVolume {pv.name}: translating an in-tree {pv.source} PV to CSI (its plugin is "
                "in the CSINode's migrated-plugins annotation) is not modelled by the reference; use a csi "
                "PV or the upstream backend")
        if not node_affinity_matches(pv, node.labels):
            return False, True
    return True, True


def _topology_matches(sc: StorageClass, labels: Mapping[str, str]) -> bool:
    """`MatchTopologySelectorTerms`: no terms match everything; else some term's every requirement."""
    if not sc.allowed_topologies:
        return True
    return any(all(labels.get(k) in values for k, values in term.requirements) and term.requirements
               for term in sc.allowed_topologies)


def _node_has_access(node: Node, capacity: CSIStorageCapacity) -> bool:
    if capacity.node_topology is None:
        return False
    try:
        return label_selector_as_selector(capacity.node_topology).matches(node.labels)
    except LabelSelectorError:
        return False


def _has_enough_capacity(objects: VolumeObjects, provisioner: str, pvc: PersistentVolumeClaim,
                         sc: StorageClass, node: Node) -> tuple[bool, CSIStorageCapacity | None]:
    if pvc.request is None:
        return True, None
    driver = objects.csi_driver(provisioner)
    if driver is None or not driver.storage_capacity:
        return True, None
    for capacity in objects.all("CSIStorageCapacity"):
        limit = capacity.volume_limit
        if capacity.storage_class_name == sc.name and limit is not None and limit >= pvc.request \
                and _node_has_access(node, capacity):
            return True, capacity
    return False, None


def _check_volume_provisions(objects: VolumeObjects, claims: list[PersistentVolumeClaim], node: Node
                             ) -> tuple[bool, bool, list[tuple[PersistentVolumeClaim,
                                                               CSIStorageCapacity | None]]]:
    """`checkVolumeProvisions`: (provisioning possible, enough storage, the provisions)."""
    provisions = []
    for pvc in claims:
        class_name = pvc.storage_class
        if not class_name:
            raise BinderError(f'no class for claim "{pvc.key}"')
        sc = objects.storage_class(class_name)
        if sc is None:
            raise BinderError(f'failed to find storage class "{class_name}"')
        if sc.provisioner in ("", NOT_SUPPORTED_PROVISIONER) or not _topology_matches(sc, node.labels):
            return False, True, []
        enough, capacity = _has_enough_capacity(objects, sc.provisioner, pvc, sc, node)
        if not enough:
            return True, False, []
        provisions.append((pvc, capacity))
    return True, True, provisions


def find_pod_volumes(objects: VolumeObjects, claims: PodVolumeClaims,
                     node: Node) -> tuple[PodVolumes, list[str]]:
    """`FindPodVolumes`: the node's PodVolumes and its conflict reasons (in upstream's order)."""
    bound_ok = unbound_ok = enough = pvs_found = True
    static: list[tuple[PersistentVolume, PersistentVolumeClaim]] = []
    dynamic: list[tuple[PersistentVolumeClaim, CSIStorageCapacity | None]] = []
    if claims.bound:
        bound_ok, pvs_found = _check_bound_claims(objects, claims.bound, node)
    if claims.unbound_delay_binding:
        to_match: list[PersistentVolumeClaim] = []
        to_provision: list[PersistentVolumeClaim] = []
        for pvc in claims.unbound_delay_binding:
            selected = pvc.annotations.get(ANN_SELECTED_NODE)
            if selected is None:
                to_match.append(pvc)
            elif selected != node.name:
                unbound_ok = False
                break
            else:
                to_provision.append(pvc)
        if unbound_ok:
            chosen: set[str] = set()
            for pvc in sorted(to_match, key=lambda c: c.request or 0):  # byPVCSize, a stable sort here
                candidates = claims.unbound_volumes_delay_binding.get(pvc.storage_class, [])
                pv = find_matching_volume(pvc, candidates, node, chosen)
                if pv is None:
                    to_provision.append(pvc)
                    unbound_ok = False
                else:
                    chosen.add(pv.name)
                    static.append((pv, pvc))
            if to_provision:
                unbound_ok, enough, dynamic = _check_volume_provisions(objects, to_provision, node)
    reasons = [r for ok, r in ((bound_ok, ERR_REASON_NODE_CONFLICT), (unbound_ok, ERR_REASON_BIND_CONFLICT),
                               (enough, ERR_REASON_NOT_ENOUGH_SPACE), (pvs_found,
                                                                       ERR_REASON_PV_NOT_EXIST)) if not ok]
    return PodVolumes(tuple(static), tuple(dynamic)), reasons


__all__ = ["BinderError", "ERR_REASON_BIND_CONFLICT", "ERR_REASON_NODE_CONFLICT",
           "ERR_REASON_NOT_ENOUGH_SPACE",
           "ERR_REASON_PV_NOT_EXIST", "PodVolumeClaims", "PodVolumes", "find_matching_volume",
           "find_pod_volumes", "pod_has_pvcs", "pod_volume_claims"]
