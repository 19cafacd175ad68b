"""The one codec between Kubernetes manifests (dicts / YAML) and `reference.types`.

Only this package knows manifest shape: `pods`, `selectors` (selectors and affinity) and `objects`
(nodes, namespaces, workloads, PDBs, and `from_manifest`/`load_manifests` for any supported kind) and
`classes` (PriorityClass, RuntimeClass) and `volumes` (PVs, PVCs, StorageClasses and the CSI objects).
"""

from .objects import (WORKLOAD_KINDS, from_manifest, load_manifests, namespace_from_manifest,
                      namespace_to_manifest, node_from_manifest, node_to_manifest, pdb_from_manifest,
                      pdb_to_manifest, workload_from_manifest, workload_to_manifest)
from .pods import pod_from_manifest, pod_to_manifest
from .selectors import (label_selector_from_manifest, label_selector_to_manifest, node_affinity_from_manifest,
                        node_affinity_to_manifest, node_selector_from_manifest)

__all__ = [
    "WORKLOAD_KINDS",
    "from_manifest",
    "label_selector_from_manifest",
    "label_selector_to_manifest",
    "load_manifests",
    "namespace_from_manifest",
    "namespace_to_manifest",
    "node_affinity_from_manifest",
    "node_affinity_to_manifest",
    "node_from_manifest",
    "node_selector_from_manifest",
    "node_to_manifest",
    "pdb_from_manifest",
    "pdb_to_manifest",
    "pod_from_manifest",
    "pod_to_manifest",
    "workload_from_manifest",
    "workload_to_manifest",
]
