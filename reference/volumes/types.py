"""The storage objects the volume plugins read (core/v1 PersistentVolume, PersistentVolumeClaim; storage/v1
StorageClass, CSINode, CSIDriver, CSIStorageCapacity, VolumeAttachment), only the fields they read, as the
API server stores them (defaults applied by the codec). Quantities are bytes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from ..types import DEFAULT_NAMESPACE, LabelSelector, NodeSelector, OwnerReference

FILESYSTEM = "Filesystem"
IMMEDIATE, WAIT_FOR_FIRST_CONSUMER = "Immediate", "WaitForFirstConsumer"
READ_WRITE_ONCE_POD = "ReadWriteOncePod"
VOLUME_AVAILABLE = "Available"
CLAIM_LOST = "Lost"
# v1.BetaStorageClassAnnotation, volume.AnnBindCompleted, volume.AnnSelectedNode,
# v1.MigratedPluginsAnnotationKey
BETA_STORAGE_CLASS_ANNOTATION = "volume.beta.kubernetes.io/storage-class"
ANN_BIND_COMPLETED = "pv.kubernetes.io/bind-completed"
ANN_SELECTED_NODE = "volume.kubernetes.io/selected-node"
MIGRATED_PLUGINS_ANNOTATION = "storage.alpha.kubernetes.io/migrated-plugins"


@dataclass(frozen=True)
class ClaimRef:
    namespace: str
    name: str
    uid: str = ""


@dataclass(frozen=True)
class PersistentVolume:
    name: str
    labels: Mapping[str, str] = field(default_factory=dict)
    annotations: Mapping[str, str] = field(default_factory=dict)
    storage_class_name: str = ""
    capacity: int = 0  # spec.capacity.storage
    access_modes: tuple[str, ...] = ()
    volume_mode: str = FILESYSTEM
    node_affinity: NodeSelector | None = None  # spec.nodeAffinity.required
    claim_ref: ClaimRef | None = None
    phase: str = ""
    # The volume source: its key in spec ("csi", "hostPath", "awsElasticBlockStore", ...) and its fields.
    source: str = ""
    source_fields: Mapping = field(default_factory=dict)
    volume_attributes_class_name: str = ""
    deleting: bool = False

    @property
    def storage_class(self) -> str:
        """`GetPersistentVolumeClass`: the beta annotation first."""
        return self.annotations.get(BETA_STORAGE_CLASS_ANNOTATION, self.storage_class_name)


@dataclass(frozen=True)
class PersistentVolumeClaim:
    name: str
    namespace: str = DEFAULT_NAMESPACE
    uid: str = ""
    labels: Mapping[str, str] = field(default_factory=dict)
    annotations: Mapping[str, str] = field(default_factory=dict)
    owner_references: tuple[OwnerReference, ...] = ()
    storage_class_name: str | None = None
    volume_name: str = ""
    access_modes: tuple[str, ...] = ()
    request: int | None = None  # spec.resources.requests.storage
    volume_mode: str = FILESYSTEM
    selector: LabelSelector | None = None
    volume_attributes_class_name: str = ""
    phase: str = ""
    deleting: bool = False

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}"

    @property
    def storage_class(self) -> str:
        """`GetPersistentVolumeClaimClass`: the beta annotation first, then spec.storageClassName."""
        return self.annotations.get(BETA_STORAGE_CLASS_ANNOTATION, self.storage_class_name or "")

    @property
    def fully_bound(self) -> bool:
        """`isPVCFullyBound`: a volume name and the bind-completed annotation."""
        return bool(self.volume_name) and ANN_BIND_COMPLETED in self.annotations


@dataclass(frozen=True)
class TopologySelectorTerm:
    """One StorageClass allowedTopologies term: (key, values) requirements, all of which must hold."""

    requirements: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True)
class StorageClass:
    name: str
    labels: Mapping[str, str] = field(default_factory=dict)
    provisioner: str = ""
    volume_binding_mode: str = IMMEDIATE  # defaulted by the API server
    allowed_topologies: tuple[TopologySelectorTerm, ...] = ()


@dataclass(frozen=True)
class CSINodeDriver:
    name: str
    node_id: str = ""
    count: int | None = None  # allocatable.count


@dataclass(frozen=True)
class CSINode:
    name: str
    annotations: Mapping[str, str] = field(default_factory=dict)
    drivers: tuple[CSINodeDriver, ...] = ()


@dataclass(frozen=True)
class CSIDriver:
    name: str
    storage_capacity: bool = False  # defaulted false
    prevent_pod_scheduling_if_missing: bool = False


@dataclass(frozen=True)
class CSIStorageCapacity:
    name: str
    namespace: str = DEFAULT_NAMESPACE
    storage_class_name: str = ""
    capacity: int | None = None
    maximum_volume_size: int | None = None
    node_topology: LabelSelector | None = None

    @property
    def volume_limit(self) -> int | None:
        """`volumeLimit`: maximumVolumeSize when set, else capacity."""
        return self.maximum_volume_size if self.maximum_volume_size is not None else self.capacity


@dataclass(frozen=True)
class VolumeAttachment:
    name: str
    attacher: str = ""
    node_name: str = ""
    persistent_volume_name: str | None = None


__all__ = ["ANN_BIND_COMPLETED", "ANN_SELECTED_NODE", "BETA_STORAGE_CLASS_ANNOTATION", "CLAIM_LOST",
           "CSIDriver", "CSINode", "CSINodeDriver", "CSIStorageCapacity", "ClaimRef", "FILESYSTEM",
           "IMMEDIATE", "MIGRATED_PLUGINS_ANNOTATION", "PersistentVolume", "PersistentVolumeClaim",
           "READ_WRITE_ONCE_POD", "StorageClass", "TopologySelectorTerm", "VOLUME_AVAILABLE",
           "VolumeAttachment", "WAIT_FOR_FIRST_CONSUMER"]
