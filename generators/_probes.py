"""`probe_scripts()`: what each probe answers at each point for one pod (format: docs/probes.md).

Scripts are a few (probe, point) entries; everything else keeps the default (Success, score 0,
Bind Skip), so shrinking drops entries and ends on {}. Permit timing sits on a grid of
u = max_permit_timeout / 8: timeouts are 0, 4u or 8u and `then.after` is u or 3u (at most half the
timeout), so a scripted signal never coincides with a timeout and outcomes never hang on a race.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Collection, Mapping, Sequence

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from reference.duration import format_duration
from reference.probe import PROBE_NAMES, SCRIPTED_POINTS
from reference.probe.script import NODE_POINTS

from ._draw import Draw, Manifest, elements, flag, keyed, optional, pick, subset, together
from .pools import NODE_NAMES

# Every point a probe is traced at: the scripted ones, and two that only record.
EXTENSION_POINTS = SCRIPTED_POINTS + ("Unreserve", "PostBind")
CONFIG_POINT = {
    "PreEnqueue": "preEnqueue", "PreFilter": "preFilter", "AddPod": "preFilter", "RemovePod": "preFilter",
    "Filter": "filter", "PostFilter": "postFilter", "PreScore": "preScore", "Score": "score",
    "NormalizeScore": "score", "Reserve": "reserve", "Unreserve": "reserve", "Permit": "permit",
    "PreBindPreFlight": "preBind", "PreBind": "preBind", "Bind": "bind", "PostBind": "postBind",
}
# Success first (the default), then the codes by how often they matter.
CODES = ("Success", "Unschedulable", "Error", "UnschedulableAndUnresolvable", "Skip", "Wait", "Pending")
BIND_CODES = ("Skip", "Success", "Unschedulable", "Error", "UnschedulableAndUnresolvable", "Wait", "Pending")
# Not Skip or Wait at PostFilter: kube-scheduler v1.37.2 panics on them (framework.go
# RunPostFilterPlugins: fwk.AsStatus(s.AsError()) is nil for those codes, then .WithPlugin
# dereferences it), and neither is a PostFilter answer the framework defines. The reference turns
# them into an Error; tests/reference keeps that case.
POSTFILTER_CODES = ("Success", "Unschedulable", "Error", "UnschedulableAndUnresolvable", "Pending")
# Wait is Permit's own answer, so it is drawn there as often as all the others together.
PERMIT_CODES = ("Success", "Wait", "Unschedulable", "Wait", "Error", "Wait", "UnschedulableAndUnresolvable", "Wait",
                "Skip", "Wait", "Pending", "Wait")
# In range first; then the out-of-range scores the framework must reject after normalizing.
SCORES = (0, 100, 50, 1, -1, 101, 2 ** 40)
_REASONS = ("probe says no", "probe: out of luck")


def normalize_points(points: Collection[str], where: str) -> frozenset[str]:
    """Script point names; a v1 config point name ("reserve") stands for its script points."""
    if isinstance(points, str):
        raise ValueError(f"{where}(points={points!r}): pass a collection of point names, e.g. ('Reserve', 'Permit')")
    out: set[str] = set()
    for name in points:
        if name in CONFIG_POINT:
            out.add(name)
        elif name in CONFIG_POINT.values():
            out.update(p for p, c in CONFIG_POINT.items() if c == name)
        else:
            raise ValueError(f"{where}(points=...): unknown extension point {name!r}; "
                             f"use {', '.join(EXTENSION_POINTS)}")
    return frozenset(out)


def permit_grid(max_permit_timeout: float) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """(timeouts, signal delays) in seconds, on a whole-millisecond grid."""
    unit = math.floor(max_permit_timeout * 1000 / 8) / 1000
    if unit <= 0:
        return (0.0,), ()
    # 0 (time out at once) first as the simplest; the real waits are drawn four times as often.
    return (0.0, 4 * unit, 8 * unit, 4 * unit, 8 * unit), (unit, 3 * unit)


def _draw_action(draw: Draw, point: str, nodes: Sequence[str], grid: tuple[tuple[float, ...], tuple[float, ...]],
                 *, nested: bool = False) -> Manifest:
    # Whatever a choice enables is drawn right after it and `together`, so that shrinking the
    # choice away deletes what it enabled in one step (see _draw.together).
    code = pick(draw, {"Bind": BIND_CODES, "Permit": PERMIT_CODES, "PostFilter": POSTFILTER_CODES}.get(point, CODES))
    action: Manifest = {} if code == ("Skip" if point == "Bind" else "Success") else {"code": code}
    if point == "Permit" and code == "Wait":
        action.update(together(draw, lambda d: _draw_wait(d, grid)))
    reason = optional(draw, 20, lambda d: pick(d, _REASONS))
    if reason:
        action["reasons"] = [reason]
    extra = _POINT_FIELDS.get(point)
    if extra is not None:
        field, percent, build = extra
        value = optional(draw, percent, lambda d: build(d, nodes))
        if value is not None and value != 0:
            action[field] = value
    if not nested and point in NODE_POINTS:
        by_node = optional(draw, 20, lambda d: keyed(
            d, nodes, lambda d: _draw_action(d, point, nodes, grid, nested=True)))
        if by_node:
            action["byNode"] = by_node
    return action


def _draw_wait(draw: Draw, grid: tuple[tuple[float, ...], tuple[float, ...]]) -> Manifest:
    """Permit's Wait: a timeout, and sometimes a later allow or reject well before it."""
    timeouts, delays = grid
    timeout = pick(draw, timeouts)
    if not timeout:
        return {}
    wait: Manifest = {"timeout": format_duration(timeout)}
    delays = tuple(d for d in delays if d <= timeout / 2)
    signal = optional(draw, 70, lambda d: pick(d, ("allow", "reject"))) if delays else None
    if signal:
        wait["then"] = {"signal": signal, "after": format_duration(pick(draw, delays))}
        if signal == "reject" and draw(flag(50)):
            wait["then"]["message"] = "rejected by the probe"
    return wait


