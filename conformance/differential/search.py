"""The differential's search: both backends run the same drawn scenarios until they disagree where upstream
is deterministic, and the disagreement shrinks."""

from __future__ import annotations

from typing import Any

from hypothesis.strategies import SearchStrategy

from reference.scenario import Scenario

from ..backends.base import Backend
from ..invariants import Run, Violation
from ..search import Failure, run_search
from .compare import DIFFERENTIAL, compare

# One node: the ends of the runs are compared only where no choice was open (differential/timeline.py).
MAX_NODES = 1
# The timeline searches (`--compare`'s second search, the diff's "timeline" source): up to TIMELINE_EVENTS
# events per scenario, 1/TIMELINE_SHARE of the profile's examples (benchmarks/timelines.py: what they cost).
TIMELINE_EVENTS = 2
TIMELINE_SHARE = 2
# The diff's "faults" source: up to FAULTS faults per scenario (at least one), 1/FAULT_SHARE of the profile's
# examples.
FAULTS = 1
FAULT_SHARE = 4


def scenarios_for(*, extenders: bool, max_pods: int = 4, base: Any = None) -> SearchStrategy[Scenario]:
    """Probes at every extension point over a few nodes and pods (with one extender when both backends
    reach the extender server), or a preemption: every rule shows in the trace or the result. On the
    user's own config (`base`), its profiles with probes around their plugins."""
    from hypothesis import strategies as st

    from generators import scenarios  # generators are only needed when searching
    return st.one_of(scenarios(max_pods=max_pods, extenders=int(extenders), base=base),
                     scenarios(preemption=True, max_pods=max_pods, base=base))


def timeline_scenarios_for(*, extenders: bool, max_pods: int = 3, base: Any = None,
                           events: int = TIMELINE_EVENTS, idle_only: bool = False) -> SearchStrategy[Scenario]:
    """Events drawn for any scenario: one node (every choice forced), up to `max_pods` pods (some
    gated), the default plugins and 1 to `events` timeline events drawn for them, so that an event is what
    makes a pending pod schedulable; with probes (and an extender, as `scenarios_for`), so that the trace
    shows every attempt (differential/timeline.py says what is compared then). `idle_only`: every event
    waits for idle, for a backend on a wall clock (a cluster), where an event at a given second races the
    cycles. Shrinks as `generators.with_timeline`, towards one event."""
    from generators import scenarios, with_timeline
    if not isinstance(events, int) or events < 1:
        raise ValueError(f"timeline_scenarios_for(events={events!r}): use 1 or more")
    drawn = with_timeline(scenarios(max_nodes=MAX_NODES, max_pods=max_pods, default_plugins=True, gates=True,
                                    extenders=int(extenders), base=base), max_events=events, min_events=1,
                          idle_only=idle_only)
    if not idle_only or base is not None:
        return drawn
    # A wall clock compares only the ends: half the draws are a pod turned down until an event lets it in.
    from hypothesis import strategies as st

    from ..recipes.events import RejectedThenWoken
    woken = RejectedThenWoken(max_nodes=MAX_NODES, max_pods=min(max_pods, 2), idle_only=True)
    return st.one_of(drawn, woken.strategy())


def fault_scenarios_for(*, extenders: bool, max_pods: int = 3, base: Any = None,
                        faults: int = FAULTS) -> SearchStrategy[Scenario]:
    """As `timeline_scenarios_for` (one node, up to `max_pods` pods, the default plugins, probes) with 1 to
    `faults` timeline faults instead of events (generators/_faults.py: a failed API call, an object vanishing,
    a restart), armed at once, so that the scheduler's handling of a failing world is compared. Shrinks as
    `generators.with_faults`, towards one fault."""
    from generators import scenarios, with_faults
    if not isinstance(faults, int) or isinstance(faults, bool) or faults < 1:
        raise ValueError(f"fault_scenarios_for(faults={faults!r}): use 1 or more")
    return with_faults(scenarios(max_nodes=MAX_NODES, max_pods=max_pods, default_plugins=True,
                                 extenders=int(extenders), base=base), max_faults=faults, min_faults=1)


def run_both(a: Backend, b: Backend, scenario: Scenario) -> tuple[Run, Run]:
    return (Run(scenario, a.run(scenario), frozenset(a.capabilities)),
            Run(scenario, b.run(scenario), frozenset(b.capabilities)))


def find_disagreement(a: Backend, b: Backend, strategy: SearchStrategy[Scenario], *, profile: str = "ci",
                      shrink: bool = True, max_examples: int | None = None,
                      shrink_seconds: float | None = None) -> Failure | None:
    """DIFFERENTIAL's failure with the (shrunk) scenario on which `compare` fails, or None when the
    profile's examples (or the first `max_examples` of them) all agree. A wall-clock backend may disagree on
    a scenario but not on its replay: that is still a disagreement, reported as flaky."""
    found = run_search(strategy, lambda scenario: compare(*run_both(a, b, scenario)), key=DIFFERENTIAL.id,
                       profile=profile, failure=Violation, shrink=shrink, max_examples=max_examples,
                       shrink_seconds=shrink_seconds)
    if found is None:
        return None
    return Failure(DIFFERENTIAL, found.example, found.error, found.examples, found.seconds, found.shrink_seconds,
                   found.flaky, found.replay)


__all__ = ["FAULTS", "FAULT_SHARE", "MAX_NODES", "TIMELINE_EVENTS", "TIMELINE_SHARE", "fault_scenarios_for",
           "find_disagreement", "run_both", "scenarios_for", "timeline_scenarios_for"]
