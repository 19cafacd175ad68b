"""How a failure reads: invariant, expected vs actual, responsible plugin, the scenario, and the replay command."""

from __future__ import annotations

from pathlib import Path

import yaml

from .reproducer import replay_command
from .search import Failure


def describe_failure(failure: Failure, directory: Path, backend: str) -> str:
    inv = failure.invariant
    size = ", ".join(f"{k}={v}" for k, v in failure.size().items())
    return (f"{inv.id}: {inv.statement}\n  source: {inv.source}\n\n{failure.violation}\n\n"
            f"Shrunk scenario ({size}; found after {failure.examples} examples, {failure.seconds:.1f}s):\n"
            f"{_readable(failure)}\n"
            f"Reproducer: {directory}\nReproduce with: {replay_command(directory, backend)}")


def _readable(failure: Failure) -> str:
    text = yaml.safe_dump(failure.scenario.to_dict(), sort_keys=False, width=110)
    return "\n".join("    " + line for line in text.splitlines())


__all__ = ["describe_failure"]
