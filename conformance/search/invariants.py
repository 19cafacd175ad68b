"""Search for a counterexample to one invariant on one backend: draw scenarios, run them, check, shrink."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis import event
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from reference.probe import PROBE_NAMES
from reference.scenario import Scenario

from ..backends.base import Backend
from ..invariants import Invariant, Run, Violation
from ..recipes.focus import scenario_options
from .engine import SHRINK_SECONDS, Replay, run_search


@dataclass
class Failure:
    """The counterexample; `examples` and `seconds` until the first violation; `shrink_seconds` after it;
    `flaky`: the violation did not show again when its scenario was replayed; `replay`: the seed, the blob and
    (flaky) the replay's outcome."""

    invariant: Invariant
    scenario: Scenario
    violation: BaseException
    examples: int
    seconds: float
    shrink_seconds: float = 0.0
    flaky: bool = False
    replay: Replay = Replay()

    def size(self) -> dict[str, int]:
        return scenario_size(self.scenario)


@dataclass
class Exercised:
    """How many of a search's examples ran, and in how many the invariant's rule was exercised
    (`Run.exercise()`): a pass where `exercised` is 0 was vacuous."""

    examples: int = 0
    exercised: int = 0

    def line(self, invariant_id: str) -> str:
        return f"{invariant_id}: exercised in {self.exercised}/{self.examples} examples"


def scenario_size(scenario: Scenario) -> dict[str, int]:
    """Nodes, workload pods, timeline events (when there are any), and probe placements per extension
    point in the config."""
    size = {"nodes": len(scenario.nodes), "pods": len(scenario.workload), "bound_pods": len(scenario.pods)}
    if scenario.timeline:
        size["events"] = len(scenario.timeline)
    for profile in (scenario.config or {}).get("profiles") or []:
        for point, plugin_set in (profile.get("plugins") or {}).items():
            probes = [e for e in (plugin_set or {}).get("enabled") or [] if e.get("name") in PROBE_NAMES]
            if probes:
                size[f"{point}_probes"] = size.get(f"{point}_probes", 0) + len(probes)
    return size


def check(backend: Backend, inv: Invariant, scenario: Scenario) -> Run:
    """Run `scenario` on `backend` and check `inv`; raises Violation."""
    run = Run(scenario, backend.run(scenario), frozenset(backend.capabilities))
    inv.check(run)
    return run


def default_strategy(inv: Invariant, base: Any = None) -> SearchStrategy[Scenario]:
    """The invariant's situation (when it declares one) or the general scenarios focused on it; a
    situation with a `weight` gets that many shares of the draws to the general scenarios' one.

    On the user's own config (`base`, a `generators.BaseConfig`) the situation runs on that config: its
    probes join the user's plugins (`BaseConfig.adopt`)."""
    from generators import scenarios  # generators are only needed when searching
    general = scenarios(**scenario_options(inv), base=base)
    situation = inv.situation
    if situation is None:
        return general
    focused = situation.strategy() if base is None else situation.strategy().map(base.adopt)
    weight = getattr(situation, "weight", 0)
    if not weight:
        return st.one_of(focused, general)
    # An explicit draw, not one_of: Hypothesis steers one_of towards the branch it has explored least.
    return st.integers(0, weight).flatmap(lambda i: general if i == weight else focused)


def find_violation(backend: Backend, inv: Invariant, *, profile: str = "ci",
                   strategy: SearchStrategy[Scenario] | None = None, shrink: bool = True,
                   shrink_seconds: float | None = None, max_examples: int | None = None,
                   exercised: Exercised | None = None) -> Failure | None:
    """The shrunk counterexample (the first one found when `shrink` is False; the smallest found
    within `shrink_seconds`, default the profile's budget), or None when the profile's examples (or the
    first `max_examples` of them) all pass. `exercised`, when given, counts the examples run before
    the first violation and those that exercised the rule; each of those also reports a Hypothesis
    `event()`, so `--hypothesis-show-statistics` shows the share."""
    tally = exercised if exercised is not None else Exercised()
    searching = [True]

    def check_one(scenario: Scenario) -> None:
        run = check(backend, inv, scenario)
        if searching[0]:
            tally.examples += 1
            tally.exercised += run.exercised
        if run.exercised:
            event(f"{inv.id}: exercised")

    def note(scenario: Scenario, still_searching: bool) -> None:
        searching[0] = still_searching

    found = run_search(strategy if strategy is not None else default_strategy(inv), check_one, key=inv.id,
                       profile=profile, failure=Violation, shrink=shrink, shrink_seconds=shrink_seconds,
                       max_examples=max_examples, on_example=note)
    if found is None:
        return None
    return Failure(inv, found.example, found.error, found.examples, found.seconds, found.shrink_seconds,
                   found.flaky, found.replay)


__all__ = ["Exercised", "Failure", "SHRINK_SECONDS", "check", "default_strategy", "find_violation", "scenario_size"]
