"""Extender scripts: `extender name -> verb -> action` from a pod annotation (format: docs/scenario.md)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Mapping

from reference.probe.script import json_kind

from ..core.errors import ConformanceError

VERBS = ("filter", "prioritize", "bind", "preempt")
_VERB_FIELDS = {
    "filter": ("fail", "unresolvable", "error", "status"),
    "prioritize": ("scores", "error", "status"),
    "bind": ("error", "status"),
    "preempt": ("victims", "error", "status"),
}
# 1xx would leave HTTP clients waiting for a final response; 200 is the default itself.
STATUS_RANGE = (201, 599)
_INT64 = (-(2**63), 2**63 - 1)


class ExtenderScriptError(ConformanceError):
    """An extender script is malformed; the message names the bad part."""


@dataclass(frozen=True)
class Action:
    """What one extender answers one verb for one pod; the defaults are the unscripted answer."""

    fail: Mapping[str, str] = field(default_factory=dict)
    unresolvable: Mapping[str, str] = field(default_factory=dict)
    scores: Mapping[str, int] = field(default_factory=dict)
    victims: Mapping[str, tuple[str, ...]] | None = None
    error: str = ""
    status: int = 200


DEFAULT = Action()

Script = Mapping[str, Mapping[str, Action]]


def action_for(script: Script, extender: str, verb: str) -> Action:
    return script.get(extender, {}).get(verb, DEFAULT)


def parse_script(raw: str | Mapping[str, Any] | None) -> Script:
    """The annotation text (or its already-decoded JSON); raise ExtenderScriptError naming the bad field."""
    if raw is None or raw == "":
        return {}
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError as exc:
            raise ExtenderScriptError(f"not JSON: {exc}") from None
    if not isinstance(raw, Mapping):
        raise ExtenderScriptError(f"expected an object of extender -> verb -> action, got {json_kind(raw)}")
    script: dict[str, dict[str, Action]] = {}
    for extender, verbs in raw.items():
        if not isinstance(verbs, Mapping):
            raise ExtenderScriptError(f"{extender}: expected an object of verb -> action, got {json_kind(verbs)}")
        script[extender] = {}
        for verb, action in verbs.items():
            if verb not in _VERB_FIELDS:
                raise ExtenderScriptError(f"{extender}: unknown verb {verb!r}; verbs: {', '.join(VERBS)}")
            script[extender][verb] = _action(action, verb, f"{extender}.{verb}")
    return script


def _action(raw: Any, verb: str, path: str) -> Action:
    if not isinstance(raw, Mapping):
        raise ExtenderScriptError(f"{path}: expected an action object, got {json_kind(raw)}")
    allowed = _VERB_FIELDS[verb]
    unknown = sorted(set(raw) - set(allowed))
    if unknown:
        raise ExtenderScriptError(f"{path}: unknown field {unknown[0]!r}; allowed: {', '.join(allowed)}")
    error = raw.get("error", "")
    if not isinstance(error, str):
        raise ExtenderScriptError(f"{path}.error: expected a string, got {error!r}")
    status = raw.get("status")
    if status is None:
        status = 200
    elif isinstance(status, bool) or not isinstance(status, int) or not STATUS_RANGE[0] <= status <= STATUS_RANGE[1]:
        raise ExtenderScriptError(f"{path}.status: {status!r} is not an HTTP status in {STATUS_RANGE[0]}-"
                                  f"{STATUS_RANGE[1]}; leave it out to answer 200")
    return Action(
        fail=_reasons(raw.get("fail", {}), f"{path}.fail"),
        unresolvable=_reasons(raw.get("unresolvable", {}), f"{path}.unresolvable"),
        scores=_scores(raw.get("scores", {}), f"{path}.scores"),
        victims=_victims(raw.get("victims"), f"{path}.victims"),
        error=error, status=status)


def _reasons(raw: Any, path: str) -> dict[str, str]:
    if not isinstance(raw, Mapping) or not all(isinstance(v, str) for v in raw.values()):
        raise ExtenderScriptError(f"{path}: expected an object of node -> reason string, got {raw!r}")
    return dict(raw)


def _scores(raw: Any, path: str) -> dict[str, int]:
    if not isinstance(raw, Mapping) or not all(
            isinstance(v, int) and not isinstance(v, bool) and _INT64[0] <= v <= _INT64[1] for v in raw.values()):
        raise ExtenderScriptError(f"{path}: expected an object of node -> int64 score, got {raw!r}")
    return dict(raw)


def _victims(raw: Any, path: str) -> dict[str, tuple[str, ...]] | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or not all(
            isinstance(pods, list) and all(isinstance(p, str) for p in pods) for pods in raw.values()):
        raise ExtenderScriptError(f"{path}: expected an object of node -> list of pod keys, got {raw!r}")
    return {node: tuple(pods) for node, pods in raw.items()}


__all__ = ["Action", "DEFAULT", "ExtenderScriptError", "STATUS_RANGE", "Script", "VERBS", "action_for",
           "parse_script"]
