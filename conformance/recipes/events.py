"""Scenarios whose cluster changes while the scheduler works, for the event rules: `Eventful` (any events),
`EventSteps` (events drawn in steps of chosen kinds: a node deleted, then wake-ups)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from generators import scenarios, timelines
from reference.scenario import Scenario

# Events that may let a pending pod be scheduled (generators/_timeline.py KINDS names).
WAKE_KINDS = ("ungate-pod", "delete-repeller", "untaint-node", "delete-bound-pod", "lower-requests",
              "add-toleration", "add-node", "relabel-node")


@dataclass(frozen=True)
class Eventful:
    """The default profile, 1-2 nodes, 1-3 workload pods (some gated) and up to `events` timeline events
    drawn for them (generators/_timeline.py). `weight`: shares of the search's draws (see search.py)."""

    events: int = 2
    weight: int = 2

    def strategy(self) -> SearchStrategy[Scenario]:
        return scenarios(max_nodes=2, max_pods=3, probes=0, default_plugins=True, gates=True, timeline=self.events)


@dataclass(frozen=True)
class EventSteps:
    """The default profile, 1 to `nodes` nodes, 1-3 workload pods (some gated), and a timeline drawn in
    `steps`: each (kinds, least, most) adds `least` to `most` events of those kinds (where one applies) after
    the events before it. `weight`: shares of the search's draws (see search.py)."""

    steps: tuple[tuple[tuple[str, ...], int, int], ...]
    nodes: int = 2
    weight: int = 2

    def strategy(self) -> SearchStrategy[Scenario]:
        base = scenarios(max_nodes=self.nodes, max_pods=3, probes=0, default_plugins=True, gates=True)

        # One composite, not flatmaps: the steps' choices follow the scenario's in one choice sequence, which
        # the shrinker reduces as a whole (a flatmap redraws the timeline whenever the scenario shrinks).
        def draw(draw):
            sc = draw(base)
            for kinds, least, most in self.steps:
                new = draw(timelines(sc, min_events=least, max_events=most, kinds=kinds))
                sc = replace(sc, timeline=(*sc.timeline, *new))
            return sc
        return st.composite(draw)()


# A node deleted while a pod may still wait, then events that may let the pod in, on a node the scheduler must
# no longer see (exercised 0 times in 100 with `Eventful`).
NODE_GONE_THEN_WOKEN = EventSteps(((("delete-node",), 1, 1), (WAKE_KINDS[:-2], 1, 2)), nodes=3)

# A node updated (in ways that keep every pod's fit) while pods may still wait, then events that let them try
# again: the updated node must still count.
NODE_UPDATED_THEN_WOKEN = EventSteps(((("annotate-node", "relabel-node", "untaint-node"), 1, 1),
                                      (("ungate-pod", "delete-bound-pod", "lower-requests", "add-toleration"),
                                       1, 2)))


__all__ = ["NODE_GONE_THEN_WOKEN", "NODE_UPDATED_THEN_WOKEN", "WAKE_KINDS", "EventSteps", "Eventful"]
