"""Run an extender-free scenario on the reference scheduler with the probes: results, evictions, trace.

A few lines of `reference` wiring, kept here so the generator tests depend on `reference` alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from reference.probe import ProbeTracker, probe_registry
from reference.scenario import Scenario
from reference.scheduler.build import build_scheduler
from reference.scheduler.scheduler import PodResult, Scheduler
from reference.scheduler.timeline import run_scenario


@dataclass(frozen=True)
class Run:
    results: dict[str, PodResult]
    deleted: list[str]
    trace: list[dict[str, Any]]


def run(scenario: Scenario, *, hook: Callable[[Scheduler], None] | None = None) -> Run:
    """`hook` may alter the built scheduler (a deliberately broken framework, for mutant tests)."""
    assert not (scenario.config or {}).get("extenders"), "extenders need the suite's extender server"
    tracker = ProbeTracker()
    sched = build_scheduler(scenario.config, out_of_tree=probe_registry(tracker))
    tracker.use_clock(sched.clock)
    if hook is not None:
        hook(sched)
    deleted: list[str] = []
    on_deleted = sched.store.on_pod_deleted

    def record_deletion(pod):
        deleted.append(pod.key)
        on_deleted(pod)

    sched.store.on_pod_deleted = record_deletion
    run_scenario(sched, scenario)
    return Run(sched.results(), deleted, tracker.trace.snapshot())


__all__ = ["Run", "run"]
