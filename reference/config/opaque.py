"""Plugins the reference does not implement (a user's out-of-tree plugins), for reading a config.

An opaque plugin claims every extension point, so it is accepted wherever a config names it; built,
it is inert (the reference never runs it: its point methods are the interfaces' unimplemented ones). Only a config that names each point's plugins explicitly (every point `"*"`-free and
multiPoint disabled, as the own-scheduler scenarios are written) expands as upstream expands it: a
multiPoint entry of an opaque plugin would land at every point.
"""

from __future__ import annotations

from typing import Iterable

from .. import interfaces
from ..registry import PluginSpec, Registry
from .points import PlacementGeneratePlugin, PlacementScorePlugin, PodGroupPostFilterPlugin


class OpaquePlugin(interfaces.PreEnqueuePlugin, interfaces.QueueSortPlugin, interfaces.PreFilterPlugin,
                   interfaces.FilterPlugin, interfaces.PostFilterPlugin, interfaces.PreScorePlugin,
                   interfaces.ScorePlugin, interfaces.ReservePlugin, interfaces.PermitPlugin,
                   interfaces.PreBindPlugin, interfaces.BindPlugin, interfaces.PostBindPlugin,
                   PlacementGeneratePlugin, PlacementScorePlugin, PodGroupPostFilterPlugin):
    """Stands for a plugin only a Go build has; the reference cannot run it."""

    NAME = ""


def opaque_registry(names: Iterable[str]) -> Registry:
    """A registry of opaque plugins, one per name (args stay raw mappings)."""
    return Registry(PluginSpec(name, OpaquePlugin, lambda args, handle: OpaquePlugin()) for name in sorted(set(names)))


__all__ = ["OpaquePlugin", "opaque_registry"]
