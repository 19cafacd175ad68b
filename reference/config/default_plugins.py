"""Mirrors pkg/scheduler/apis/config/v1/default_plugins.go (getDefaultPlugins, applyFeatureGates, mergePlugins)."""

from __future__ import annotations

from typing import Mapping

from .model import PLUGIN_SET_NAMES, PluginEntry, PluginSet, Plugins

# The gates default_plugins.go reads, with their v1.37.2 defaults (pkg/features/kube_features.go).
FEATURE_DEFAULTS: Mapping[str, bool] = {
    # kube_features.go:1892-1896: GA in 1.37, LockToDefault true.
    "NodeDeclaredFeatures": True,
    # kube_features.go:1721-1723: Alpha in 1.37, off.
    "InPlacePodVerticalScalingSchedulerPreemption": False,
    # kube_features.go:1579-1585: GA since 1.34, locked on since 1.35.
    "DynamicResourceAllocation": True,
    # kube_features.go:1622-1625: Beta in 1.37 but off by default.
    "GenericWorkload": False,
    # kube_features.go:2231-2233: Alpha since 1.36, off; depends on GenericWorkload.
    "TopologyAwareWorkloadScheduling": False,
}

_NAMED = (
    PluginEntry("SchedulingGates"),
    PluginEntry("PrioritySort"),
    PluginEntry("NodeName"),
    PluginEntry("NodeUnschedulable"),
    PluginEntry("TaintToleration", 3),
    PluginEntry("NodeAffinity", 2),
    PluginEntry("NodePorts"),
    PluginEntry("NodeResourcesFit", 1),
    PluginEntry("VolumeRestrictions"),
    PluginEntry("NodeVolumeLimits"),
    PluginEntry("VolumeBinding"),
    PluginEntry("VolumeZone"),
    PluginEntry("PodTopologySpread", 2),
    PluginEntry("InterPodAffinity", 2),
    PluginEntry("DefaultPreemption"),
    PluginEntry("NodeResourcesBalancedAllocation", 1),
    PluginEntry("ImageLocality", 1),
    PluginEntry("DefaultBinder"),
)


def resolve_features(features: Mapping[str, bool] | None) -> dict[str, bool]:
    """v1.37.2 defaults overridden by `features`; unknown gate names are errors."""
    resolved = dict(FEATURE_DEFAULTS)
    for name, enabled in (features or {}).items():
        if name not in FEATURE_DEFAULTS:
            raise ValueError(f"feature gate {name!r} is not read by the scheduler config layer; "
                             f"use one of {', '.join(FEATURE_DEFAULTS)}")
        resolved[name] = bool(enabled)
    return resolved


def default_plugins(features: Mapping[str, bool] | None = None) -> Plugins:
    """`getDefaultPlugins`: everything in multiPoint, then the gated plugins."""
    gates = resolve_features(features)
    enabled = list(_NAMED)
    if gates["NodeDeclaredFeatures"]:
        enabled.append(PluginEntry("NodeDeclaredFeatures"))
    if gates["InPlacePodVerticalScalingSchedulerPreemption"]:
        # Before NodeResourcesFit, so that DeferredPodScheduling is recorded as the failing plugin.
        names = [p.name for p in enabled]
        at = names.index("NodeResourcesFit") if "NodeResourcesFit" in names else len(enabled)
        enabled.insert(at, PluginEntry("DeferredPodScheduling"))
    if gates["DynamicResourceAllocation"]:
        # Before DefaultPreemption: deallocating an idle claim beats evicting a pod.
        names = [p.name for p in enabled]
        if "DefaultPreemption" in names:
            enabled.insert(names.index("DefaultPreemption"), PluginEntry("DynamicResources", 2))
    if gates["GenericWorkload"]:
        enabled.append(PluginEntry("GangScheduling"))
    if gates["TopologyAwareWorkloadScheduling"]:
        enabled += [PluginEntry("TopologyPlacementGenerator"), PluginEntry("PodGroupPodsCount", 1)]
    return Plugins(multiPoint=PluginSet(enabled=tuple(enabled)))


def merge_plugin_set(default: PluginSet, custom: PluginSet) -> PluginSet:
    """`mergePluginSet`: a custom entry replaces a same-named default in place; the rest are appended.

    Duplicated custom entries are kept (the framework rejects them); with duplicates, the last one
    replaces the default and the earlier ones are appended, as upstream's name->index map does.
    """
    disabled = tuple(PluginEntry(p.name) for p in (*custom.disabled, *default.disabled))
    disabled_names = {p.name for p in disabled}
    custom_index = {p.name: i for i, p in enumerate(custom.enabled)}
    replaced: set[int] = set()
    enabled: list[PluginEntry] = []
    if "*" not in disabled_names:
        for plugin in default.enabled:
            if plugin.name in disabled_names:
                continue
            if plugin.name in custom_index:
                replaced.add(custom_index[plugin.name])
                plugin = custom.enabled[custom_index[plugin.name]]
            enabled.append(plugin)
    enabled += [p for i, p in enumerate(custom.enabled) if i not in replaced]
    return PluginSet(enabled=tuple(enabled), disabled=disabled)


def merge_plugins(default: Plugins, custom: Plugins | None) -> Plugins:
    """`mergePlugins`: merge every plugin set, multiPoint included; `None` keeps the defaults."""
    if custom is None:
        return default
    merged = default
    for name in PLUGIN_SET_NAMES:
        merged = merged.with_set(name, merge_plugin_set(default[name], custom[name]))
    return merged


__all__ = ["FEATURE_DEFAULTS", "default_plugins", "merge_plugin_set", "merge_plugins", "resolve_features"]
