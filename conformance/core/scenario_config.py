"""What the reference says a scenario's config means: expanded plugins per profile, weights, args.

A config may name plugins the reference does not have (a user's out-of-tree plugins, built into the
upstream runner): they are read as opaque plugins (`reference.config.opaque`), which is exact for the
own-scheduler scenarios, whose configs name each point's plugins explicitly.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Iterator, Mapping

from reference.config import ExpandedProfile, expand_config, list_plugins, load_config, opaque_registry
from reference.config.model import KubeSchedulerConfiguration
from reference.plugins import in_tree_registry
from reference.registry import Registry
from reference.probe import probe_registry

DEFAULT_CONFIG = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration"}


def _named(config: Mapping[str, Any], point: str | None = None) -> Iterator[str]:
    """Every plugin name a config mentions (plugin sets and pluginConfig), or those of one point's set."""
    for profile in config.get("profiles") or ():
        if not isinstance(profile, Mapping):
            continue
        plugins = profile.get("plugins") or {}
        for name, plugin_set in plugins.items() if isinstance(plugins, Mapping) else ():
            if point is not None and name != point:
                continue
            for key in ("enabled", "disabled") if point is None else ("enabled",):
                for entry in (plugin_set or {}).get(key) or ():
                    if isinstance(entry, Mapping) and isinstance(entry.get("name"), str):
                        yield entry["name"]
        for entry in profile.get("pluginConfig") or () if point is None else ():
            if isinstance(entry, Mapping) and isinstance(entry.get("name"), str):
                yield entry["name"]


@lru_cache(maxsize=1)
def _known_plugins() -> frozenset[str]:
    return frozenset(spec.name for spec in in_tree_registry().merged(probe_registry()))


def unknown_plugins(config: Mapping[str, Any] | None) -> frozenset[str]:
    """Plugins the config names that neither the reference nor the probes implement."""
    known = _known_plugins()
    return frozenset(n for n in _named(config or {}) if n != "*" and n not in known)


def stand_ins(config: Mapping[str, Any] | None) -> Registry:
    """Opaque plugins for the config's unknown plugins; those it enables at queueSort sort too."""
    return opaque_registry(unknown_plugins(config), _named(config or {}, "queueSort"))


@lru_cache(maxsize=256)
def _load(config_json: str) -> tuple[KubeSchedulerConfiguration, dict[str, ExpandedProfile]]:
    document = json.loads(config_json)
    registry = in_tree_registry().merged(probe_registry()).merged(stand_ins(document))
    config = load_config(document, registry=registry)
    return config, expand_config(config, registry)


def load(config: Mapping[str, Any] | None) -> tuple[KubeSchedulerConfiguration, dict[str, ExpandedProfile]]:
    """The loaded config and its expanded profiles (cached by content; raises the reference's errors)."""
    return _load(json.dumps(config or DEFAULT_CONFIG, sort_keys=True))


def plugin_lists(config: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """Per profile, `ListPlugins` in the v1 JSON shape (docs/scenario.md, outcome `plugins`)."""
    return {name: list_plugins(profile) for name, profile in load(config)[1].items()}


__all__ = ["DEFAULT_CONFIG", "load", "plugin_lists", "stand_ins", "unknown_plugins"]