# Point-specific fields: (field, percent of actions that set it, how to draw it from the node names).
_POINT_FIELDS: dict[str, tuple[str, int, Callable[[Draw, Sequence[str]], object]]] = {
    "PreFilter": ("result", 25, lambda d, nodes: subset(d, nodes, max_size=len(nodes))),
    "Score": ("score", 100, lambda d, nodes: pick(d, SCORES)),
    "NormalizeScore": ("scores", 50, lambda d, nodes: keyed(d, nodes, lambda d: pick(d, SCORES))),
    "PostFilter": ("nominate", 30, lambda d, nodes: pick(d, nodes)),
}


@dataclass(frozen=True)
class ScriptTarget:
    """What a pod's script may name: where each probe runs (config points), the focused script
    points, and the probes whose NormalizeScore is called (scoreExtensions)."""

    placements: Mapping[str, Collection[str]]
    points: Collection[str]
    score_extensions: Collection[str]

    def runs(self, probe: str, point: str) -> bool:
        return (CONFIG_POINT[point] in self.placements[probe] and point in self.points
                and (point != "NormalizeScore" or probe in self.score_extensions))


def draw_probe_script(draw: Draw, target: ScriptTarget, nodes: Sequence[str], *, per_attempt: bool,
                      max_permit_timeout: float, max_entries: int = 3) -> Manifest:
    """Actions for a few (probe, point) pairs; a pair's value is sometimes a list, one per attempt."""
    grid = permit_grid(max_permit_timeout)
    probes = tuple(target.placements)
    points = tuple(p for p in SCRIPTED_POINTS if p in target.points)
    chosen: set[tuple[str, str]] = set()

    def entry(draw: Draw, i: int) -> tuple[str, str, Manifest | list[Manifest]] | None:
        """One (probe, point) and its action(s), drawn together so that shrinking deletes entries whole."""
        # Point and probe are picked apart, from pools that do not depend on placements, so that
        # a probe placed elsewhere or dropped while shrinking leaves the other entries as they were.
        point, probe = pick(draw, points), pick(draw, probes)
        # The per-attempt flag is drawn even where lists are not allowed, so that allowing them
        # or not (a PreFilter probe) does not shift the choices that follow.
        attempts = draw(flag(15)) and per_attempt
        value: Manifest | list[Manifest] = (
            elements(draw, 2, 3, lambda d, i: _draw_action(d, point, nodes, grid), more=50) if attempts
            else _draw_action(draw, point, nodes, grid))
        if (probe, point) in chosen or not target.runs(probe, point):
            return None
        return probe, point, value

    script: Manifest = {}
    if probes and points:
        for probe, point, value in elements(draw, 0, max_entries, entry, more=70,
                                            kept=lambda e: chosen.add((e[0], e[1]))):
            script.setdefault(probe, {})[point] = value
    return script


def probe_scripts(*, probes: int | Mapping[str, Collection[str]] = 1, points: Collection[str] = EXTENSION_POINTS,
                  nodes: Sequence[str] = NODE_NAMES[:1], per_attempt: bool = True,
                  max_permit_timeout: float = 2.0) -> SearchStrategy[Manifest]:
    """Probe scripts (`probe -> point -> action`, json.dumps it into the pod annotation) covering
    every status code (but Skip and Wait at PostFilter, where upstream panics), reasons, per-node
    actions, PreFilter node-name results, scores in and out of [0, 100], NormalizeScore replacements, PostFilter nominations, Permit Wait with a timeout of at
    most `max_permit_timeout` seconds and a later allow, reject or nothing, and (if `per_attempt`)
    per-attempt lists. `probes` is a count (Probe0... each at every point of `points`) or a
    mapping probe -> points; node names come from `nodes`.

    Shrinks towards {} (every probe answers the default everywhere).
    """
    focus = normalize_points(points, "probe_scripts")
    if isinstance(probes, int):
        if not 0 <= probes <= len(PROBE_NAMES):
            raise ValueError(f"probe_scripts(probes={probes!r}): use 0 to {len(PROBE_NAMES)} (Probe0..Probe7)")
        placements = {p: {CONFIG_POINT[x] for x in focus} for p in PROBE_NAMES[:probes]}
    else:
        unknown = sorted(set(probes) - set(PROBE_NAMES))
        if unknown:
            raise ValueError(f"probe_scripts(probes=...): unknown probe {unknown[0]!r}; probes are Probe0..Probe7")
        placements = {p: {CONFIG_POINT[x] for x in normalize_points(pts, "probe_scripts")} for p, pts in probes.items()}
    if isinstance(nodes, str) or not nodes:
        raise ValueError(f"probe_scripts(nodes={nodes!r}): pass a non-empty sequence of node names")
    if max_permit_timeout < 0:
        raise ValueError(f"probe_scripts(max_permit_timeout={max_permit_timeout!r}): use 0 or more seconds")
    target = ScriptTarget(placements, focus, set(placements))
    node_names = tuple(nodes)
    return st.composite(lambda draw: draw_probe_script(draw, target, node_names, per_attempt=per_attempt,
                                                       max_permit_timeout=max_permit_timeout))()


__all__ = ["BIND_CODES", "CODES", "PERMIT_CODES", "POSTFILTER_CODES", "CONFIG_POINT", "EXTENSION_POINTS", "SCORES", "ScriptTarget",
           "draw_probe_script", "normalize_points", "permit_grid", "probe_scripts"]
