"""The storage objects the volume plugins read: their types, the informers' store, CSI migration (their
manifests: reference/codec/volumes.py)."""

from .store import EVENT_RESOURCES, VolumeObjects, key_of, not_found, objects_of
from .types import (CSIDriver, CSINode, CSINodeDriver, CSIStorageCapacity, PersistentVolume,
                    PersistentVolumeClaim, StorageClass, VolumeAttachment)

__all__ = ["CSIDriver", "CSINode", "CSINodeDriver", "CSIStorageCapacity", "EVENT_RESOURCES",
           "PersistentVolume", "PersistentVolumeClaim", "StorageClass", "VolumeAttachment", "VolumeObjects",
           "key_of", "not_found", "objects_of"]
