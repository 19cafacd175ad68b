"""Mirrors pkg/scheduler/profile/profile.go `NewMap` (one framework per profile, the cross-profile
checks) and scheduler.go `buildExtenders` (extender-ignored resources reach NodeResourcesFit args),
plus the framework's `ListPlugins` in the shape the conformance harness prints."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from ..errors import FrameworkError
from ..registry import PluginArgs, Registry
from .expand import ExpandedProfile, expand_profile
from .model import PLUGIN_SET_NAMES, KubeSchedulerConfiguration, Profile

_FIT = "NodeResourcesFit"


def _registry(registry: Registry | None) -> Registry:
    if registry is not None:
        return registry
    from ..plugins import in_tree_registry
    return in_tree_registry()


def apply_extender_ignored_resources(config: KubeSchedulerConfiguration,
                                     registry: Registry | None = None) -> KubeSchedulerConfiguration:
    """`buildExtenders`: resources an extender manages with ignoredByScheduler REPLACE every
    profile's NodeResourcesFit `ignoredResources`; a profile without Fit args is an error."""
    ignored = [r.name for e in config.extenders for r in e.managed_resources if r.ignored_by_scheduler]
    if not ignored:
        return config
    spec = _registry(registry).get(_FIT)
    profiles = []
    for profile in config.profiles:
        configs = list(profile.plugin_config)
        for k, cfg in enumerate(configs):
            if cfg.name != _FIT:
                continue
            raw = cfg.args.to_config() if isinstance(cfg.args, PluginArgs) else dict(cfg.args or {})
            raw["ignoredResources"] = list(ignored)
            args: Any = raw
            if spec is not None and spec.args_type is not None and isinstance(cfg.args, PluginArgs):
                args = spec.args_type.from_config(raw, "")
            configs[k] = replace(cfg, args=args)
            break
        else:
            raise FrameworkError("couldn't build extenders: can't find NodeResourcesFitArgs in plugin config")
        profiles.append(replace(profile, plugin_config=tuple(configs)))
    return replace(config, profiles=tuple(profiles))


def _queue_sort_args(profile: Profile, queue_sort: str) -> Any:
    for cfg in profile.plugin_config:
        if cfg.name == queue_sort:
            return cfg.args
    return None


def expand_config(config: KubeSchedulerConfiguration, registry: Registry | None = None) -> dict[str, ExpandedProfile]:
    """scheduler.New's framework building: scheduler name -> ExpandedProfile, in profile order.

    Pass a defaulted configuration (`load_config` output); raises FrameworkError as upstream does.
    """
    registry = _registry(registry)
    config = apply_extender_ignored_resources(config, registry)
    out: dict[str, ExpandedProfile] = {}
    first: tuple[str, Any] | None = None
    for profile in config.profiles:
        try:
            expanded = expand_profile(profile, registry)
        except FrameworkError as e:
            raise FrameworkError(f"creating profile for scheduler name {profile.scheduler_name or ''}: {e}") from e
        name = expanded.scheduler_name
        if not name:
            raise FrameworkError("scheduler name is needed")
        if profile.plugins is None:
            raise FrameworkError(f'plugins required for profile with scheduler name "{name}"')
        if name in out:
            raise FrameworkError(f'duplicate profile with scheduler name "{name}"')
        queue_sort = expanded.names("queueSort")[0]
        args = _queue_sort_args(profile, queue_sort)
        if first is None:
            first = (queue_sort, args)
        elif first[0] != queue_sort:
            raise FrameworkError(f'different queue sort plugins for profile "{name}": "{queue_sort}", first: "{first[0]}"')
        elif first[1] != args:
            raise FrameworkError(f'different queue sort plugin args for profile "{name}"')
        out[name] = expanded
    return out


def list_plugins(expanded: ExpandedProfile) -> dict[str, Any]:
    """`ListPlugins()` converted to v1 and JSON-encoded, as harness/cmd/runner prints it: every
    plugin set in v1 field order, `{}` when empty, entries `{"name", "weight"}` (weight 0 except
    at score and placementScore)."""
    out: dict[str, Any] = {}
    for point in PLUGIN_SET_NAMES:
        entries = expanded.points.get(point, ())
        out[point] = {"enabled": [{"name": n, "weight": w} for n, w in entries]} if entries else {}
    return out


def effective_plugins(config: KubeSchedulerConfiguration | str | Mapping[str, Any], *,
                      registry: Registry | None = None) -> dict[str, dict[str, list[str]]]:
    """scheduler name -> extension point -> plugin names, for every point (empty lists included).

    Text or a mapping is loaded (decoded, defaulted, validated) first; a KubeSchedulerConfiguration
    must already be defaulted.
    """
    if not isinstance(config, KubeSchedulerConfiguration):
        from .load import load_config
        config = load_config(config, registry=registry)
    return {name: {point: expanded.names(point) for point in expanded.points}
            for name, expanded in expand_config(config, registry).items()}


__all__ = ["apply_extender_ignored_resources", "effective_plugins", "expand_config", "list_plugins"]
