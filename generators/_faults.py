"""Faults drawn for a scenario (format: docs/scenario.md#faults): a failed API call of the scheduler, an object
vanishing when a workload pod reaches a point of its cycle, a scheduler restart there, a node's watch events
delivered late (lag).

They are armed first (before the scenario's drawn timeline events) at time 0, each naming a workload pod or
(a `fail`) any pod, so every draw is valid by construction. They shrink towards no fault, then fewer, and
simpler ones: a failed binding of any pod answered with a conflict, once, armed at once.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Collection

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from reference.faults import CALLS, ERRORS, POINTS
from reference.scenario import Scenario, pod_key

from ._draw import Draw, Manifest, count, elements, pick

OPS = ("fail", "restart", "vanish", "lag")  # simplest first: a failed call changes no object
WHENS: tuple[Any, ...] = (None, "idle", 1)  # None: `when` left out (0)
DELAYS = (1, 5, 30)  # lag: within a backoff, past the longest backoff (10 s), past most deadlines
POINT_CHOICES = {"vanish": ("reserve", "permit", "prebind", "preempt"), "restart": POINTS["restart"]}
assert {len(points) for points in POINT_CHOICES.values()} == {4}  # one drawn index serves both ops


def _fault(draw: Draw, pods: list[str], nodes: list[str], ops: tuple[str, ...] = OPS,
           calls: tuple[str, ...] = CALLS) -> Manifest:
    # Every field is drawn whatever the op, in one fixed layout: lowering the op (restart -> fail) leaves the
    # later choices where they were, so the shrinker reaches the simplest fault in one step.
    op, when = pick(draw, ops), pick(draw, WHENS)
    call, error, any_pod = pick(draw, calls), pick(draw, ERRORS), pick(draw, [None, *pods])
    times, occurrence = count(draw, 1, 4), count(draw, 1, 2)
    pod, point, gone = pick(draw, pods), count(draw, 0, 3), pick(draw, ("pod", "node"))
    lagged, delay = pick(draw, nodes or [""]), pick(draw, DELAYS)
    fault: Manifest = {"op": op, **({"when": when} if when is not None else {})}
    if op == "lag":
        return {**fault, "kind": "Node", "name": lagged, "delay": delay}
    if op == "fail":
        error = "timeout" if error == "timeout-applied" and call != "bind" else error  # the binding's only
        return {**fault, "call": call, "error": error, **({"pod": any_pod} if any_pod is not None else {}),
                **({"times": times} if times > 1 else {}), **({"occurrence": occurrence} if occurrence > 1 else {})}
    fault.update(pod=pod, point=POINT_CHOICES[op][point])
    if op == "vanish":
        fault["object"] = "victim" if fault["point"] == "preempt" else gone
    return fault


def draw_faults(draw: Draw, scenario: Scenario, max_faults: int, ops: tuple[str, ...] = OPS,
                calls: tuple[str, ...] = CALLS, min_faults: int = 0) -> tuple[Manifest, ...]:
    """`min_faults` to `max_faults` fault entries for `scenario`'s workload pods, of `ops`, failing
    `calls`."""
    pods = [pod_key(m) for m in scenario.workload]
    nodes = [m["metadata"]["name"] for m in scenario.nodes]
    if not nodes:
        ops = tuple(op for op in ops if op != "lag")
    if not pods or not ops:
        return ()
    return tuple(elements(draw, min_faults, max_faults, lambda d, i: _fault(d, pods, nodes, ops, calls),
                          more=75))

def _chosen(caller: str, wanted: Collection[str], known: tuple[str, ...]) -> tuple[str, ...]:
    """`wanted` in `known`'s order (empty: all); a name not in `known` is a ValueError naming it."""
    unknown = sorted(set(wanted) - set(known)) if not isinstance(wanted, str) else [wanted]
    if unknown:
        raise ValueError(f"{caller}: {unknown[0]!r} is not one of {', '.join(known)}")
    return tuple(k for k in known if k in wanted) or known


def faults(scenario: Scenario, *, max_faults: int = 1, ops: Collection[str] = (),
           calls: Collection[str] = (), min_faults: int = 0) -> SearchStrategy[tuple[Manifest, ...]]:
    """Fault entries for `scenario` (see the module docstring), `min_faults` to `max_faults` of them (none
    for a scenario without workload pods), of `ops` (empty: all), a `fail` failing one of `calls` (empty:
    all); shrinks towards `min_faults` (default none)."""
    if not isinstance(max_faults, int) or max_faults < 0:
        raise ValueError(f"faults(max_faults={max_faults!r}): use 0 or more")
    _check_min("faults", min_faults, max_faults)
    chosen_ops, chosen_calls = _chosen("faults(ops=...)", ops, OPS), _chosen("faults(calls=...)", calls, CALLS)
    return st.composite(lambda draw: draw_faults(draw, scenario, max_faults, chosen_ops, chosen_calls,
                                                 min_faults))()


def with_faults(scenarios: SearchStrategy[Scenario], *, max_faults: int = 1,
                min_faults: int = 0) -> SearchStrategy[Scenario]:
    """`scenarios`, each with `min_faults` to `max_faults` faults drawn for it, armed before its own
    timeline; shrinks the scenario first, then the faults towards `min_faults` (default none)."""
    if not isinstance(max_faults, int) or max_faults < 1:
        raise ValueError(f"with_faults(max_faults={max_faults!r}): use 1 or more")
    _check_min("with_faults", min_faults, max_faults)
    return scenarios.flatmap(lambda sc: faults(sc, max_faults=max_faults, min_faults=min_faults).map(
        lambda drawn: replace(sc, timeline=(*drawn, *sc.timeline))))


def _check_min(caller: str, min_faults: Any, max_faults: int) -> None:
    if not isinstance(min_faults, int) or isinstance(min_faults, bool) or not 0 <= min_faults <= max_faults:
        raise ValueError(f"{caller}(min_faults={min_faults!r}): use 0 to max_faults ({max_faults})")

__all__ = ["draw_faults", "faults", "with_faults"]
