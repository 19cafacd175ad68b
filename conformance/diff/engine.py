"""Run the fixed scenarios on both sides and collect the scenarios that differ, timing each side."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from reference.faults import OPS as FAULT_OPS

from .compare import ScenarioDiff, differences, run_side
from .scenarios import Drawn


@dataclass
class Sides:
    """The two backends of a diff and what each is (its label: version and modules)."""

    a: Any
    b: Any
    label_a: str
    label_b: str


@dataclass
class Tally:
    scenarios: int = 0
    seconds: dict[str, float] = field(default_factory=lambda: {"from": 0.0, "to": 0.0})
    # Scenarios that differed once but not the same way when run again on both sides: reported, never grouped.
    flaky: list[str] = field(default_factory=list)
    # Scenarios with a fault one side cannot inject (a runner before v1.37 injects `fail` only): not run.
    uninjectable: list[str] = field(default_factory=list)

    def rate(self, side: str) -> float:
        return self.scenarios / self.seconds[side] if self.seconds[side] else 0.0


def injectable(sides: Sides, scenario: Any) -> bool:
    """Whether both sides inject every fault op of the scenario's timeline (their `fault-*` capabilities)."""
    ops = {e.get("op") for e in scenario.timeline if isinstance(e, dict)} & set(FAULT_OPS)
    return all(f"fault-{op}" in side.capabilities for op in ops for side in (sides.a, sides.b))


def diff_one(sides: Sides, scenario: Any, tally: Tally | None = None) -> list:
    start = time.perf_counter()
    a = run_side(sides.a, scenario)
    middle = time.perf_counter()
    b = run_side(sides.b, scenario)
    if tally is not None:
        tally.seconds["from"] += middle - start
        tally.seconds["to"] += time.perf_counter() - middle
    return differences(a, b)


def _shape(diffs: list) -> list[tuple[str, str, str]]:
    return sorted({(d.kind, d.what, d.pod) for d in diffs})


def replays(sides: Sides, scenario: Any, diffs: list, runs: int = 2) -> bool:
    """Whether `runs` more runs on both sides show the same differences (kind, what, pod) again: a difference
    one run showed and another did not is the sides' own nondeterminism, not a change between them."""
    return all(_shape(diff_one(sides, scenario)) == _shape(diffs) for _ in range(runs))


def run_all(sides: Sides, drawn: Iterable[Drawn], *, progress: Callable[[str], None] = lambda _: None,
            every: int = 50) -> tuple[list[tuple[Drawn, ScenarioDiff]], Tally]:
    """Each scenario on side a then side b; the differing ones with their differences (those that replay:
    the others are listed in `Tally.flaky`). A scenario with a fault one side cannot inject is not run (its
    refusal would be a difference of the runners, not of the schedulers): `Tally.uninjectable`."""
    tally = Tally()
    found: list[tuple[Drawn, ScenarioDiff]] = []
    for item in drawn:
        if not injectable(sides, item.scenario):
            tally.uninjectable.append(item.name)
            continue
        diffs = diff_one(sides, item.scenario, tally)
        tally.scenarios += 1
        if diffs and not replays(sides, item.scenario, diffs):
            tally.flaky.append(item.name)
        elif diffs:
            found.append((item, ScenarioDiff(item.name, diffs)))
        if tally.scenarios % every == 0:
            progress(f"{tally.scenarios} scenarios run on both sides, {len(found)} differ "
                     f"({tally.rate('from'):.1f}/s from, {tally.rate('to'):.1f}/s to)")
    return found, tally


__all__ = ["Sides", "Tally", "diff_one", "injectable", "replays", "run_all"]
