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

from ._draw import Draw, Manifest, count, elements, flag, keyed, optional, pick, subset, together
from ._plugin_args import draw_plugin_config

# Points a probe can run at (probes implement every point but QueueSort), in v1 field order.
PROBE_POINTS = ("preEnqueue", "preFilter", "filter", "postFilter", "preScore", "score", "reserve", "permit",
                "preBind", "bind", "postBind")
KEEP = ("PrioritySort", "DefaultBinder")
SCORE_WEIGHTS = (1, 2, 5, 0, 10)  # 0 is legal: the framework turns it into 1
# "default": the v1 defaults untouched; "edited": re-weighted, re-ordered, maybe disabled;
# "probes": only PrioritySort, DefaultBinder and the probes.
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
    scored = [p for p in default_layout().score_weights if p in base["score"]]
    weights = optional(draw, 50, lambda d: keyed(d, scored, lambda d: pick(d, SCORE_WEIGHTS))) if scored else None
    for plugin, weight in (weights or {}).items():
        sets.add("multiPoint", "enabled", {"name": plugin, "weight": weight})
    if can_disable:
        for plugin in subset(draw, [p for p in multi_point if p not in KEEP], max_size=2):
            sets.add("multiPoint", "disabled", {"name": plugin})
    starred: dict[str, list[Manifest]] = {}

    def edit_point(draw: Draw, i: int) -> tuple[str, str, list[Manifest]] | None:
        """One point's edit: (point, "enabled" | "disabled" | "star", entries)."""
        point = pick(draw, PROBE_POINTS)
        present = base[point]
        droppable = [p for p in present if p not in KEEP]
        treatment = pick(draw, ("front", "star", "disable") if can_disable and droppable else ("front", "star"))
        edit: tuple[str, str, list[Manifest]] | None = None
        if treatment == "front" and present:
            edit = point, "enabled", [_entry(draw, p, point) for p in subset(draw, present, min_size=1, max_size=2)]
        elif treatment == "disable":
            edit = point, "disabled", [{"name": p} for p in subset(draw, droppable, min_size=1, max_size=2)]
        elif treatment == "star":
            order = list(draw(st.permutations(present)))
            if can_disable:
                order = [p for p in order if p in KEEP or not draw(flag(30))]
            edit = point, "star", [_entry(draw, name, point) for name in order]
        return None if point in sets.sets or point in starred else edit

    def apply(edit: tuple[str, str, list[Manifest]]) -> None:
        point, kind, entries = edit
        if kind == "star":
            starred[point] = entries
        for entry in entries if kind != "star" else ():
            sets.add(point, kind, entry)
    elements(draw, 0, 2, edit_point, more=50, kept=apply)
    return starred


@dataclass(frozen=True)
class Placement:
    """A drawn probe: where it runs (None: multiPoint), scoreExtensions, and the config entries
    to add: new "*" orders, then (point, index in the point's "*" order or None, entry)."""

    probe: str
    points: frozenset[str] | None
    normalize: bool
    stars: Mapping[str, list[Manifest]]
    inserts: list[tuple[str, int | None, Manifest]]


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

    def place(draw: Draw, i: int) -> Placement:
        """One probe with every choice about it: where it runs, its weights, scoreExtensions."""
        probe = PROBE_NAMES[i]
        if everywhere and not draw(flag(40)):
            entry = _entry(draw, probe, "multiPoint")
            return Placement(probe, None, draw(flag(30)), {}, [("multiPoint", None, entry)])
        # Every focused point is the simplest placement (as multiPoint is without a focus), and
        # draws nothing more, so that shrinking towards it never has to invent choices.
        points = optional(draw, 50, lambda d: subset(d, allowed, min_size=1, max_size=3)) or list(allowed)
        stars: dict[str, list[Manifest]] = {}
        inserts: list[tuple[str, int | None, Manifest]] = []
        for point in points:
            if point not in starred and point not in sets.sets and base[point]:
                # A point-specific plugin runs after the multiPoint ones; "*" and an explicit
                # order let the probe run before the defaults (e.g. bind before DefaultBinder).
                order = optional(draw, 40, lambda d: [_entry(d, name, point) for name in base[point]])
                if order is not None:
                    stars[point] = order
            entry = _entry(draw, probe, point)
            current = stars.get(point, starred.get(point))
            inserts.append((point, None if current is None else count(draw, 0, len(current)), entry))
        return Placement(probe, frozenset(points), "score" in points and draw(flag(30)), stars, inserts)

    def apply(placement: Placement) -> None:
        starred.update(placement.stars)
        for point, index, entry in placement.inserts:
            if index is None:
                sets.add(point, "enabled", entry)
            else:
                starred[point].insert(index, entry)

    placed = [(p.probe, p.points, p.normalize) for p in elements(draw, 0, max_probes, place, more=75, kept=apply)]
    # "*" at a point skips multiPoint plugins there.
    multi_points = frozenset(p for p in PROBE_POINTS if p not in starred)
    placements = {probe: multi_points if points is None else points for probe, points, _ in placed}
    normalizing = [probe for probe, _, normalize in placed if normalize and "score" in placements[probe]]
    for point, order in starred.items():
        sets.add(point, "disabled", {"name": "*"})
        for entry in order:
            sets.add(point, "enabled", entry)

    plugin_config = optional(draw, 30, lambda d: draw_plugin_config(d, preemption=preemption)) or []
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
