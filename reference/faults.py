"""Faults in a scenario's timeline (issue 31; format: docs/scenario.md, Faults): `fail`, `vanish`, `restart`,
`lag`.

A fault entry is armed when it applies, like any timeline entry, and fires later when its trigger happens
(reference/scheduler/faults.py). This module parses and validates the entries, before anything runs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

from .errors import ManifestError

OPS = ("fail", "vanish", "restart", "lag")
CALLS = ("bind", "status", "evict", "event")
ERRORS = ("conflict", "internal", "timeout", "timeout-applied")  # the last: the server applied the binding
POINTS = {"vanish": ("reserve", "permit", "prebind", "preempt"), "restart": ("reserve", "permit", "prebind", "bind")}
OBJECTS = ("pod", "node", "victim")
FIELDS = {"fail": ("when", "op", "call", "error", "pod", "occurrence", "times"),
          "vanish": ("when", "op", "pod", "point", "object"),
          "restart": ("when", "op", "pod", "point"),
          "lag": ("when", "op", "kind", "name", "delay")}
LAG_KINDS = ("Node",)  # the scheduler never writes nodes: their watch events are the timeline's alone


class FaultError(ManifestError):
    """A fault entry is not valid; the message names `scenario.timeline[i].<field>` (TimelineError's base)."""


@dataclass(frozen=True)
class Fault:
    """One fault entry: `when` is virtual seconds (default 0) or None for "when idle"; `pod` is
    `namespace/name` ("" for a `fail` about any pod, and for a `lag`, which names a node)."""

    index: int
    when: float | None
    op: str
    pod: str = ""
    call: str = ""        # fail
    error: str = ""       # fail
    occurrence: int = 1   # fail
    times: int = 1        # fail
    point: str = ""       # vanish, restart
    object: str = ""      # vanish
    node: str = ""        # lag: the node whose watch events reach the scheduler late
    delay: float = 0.0    # lag: by this many virtual seconds

    @property
    def kind(self) -> str:
        """No object kind: a fault changes nothing when it is armed (TimelineState.apply skips it)."""
        return ""

    @property
    def key(self) -> str:
        return self.pod


def is_fault(raw: Any) -> bool:
    return isinstance(raw, Mapping) and raw.get("op") in OPS


def parse_fault(i: int, raw: Mapping[str, Any], when: float | None) -> Fault:
    """The shape of one fault entry whose `when` is already read (whether its pod exists is checked against
    the timeline's state by reference/timeline.py)."""
    where = f"scenario.timeline[{i}]"
    op = raw["op"]
    unknown = [f for f in raw if f not in FIELDS[op]]
    if unknown:
        raise FaultError(f"{where}.{unknown[0]}: a {op} fault has no field {unknown[0]!r}; drop it "
                         f"(its fields: {', '.join(FIELDS[op])})")
    if op == "lag":
        return _lag(i, where, raw, when)
    pod = _pod(where, raw, required=op != "fail")
    if op == "fail":
        call = _choice(where, raw, "call", CALLS)
        error = _choice(where, raw, "error", ERRORS)
        if error == "timeout-applied" and call != "bind":
            raise FaultError(f"{where}.error: 'timeout-applied' is an error of the binding only; use call: "
                             "bind, or error: timeout")
        return Fault(i, when, op, pod, call=call, error=error, occurrence=_count(where, raw, "occurrence"),
                     times=_count(where, raw, "times"))
    point = _choice(where, raw, "point", POINTS[op])
    if op == "restart":
        return Fault(i, when, op, pod, point=point)
    obj = _choice(where, raw, "object", OBJECTS)
    if (obj == "victim") != (point == "preempt"):
        fix = ("use point: preempt for a victim" if obj == "victim"
               else "at point preempt only a victim vanishes: use object: victim")
        raise FaultError(f"{where}.object: {obj!r} does not vanish at point {point!r}; {fix}")
    return Fault(i, when, op, pod, point=point, object=obj)


def _lag(i: int, where: str, raw: Mapping[str, Any], when: float | None) -> Fault:
    kind = raw.get("kind")
    if kind not in LAG_KINDS:
        raise FaultError(f"{where}.kind: {kind!r} is not a kind whose watch events can lag; use kind: Node")
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise FaultError(f"{where}.name: {name!r} is not a node name; name the node whose events lag")
    delay = raw.get("delay")
    if isinstance(delay, bool) or not isinstance(delay, (int, float)) or not math.isfinite(delay) \
            or delay <= 0:
        raise FaultError(f"{where}.delay: {delay!r} is not a delay; use virtual seconds > 0")
    return Fault(i, when, "lag", node=name, delay=float(delay))


def fault_when(where: str, raw: Mapping[str, Any], deadline: float, idle: str) -> float | None:
    """`when` of a fault: optional (0), "idle" or virtual seconds in [0, deadline)."""
    when = raw.get("when", 0)
    if when == idle:
        return None
    if isinstance(when, bool) or not isinstance(when, (int, float)) or not math.isfinite(when):
        raise FaultError(f"{where}.when: {when!r} is neither \"idle\" nor a number of virtual seconds; "
                         "set one of them or omit it (0)")
    if not 0 <= when < deadline:
        raise FaultError(f"{where}.when: {when!r} is outside [0, {deadline:g}), the scenario's deadline; "
                         "use a time in that range or raise scenario.deadline")
    return float(when)


def _pod(where: str, raw: Mapping[str, Any], *, required: bool) -> str:
    pod = raw.get("pod")
    if pod is None and not required:
        return ""
    if not isinstance(pod, str) or not pod or pod.count("/") > 1 or pod.startswith("/") or pod.endswith("/"):
        need = "name the pod" if required else "name the pod or omit pod for any pod's calls"
        raise FaultError(f"{where}.pod: {pod!r} is not a pod (namespace/name); {need}")
    return pod if "/" in pod else f"default/{pod}"


def _choice(where: str, raw: Mapping[str, Any], field: str, allowed: tuple[str, ...]) -> str:
    value = raw.get(field)
    if value not in allowed:
        raise FaultError(f"{where}.{field}: {value!r} is not a {raw['op']} fault's {field}; "
                         f"use one of {', '.join(allowed)}")
    return value


def _count(where: str, raw: Mapping[str, Any], field: str) -> int:
    value = raw.get(field, 1)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise FaultError(f"{where}.{field}: {value!r} is not a count; use an integer >= 1 (default 1)")
    return value


__all__ = ["CALLS", "ERRORS", "LAG_KINDS", "Fault", "FaultError", "OBJECTS", "OPS", "POINTS", "fault_when",
           "is_fault", "parse_fault"]
