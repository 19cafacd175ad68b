"""Plugins the reference does not implement (a user's out-of-tree plugins), for reading a config.

An opaque plugin claims every extension point but QueueSort, so it is accepted wherever a config names it;
built, it is inert (the reference never runs it: its point methods are the interfaces' unimplemented ones).
QueueSort only for the names a config enables at queueSort itself (`queue_sorts`): a multiPoint entry of an
opaque plugin lands at every other point, and a config upstream accepted has one queue sort plugin, PrioritySort
unless it names another at queueSort. Only a config that names each point's plugins explicitly (every point
`"*"`-free and multiPoint disabled, as the own-scheduler scenarios are written) expands exactly as upstream does.
"""

from __future__ import annotations

from typing import Iterable

from .. import interfaces
from ..registry import PluginSpec, Registry
from .points import PlacementGeneratePlugin, PlacementScorePlugin, PodGroupPostFilterPlugin


class OpaquePlugin(interfaces.PreEnqueuePlugin, interfaces.PreFilterPlugin, interfaces.FilterPlugin,
                   interfaces.PostFilterPlugin, interfaces.PreScorePlugin, interfaces.ScorePlugin, interfaces.ReservePlugin, interfaces.PermitPlugin,
                   interfaces.PreBindPlugin, interfaces.BindPlugin, interfaces.PostBindPlugin,
                   PlacementGeneratePlugin, PlacementScorePlugin, PodGroupPostFilterPlugin):
    """Stands for a plugin only a Go build has; the reference cannot run it."""

    NAME = ""


class OpaqueQueueSortPlugin(OpaquePlugin, interfaces.QueueSortPlugin):
    """An opaque plugin a config enables at queueSort."""


def opaque_registry(names: Iterable[str], queue_sorts: Iterable[str] = ()) -> Registry:
    """A registry of opaque plugins, one per name (args stay raw mappings); those in `queue_sorts` sort too."""
    sorts = set(queue_sorts)
    return Registry(PluginSpec(name, cls, lambda args, handle, cls=cls: cls()) for name in sorted(set(names))
                    for cls in [OpaqueQueueSortPlugin if name in sorts else OpaquePlugin])


__all__ = ["OpaquePlugin", "opaque_registry"]
