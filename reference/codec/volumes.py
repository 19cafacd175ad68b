"""Storage manifests -> `volumes.types`, with the defaults the API server applies on create (v1 and
storage/v1 SetDefaults_*: a StorageClass's volumeBindingMode Immediate, a CSIDriver's storageCapacity
false, volumeMode Filesystem). Errors name the manifest field."""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ..errors import ManifestError
from ..quantity import int_value
from ..types import DEFAULT_NAMESPACE
from ..volumes.types import (FILESYSTEM, IMMEDIATE, WAIT_FOR_FIRST_CONSUMER, ClaimRef, CSIDriver, CSINode,
                             CSINodeDriver, CSIStorageCapacity, PersistentVolume, PersistentVolumeClaim,
                             StorageClass, TopologySelectorTerm, VolumeAttachment)
from ._fields import get_field, get_list, get_str_map, get_strs, read_metadata
from .pods import owner_reference
from .selectors import node_selector_from_manifest, opt_selector

# The volume sources of a PersistentVolumeSpec (core/v1), so that the spec's other keys are not taken
# for one.
PV_SOURCES = ("gcePersistentDisk", "awsElasticBlockStore", "hostPath", "glusterfs", "nfs", "rbd", "iscsi",
              "cinder", "cephfs", "fc", "flocker", "flexVolume", "azureFile", "vsphereVolume", "quobyte",
              "azureDisk", "photonPersistentDisk", "portworxVolume", "scaleIO", "local", "storageos", "csi")
_BINDING_MODES = (IMMEDIATE, WAIT_FOR_FIRST_CONSUMER)


def _storage(o: Mapping, key: str, path: str) -> int | None:
    value = get_field(o, key, dict, path, {}).get("storage")
    return None if value is None else int_value(value, f"{path}.{key}.storage")


def _namespace(meta: Mapping, kind: str) -> str:
    return get_field(meta, "namespace", str, f"{kind}.metadata", "") or DEFAULT_NAMESPACE


def pv_from_manifest(m: Mapping) -> PersistentVolume:
    meta, name = read_metadata(m, "PersistentVolume")
    path = "PersistentVolume.spec"
    spec = get_field(m, "spec", dict, "PersistentVolume", {})
    sources = [k for k in PV_SOURCES if spec.get(k) is not None]
    if len(sources) > 1:
        raise ManifestError(f"{path}: one volume source expected, got {sources}; keep one of them")
    affinity = get_field(spec, "nodeAffinity", dict, path, {})
    ref = get_field(spec, "claimRef", dict, path)
    return PersistentVolume(
        name=name, labels=get_str_map(meta, "labels", "PersistentVolume.metadata"),
        annotations=get_str_map(meta, "annotations", "PersistentVolume.metadata"),
        storage_class_name=get_field(spec, "storageClassName", str, path, ""),
        capacity=_storage(spec, "capacity", path) or 0,
        access_modes=get_strs(spec, "accessModes", path),
        volume_mode=get_field(spec, "volumeMode", str, path, FILESYSTEM),
        node_affinity=node_selector_from_manifest(
            get_field(affinity, "required", dict, f"{path}.nodeAffinity"), f"{path}.nodeAffinity.required"),
        claim_ref=None if ref is None else ClaimRef(
            namespace=get_field(ref, "namespace", str, f"{path}.claimRef", ""),
            name=get_field(ref, "name", str, f"{path}.claimRef", ""),
            uid=get_field(ref, "uid", str, f"{path}.claimRef", "")),
        phase=get_field(get_field(m, "status", dict, "PersistentVolume", {}), "phase", str,
                        "PersistentVolume.status", ""),
        source=sources[0] if sources else "",
        source_fields=dict(spec[sources[0]]) if sources else {},
        volume_attributes_class_name=get_field(spec, "volumeAttributesClassName", str, path, ""),
        deleting=meta.get("deletionTimestamp") is not None)


def pvc_from_manifest(m: Mapping) -> PersistentVolumeClaim:
    kind = "PersistentVolumeClaim"
    meta, name = read_metadata(m, kind)
    path = f"{kind}.spec"
    spec = get_field(m, "spec", dict, kind, {})
    resources = get_field(spec, "resources", dict, path, {})
    return PersistentVolumeClaim(
        name=name, namespace=_namespace(meta, kind), uid=get_field(meta, "uid", str, f"{kind}.metadata", ""),
        labels=get_str_map(meta, "labels", f"{kind}.metadata"),
        annotations=get_str_map(meta, "annotations", f"{kind}.metadata"),
        owner_references=get_list(meta, "ownerReferences", f"{kind}.metadata", owner_reference),
        storage_class_name=get_field(spec, "storageClassName", str, path),
        volume_name=get_field(spec, "volumeName", str, path, ""),
        access_modes=get_strs(spec, "accessModes", path),
        request=_storage(resources, "requests", f"{path}.resources"),
        volume_mode=get_field(spec, "volumeMode", str, path, FILESYSTEM),
        selector=opt_selector(spec, "selector", path),
        volume_attributes_class_name=get_field(spec, "volumeAttributesClassName", str, path, ""),
        phase=get_field(get_field(m, "status", dict, kind, {}), "phase", str, f"{kind}.status", ""),
        deleting=meta.get("deletionTimestamp") is not None)


