"""`probe_scripts()`: what each probe answers at each point for one pod (format: docs/probes.md).

Scripts are a few (probe, point) entries; everything else keeps the default (Success, score 0,
Bind Skip), so shrinking drops entries and ends on {}. Permit timing sits on a grid of
u = max_permit_timeout / 8: timeouts are 0, 4u or 8u and `then.after` is u or 3u (at most half the
timeout), so a scripted signal never coincides with a timeout and outcomes never hang on a race.
"""

from __future__ import annotations

import math
from typing import Collection, Mapping, Sequence

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from reference.duration import format_duration
from reference.probe import PROBE_NAMES, SCRIPTED_POINTS
from reference.probe.script import NODE_POINTS

from ._draw import Draw, Manifest, flag, pick, subset
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
    code = pick(draw, {"Bind": BIND_CODES, "Permit": PERMIT_CODES}.get(point, CODES))
    action: Manifest = {} if code == ("Skip" if point == "Bind" else "Success") else {"code": code}
    if draw(flag(20)):
        action["reasons"] = [pick(draw, _REASONS)]
    if point == "PreFilter" and draw(flag(25)):
        action["result"] = subset(draw, nodes, max_size=len(nodes))
    elif point == "Score":
        score = pick(draw, SCORES)
        if score:
            action["score"] = score
    elif point == "NormalizeScore" and draw(flag(50)):
        action["scores"] = {n: pick(draw, SCORES) for n in subset(draw, nodes, min_size=1, max_size=len(nodes))}
    elif point == "PostFilter" and draw(flag(30)):
        action["nominate"] = pick(draw, nodes)
    elif point == "Permit" and code == "Wait":
        timeouts, delays = grid
        timeout = pick(draw, timeouts)
        if timeout:
            action["timeout"] = format_duration(timeout)
            delays = [d for d in delays if d <= timeout / 2]
            if delays and draw(flag(70)):
                signal = pick(draw, ("allow", "reject"))
                action["then"] = {"signal": signal, "after": format_duration(pick(draw, delays))}
                if signal == "reject" and draw(flag(50)):
                    action["then"]["message"] = "rejected by the probe"
    if not nested and point in NODE_POINTS and draw(flag(20)):
        chosen = subset(draw, nodes, min_size=1, max_size=len(nodes))
        action["byNode"] = {n: _draw_action(draw, point, nodes, grid, nested=True) for n in chosen}
    return action


def draw_probe_script(draw: Draw, pairs: Sequence[tuple[str, str]], nodes: Sequence[str], *, per_attempt: bool,
                      max_permit_timeout: float, max_entries: int = 3) -> Manifest:
    """Actions for a few (probe, point) pairs; a pair's value is sometimes a list, one per attempt."""
    grid = permit_grid(max_permit_timeout)
    script: Manifest = {}
    if not pairs or not draw(flag(80)):
        return script
    for probe, point in subset(draw, pairs, min_size=1, max_size=max_entries):
        if per_attempt and draw(flag(15)):
            value: Manifest | list[Manifest] = [_draw_action(draw, point, nodes, grid)
                                                for _ in range(draw(st.integers(2, 3)))]
        else:
            value = _draw_action(draw, point, nodes, grid)
        script.setdefault(probe, {})[point] = value
    return script


def script_pairs(placements: Mapping[str, Collection[str]], points: Collection[str],
                 score_extensions: Collection[str]) -> list[tuple[str, str]]:
    """(probe, script point) pairs a script can meaningfully name: the probe runs at the point's
    config point, the point is in focus, and NormalizeScore only with scoreExtensions."""
    return [(probe, point) for probe, placed in placements.items() for point in SCRIPTED_POINTS
            if CONFIG_POINT[point] in placed and point in points
            and (point != "NormalizeScore" or probe in score_extensions)]


def probe_scripts(*, probes: int | Mapping[str, Collection[str]] = 1, points: Collection[str] = EXTENSION_POINTS,
                  nodes: Sequence[str] = NODE_NAMES[:1], per_attempt: bool = True,
                  max_permit_timeout: float = 2.0) -> SearchStrategy[Manifest]:
    """Probe scripts (`probe -> point -> action`, json.dumps it into the pod annotation) covering
    every status code, reasons, per-node actions, PreFilter node-name results, scores in and out of
    [0, 100], NormalizeScore replacements, PostFilter nominations, Permit Wait with a timeout of at
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
    pairs = script_pairs(placements, focus, set(placements))
    node_names = tuple(nodes)
    return st.composite(lambda draw: draw_probe_script(draw, pairs, node_names, per_attempt=per_attempt,
                                                       max_permit_timeout=max_permit_timeout))()


__all__ = ["BIND_CODES", "CODES", "PERMIT_CODES", "CONFIG_POINT", "EXTENSION_POINTS", "SCORES", "draw_probe_script",
           "normalize_points", "permit_grid", "probe_scripts", "script_pairs"]
