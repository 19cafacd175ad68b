"""What the reference says a scenario's config means: expanded plugins per profile, weights, args."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Mapping

from reference.config import ExpandedProfile, expand_config, list_plugins, load_config
from reference.config.model import KubeSchedulerConfiguration
from reference.plugins import in_tree_registry
from reference.probe import probe_registry

DEFAULT_CONFIG = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration"}


@lru_cache(maxsize=256)
def _load(config_json: str) -> tuple[KubeSchedulerConfiguration, dict[str, ExpandedProfile]]:
    registry = in_tree_registry().merged(probe_registry())
    config = load_config(json.loads(config_json), registry=registry)
    return config, expand_config(config, registry)


def load(config: Mapping[str, Any] | None) -> tuple[KubeSchedulerConfiguration, dict[str, ExpandedProfile]]:
    """The loaded config and its expanded profiles (cached by content; raises the reference's errors)."""
    return _load(json.dumps(config or DEFAULT_CONFIG, sort_keys=True))


def plugin_lists(config: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """Per profile, `ListPlugins` in the v1 JSON shape (docs/scenario.md, outcome `plugins`)."""
    return {name: list_plugins(profile) for name, profile in load(config)[1].items()}


__all__ = ["DEFAULT_CONFIG", "load", "plugin_lists"]
