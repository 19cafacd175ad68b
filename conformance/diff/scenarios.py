"""The fixed scenarios a diff runs on both sides: drawn once, derandomized, before either side runs.

Both sides get the very same list (byte-identical scenarios), so a difference is the schedulers', never
the draws'. The list is every invariant's situation (`@invariant(situation=...)`) plus the general
scenarios with probes at every point or a preemption (the differential strategy), and scenarios with
a timeline ("timeline", the differential's too) or with faults ("faults"); the profile sets how many of
each. The draws are seeded by the situation's name and blind to local-module constants
(`search.run_search`), so the same suite version draws the same list on every machine and with every seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterator

from hypothesis import Phase
from hypothesis.strategies import SearchStrategy

from reference.scenario import Scenario

from ..core.errors import ConformanceError
from ..differential.search import FAULT_SHARE, TIMELINE_SHARE
from ..search import for_profile, run_search

# A situation is narrow: a tenth of the profile's examples shows its rule; the general scenarios get the
# full count.
SITUATION_SHARE = 10


@dataclass(frozen=True)
class Drawn:
    """One scenario of the list: where it was drawn (`source`: a situation's invariant ID or "general") and
    its index there, which names it in reports."""

    source: str
    index: int
    scenario: Scenario

    @property
    def name(self) -> str:
        return f"{self.source}#{self.index}"


def draw_fixed(strategy: SearchStrategy[Scenario], count: int, name: str) -> list[Scenario]:
    """`count` distinct examples of `strategy`, the same on every run (seeded by `name`, no database)."""
    out: dict[str, Scenario] = {}

    def collect(scenario: Scenario) -> None:
        out.setdefault(scenario.to_json(indent=None), scenario)

    run_search(strategy, collect, key=name, profile="ci", max_examples=count, phases=(Phase.generate,),
               database=None)
    return list(out.values())


def sources(base: Any = None, domain: Any = None) -> dict[str, Callable[[], SearchStrategy[Scenario]]]:
    """Name -> strategy: each distinct situation once (under the first invariant that uses it) and "general".
    On the user's config (`base`) only the general scenarios: a situation brings its own config. The user's
    vocabulary (`domain`, a generators.Domain) decorates the general scenarios."""
    from generators import with_domain

    from ..differential import fault_scenarios_for, scenarios_for, timeline_scenarios_for
    from ..invariants import REGISTRY
    out: dict[str, Callable[[], SearchStrategy[Scenario]]] = {}
    seen: set[int] = set()
    for inv in ([] if base is not None else REGISTRY.values()):
        situation = inv.situation
        if situation is not None and id(situation) not in seen:
            seen.add(id(situation))
            out[inv.id] = situation.strategy
    out["general"] = lambda: with_domain(scenarios_for(extenders=True, base=base), domain)
    out["timeline"] = lambda: with_domain(
        timeline_scenarios_for(extenders=True, base=base), domain)
    out["faults"] = lambda: with_domain(fault_scenarios_for(extenders=True, base=base), domain)
    return out


def fixed_scenarios(profile: str, *, base: Any = None, domain: Any = None, only: tuple[str, ...] = (),
                    progress: Callable[[str], None] = lambda _: None) -> Iterator[Drawn]:
    """The diff's scenario list for `profile`: a tenth of its examples per situation, its count of general
    ones, half that with timelines, a quarter with faults."""
    count = for_profile(profile).max_examples
    known = sources(base, domain)
    unknown = [name for name in only if name not in known]
    if unknown:
        raise ConformanceError(f"--only {unknown[0]}: no such scenario source; the sources are "
                               f"{', '.join(known)}")
    shares = {"general": 1, "timeline": TIMELINE_SHARE, "faults": FAULT_SHARE}
    counts = {name: max(1, count // shares.get(name, SITUATION_SHARE))
              for name in known if not only or name in only}
    progress(f"drawing {sum(counts.values())} scenarios from {len(counts)} sources"
             + (f" ({', '.join(counts)})" if only else ""))
    for name, n in counts.items():
        for index, scenario in enumerate(draw_fixed(known[name](), n, name)):
            yield Drawn(name, index, scenario)


__all__ = ["Drawn", "SITUATION_SHARE", "draw_fixed", "fixed_scenarios", "sources"]
