"""The storage objects of the cluster as the scheduler's informers hold them, and the listers' NotFound texts
(`errors.NewNotFound(group.Resource(name), name)`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from ..events import (CSI_DRIVER, CSI_NODE, CSI_STORAGE_CAPACITY, PERSISTENT_VOLUME, PERSISTENT_VOLUME_CLAIM,
                      STORAGE_CLASS, VOLUME_ATTACHMENT)
from ..kinds import CLUSTER_SCOPED
from .types import CSIDriver, CSINode, PersistentVolume, PersistentVolumeClaim, StorageClass

# The EventResource of each kind's informer events (eventhandlers.go buildEvtResHandler).
EVENT_RESOURCES = {
    "PersistentVolume": PERSISTENT_VOLUME, "PersistentVolumeClaim": PERSISTENT_VOLUME_CLAIM,
    "StorageClass": STORAGE_CLASS, "CSINode": CSI_NODE, "CSIDriver": CSI_DRIVER,
    "CSIStorageCapacity": CSI_STORAGE_CAPACITY, "VolumeAttachment": VOLUME_ATTACHMENT,
}

# The lister's resource per kind, as its NotFound error names it.
_RESOURCES = {
    "PersistentVolume": "persistentvolume", "PersistentVolumeClaim": "persistentvolumeclaim",
    "StorageClass": "storageclass.storage.k8s.io", "CSINode": "csinode.storage.k8s.io",
    "CSIDriver": "csidriver.storage.k8s.io", "CSIStorageCapacity": "csistoragecapacity.storage.k8s.io",
    "VolumeAttachment": "volumeattachment.storage.k8s.io",
}


def not_found(kind: str, name: str) -> str:
    """The text of a lister's NotFound error (`persistentvolumeclaim "pvc1" not found`)."""
    return f'{_RESOURCES[kind]} "{name}" not found'


def key_of(obj: Any) -> str:
    """`name`, or `namespace/name` for the namespaced kinds."""
    namespace = getattr(obj, "namespace", None)
    return obj.name if type(obj).__name__ in CLUSTER_SCOPED or namespace is None \
        else f"{namespace}/{obj.name}"


@dataclass
class VolumeObjects:
    """Per kind, key (`name` or `namespace/name`) -> object."""

    by_kind: dict[str, dict[str, Any]] = field(default_factory=lambda: {k: {} for k in _RESOURCES})

    def put(self, obj: Any) -> Any:
        """Store `obj`; returns the object it replaced (None: an add)."""
        kind = type(obj).__name__
        objects = self.by_kind[kind]
        old = objects.get(key_of(obj))
        objects[key_of(obj)] = obj
        return old

    def remove(self, kind: str, key: str) -> Any:
        return self.by_kind[kind].pop(key, None)

    def get(self, kind: str, key: str) -> Any:
        return self.by_kind[kind].get(key)

    def all(self, kind: str) -> Iterator[Any]:
        return iter(list(self.by_kind[kind].values()))

    def pvc(self, namespace: str, name: str) -> PersistentVolumeClaim | None:
        return self.by_kind["PersistentVolumeClaim"].get(f"{namespace}/{name}")

    def pv(self, name: str) -> PersistentVolume | None:
        return self.by_kind["PersistentVolume"].get(name)

    def storage_class(self, name: str) -> StorageClass | None:
        return self.by_kind["StorageClass"].get(name)

    def csi_node(self, name: str) -> CSINode | None:
        return self.by_kind["CSINode"].get(name)

    def csi_driver(self, name: str) -> CSIDriver | None:
        return self.by_kind["CSIDriver"].get(name)

    def pvs_of_class(self, class_name: str) -> list[PersistentVolume]:
        """`pvCache.ListPVs(storageClassName)`: the PVs of one class, in name order (the cache's index)."""
        return sorted((p for p in self.by_kind["PersistentVolume"].values() if p.storage_class == class_name),
                      key=lambda p: p.name)


_EMPTY = VolumeObjects()


def objects_of(handle: Any) -> VolumeObjects:
    """The storage objects a plugin's handle reads (its informers); none for a plugin built without one."""
    client = getattr(handle, "_client", None) if handle is not None else None
    return getattr(client, "volumes", _EMPTY)


__all__ = ["EVENT_RESOURCES", "VolumeObjects", "key_of", "not_found", "objects_of"]
