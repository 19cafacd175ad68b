"""How a failure reads: invariant, expected vs actual, responsible plugin, the scenario, and the replay command."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

import yaml

from ..backends.base import CAPABILITIES
from ..invariants import Invariant
from ..search import Failure
from .reproducer import replay_command

FLAKY = "flaky: the violation did not show again when its example was replayed, so it was not shrunk"


def describe_failure(failure: Failure, directory: Path, backend: str) -> str:
    inv = failure.invariant
    size = ", ".join(f"{k}={v}" for k, v in failure.size().items())
    scenario = f"Scenario ({FLAKY}" if failure.flaky else "Shrunk scenario ("
    return (f"{'FLAKY ' if failure.flaky else ''}{inv.id}: {inv.statement}\n  source: {inv.source}\n\n"
            f"{failure.violation}\n\n"
            f"{scenario}{size}; found after {failure.examples} examples, {failure.seconds:.1f}s):\n"
            f"{_readable(failure)}\n"
            f"Reproducer: {directory}\nReproduce with: {replay_command(directory, backend)}")


def coverage(invariants: Iterable[Invariant], backend: str, capabilities: Iterable[str]) -> list[str]:
    """Which invariants a backend can check and which it cannot, grouped by the capabilities it lacks
    (a scheduler without probes gets only the outcome-only invariants)."""
    caps = frozenset(capabilities)
    ran: list[str] = []
    skipped: dict[tuple[str, ...], list[str]] = {}
    for inv in invariants:
        missing = tuple(sorted(inv.requires - caps))
        (skipped.setdefault(missing, []) if missing else ran).append(inv.id)
    lines = [f"checked on {backend} ({len(ran)}): {', '.join(ran) or 'none'}"]
    for missing, ids in sorted(skipped.items()):
        reasons = "; ".join(f"{m}: {CAPABILITIES.get(m, m)}" for m in missing)
        lines.append(f"skipped, {backend} lacks {', '.join(missing)} ({reasons}) ({len(ids)}): {', '.join(ids)}")
    return lines


def _readable(failure: Failure) -> str:
    text = yaml.safe_dump(failure.scenario.to_dict(), sort_keys=False, width=110)
    return "\n".join("    " + line for line in text.splitlines())


__all__ = ["FLAKY", "coverage", "describe_failure"]
