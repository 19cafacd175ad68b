"""What faults cost (issue 31, Speed): scenarios/s with and without their timeline faults, side by side in one
run, on the reference and on upstream, and by fault op.

    PYTHONPATH=. python benchmarks/faults.py [--scenarios 300]

Needs harness/bin/runner (`harness/build.sh`). Prints the load average before and after, and for each backend
the same drawn scenarios (probes, up to 4 pods, up to 2 faults; those that got at least one) run with their
faults and with them stripped, alternately (benchmarks/timelines.py `rates`): scenarios/s overall, then for the
scenarios holding each op (a restart starts a new scheduler on the same objects: its cost shows there).

Measured 2026-11-27, load average 0.4, 116 scenarios with faults (194 drawn): reference 143.6/s with, 164.6/s
stripped (0.87x); upstream 78.7/s with, 82.4/s stripped (0.95x); on upstream fail +0.5 ms, vanish +1.4 ms and
restart +1.1 ms a scenario.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from pathlib import Path

# Run as a script, this directory heads sys.path and benchmarks/generators.py would shadow `generators`.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from benchmarks.timelines import rates  # noqa: E402 - after the path fix above
from conformance.backends.reference import ReferenceBackend  # noqa: E402
from conformance.backends.upstream import UpstreamBackend  # noqa: E402
from conformance.diff.scenarios import draw_fixed  # noqa: E402
from conformance.extender.server import ExtenderServer  # noqa: E402
from generators import scenarios  # noqa: E402
from reference.faults import OPS, is_fault  # noqa: E402
from reference.scenario import Scenario  # noqa: E402


def stripped(scenario: Scenario) -> Scenario:
    return replace(scenario, timeline=tuple(e for e in scenario.timeline if not is_fault(e)))


def ops(scenario: Scenario) -> set[str]:
    return {e["op"] for e in scenario.timeline if is_fault(e)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenarios", type=int, default=300, help="scenarios to draw (those that got faults run)")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    drawn = draw_fixed(scenarios(max_pods=4, faults=2), args.scenarios, "benchmark-faults")
    pairs = [(s, stripped(s)) for s in drawn if ops(s)]
    with ExtenderServer() as server:
        upstream = UpstreamBackend(extender_server=server)
        try:
            for name, backend in (("reference", ReferenceBackend(extender_server=server)), ("upstream", upstream)):
                backend.run(pairs[0][1])  # warm up (the runner's first scenario starts it)
                with_rate, without_rate = rates(backend.run, pairs)
                print(f"{name}: {len(pairs)} scenarios ({len(drawn)} drawn) with their faults {with_rate:.1f}/s, "
                      f"stripped {without_rate:.1f}/s ({with_rate / without_rate:.2f}x)")
                for op in OPS:
                    some = [p for p in pairs if op in ops(p[0])]
                    if some:
                        w, wo = rates(backend.run, some)
                        print(f"  {op}: {len(some)} scenarios, with {w:.1f}/s, stripped {wo:.1f}/s, "
                              f"{(1 / w - 1 / wo) * 1000:+.1f} ms a scenario")
        finally:
            upstream.close()
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
