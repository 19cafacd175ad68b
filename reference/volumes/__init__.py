"""The storage objects the volume plugins read: types, their manifests, the informers' store, CSI migration."""

from .codec import CLUSTER_SCOPED_VOLUME_KINDS, READERS, VOLUME_KINDS
from .store import EVENT_RESOURCES, VolumeObjects, key_of, not_found, objects_of
from .types import (CSIDriver, CSINode, CSINodeDriver, CSIStorageCapacity, PersistentVolume, PersistentVolumeClaim,
                    StorageClass, VolumeAttachment)


def from_manifest(manifest):
    """Read a storage manifest by its kind."""
    return READERS[manifest["kind"]](manifest)


__all__ = ["CLUSTER_SCOPED_VOLUME_KINDS", "CSIDriver", "CSINode", "CSINodeDriver", "CSIStorageCapacity",
           "EVENT_RESOURCES", "PersistentVolume", "PersistentVolumeClaim", "READERS", "StorageClass",
           "VOLUME_KINDS", "VolumeAttachment", "VolumeObjects", "from_manifest", "key_of", "not_found",
           "objects_of"]
