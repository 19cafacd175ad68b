"""The kinds a scenario carries and how an object of each is named (`name` or `namespace/name`)."""

from __future__ import annotations

from typing import Any, Mapping

# The storage objects the volume plugins read (reference/volumes).
VOLUME_KINDS = ("PersistentVolume", "PersistentVolumeClaim", "StorageClass", "CSINode", "CSIDriver",
                "CSIStorageCapacity", "VolumeAttachment")
OBJECT_KINDS = ("Namespace", "PodDisruptionBudget", "Service", "ReplicaSet", "ReplicationController",
                "StatefulSet", "PriorityClass", "RuntimeClass", *VOLUME_KINDS)
CLUSTER_SCOPED = ("Node", "Namespace", "PriorityClass", "RuntimeClass", "PersistentVolume", "StorageClass",
                  "CSINode", "CSIDriver", "VolumeAttachment")
# Kinds the reference models: a custom object of one of these belongs in `objects` (or nodes, pods).
MODELLED = frozenset((*OBJECT_KINDS, "Node", "Pod"))


def object_key(m: Mapping[str, Any]) -> str:
    """`name` of a cluster-scoped manifest, `namespace/name` of a namespaced one (namespace defaults)."""
    meta = m.get("metadata") or {}
    if m.get("kind") in CLUSTER_SCOPED:
        return str(meta.get("name", ""))
    return f"{meta.get('namespace') or 'default'}/{meta.get('name', '')}"


__all__ = ["CLUSTER_SCOPED", "MODELLED", "OBJECT_KINDS", "VOLUME_KINDS", "object_key"]
