"""One KubeSchedulerProfile: the default plugins kept, edited or replaced by probes, and probes placed.

Edits are the ways users really change profiles (docs: "Scheduler Configuration"): re-weighting
a score plugin in multiPoint (kept in place), re-declaring plugins at one point (they move to the
front there), disabling plugins in multiPoint or at one point, and `"*"` at a point followed by
an explicit order. Every edit keeps the profile valid: PrioritySort and DefaultBinder are never
dropped, queueSort is never touched (it must be identical across profiles), and no plugin is
enabled twice at a point.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping, Sequence

from hypothesis import strategies as st

from reference.config import default_plugins, expand_config, load_config
from reference.probe import PROBE_NAMES

from ._draw import Draw, Manifest, count, elements, flag, pick, subset, together
from ._plugin_args import draw_plugin_config

# Points a probe can run at (probes implement every point but QueueSort), in v1 field order.
PROBE_POINTS = ("preEnqueue", "preFilter", "filter", "postFilter", "preScore", "score", "reserve", "permit",
                "preBind", "bind", "postBind")
KEEP = ("PrioritySort", "DefaultBinder")
SCORE_WEIGHTS = (1, 2, 5, 0, 10)  # 0 is legal: the framework turns it into 1
MODES = ("default", "edited", "probes")
_MINIMAL = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration"}


@dataclass(frozen=True)
class DefaultLayout:
    """The v1 default profile as NewFramework expands it."""

    points: Mapping[str, tuple[str, ...]]   # point -> plugins, in run order
    multi_point: tuple[str, ...]            # getDefaultPlugins' multiPoint list
    score_weights: Mapping[str, int]


@lru_cache(maxsize=1)
def default_layout() -> DefaultLayout:
    expanded = expand_config(load_config(dict(_MINIMAL)))["default-scheduler"]
    return DefaultLayout({p: tuple(expanded.names(p)) for p in PROBE_POINTS},
                         tuple(e.name for e in default_plugins().multiPoint.enabled),
                         dict(expanded.score_weights))


@dataclass(frozen=True)
class ProfilePlan:
    """What a drawn profile means for scripts: where each probe runs, which probes normalize scores."""

    scheduler_name: str
    probes: Mapping[str, frozenset[str]]
    score_extensions: frozenset[str]
    in_tree: bool  # in-tree plugins other than PrioritySort and DefaultBinder may run

    def script_points(self, probe: str) -> frozenset[str]:
        return self.probes.get(probe, frozenset())


class _Sets:
    """`plugins` under construction: point -> {"enabled": [...], "disabled": [...]}."""

    def __init__(self) -> None:
        self.sets: dict[str, dict[str, list[Manifest]]] = {}

    def add(self, point: str, key: str, entry: Manifest) -> None:
        self.sets.setdefault(point, {}).setdefault(key, []).append(entry)

    def manifest(self) -> Manifest:
        order = ("multiPoint", *PROBE_POINTS)
        return {p: self.sets[p] for p in order if p in self.sets}


def _entry(draw: Draw, name: str, point: str) -> Manifest:
    if point in ("score", "multiPoint") and draw(flag(25)):
        return {"name": name, "weight": pick(draw, SCORE_WEIGHTS)}
    return {"name": name}


def _draw_edits(draw: Draw, sets: _Sets, base: Mapping[str, tuple[str, ...]], *, can_disable: bool,
                multi_point: Sequence[str]) -> dict[str, list[Manifest]]:
    """Apply drawn edits; return the explicit order (entries) of every point given `"*"`."""
    layout = default_layout()
    scored = [p for p in layout.score_weights if p in base["score"]]
    for plugin in subset(draw, scored, max_size=2):
        sets.add("multiPoint", "enabled", {"name": plugin, "weight": pick(draw, SCORE_WEIGHTS)})
    if can_disable:
        for plugin in subset(draw, [p for p in multi_point if p not in KEEP], max_size=2):
            sets.add("multiPoint", "disabled", {"name": plugin})
    starred: dict[str, list[Manifest]] = {}
    for point in subset(draw, PROBE_POINTS, max_size=2):
        present = base[point]
        droppable = [p for p in present if p not in KEEP]
        treatment = pick(draw, ("front", "star", "disable") if can_disable and droppable else ("front", "star"))
        if treatment == "front" and present:
            for plugin in subset(draw, present, min_size=1, max_size=2):
                sets.add(point, "enabled", _entry(draw, plugin, point))
        elif treatment == "disable":
            for plugin in subset(draw, droppable, min_size=1, max_size=2):
                sets.add(point, "disabled", {"name": plugin})
        elif treatment == "star":
            order = list(draw(st.permutations(present)))
            if can_disable:
                order = [p for p in order if p in KEEP or not draw(flag(30))]
            starred[point] = [_entry(draw, name, point) for name in order]
    return starred


def draw_profile(draw: Draw, *, scheduler_name: str, max_probes: int, allowed: Sequence[str], mode: str,
                 can_disable: bool, preemption: bool = False, fit_args: bool = False) -> tuple[Manifest, ProfilePlan]:
    """A profile named `scheduler_name` with up to `max_probes` probes (Probe0...) placed at points
    from `allowed` (all of PROBE_POINTS allows multiPoint placement). `preemption` keeps args
    from stopping preemption; `fit_args` forces a NodeResourcesFit pluginConfig."""
    layout = default_layout()
    sets = _Sets()
    if mode == "probes":
        sets.add("multiPoint", "disabled", {"name": "*"})
        for name in KEEP:
            sets.add("multiPoint", "enabled", {"name": name})
        base = {p: tuple(n for n in layout.points[p] if n in KEEP) for p in PROBE_POINTS}
    else:
        base = dict(layout.points)
    starred: dict[str, list[Manifest]] = {}
    if mode != "default":
        starred = together(draw, lambda d: _draw_edits(d, sets, base, can_disable=can_disable and mode == "edited",
                                                      multi_point=layout.multi_point if mode == "edited" else ()))

    everywhere = tuple(allowed) == PROBE_POINTS

    def place(draw: Draw, i: int) -> tuple[str, frozenset[str] | None, bool]:
        """One probe with every choice about it: where it runs, its weights, scoreExtensions."""
        probe = PROBE_NAMES[i]
        if everywhere and not draw(flag(40)):
            sets.add("multiPoint", "enabled", _entry(draw, probe, "multiPoint"))
            return probe, None, draw(flag(30))
        # Every focused point is the simplest placement (as multiPoint is without a focus), and
        # draws nothing more, so that shrinking towards it never has to invent choices.
        points = subset(draw, allowed, min_size=1, max_size=3) if draw(flag(50)) else list(allowed)
        for point in points:
            if point not in starred and point not in sets.sets and base[point] and draw(flag(40)):
                # A point-specific plugin runs after the multiPoint ones; "*" and an explicit
                # order let the probe run before the defaults (e.g. bind before DefaultBinder).
                starred[point] = [_entry(draw, name, point) for name in base[point]]
            entry = _entry(draw, probe, point)
            if point in starred:
                starred[point].insert(count(draw, 0, len(starred[point])), entry)
            else:
                sets.add(point, "enabled", entry)
        return probe, frozenset(points), "score" in points and draw(flag(30))

    placed = elements(draw, 0, max_probes, place, more=75)
    # "*" at a point skips multiPoint plugins there.
    multi_points = frozenset(p for p in PROBE_POINTS if p not in starred)
    placements = {probe: multi_points if points is None else points for probe, points, _ in placed}
    normalizing = [probe for probe, _, normalize in placed if normalize and "score" in placements[probe]]
    for point, order in starred.items():
        sets.add(point, "disabled", {"name": "*"})
        for entry in order:
            sets.add(point, "enabled", entry)

    plugin_config = draw_plugin_config(draw, preemption=preemption) if draw(flag(30)) else []
    if fit_args and all(c["name"] != "NodeResourcesFit" for c in plugin_config):
        plugin_config.append({"name": "NodeResourcesFit", "args": {}})
    plugin_config += [{"name": p, "args": {"scoreExtensions": True}} for p in normalizing]

    profile: Manifest = {"schedulerName": scheduler_name}
    if sets.sets:
        profile["plugins"] = sets.manifest()
    if plugin_config:
        profile["pluginConfig"] = plugin_config
    if draw(flag(10)):
        profile["percentageOfNodesToScore"] = pick(draw, (50, 0, 100))
    return profile, ProfilePlan(scheduler_name, placements, frozenset(normalizing), mode != "probes")


__all__ = ["DefaultLayout", "KEEP", "MODES", "PROBE_POINTS", "ProfilePlan", "default_layout", "draw_profile"]
