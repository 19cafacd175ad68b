"""The in-tree plugins of the reference, one module per upstream plugin (pinned: Kubernetes v1.37.2)."""

from __future__ import annotations

import importlib

from ..registry import Registry

# (module, class) in upstream registry order; modules are imported on first use.
IN_TREE: tuple[tuple[str, str], ...] = (
    ("scheduling_gates", "SchedulingGates"),
    ("priority_sort", "PrioritySort"),
    ("node_name", "NodeName"),
    ("node_unschedulable", "NodeUnschedulable"),
    ("taint_toleration", "TaintToleration"),
    ("node_affinity", "NodeAffinity"),
    ("node_ports", "NodePorts"),
    ("node_resources_fit", "NodeResourcesFit"),
    ("volume_restrictions", "VolumeRestrictions"),
    ("node_volume_limits", "NodeVolumeLimits"),
    ("volume_binding", "VolumeBinding"),
    ("volume_zone", "VolumeZone"),
    ("pod_topology_spread", "PodTopologySpread"),
    ("inter_pod_affinity", "InterPodAffinity"),
    ("dynamic_resources", "DynamicResources"),
    ("default_preemption", "DefaultPreemption"),
    ("node_resources_balanced_allocation", "NodeResourcesBalancedAllocation"),
    ("image_locality", "ImageLocality"),
    ("default_binder", "DefaultBinder"),
    ("node_declared_features", "NodeDeclaredFeatures"),
)


def in_tree_registry() -> Registry:
    """Every in-tree plugin the reference models, keyed by its upstream name."""
    classes = [getattr(importlib.import_module(f"{__name__}.{module}"), cls) for module, cls in IN_TREE]
    return Registry.of(*classes)


__all__ = ["IN_TREE", "in_tree_registry"]
