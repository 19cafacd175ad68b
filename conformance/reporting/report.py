"""How a failure reads: invariant, expected vs actual, responsible plugin, the scenario, and the replay command."""

from __future__ import annotations

import textwrap

from pathlib import Path
from typing import Iterable

import yaml

from ..backends.base import CAPABILITIES
from ..invariants import Invariant
from ..search import Failure, Replay
from .reproducer import replay_command

FLAKY = "flaky: the violation did not show again when its example was replayed, so it was not shrunk"


def headline(error: BaseException, *, flaky: bool) -> str:
    """The one line CI shows for a failure (JUnit `message`, pytest's short summary): the violation's first
    line, after `FLAKY: ` when it did not show again on replay."""
    first = (str(error).splitlines() or [type(error).__name__])[0]
    return f"FLAKY: {first}" if flaky else first


def replay_notes(error: BaseException, replay: Replay, *, flaky: bool, example: str = "scenario") -> str:
    """Both outcomes of a flaky failure, then the seed and the `@reproduce_failure` blob."""
    lines = []
    if flaky:
        lines += [f"Outcomes: the first run of this {example}: {headline(error, flaky=False)}",
                  f"          Hypothesis' replay of the same {example}: {replay.replayed}",
                  "A failure that does not show again on replay (a data race, timing) is reported as FLAKY, a "
                  "failure, never as a pass."]
    if replay.seed is not None and replay.derandomized:
        lines.append(f"Seed: {replay.seed} (derandomized: derived from the test, every run draws these examples)")
    elif replay.seed is not None:
        lines.append(f"Seed: {replay.seed} (the same search again: pytest --hypothesis-seed={replay.seed}, "
                     f"or sched-conformance run ... -- --hypothesis-seed={replay.seed})")
    if replay.blob:
        lines.append(f"Blob: {replay.blob}")
    return "\n".join(lines)


def describe_failure(failure: Failure, directory: Path, backend: str) -> str:
    inv = failure.invariant
    size = ", ".join(f"{k}={v}" for k, v in failure.size().items())
    scenario = f"Scenario ({FLAKY}; " if failure.flaky else "Shrunk scenario ("
    notes = replay_notes(failure.violation, failure.replay, flaky=failure.flaky)
    return (f"{headline(failure.violation, flaky=failure.flaky)}\n{inv.id}: {inv.statement}\n"
            f"  source: {inv.source}\n\n{failure.violation}\n\n"
            f"{scenario}{size}; found after {failure.examples} examples, {failure.seconds:.1f}s):\n"
            f"{_readable(failure)}\n\n"
            f"{notes + chr(10) if notes else ''}"
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
    lines = [f"checked on {backend} ({len(ran)}):", *_wrapped(ran or ["none"])]
    for missing, ids in sorted(skipped.items()):
        reasons = "; ".join(f"{m}: {CAPABILITIES.get(m, m)}" for m in missing)
        lines += [f"skipped, {backend} lacks {', '.join(missing)} ({reasons}) ({len(ids)}):", *_wrapped(ids)]
    return lines


def _wrapped(ids: list[str]) -> list[str]:
    """Invariant IDs as indented lines of terminal width, not one line of 1,500 characters."""
    return textwrap.wrap(", ".join(ids), width=110, initial_indent="  ", subsequent_indent="  ",
                         break_on_hyphens=False)


def _readable(failure: Failure) -> str:
    text = yaml.safe_dump(failure.scenario.to_dict(), sort_keys=False, width=110)
    return "\n".join("    " + line for line in text.splitlines())


__all__ = ["FLAKY", "coverage", "describe_failure", "headline", "replay_notes"]
