"""Search for a counterexample to one invariant on one backend: Hypothesis draws, runs, checks, shrinks."""

from __future__ import annotations

import time
import zlib
from dataclasses import dataclass
from typing import Any

from hypothesis import Phase, event, given, seed, settings
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from reference.probe import PROBE_NAMES
from reference.scenario import Scenario

from .backends.base import Backend
from .focus import scenario_options
from .invariants import Invariant, Run, Violation
from .repeatable import repeatable, shrink_budget
from .settings import for_profile


@dataclass
class Failure:
    """The counterexample; `examples` and `seconds` until the first violation; `shrink_seconds` after it."""

    invariant: Invariant
    scenario: Scenario
    violation: BaseException
    examples: int
    seconds: float
    shrink_seconds: float = 0.0

    def size(self) -> dict[str, int]:
        return scenario_size(self.scenario)


# Shrinking a scenario re-runs it thousands of times; these bound the wait for the smallest one.
SHRINK_SECONDS = {"dev": 60.0, "ci": 60.0, "thorough": 300.0, "mutation": 1.0}


@dataclass
class Exercised:
    """How many of a search's examples ran, and in how many the invariant's rule was exercised
    (`Run.exercise()`): a pass where `exercised` is 0 was vacuous."""

    examples: int = 0
    exercised: int = 0

    def line(self, invariant_id: str) -> str:
        return f"{invariant_id}: exercised in {self.exercised}/{self.examples} examples"


def scenario_size(scenario: Scenario) -> dict[str, int]:
    """Nodes, workload pods, and probe placements per extension point in the config."""
    size = {"nodes": len(scenario.nodes), "pods": len(scenario.workload), "bound_pods": len(scenario.pods)}
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
    """The invariant's situation (when it has one) or the general scenarios focused on its theme; a
    situation with a `weight` gets that many shares of the draws to the general scenarios' one.

    On the user's own config (`base`, a `generators.BaseConfig`) the situation runs on that config: its
    probes join the user's plugins (`BaseConfig.adopt`)."""
    from generators import scenarios  # generators are only needed when searching
    from .situations import situation_for
    general = scenarios(**scenario_options(inv), base=base)
    situation = situation_for(inv.id)
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
    last: dict[str, Any] = {}
    examples = 0
    tally = exercised if exercised is not None else Exercised()

    base = for_profile(profile)
    phases = base.phases if shrink else tuple(p for p in base.phases if p is not Phase.shrink)

    @settings(base, report_multiple_bugs=False, phases=phases, max_examples=max_examples or base.max_examples)
    @given(strategy if strategy is not None else default_strategy(inv))
    def prop(scenario: Scenario) -> None:
        nonlocal examples
        examples += 1
        last["scenario"] = scenario
        try:
            run = check(backend, inv, scenario)
        except Violation:
            last.setdefault("detected", (examples, time.perf_counter() - start))
            raise
        if "detected" not in last:  # shrinking replays examples: count the search only
            tally.examples += 1
            tally.exercised += run.exercised
        if run.exercised:
            event(f"{inv.id}: exercised")

    # Hypothesis keys its example database by the test's source, which is this same `prop` for every
    # invariant: without the ID, invariants (run one after another, or at once by xdist workers)
    # would replay each other's saved failures and delete them as passing. Hypothesis' pytest plugin
    # tells parametrized tests apart through the same attribute.
    prop.hypothesis.inner_test._hypothesis_internal_add_digest = inv.id.encode()
    if base.derandomize:
        # Hypothesis derives a derandomized run's seed from the test function's source, so any edit
        # to `prop` would reshuffle every ci sample; a seed from the invariant's ID does not move.
        prop = seed(zlib.crc32(inv.id.encode()))(prop)
    start = time.perf_counter()
    try:
        with repeatable(), shrink_budget(shrink_seconds or SHRINK_SECONDS[profile]):
            prop()
    except Violation as violation:
        found, seconds = last["detected"]
        return Failure(inv, last["scenario"], violation, found, seconds, time.perf_counter() - start - seconds)
    return None


__all__ = ["Exercised", "Failure", "SHRINK_SECONDS", "check", "default_strategy", "find_violation", "scenario_size"]
