"""Speed of `sched-conformance diff`: wall time, scenarios/s per side, build times, shrinking.

    PYTHONPATH=. python benchmarks/diff.py --from v1.36.4 --to v1.37.1 [--profile ci] [-- more diff args]

Runs the diff as a user would (a subprocess of the CLI, its report in a temporary directory) and prints
one line per figure from its diff.json: the total wall time, the drawing, run and shrink phases read
from the progress lines' timestamps, each side's scenarios/s over the same scenarios, and each side's
build time (0 s when cached: run it twice to measure a warm diff).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="from_version", required=True)
    parser.add_argument("--to", dest="to_version", required=True)
    parser.add_argument("--profile", default="ci")
    parser.add_argument("extra", nargs=argparse.REMAINDER, help="after --: more diff arguments")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report"
        argv = [sys.executable, "-m", "conformance.cli", "diff", "--from", args.from_version, "--to", args.to_version,
                "--profile", args.profile, "--report", str(report), *[a for a in args.extra if a != "--"]]
        start = time.monotonic()
        marks: dict[str, float] = {}
        with subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) as proc:
            for line in proc.stderr:
                now = time.monotonic() - start
                if "scenarios drawn" in line:
                    marks["drawn"] = now
                elif "shrinking each" in line:
                    marks["run"] = now
                elif line.startswith("sched-conformance: "):
                    print(line.rstrip(), file=sys.stderr)
        wall = time.monotonic() - start
        if proc.returncode not in (0, 1):
            print(f"diff failed (exit {proc.returncode})", file=sys.stderr)
            return 2
        data = json.loads((report / "diff.json").read_text())
    print(f"diff {data['from']} -> {data['to']}, profile {args.profile}: {wall:.0f} s wall, exit {proc.returncode}")
    print(f"  builds: --from {data['buildSeconds']['--from']:.0f} s, --to {data['buildSeconds']['--to']:.0f} s")
    print(f"  drawing: {marks.get('drawn', 0):.0f} s (cumulative, builds included)")
    print(f"  running {data['scenarios']} scenarios on both sides: {marks.get('run', 0) - marks.get('drawn', 0):.0f} s; "
          f"--from {data['scenariosPerSecond']['--from']:.1f}/s, --to {data['scenariosPerSecond']['--to']:.1f}/s")
    print(f"  shrinking and report: {wall - marks.get('run', wall):.0f} s for {len(data['groups'])} group(s) "
          f"({sum(g['shrinkRuns'] for g in data['groups'])} runs on both sides)")
    print(f"  {data['differing']} scenarios differ, {len(data['groups'])} group(s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