def _topology_term(o: Mapping, path: str) -> TopologySelectorTerm:
    reqs = get_list(o, "matchLabelExpressions", path,
                    lambda r, p: (get_field(r, "key", str, p, ""), get_strs(r, "values", p)))
    return TopologySelectorTerm(reqs)


def storage_class_from_manifest(m: Mapping) -> StorageClass:
    meta, name = read_metadata(m, "StorageClass")
    mode = get_field(m, "volumeBindingMode", str, "StorageClass", IMMEDIATE)
    if mode not in _BINDING_MODES:
        raise ManifestError(f"StorageClass.volumeBindingMode: {mode!r} is not supported; use one of "
                            f"{', '.join(_BINDING_MODES)}")
    return StorageClass(name=name, labels=get_str_map(meta, "labels", "StorageClass.metadata"),
                        provisioner=get_field(m, "provisioner", str, "StorageClass", ""),
                        volume_binding_mode=mode,
                        allowed_topologies=get_list(m, "allowedTopologies", "StorageClass", _topology_term))


def _csi_node_driver(o: Mapping, path: str) -> CSINodeDriver:
    allocatable = get_field(o, "allocatable", dict, path, {})
    return CSINodeDriver(name=get_field(o, "name", str, path, ""),
                         node_id=get_field(o, "nodeID", str, path, ""),
                         count=get_field(allocatable, "count", int, f"{path}.allocatable"))


def csi_node_from_manifest(m: Mapping) -> CSINode:
    meta, name = read_metadata(m, "CSINode")
    spec = get_field(m, "spec", dict, "CSINode", {})
    return CSINode(name=name, annotations=get_str_map(meta, "annotations", "CSINode.metadata"),
                   drivers=get_list(spec, "drivers", "CSINode.spec", _csi_node_driver))


def csi_driver_from_manifest(m: Mapping) -> CSIDriver:
    _, name = read_metadata(m, "CSIDriver")
    spec = get_field(m, "spec", dict, "CSIDriver", {})
    path = "CSIDriver.spec"
    return CSIDriver(name=name, storage_capacity=bool(get_field(spec, "storageCapacity", bool, path, False)),
                     prevent_pod_scheduling_if_missing=bool(get_field(
                         spec, "preventPodSchedulingIfMissing", bool, path, False)))


def _opt_quantity(m: Mapping, key: str, path: str) -> int | None:
    value = m.get(key)
    return None if value is None else int_value(value, f"{path}.{key}")


def csi_storage_capacity_from_manifest(m: Mapping) -> CSIStorageCapacity:
    kind = "CSIStorageCapacity"
    meta, name = read_metadata(m, kind)
    return CSIStorageCapacity(name=name, namespace=_namespace(meta, kind),
                              storage_class_name=get_field(m, "storageClassName", str, kind, ""),
                              capacity=_opt_quantity(m, "capacity", kind),
                              maximum_volume_size=_opt_quantity(m, "maximumVolumeSize", kind),
                              node_topology=opt_selector(m, "nodeTopology", kind))


def volume_attachment_from_manifest(m: Mapping) -> VolumeAttachment:
    _, name = read_metadata(m, "VolumeAttachment")
    path = "VolumeAttachment.spec"
    spec = get_field(m, "spec", dict, "VolumeAttachment", {})
    source = get_field(spec, "source", dict, path, {})
    return VolumeAttachment(name=name, attacher=get_field(spec, "attacher", str, path, ""),
                            node_name=get_field(spec, "nodeName", str, path, ""),
                            persistent_volume_name=get_field(source, "persistentVolumeName", str,
                                                             f"{path}.source"))


VOLUME_READERS: dict[str, Callable[[Mapping], Any]] = {
    "PersistentVolume": pv_from_manifest, "PersistentVolumeClaim": pvc_from_manifest,
    "StorageClass": storage_class_from_manifest, "CSINode": csi_node_from_manifest,
    "CSIDriver": csi_driver_from_manifest, "CSIStorageCapacity": csi_storage_capacity_from_manifest,
    "VolumeAttachment": volume_attachment_from_manifest,
}

__all__ = ["VOLUME_READERS", "csi_driver_from_manifest", "csi_node_from_manifest",
           "csi_storage_capacity_from_manifest", "pv_from_manifest", "pvc_from_manifest",
           "storage_class_from_manifest", "volume_attachment_from_manifest"]
