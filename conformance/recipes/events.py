"""`Eventful`: scenarios whose cluster changes while the scheduler works, for the event rules."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis.strategies import SearchStrategy

from generators import scenarios
from reference.scenario import Scenario


@dataclass(frozen=True)
class Eventful:
    """The default profile, 1-2 nodes, 1-3 workload pods (some gated) and up to `events` timeline events
    drawn for them (generators/_timeline.py). `weight`: shares of the search's draws (see search.py)."""

    events: int = 2
    weight: int = 2

    def strategy(self) -> SearchStrategy[Scenario]:
        return scenarios(max_nodes=2, max_pods=3, probes=0, default_plugins=True, gates=True,
                         timeline=self.events)


__all__ = ["Eventful"]
