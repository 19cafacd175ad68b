"""Search one property on one plugin: Hypothesis draws inputs, the driver calls the plugin, failures shrink."""

from __future__ import annotations

import time
import zlib
from dataclasses import dataclass, field
from typing import Any

from hypothesis import event, given, seed, settings
from hypothesis.errors import Flaky

from ..repeatable import repeatable, shrink_budget
from ..settings import for_profile
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


def find_violation(driver: Any, prop: Property, *, profile: str = "ci", max_examples: int | None = None,
                   tally: Tally | None = None, shrink_seconds: float | None = None) -> ContractFailure | None:
    """The shrunk counterexample of `prop` on the driver's plugin (the smallest found within `shrink_seconds`,
    default the profile's budget), or None when every example passes."""
    last: dict[str, Any] = {}
    tally = tally if tally is not None else Tally()
    base = for_profile(profile)

    @settings(base, report_multiple_bugs=False, max_examples=max_examples or base.max_examples)
    @given(prop.strategy())
    def check(example: Any) -> None:
        last["example"] = example
        started = time.perf_counter()
        try:
            exercised = prop.check(driver, example)
        except ContractViolation as violation:
            last.setdefault("detected", (tally.examples + 1, time.perf_counter() - start))
            last["failing"] = (example, violation)
            raise
        if "detected" not in last:  # shrinking replays examples: count the search only
            tally.examples += 1
            tally.exercised += bool(exercised)
            tally.seconds += time.perf_counter() - started
        if exercised:
            event(f"{prop.id}: exercised")

    # One `check` serves every (plugin, property): without a digest Hypothesis would share their saved examples.
    key = f"{driver.plugin}/{prop.id}"
    check.hypothesis.inner_test._hypothesis_internal_add_digest = key.encode()
    if base.derandomize:
        check = seed(zlib.crc32(key.encode()))(check)
    start = time.perf_counter()
    try:
        with repeatable(), shrink_budget(shrink_seconds or SHRINK_SECONDS[profile]), driver.watching(prop.watch):
            check()
    except ContractViolation as violation:
        found, seconds = last["detected"]
        return ContractFailure(prop, driver.plugin, last["example"], violation, found, seconds, tally)
    except Flaky:
        # A data race (or a plugin whose answers depend on timing) need not show again when Hypothesis replays
        # the example: the last violation seen stands, unshrunk.
        if "failing" not in last:
            raise
        found, seconds = last["detected"]
        example, violation = last["failing"]
        return ContractFailure(prop, driver.plugin, example, violation, found, seconds, tally)
    return None


__all__ = ["ContractFailure", "SHRINK_SECONDS", "Tally", "find_violation"]
