"""Contract properties: a registry of id, statement, upstream source, and the check over one generated input."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from hypothesis.strategies import SearchStrategy


class ContractViolation(Exception):
    """A plugin broke a contract property: which, what was expected and seen, and the call sequence that shows it."""

    def __init__(self, property_id: str, message: str, calls: Sequence[Mapping[str, Any]],
                 results: Sequence[Mapping[str, Any]] = ()) -> None:
        super().__init__(f"{property_id}: {message}")
        self.property_id, self.message = property_id, message
        self.calls, self.results = list(calls), list(results)


@dataclass(frozen=True)
class Property:
    """`check(driver, example)` raises ContractViolation, or returns whether the example exercised the rule.
    `points`: the plugin must implement one of them (else the property does not apply)."""
    id: str
    statement: str
    source: str
    points: frozenset[str]
    strategy: Callable[[], SearchStrategy[Any]]
    check: Callable[[Any, Any], bool]
    race: bool = False  # needs the driver built with -race
    watch: bool = False  # reads the results' `mutated` (PluginDriver.watch)

    def applies(self, points: frozenset[str]) -> bool:
        return bool(self.points & points)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "statement": self.statement, "source": self.source, "points": sorted(self.points)}


REGISTRY: dict[str, Property] = {}

PANIC = "plugin-no-panic"


def register(prop: Property) -> Property:
    assert prop.id not in REGISTRY, prop.id
    REGISTRY[prop.id] = prop
    return prop


RACE = "plugin-race-free"
RACE_REPORT = "WARNING: DATA RACE"


def run_checked(driver: Any, calls: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Run `calls`; a panic in any of them is a `plugin-no-panic` violation, whatever property asked, and so is
    a driver that dies (a fatal error such as concurrent map writes, a plugin calling os.Exit), unless the race
    detector stopped it: that is `plugin-race-free`. The driver is restarted for the next example."""
    from .driver import DriverCrash
    try:
        results = driver.run(calls)
    except DriverCrash as crash:
        driver.restart()
        if RACE_REPORT in crash.output:
            report = crash.output[crash.output.index(RACE_REPORT):].strip()
            raise ContractViolation(RACE, "the race detector reported a data race while Filter/Score ran from 16 "
                                    f"goroutines:\n{report[:4000]}", calls) from None
        raise ContractViolation(PANIC, f"the plugin driver died during the sequence ({crash}):\n"
                                f"{crash.output.strip()[-4000:]}", calls) from None
    for call, result in zip(calls, results):
        if result.get("panic"):
            raise ContractViolation(PANIC, f"{call['point']} panicked: {result['panic']}", calls, results)
    return results


def brief(result: Mapping[str, Any]) -> str:
    """A call's answer in one line."""
    keep = {k: v for k, v in result.items() if k in ("code", "reasons", "score", "scores", "normalized",
                                                        "nodeNames", "allNodes", "skipped", "mutated")}
    return json.dumps(keep, sort_keys=True)


__all__ = ["ContractViolation", "PANIC", "RACE", "Property", "REGISTRY", "brief", "register", "run_checked"]
