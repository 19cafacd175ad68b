"""Filter and Score are safe to call from 16 goroutines on one cycle state, as upstream does."""

from __future__ import annotations

from .base import RACE, Property, register, run_checked
from .calls import Call, snapshot
from .inputs import PluginInput, plugin_inputs

REPEAT = 16  # calls per node: more interleavings per request


def _race_free(driver, inp: PluginInput) -> bool:
    pod = inp.pod
    calls: list[Call] = [snapshot(inp)]
    guard = {}
    if "preFilter" in driver.points:
        guard = {"unless": len(calls)}
        calls.append({"point": "preFilter", "state": "a", "pod": pod})
    if "filter" in driver.points:
        calls.append({"point": "parallel", "parallel": "filter", "state": "a", "pod": pod, "repeat": REPEAT,
                      **({"when": guard["unless"]} if guard else {})})
    if "preScore" in driver.points:
        calls.append({"point": "preScore", "state": "a", "pod": pod, **guard})
        guard = {"unless": len(calls) - 1}
    if "score" in driver.points:
        calls.append({"point": "parallel", "parallel": "score", "state": "a", "pod": pod, "repeat": REPEAT,
                      **guard})
    results = run_checked(driver, calls)  # a race report is a plugin-race-free violation there
    return any(c["point"] == "parallel" and not r.get("skipped") for c, r in zip(calls, results))


register(Property(
    RACE, "with the driver built with -race, Filter and Score called from 16 goroutines on one cycle "
    "state (as upstream's Parallelizer does) make the race detector report nothing",
    "pkg/scheduler/schedule_one.go findNodesThatPassFilters and framework/runtime RunScorePlugins "
    "(fwk.Parallelizer().Until, parallelism 16 by default)",
    frozenset({"filter", "score"}), plugin_inputs, _race_free, race=True))
