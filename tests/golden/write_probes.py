"""Writes tests/golden/probes/*.json: each curated scenario and the trace the reference's probes give.

Run `python -m tests.golden.write_probes` after a deliberate change to the probes (docs/probes.md);
`tests/golden/test_golden_probes.py` holds the reference to the files and
`harness/probe/golden_test.go` holds the Go probes on the upstream scheduler to them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Iterable

from conformance.backends.reference import ReferenceBackend

from .builders import Golden
from .scenarios_binding import BINDING
from .scenarios_cycle import CYCLE

GOLDEN_DIR = Path(__file__).resolve().parent / "probes"
GOLDENS: list[Golden] = CYCLE + BINDING
WRITE_COMMAND = "python -m tests.golden.write_probes"


def trace_of(golden: Golden, backend: ReferenceBackend | None = None) -> list[dict[str, Any]]:
    """The probe trace of the golden scenario on the reference (seed 0, as written)."""
    return [dict(r) for r in (backend or ReferenceBackend()).run(golden.scenario).trace]


def render(golden: Golden, trace: Iterable[dict[str, Any]]) -> str:
    """The file's text: the scenario indented, one trace record per line (diffs stay readable)."""
    records = ",\n".join("  " + json.dumps(r) for r in trace)
    return (f'{{\n "about": {json.dumps(golden.about)},\n'
            f' "scenario": {json.dumps(golden.scenario.to_dict(), indent=1)},\n'
            f' "trace": [\n{records}\n ]\n}}\n')


def write_all(directory: Path = GOLDEN_DIR) -> list[Path]:
    """Writes one file per golden and removes files of goldens no longer listed."""
    names = [g.name for g in GOLDENS]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ValueError(f"golden names must be unique; {duplicates} repeat: rename one in tests/golden/scenarios_*.py")
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for golden in GOLDENS:
        path = directory / f"{golden.name}.json"
        path.write_text(render(golden, trace_of(golden)))
        written.append(path)
    for stale in set(directory.glob("*.json")) - set(written):
        stale.unlink()
    return written


def main() -> int:
    written = write_all()
    print(f"wrote {len(written)} golden probe traces to {GOLDEN_DIR}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
