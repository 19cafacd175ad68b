"""Mirrors pkg/scheduler/framework/runtime/framework.go `NewFramework`: which plugins run at each
extension point of a profile (updatePluginList, expandMultiPointPlugins, the sanity checks,
getValidScoreWeights) and with which args.

Plugins are not instantiated here; a plugin's args are decoded and validated by its args class,
which is what the in-tree factories do first (their errors become "initializing plugin ...").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ..errors import ConfigError, FrameworkError
from ..gofmt import int64
from ..interfaces import MAX_NODE_SCORE, MAX_TOTAL_SCORE
from ..registry import PluginArgs, PluginSpec, Registry
from .model import PLUGIN_SET_NAMES, PluginEntry, Plugins, Profile
from .points import FRAMEWORK_ORDER, WEIGHTED_POINTS, implements, interface_name


@dataclass(frozen=True)
class ExpandedProfile:
    """A profile as NewFramework builds it. `points` maps every extension point (in v1 field
    order) to its (plugin name, weight) pairs; the weight is 0 except at score/placementScore."""

    scheduler_name: str
    percentage_of_nodes_to_score: int | None
    points: Mapping[str, tuple[tuple[str, int], ...]]
    score_weights: Mapping[str, int]
    placement_score_weights: Mapping[str, int]
    plugin_args: Mapping[str, Any]

    def names(self, point: str) -> list[str]:
        return [name for name, _ in self.points[point]]


def _plugin_args(spec: PluginSpec, args: Any) -> Any:
    """The args the factory would receive, decoded and validated by the args class."""
    if spec.args_type is None:
        return args
    try:
        if isinstance(args, spec.args_type):
            return spec.args_type.from_config(args.to_config(), "")
        if args is None or isinstance(args, PluginArgs):
            got = "<nil>" if args is None else f"*config.{type(args).__name__}"
            raise FrameworkError(f'initializing plugin "{spec.name}": want args to be of type '
                                 f"{spec.args_type.KIND or spec.args_type.__name__}, got {got}")
        return spec.args_type.from_config(args, "")
    except ConfigError as e:
        raise FrameworkError(f'initializing plugin "{spec.name}": {e}') from e


def _update_plugin_list(point: str, enabled: tuple[PluginEntry, ...], plugins: Mapping[str, PluginSpec]) -> list[str]:
    """`updatePluginList`: the point's own enabled list, each name once and implementing the point."""
    iface = interface_name(point)
    names: list[str] = []
    for entry in enabled:
        spec = plugins.get(entry.name)
        if spec is None:
            raise FrameworkError(f'{iface} "{entry.name}" does not exist')
        if not implements(spec, point):
            raise FrameworkError(f'plugin "{entry.name}" does not extend {iface} plugin')
        if entry.name in names:
            raise FrameworkError(f'plugin "{entry.name}" already registered as "{iface}"')
        names.append(entry.name)
    return names


def _expand_multi_point(point: str, config: Plugins, specific: list[str],
                        plugins: Mapping[str, PluginSpec]) -> list[str]:
    """`expandMultiPointPlugins` for one point: overrides first, then multiPoint-only plugins,
    then the remaining specific ones; a "*" in the point's disabled list skips multiPoint there."""
    disabled = config[point].disabled_names()
    if "*" in disabled:
        return specific
    iface = interface_name(point)
    multi: list[str] = []
    overrides: set[str] = set()
    for entry in config.multiPoint.enabled:
        spec = plugins.get(entry.name)
        if spec is None:
            raise FrameworkError(f'{iface} "{entry.name}" does not exist')
        if not implements(spec, point) or entry.name in disabled:
            continue
        if entry.name in specific:
            overrides.add(entry.name)
            continue
        if entry.name in multi:
            raise FrameworkError(f'plugin "{entry.name}" already registered as "{iface}"')
        multi.append(entry.name)
    first = [n for n in specific if n in overrides]
    rest = [n for n in specific if n not in overrides]
    return first + multi + rest


def score_weights(entries: list[PluginEntry], plugins: Mapping[str, PluginSpec], point: str) -> dict[str, int]:
    """`getValidScoreWeights`: the first entry of a name wins, 0 (unset) becomes 1, and the sum of
    weight * MaxNodeScore must fit in an int64."""
    weights: dict[str, int] = {}
    total = 0
    for entry in entries:
        spec = plugins.get(entry.name)
        if spec is None or not implements(spec, point) or entry.name in weights:
            continue
        weight = entry.weight or 1
        weights[entry.name] = weight
        # Go's int64 wraps: after a negative weight, MaxTotalScore - total wraps negative and the next
        # Score plugin fails the check (upstream refuses such a config).
        if weight * MAX_NODE_SCORE > int64(MAX_TOTAL_SCORE - total):
            raise FrameworkError("total score of Score plugins could overflow")
        total = int64(total + weight * MAX_NODE_SCORE)
    return weights


def _empty(profile: Profile) -> ExpandedProfile:
    return ExpandedProfile(profile.scheduler_name or "", profile.percentage_of_nodes_to_score,
                           {p: () for p in PLUGIN_SET_NAMES if p != "multiPoint"}, {}, {}, {})


def expand_profile(profile: Profile, registry: Registry | None = None) -> ExpandedProfile:
    """NewFramework for one profile; raises FrameworkError with upstream's messages."""
    if registry is None:
        from ..plugins import in_tree_registry
        registry = in_tree_registry()
    config = profile.plugins
    if config is None:
        return _empty(profile)
    name = profile.scheduler_name or ""
    needed = {e.name for s in (*FRAMEWORK_ORDER, "multiPoint") for e in config[s].enabled}
    raw_args: dict[str, Any] = {}
    for cfg in profile.plugin_config:
        if cfg.name in raw_args:
            raise FrameworkError(f"repeated config for plugin {cfg.name}")
        raw_args[cfg.name] = cfg.args
    plugins = {spec.name: spec for spec in registry if spec.name in needed}
    args = {n: _plugin_args(spec, raw_args.get(n)) for n, spec in plugins.items()}

    lists = {point: _update_plugin_list(point, config[point].enabled, plugins) for point in FRAMEWORK_ORDER}
    if config.multiPoint.enabled:
        lists = {point: _expand_multi_point(point, config, lists[point], plugins) for point in FRAMEWORK_ORDER}

    if len(lists["queueSort"]) != 1:
        raise FrameworkError(f"only one queue sort plugin required for profile with scheduler name "
                             f'"{name}", but got {len(lists["queueSort"])}')
    if not lists["bind"]:
        raise FrameworkError(f'at least one bind plugin is needed for profile with scheduler name "{name}"')
    if len(lists["placementGenerate"]) > 1:
        raise FrameworkError(f'at most one placement generate plugin is allowed for profile with scheduler name "{name}"')
    weights: dict[str, dict[str, int]] = {}
    for point, label in zip(WEIGHTED_POINTS, ("score plugins", "placement score plugins")):
        try:
            weights[point] = score_weights([*config[point].enabled, *config.multiPoint.enabled], plugins, point)
        except FrameworkError as e:
            raise FrameworkError(f"{label}: {e}") from None

    points = {p: tuple((n, weights[p][n] if p in weights else 0) for n in lists[p])
              for p in PLUGIN_SET_NAMES if p != "multiPoint"}
    return ExpandedProfile(name, profile.percentage_of_nodes_to_score, points, weights["score"],
                           weights["placementScore"], args)


__all__ = ["ExpandedProfile", "expand_profile", "score_weights"]
