"""`st.MakePersistentVolume()`, `MakePersistentVolumeClaim()`, `MakeStorageClass()`, `MakeCSINode()`,
`MakeCSIDriver()`, `MakeCSIStorageCapacity()` and `MakeVolumeAttachment()` as queue.go uses them
(pkg/scheduler/testing/wrappers.go), built as manifests and read by the reference's codec (which applies
the API server's defaults), and the pod volumes they name."""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from reference import volumes
from reference.codec import from_manifest
from tests.reference.queueing.st import NAMESPACE

ZONE, BETA_ZONE = "topology.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/zone"
RWOP, RWO, ROX, RWX = "ReadWriteOncePod", "ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany"
BIND_COMPLETED = {"pv.kubernetes.io/bind-completed": "true"}
HOST_PATH = {"hostPath": {"path": "/tmp", "type": "DirectoryOrCreate"}}


def pv(name: str, *, labels: Mapping[str, str] = {}, modes: Iterable[str] = (RWX,),
       affinity_in: tuple | None = None,
       storage_class: str = "", source: Mapping[str, Any] = HOST_PATH) -> volumes.PersistentVolume:
    """A 1Mi PV; `affinity_in`: (key, values) of a required node affinity term."""
    spec: dict[str, Any] = {"accessModes": list(modes), "capacity": {"storage": "1Mi"}, **source}
    if affinity_in is not None:
        key, values = affinity_in
        spec["nodeAffinity"] = {"required": {"nodeSelectorTerms": [
            {"matchExpressions": [{"key": key, "operator": "In", "values": list(values)}]}]}}
    if storage_class:
        spec["storageClassName"] = storage_class
    return from_manifest({"apiVersion": "v1", "kind": "PersistentVolume",
                                  "metadata": {"name": name, "labels": dict(labels)}, "spec": spec})


def csi_source(driver: str, handle: str) -> dict[str, Any]:
    return {"csi": {"driver": driver, "volumeHandle": handle}}


def pvc(name: str, *, volume_name: str = "", bound: bool = True, modes: Iterable[str] = (RWOP,),
        storage_class: str | None = None) -> volumes.PersistentVolumeClaim:
    """A 1Mi claim in the test namespace; `bound`: the bind-completed annotation."""
    spec: dict[str, Any] = {"accessModes": list(modes), "resources": {"requests": {"storage": "1Mi"}}}
    if volume_name:
        spec["volumeName"] = volume_name
    if storage_class is not None:
        spec["storageClassName"] = storage_class
    meta = {"name": name, "namespace": NAMESPACE, **({"annotations": BIND_COMPLETED} if bound else {})}
    return from_manifest({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": meta,
                                  "spec": spec})


def storage_class(name: str, mode: str, *, labels: Mapping[str, str] = {},
                  allowed_zones: Iterable[str] | None = None) -> volumes.StorageClass:
    m: dict[str, Any] = {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
                         "metadata": {"name": name, "labels": dict(labels)}, "provisioner": "p",
                         "volumeBindingMode": mode}
    if allowed_zones is not None:
        m["allowedTopologies"] = [{"matchLabelExpressions": [{"key": ZONE, "values": list(allowed_zones)}]}]
    return from_manifest(m)


def csi_node(name: str, *drivers: tuple[str, int], annotations: Mapping[str, str] = {}) -> volumes.CSINode:
    """`drivers`: (name, allocatable count) pairs, node ID fake-node."""
    return from_manifest({
        "apiVersion": "storage.k8s.io/v1", "kind": "CSINode",
        "metadata": {"name": name, "annotations": dict(annotations)},
        "spec": {"drivers": [{"name": d, "nodeID": "fake-node", "allocatable": {"count": n}} for d,
                             n in drivers]}})


def csi_driver(name: str, storage_capacity: bool) -> volumes.CSIDriver:
    return from_manifest({"apiVersion": "storage.k8s.io/v1", "kind": "CSIDriver", "metadata": {"name": name},
                                  "spec": {"storageCapacity": storage_capacity}})


def capacity(name: str, class_name: str, size: int) -> volumes.CSIStorageCapacity:
    """`Capacity(resource.NewQuantity(size, BinarySI))`, no node topology."""
    return from_manifest({"apiVersion": "storage.k8s.io/v1", "kind": "CSIStorageCapacity",
                                  "metadata": {"name": name, "namespace": NAMESPACE},
                                  "storageClassName": class_name, "capacity": str(size)})


def attachment(name: str, attacher: str, pv_name: str) -> volumes.VolumeAttachment:
    """Attached to fake-node."""
    return from_manifest({"apiVersion": "storage.k8s.io/v1", "kind": "VolumeAttachment",
                                  "metadata": {"name": name},
                                  "spec": {"attacher": attacher, "nodeName": "fake-node",
                                           "source": {"persistentVolumeName": pv_name}},
                                  "status": {"attached": True}})


def claim(name: str, claim_name: str | None = None) -> dict[str, Any]:
    """`st.MakePod().PVC(claim)`: a volume named after the claim."""
    return {"name": name, "persistentVolumeClaim": {"claimName": claim_name or name}}
