"""Which extension points a plugin implements, in framework.go `getExtensionPoints` order.

The twelve points of `reference.interfaces` are decided by subclassing, as upstream decides by
Go interface assertions. The three workload-scheduling points of v1.37.2 (placementGenerate,
placementScore, podGroupPostFilter) have no interface in `reference.interfaces`; for them a plugin
implements the point when it subclasses the marker class below, or when it is an in-tree plugin
that implements the point upstream (`var _ fwk.<Point>Plugin = ...` assertions in v1.37.2).
"""

from __future__ import annotations

from .. import interfaces
from ..interfaces import INTERFACE_OF, Plugin, interface_name
from ..registry import PluginSpec


class PlacementGeneratePlugin(Plugin):
    """Marker for `fwk.PlacementGeneratePlugin` (workload scheduling; not run by the reference)."""


class PlacementScorePlugin(Plugin):
    """Marker for `fwk.PlacementScorePlugin` (workload scheduling; not run by the reference)."""


class PodGroupPostFilterPlugin(Plugin):
    """Marker for `fwk.PodGroupPostFilterPlugin` (workload scheduling; not run by the reference)."""


_WORKLOAD_MARKERS: dict[str, type[Plugin]] = {
    "placementGenerate": PlacementGeneratePlugin,
    "placementScore": PlacementScorePlugin,
    "podGroupPostFilter": PodGroupPostFilterPlugin,
}

# v1.37.2: noderesources/fit.go:50, dynamicresources/dynamicresources.go:254,
# defaultpreemption (PodGroupPostFilter method, default_preemption.go:505),
# podgrouppodscount/podgroup_pods_count.go:36, topologyaware/topology_placement.go:43.
IN_TREE_WORKLOAD_POINTS: dict[str, frozenset[str]] = {
    "placementGenerate": frozenset({"TopologyPlacementGenerator"}),
    "placementScore": frozenset({"NodeResourcesFit", "PodGroupPodsCount"}),
    "podGroupPostFilter": frozenset({"DynamicResources", "DefaultPreemption"}),
}

# framework.go getExtensionPoints: the order in which NewFramework builds (and fails on) points.
FRAMEWORK_ORDER: tuple[str, ...] = (
    "preFilter", "filter", "postFilter", "reserve", "preScore", "score", "preBind", "bind",
    "postBind", "permit", "preEnqueue", "queueSort", "placementGenerate", "placementScore",
    "podGroupPostFilter",
)
# Points whose ListPlugins entries carry weights.
WEIGHTED_POINTS = ("score", "placementScore")


def point_interface(point: str) -> type[Plugin]:
    """The class a plugin must subclass to implement `point`."""
    iface = INTERFACE_OF.get(point) or getattr(interfaces, interface_name(point), None)
    return iface or _WORKLOAD_MARKERS[point]


def implements(spec: PluginSpec, point: str) -> bool:
    if issubclass(spec.plugin_type, point_interface(point)):
        return True
    return spec.name in IN_TREE_WORKLOAD_POINTS.get(point, ())


__all__ = [
    "FRAMEWORK_ORDER",
    "IN_TREE_WORKLOAD_POINTS",
    "PlacementGeneratePlugin",
    "PlacementScorePlugin",
    "PodGroupPostFilterPlugin",
    "WEIGHTED_POINTS",
    "implements",
    "point_interface",
    "interface_name",
]
