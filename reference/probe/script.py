"""Probe scripts: `plugin -> point -> action` from a pod annotation (format: docs/probes.md)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Mapping

from ..duration import parse_duration
from ..status import Code

PROBE_NAMES = tuple(f"Probe{i}" for i in range(8))
SCRIPTED_POINTS = ("PreEnqueue", "PreFilter", "AddPod", "RemovePod", "Filter", "PostFilter", "PreScore", "Score",
                   "NormalizeScore", "Reserve", "Permit", "PreBindPreFlight", "PreBind", "Bind")
NODE_POINTS = frozenset({"AddPod", "RemovePod", "Filter", "Score", "Reserve", "Permit", "PreBindPreFlight",
                         "PreBind", "Bind"})
CODES = {c.upstream_name: c for c in Code}
SIGNALS = ("allow", "reject")
_POINT_FIELDS = {"PreFilter": {"result"}, "Score": {"score"}, "NormalizeScore": {"scores"},
                 "PostFilter": {"nominate"}, "Permit": {"timeout", "then"}}


class ScriptError(ValueError):
    """The script is malformed; the probe answers Error with `invalid probe script: <detail>`."""


@dataclass(frozen=True)
class Signal:
    signal: str
    after: float = 0.0
    message: str = ""


@dataclass(frozen=True)
class Action:
    code: Code = Code.SUCCESS
    reasons: tuple[str, ...] = ()
    by_node: Mapping[str, "Action"] = field(default_factory=dict)
    result: tuple[str, ...] | None = None
    score: int = 0
    scores: Mapping[str, int] = field(default_factory=dict)
    nominate: str | None = None
    timeout: float = 0.0
    then: Signal | None = None

    def for_node(self, node: str) -> "Action":
        return self.by_node.get(node, self)


DEFAULT = Action()
DEFAULT_BIND = Action(code=Code.SKIP)


@dataclass(frozen=True)
class Script:
    """Per plugin and point, the actions per attempt (the last one repeats)."""

    actions: Mapping[str, Mapping[str, tuple[Action, ...]]] = field(default_factory=dict)

    def action(self, plugin: str, point: str, attempt: int, node: str = "") -> Action:
        per_attempt = self.actions.get(plugin, {}).get(point)
        if not per_attempt:
            return DEFAULT_BIND if point == "Bind" else DEFAULT
        chosen = per_attempt[min(max(attempt, 1), len(per_attempt)) - 1]
        return chosen.for_node(node) if node else chosen


EMPTY = Script()


def parse_script(text: str | None) -> Script:
    """Parse the annotation value; raise ScriptError naming the bad field."""
    if not text:
        return EMPTY
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ScriptError(f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ScriptError(f"expected an object of plugin -> point -> action, got {json_kind(data)}")
    actions: dict[str, dict[str, tuple[Action, ...]]] = {}
    for plugin, points in data.items():
        if plugin not in PROBE_NAMES:
            raise ScriptError(f"unknown plugin {plugin!r}; probes are Probe0..Probe7")
        if not isinstance(points, dict):
            raise ScriptError(f"{plugin}: expected an object of point -> action, got {json_kind(points)}")
        actions[plugin] = {}
        for point, value in points.items():
            if point not in SCRIPTED_POINTS:
                raise ScriptError(f"{plugin}: unknown point {point!r}; scripted points: {', '.join(SCRIPTED_POINTS)}")
            path = f"{plugin}.{point}"
            items = value if isinstance(value, list) else [value]
            if not items:
                raise ScriptError(f"{path}: an empty list of attempts; give at least one action")
            actions[plugin][point] = tuple(_action(v, point, f"{path}[{i}]" if isinstance(value, list) else path,
                                                   nested=False) for i, v in enumerate(items))
    return Script(actions)


def _action(raw: Any, point: str, path: str, *, nested: bool) -> Action:
    if not isinstance(raw, dict):
        raise ScriptError(f"{path}: expected an action object, got {json_kind(raw)}")
    allowed = {"code", "reasons"} | _POINT_FIELDS.get(point, set())
    if point in NODE_POINTS and not nested:
        allowed.add("byNode")
    unknown = sorted(set(raw) - allowed)
    if unknown:
        raise ScriptError(f"{path}: unknown field {unknown[0]!r} at {point}; allowed: {', '.join(sorted(allowed))}")
    code_name = raw.get("code", "Skip" if point == "Bind" else "Success")
    code = CODES.get(code_name) if isinstance(code_name, str) else None
    if code is None:
        raise ScriptError(f"{path}.code: unknown code {code_name!r}; use one of {', '.join(CODES)}")
    reasons = raw.get("reasons", [])
    if not isinstance(reasons, list) or not all(isinstance(r, str) for r in reasons):
        raise ScriptError(f"{path}.reasons: expected a list of strings, got {reasons!r}")
    by_node = raw.get("byNode", {})
    if not isinstance(by_node, dict):
        raise ScriptError(f"{path}.byNode: expected an object of node -> action, got {json_kind(by_node)}")
    result = raw.get("result")
    if result is not None and (not isinstance(result, list) or not all(isinstance(n, str) for n in result)):
        raise ScriptError(f"{path}.result: expected a list of node names, got {result!r}")
    score = raw.get("score", 0)
    if isinstance(score, bool) or not isinstance(score, int):
        raise ScriptError(f"{path}.score: expected an integer, got {score!r}")
    scores = raw.get("scores", {})
    if not isinstance(scores, dict) or not all(isinstance(v, int) and not isinstance(v, bool)
                                               for v in scores.values()):
        raise ScriptError(f"{path}.scores: expected an object of node -> integer, got {scores!r}")
    nominate = raw.get("nominate")
    if nominate is not None and not isinstance(nominate, str):
        raise ScriptError(f"{path}.nominate: expected a node name, got {nominate!r}")
    return Action(
        code=code, reasons=tuple(reasons),
        by_node={n: _action(a, point, f"{path}.byNode.{n}", nested=True) for n, a in by_node.items()},
        result=tuple(result) if result is not None else None, score=score, scores=dict(scores),
        nominate=nominate, timeout=_duration(raw.get("timeout", "0s"), f"{path}.timeout"),
        then=_signal(raw.get("then"), f"{path}.then"))


def _signal(raw: Any, path: str) -> Signal | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise ScriptError(f"{path}: expected {{signal, after, message}}, got {json_kind(raw)}")
    unknown = sorted(set(raw) - {"signal", "after", "message"})
    if unknown:
        raise ScriptError(f"{path}: unknown field {unknown[0]!r}; allowed: after, message, signal")
    if raw.get("signal") not in SIGNALS:
        raise ScriptError(f"{path}.signal: {raw.get('signal')!r} is not 'allow' or 'reject'")
    message = raw.get("message", "")
    if not isinstance(message, str):
        raise ScriptError(f"{path}.message: expected a string, got {message!r}")
    return Signal(raw["signal"], _duration(raw.get("after", "0s"), f"{path}.after"), message)


def _duration(raw: Any, path: str) -> float:
    if not isinstance(raw, str):
        raise ScriptError(f"{path}: expected a Go duration string such as \"2s\", got {raw!r}")
    try:
        seconds = parse_duration(raw)
    except ValueError as exc:
        raise ScriptError(f"{path}: {exc}") from None
    if seconds < 0:
        raise ScriptError(f"{path}: {raw!r} is negative")
    return seconds


def json_kind(value: Any) -> str:
    """How an error names a JSON value's type: "an object", "a list", "a string", or its repr."""
    return {dict: "an object", list: "a list", str: "a string"}.get(type(value), repr(value))


__all__ = ["Action", "NODE_POINTS", "PROBE_NAMES", "SCRIPTED_POINTS", "Script", "ScriptError", "Signal", "json_kind",
           "parse_script"]
