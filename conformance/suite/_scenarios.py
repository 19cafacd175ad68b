"""The scenarios the suite draws: the generator options focused on what is checked, and on backends
that run in wall time a short deadline."""

from __future__ import annotations

import functools
import math
from dataclasses import replace
from typing import Any, Iterable

from hypothesis.strategies import SearchStrategy

from reference.scenario import Scenario

from ..backends.base import injectable

# Pods that keep failing with an error are retried until the deadline, so on a wall-clock backend
# every such scenario lasts the whole deadline (30 s by default). 4.5 s covers the longest Permit
# wait the generators draw (2 s) and three error backoffs (1 s, 2 s; flushed at whole seconds), and
# sits between whole seconds, where no backoff expires: an attempt cannot race the deadline.
WALL_CLOCK_DEADLINE = 4.5
# A timed timeline event gets this long after its whole second before the deadline: for the scheduler to
# react (an event restarts the cluster backend's 0.5 s settle), ending between whole seconds too.
EVENT_ROOM = 1.5


def for_backends(strategy: SearchStrategy[Scenario], backends: Iterable[Any], *,
                 objects: Any = None, domain: Any = None) -> SearchStrategy[Scenario]:
    """`strategy`, with the user's vocabulary (`domain`: a generators.Domain) and what their `--objects` hook
    adds (their plugins' objects and pod labels), without the drawn faults a backend cannot inject, and the
    wall-clock deadline unless every backend runs on virtual time (later for timeline events drawn after
    it)."""
    backends = list(backends)
    if domain:
        from generators import with_domain
        strategy = with_domain(strategy, domain)
    if objects is not None:
        from generators import with_extras
        strategy = with_extras(strategy, objects)
    for backend in backends:
        strategy = strategy.map(functools.partial(injectable, backend=backend))
    if all("virtual-time" in b.capabilities for b in backends):
        return strategy
    return strategy.map(lambda s: replace(s, deadline=min(s.deadline, wall_clock_deadline(s))))


def wall_clock_deadline(scenario: Scenario) -> float:
    """The short deadline, or later for the scenario's last timed timeline event (which must stay before the
    deadline) and the scheduler's answer to it."""
    times = [e["when"] for e in scenario.timeline if isinstance(e.get("when"), (int, float))]
    return max([WALL_CLOCK_DEADLINE, *(math.ceil(t) + EVENT_ROOM for t in times)])


__all__ = ["EVENT_ROOM", "WALL_CLOCK_DEADLINE", "for_backends", "wall_clock_deadline"]
