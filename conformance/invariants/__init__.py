"""The invariants: each a function over a `Run`, registered with an ID, a statement and its source."""

from . import (binding, config, deletion, disruption, events, extender_calls, extenders,  # noqa: F401
               faults, feasibility, filtering, liveness, nominated, nomination, observed, outcome, permit,
               placement, points, preemption, preemption_nodes, queue, reactivation, recorded_events,
               reserve, retries, scoring, status_patch, topology)  # (registration)
from .base import REGISTRY, Invariant, Violation, invariant
from .run import Run

__all__ = ["REGISTRY", "Invariant", "Run", "Violation", "check_all", "invariant", "select"]


def select(ids: list[str] | None = None) -> list[Invariant]:
    """The invariants with these IDs (all when None); unknown IDs are an error naming the known ones."""
    if not ids:
        return list(REGISTRY.values())
    unknown = [i for i in ids if i not in REGISTRY]
    if unknown:
        raise KeyError(f"unknown invariant {unknown[0]!r}; see `sched-conformance invariants` for the list")
    return [REGISTRY[i] for i in ids]


def check_all(run: Run, invariants: list[Invariant] | None = None) -> list[tuple[Invariant, str]]:
    """Run the applicable invariants; raise the first Violation. Returns (invariant, reason) for each skipped one."""
    skipped = []
    for inv in invariants or list(REGISTRY.values()):
        missing = inv.requires - run.capabilities
        if missing:
            skipped.append((inv, f"backend lacks {', '.join(sorted(missing))}"))
            continue
        inv.check(run)
    return skipped
