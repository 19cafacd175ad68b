"""Search properties on one plugin: Hypothesis draws inputs, the driver calls the plugin, failures shrink.

Properties that draw from the same strategy share their examples (`find_violations`): drawing an input costs
more than checking it, so each example is drawn once and every such property checks it."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Sequence

from hypothesis import event

from ..search.engine import Replay, run_search
from .base import ContractViolation, Property

SHRINK_SECONDS = {"dev": 30.0, "ci": 30.0, "thorough": 120.0, "mutation": 1.0}


@dataclass
class Tally:
    """Examples run before the first violation, how many exercised the rule, and the time they took."""
    examples: int = 0
    exercised: int = 0
    seconds: float = 0.0

    def line(self, label: str) -> str:
        rate = self.examples / self.seconds if self.seconds else 0.0
        return f"{label}: exercised in {self.exercised}/{self.examples} examples ({rate:.0f} examples/s in the checks)"


@dataclass
class ContractFailure:
    prop: Property
    plugin: str
    example: Any
    violation: ContractViolation
    examples: int
    seconds: float
    tally: Tally = field(default_factory=Tally)
    flaky: bool = False  # the violation did not show again when its example was replayed
    replay: Replay = Replay()  # the seed, the blob and (flaky) the replay's outcome


def find_violation(driver: Any, prop: Property, *, profile: str = "ci", max_examples: int | None = None,
                   tally: Tally | None = None, shrink_seconds: float | None = None) -> ContractFailure | None:
    """The shrunk counterexample of `prop` on the driver's plugin (the smallest found within `shrink_seconds`,
    default the profile's budget), or None when every example passes."""
    tallies = {prop.id: tally if tally is not None else Tally()}
    return find_violations(driver, [prop], profile=profile, max_examples=max_examples, tallies=tallies,
                           shrink_seconds=shrink_seconds).get(prop.id)


def find_violations(driver: Any, props: Sequence[Property], *, profile: str = "ci", max_examples: int | None = None,
                    tallies: dict[str, Tally] | None = None,
                    shrink_seconds: float | None = None) -> dict[str, ContractFailure]:
    """The shrunk counterexample of each of `props` (one input strategy) that the plugin breaks, by property id.

    Every example is drawn once and checked by each property in turn. The first violation stops the pass and
    is shrunk for its property alone; the others then search again from the start. The examples are
    derandomized per (plugin, strategy) in the ci profile, so that pass replays the same examples: each property
    is checked on exactly the examples it would meet if searched alone, whatever else shares them."""
    assert len({p.strategy for p in props}) <= 1, "properties that share examples share their strategy"
    tallies = tallies if tallies is not None else {}
    active, failures = list(props), {}
    while active:
        for prop in active:  # a new pass counts from its first example again
            tallies[prop.id] = _reset(tallies.get(prop.id))
        failure = _search(driver, active, profile=profile, max_examples=max_examples, tallies=tallies,
                          shrink_seconds=shrink_seconds)
        if failure is None:
            break
        failures[failure.prop.id] = failure
        active.remove(failure.prop)
    return failures


def _reset(tally: Tally | None) -> Tally:
    if tally is None:
        return Tally()
    tally.examples, tally.exercised, tally.seconds = 0, 0, 0.0
    return tally


def _search(driver: Any, props: list[Property], *, profile: str, max_examples: int | None,
            tallies: dict[str, Tally], shrink_seconds: float | None) -> ContractFailure | None:
    """One pass: stops at the first property violated and shrinks its counterexample, checking only it."""
    target: list[Property] = []
    props = sorted(props, key=lambda p: not p.watch)  # the watched run's answers serve the unwatched (_Reusing)

    def check(example: Any) -> None:
        searching = not target  # shrinking replays examples for the violated property only
        reusing = _Reusing(driver)
        for prop in props if searching else target:
            started = time.perf_counter()
            try:
                with driver.watching(prop.watch):
                    exercised = prop.check(reusing, example)
            except ContractViolation:
                if searching:
                    target.append(prop)
                raise
            if searching:
                tally = tallies[prop.id]
                tally.examples += 1
                tally.exercised += bool(exercised)
                tally.seconds += time.perf_counter() - started
            if exercised:
                event(f"{prop.id}: exercised")

    # A data race (or a plugin whose answers depend on timing) need not show again when Hypothesis replays the
    # example: then the engine reports the last violation seen, unshrunk.
    key = f"{driver.plugin}/{getattr(props[0].strategy, '__name__', props[0].id)}"
    found = run_search(props[0].strategy(), check, key=key, profile=profile, failure=ContractViolation,
                       max_examples=max_examples, shrink_seconds=shrink_seconds or SHRINK_SECONDS[profile])
    if found is None:
        return None
    prop = target[0]
    return ContractFailure(prop, driver.plugin, found.example, found.error, found.examples, found.seconds,
                           tallies[prop.id], found.flaky, found.replay)


class _Reusing:
    """The driver while several properties check one example: a call sequence that the last one run starts with
    reads its answers from that run. The driver gives every sequence a fresh plugin instance and snapshot, so a
    call's answer depends only on the calls before it; digests (`watch`) change no answer, so a watched run also
    serves an unwatched one, not the reverse."""

    def __init__(self, driver: Any) -> None:
        self._driver = driver
        self._last: tuple[list, bool, list] | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._driver, name)

    def run(self, calls: Sequence[Any]) -> list[dict[str, Any]]:
        watch = self._driver.watch
        if self._last is not None:
            ran, watched, results = self._last
            if (watched or not watch) and len(calls) <= len(ran) and ran[:len(calls)] == list(calls):
                return results[:len(calls)]
        self._last = None  # a sequence that crashes the driver must not leave an older one to reuse
        results = self._driver.run(calls)
        self._last = (list(calls), watch, results)
        return results


class SharedSearches:
    """A session's searches, one per (plugin, driver build, strategy): the first property asked runs it for every
    property of its strategy that the session checks on the plugin; the others read their result."""

    def __init__(self) -> None:
        self._results: dict[tuple, dict[str, tuple[ContractFailure | None, Tally]]] = {}

    def result(self, driver: Any, prop: Property, checked: Sequence[Property],
               **options: Any) -> tuple[ContractFailure | None, Tally]:
        key = (driver.plugin, driver.race, prop.strategy)
        if key not in self._results:
            group = [p for p in checked if p.strategy is prop.strategy and p.race == prop.race
                     and p.applies(driver.points)]
            group += [prop] if prop not in group else []
            tallies: dict[str, Tally] = {}
            failures = find_violations(driver, group, tallies=tallies, **options)
            self._results[key] = {p.id: (failures.get(p.id), tallies[p.id]) for p in group}
        return self._results[key][prop.id]


__all__ = ["ContractFailure", "SHRINK_SECONDS", "SharedSearches", "Tally", "find_violation", "find_violations"]
