"""How a contract failure reads: property, statement, source, what the plugin did, the shrunk input, the replay."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from ..reporting.report import FLAKY, replay_notes
from .reproducer import PlainDumper, replay_command
from .search import ContractFailure


def describe(failure: ContractFailure, directory: Path) -> str:
    prop, violation = failure.prop, failure.violation
    calls = "\n".join("    " + json.dumps(_short(c), sort_keys=False) for c in violation.calls)
    shown = yaml.dump(failure.example.to_dict(), Dumper=PlainDumper, sort_keys=False, width=110)
    shrunk = f"Input ({FLAKY}; " if failure.flaky else "Shrunk input ("
    notes = replay_notes(violation, failure.replay, flaky=failure.flaky, example="input")
    return (f"{'FLAKY: ' if failure.flaky else ''}{failure.plugin} breaks {violation.property_id}: "
            f"{violation.message}\n  property {prop.id}: {prop.statement}\n  source: {prop.source}\n\n"
            f"{shrunk}found after {failure.examples} examples, {failure.seconds:.1f}s):\n"
            + "\n".join("    " + line for line in shown.splitlines())
            + f"\n\nCall sequence:\n{calls}\n\n{notes + chr(10) if notes else ''}"
            f"Reproducer: {directory}\nReproduce with: {replay_command(directory)}")


def _short(call: dict) -> dict:
    """A call with its manifests named, not spelled out (they are in the input above)."""
    out = {}
    for key, value in call.items():
        if isinstance(value, dict) and "metadata" in value:
            out[key] = value["metadata"]["name"]
        elif key in ("nodes", "pods"):
            out[key] = [v["metadata"]["name"] for v in value]
        elif key == "queued":
            out[key] = [q["pod"]["metadata"]["name"] for q in value]
        elif key == "event":
            obj = value.get("new") or value.get("old")
            out[key] = f"{value['kind']} {obj['metadata']['name']} {value['action']}"
        else:
            out[key] = value
    return out


__all__ = ["describe"]
