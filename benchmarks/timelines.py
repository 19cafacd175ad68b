"""What timelines cost (issue 29, Speed): scenarios/s with and without timeline events, side by side in one
run, on the reference and on upstream, and the differential's ci search with and without its timeline search.

    PYTHONPATH=. python benchmarks/timelines.py [--scenarios 300]

Needs harness/bin/runner (`harness/build.sh`). Prints the load average before and after, and:
  1. the same drawn scenarios (probes, an extender, up to 4 pods, up to 2 timeline events drawn for them;
     those that got at least one) run with their timeline and with it stripped, alternately, on each
     backend: scenarios/s;
  2. the differential (reference vs upstream) over the ci profile, no shrinking: wall time of the search
     without timelines (`scenarios_for`) and of the timeline search `--compare` adds (half the examples).

Measured 2026-11-27 on the 2 shared cores, load average 2.5 (other helpers' jobs), 110 scenarios with
events (183 drawn): reference 65.8/s with the timeline, 80.5/s stripped (0.82x); upstream 14.6/s with, 18.6/s
stripped (0.79x): the idle events' settle second is virtual, the cycles the events cause are not. The
differential's ci search: 8.5 s without timelines, 3.6 s more for the timeline search (1.43x). An earlier
run at load 5.5-6.5: reference 0.87x, upstream 0.80x, differential 2.28x with the timeline search at the
profile's full count (now half). The diff's ci list grows by 31 timeline scenarios to 496 (6.7 %).
Again 2026-11-27 after the runner's clientset moved to the simple object tracker, load average 0.2: reference
81.2/s with, 99.5/s stripped (0.82x); upstream 56.0/s with, 65.5/s stripped (0.86x); differential 4.7 s + 1.9 s.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

# Run as a script, this directory heads sys.path and benchmarks/generators.py would shadow `generators`.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from conformance.backends.reference import ReferenceBackend  # noqa: E402 - after the path fix above
from conformance.backends.upstream import UpstreamBackend  # noqa: E402
from conformance.diff.scenarios import draw_fixed  # noqa: E402
from conformance.differential import (TIMELINE_SHARE, find_disagreement, scenarios_for,  # noqa: E402
                                      timeline_scenarios_for)
from conformance.search import for_profile  # noqa: E402
from conformance.extender.server import ExtenderServer  # noqa: E402
from generators import scenarios  # noqa: E402
from reference.scenario import Scenario  # noqa: E402


def rates(run: Callable[[Scenario], Any], pairs: list[tuple[Scenario, Scenario]]) -> tuple[float, float]:
    """Scenarios/s of the first and of the second of each pair, run alternately (a shared machine's load then
    weighs on both alike)."""
    spent = [0.0, 0.0]
    for pair in pairs:
        for i, scenario in enumerate(pair):
            start = time.perf_counter()
            run(scenario)
            spent[i] += time.perf_counter() - start
    return len(pairs) / spent[0], len(pairs) / spent[1]


def seconds(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenarios", type=int, default=300,
                        help="scenarios to draw (those that got events are run)")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    drawn = draw_fixed(scenarios(max_pods=4, extenders=1, timeline=2), args.scenarios, "benchmark-timelines")
    pairs = [(s, replace(s, timeline=())) for s in drawn if s.timeline]
    with ExtenderServer() as server:
        reference = ReferenceBackend(extender_server=server)
        upstream = UpstreamBackend(extender_server=server)
        try:
            for name, backend in (("reference", reference), ("upstream", upstream)):
                backend.run(pairs[0][1])  # warm up (the runner's first scenario starts it)
                with_rate, without_rate = rates(backend.run, pairs)
                print(f"{name}: {len(pairs)} scenarios ({len(drawn)} drawn) with their timeline "
                      f"{with_rate:.1f}/s, stripped {without_rate:.1f}/s ({with_rate / without_rate:.2f}x)")
            plain_s, plain = seconds(lambda: find_disagreement(
                reference, upstream, scenarios_for(extenders=True), profile="ci", shrink=False))
            timeline_s, found = seconds(lambda: find_disagreement(
                reference, upstream, timeline_scenarios_for(extenders=True), profile="ci", shrink=False,
                max_examples=for_profile("ci").max_examples // TIMELINE_SHARE))
            print(f"differential ci search reference vs upstream: without timelines {plain_s:.1f} s"
                  f"{' (a disagreement)' if plain else ''}, the timeline search {timeline_s:.1f} s more"
                  f"{' (a disagreement)' if found else ''} ({(plain_s + timeline_s) / plain_s:.2f}x)")
        finally:
            upstream.close()
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
