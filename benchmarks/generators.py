"""Draws per second of each public strategy, as a property test sees them (generation only, no shrinking).

    PYTHONPATH=. python benchmarks/generators.py [--examples 500] [--repeat 3] [name ...]

Each strategy runs under `@given` with `phases=[generate]`, so the figure includes Hypothesis's own
per-example cost. The best of `--repeat` runs is printed, as other processes share the machine.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, Callable

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.strategies import SearchStrategy

# Run as a script, this directory heads sys.path and this file would shadow the `generators` package.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import generators as g  # noqa: E402 - after the path fix above

NODES = ("node-0", "node-1", "node-2")
STRATEGIES: dict[str, Callable[[], SearchStrategy[Any]]] = {
    "quantities": g.quantities,
    "resource_lists": g.resource_lists,
    "taints": g.taints,
    "tolerations": g.tolerations,
    "node_selector_terms": g.node_selector_terms,
    "node_affinities": g.node_affinities,
    "pod_affinity_terms": g.pod_affinity_terms,
    "topology_spread_constraints": g.topology_spread_constraints,
    "nodes": g.nodes,
    "pods": g.pods,
    "clusters": g.clusters,
    "scheduler_configs": lambda: g.scheduler_configs(probes=3),
    "scheduler_configs(invalid)": lambda: g.scheduler_configs(probes=3, invalid=True),
    "probe_scripts": lambda: g.probe_scripts(probes=3, nodes=NODES),
    "extender_scripts": lambda: g.extender_scripts(extenders=2, nodes=NODES),
    "scenarios": g.scenarios,
    "scenarios(profiles=2, extenders=2)": lambda: g.scenarios(profiles=2, extenders=2, gates=True),
    "scenarios(preemption)": lambda: g.scenarios(preemption=True),
}


def draws_per_second(strategy: SearchStrategy[Any], examples: int) -> float:
    drawn = 0

    @settings(max_examples=examples, phases=[Phase.generate], database=None, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def draw(_: Any) -> None:
        nonlocal drawn
        drawn += 1

    start = time.perf_counter()
    draw()
    return drawn / (time.perf_counter() - start)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"strategies to time (default: all): {', '.join(STRATEGIES)}")
    parser.add_argument("--examples", type=int, default=500, help="examples per run (default 500)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per strategy; the best is printed (default 3)")
    args = parser.parse_args(argv)
    unknown = [n for n in args.names if n not in STRATEGIES]
    if unknown:
        parser.error(f"unknown strategy {unknown[0]!r}; choose from {', '.join(STRATEGIES)}")
    for name in args.names or STRATEGIES:
        best = max(draws_per_second(STRATEGIES[name](), args.examples) for _ in range(args.repeat))
        print(f"{name:40} {best:9.1f} draws/s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
