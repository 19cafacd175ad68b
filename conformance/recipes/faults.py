"""`Faulty`: small scenarios with timeline faults drawn for their pods, for the fault rules."""

from __future__ import annotations

from dataclasses import dataclass, replace

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from generators import faults, scenarios
from reference.scenario import Scenario

from .constrained import Preempting


@dataclass(frozen=True)
class Faulty:
    """1-2 nodes, 1-3 workload pods and up to `faults` faults drawn for them (generators/_faults.py): the
    default profile, or with `reserve` up to two probes at Reserve (their Unreserve is traced), or with
    `bindings` the default profile (the plugins the runner observes). `reserve` and `bindings` draw failed
    bindings only and at most 2 pods; `bindings` at least one. `weight`: shares of the search's draws (see
    search.py)."""

    faults: int = 1
    reserve: bool = False
    bindings: bool = False
    weight: int = 3

    def strategy(self) -> SearchStrategy[Scenario]:
        if self.reserve or self.bindings:
            # Failed bindings only: what Unreserve answers for (any fault drawn fails a binding 1 time in 12).
            base = scenarios(max_nodes=2, max_pods=2, probes=2, points=("PreFilter", "Reserve"),
                             default_plugins=False) if self.reserve else \
                scenarios(max_nodes=2, max_pods=2, probes=0, default_plugins=True)

            def draw(draw):
                sc = draw(base)
                armed = draw(faults(sc, max_faults=self.faults, ops=("fail",), calls=("bind",),
                                    min_faults=int(self.bindings)))
                return replace(sc, timeline=(*armed, *sc.timeline))
            return st.composite(draw)()
        return scenarios(max_nodes=2, max_pods=3, probes=0, default_plugins=True, faults=self.faults)


@dataclass(frozen=True)
class EvictionFails:
    """`Preempting` (constrained.py) with preemption's first victim deletion failing once (or twice): the
    preemptor must be re-activated. Shrinks towards one internal error. `weight`: shares of the search's draws
    (see search.py)."""

    weight: int = 2

    def strategy(self) -> SearchStrategy[Scenario]:
        def draw(draw):
            sc = draw(Preempting().strategy())
            error = draw(st.sampled_from(("internal", "conflict", "timeout")))
            fault = {"op": "fail", "call": "evict", "error": error, "times": draw(st.integers(1, 2))}
            return replace(sc, timeline=(fault, *sc.timeline))
        return st.composite(draw)()


__all__ = ["EvictionFails", "Faulty"]
