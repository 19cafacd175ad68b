"""Throughput of the reference and upstream backends on the suite's own scenarios, and the runner's memory.

    PYTHONPATH=. python benchmarks/backends.py [--per-invariant 100] [--rss-scenarios 2000]

Needs harness/bin/runner (`harness/build.sh`). Prints one line per measurement and the ratios:
  1. scenarios/s of both backends on the same scenarios: the first --per-invariant examples the ci
     profile draws for every invariant (its situations and focused general scenarios, extenders
     included), collected once and run by each backend in turn;
  2. pods/s for 1,000 pods on 100 nodes with the default profile;
  3. a fixed 2-node, 2-pod scenario: the runner's scenarios/s and RSS every 1,000 scenarios.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable


# Run as a script, this directory heads sys.path and benchmarks/generators.py would shadow `generators`.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from conformance.backends.reference import ReferenceBackend  # noqa: E402 - after the path fix above
from conformance.backends.runner_protocol import RunnerProcess  # noqa: E402
from conformance.backends.upstream import UpstreamBackend, default_runner  # noqa: E402
from conformance.extender.server import ExtenderServer  # noqa: E402
from conformance.invariants import REGISTRY  # noqa: E402
from conformance.search import find_violation  # noqa: E402
from reference.scenario import Scenario  # noqa: E402


class _Recording:
    """The reference backend, keeping every scenario the search runs through it."""

    def __init__(self, backend: ReferenceBackend) -> None:
        self.backend, self.scenarios = backend, []
        self.name, self.capabilities = backend.name, backend.capabilities

    def run(self, scenario: Scenario):
        self.scenarios.append(scenario)
        return self.backend.run(scenario)


def ci_scenarios(reference: ReferenceBackend, per_invariant: int) -> list[Scenario]:
    """The first `per_invariant` examples the ci profile draws for each invariant (no shrinking)."""
    recording = _Recording(reference)
    for inv in REGISTRY.values():
        find_violation(recording, inv, profile="ci", shrink=False, max_examples=per_invariant)
    return recording.scenarios


def node(i: int) -> dict[str, Any]:
    resources = {"cpu": "32", "memory": "64Gi", "pods": "110"}
    name = f"node-{i}"
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name}},
            "status": {"capacity": resources, "allocatable": resources}}


def pod(i: int) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": f"pod-{i}", "namespace": "default"},
            "spec": {"containers": [{"name": "c", "image": "x",
                                     "resources": {"requests": {"cpu": "100m", "memory": "128Mi"}}}]}}


def timed(run: Callable[[Scenario], Any], items: list[Scenario]) -> tuple[list[float], list[Any]]:
    """Seconds per scenario, and the outcomes."""
    seconds, outcomes = [], []
    for s in items:
        start = time.perf_counter()
        outcomes.append(run(s))
        seconds.append(time.perf_counter() - start)
    return seconds, outcomes


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-invariant", type=int, default=100, help="ci examples per invariant (100: all)")
    parser.add_argument("--rss-scenarios", type=int, default=2_000)
    args = parser.parse_args()
    with ExtenderServer() as server:
        reference, upstream = ReferenceBackend(extender_server=server), UpstreamBackend(extender_server=server)
        try:
            items = ci_scenarios(reference, args.per_invariant)
            ref_s, _ = timed(reference.run, items)
            up_s, outs = timed(upstream.run, items)
            ref_rate, up_rate = len(items) / sum(ref_s), len(items) / sum(up_s)
            print(f"ci-profile scenarios ({args.per_invariant} per invariant, {len(items)} in all): reference "
                  f"{ref_rate:.1f}/s, upstream {up_rate:.1f}/s; reference/upstream {ref_rate / up_rate:.2f}x")
            print(f"  upstream per scenario: median {statistics.median(up_s) * 1000:.1f} ms, "
                  f"p95 {sorted(up_s)[int(0.95 * len(up_s))] * 1000:.1f} ms, max {max(up_s) * 1000:.0f} ms "
                  f"(virtual deadlines up to {max(s.deadline for s in items):g} s)")

            big = Scenario.from_dict({"version": 1, "nodes": [node(i) for i in range(100)],
                                      "workload": [pod(i) for i in range(1000)], "deadline": 300})
            (ref_big,), (ref_out,) = timed(reference.run, [big])
            (up_big,), (up_out,) = timed(upstream.run, [big])
            for name, seconds, out in (("reference", ref_big, ref_out), ("upstream", up_big, up_out)):
                n = sum(p.phase == "bound" for p in out.pods.values())
                print(f"1000 pods on 100 nodes, {name}: {seconds:.2f} s, {n} bound, {n / seconds:.0f} pods/s")
            print(f"pods/s ratio upstream/reference: {ref_big / up_big:.2f}")
        finally:
            upstream.close()

    small = Scenario.from_dict({"version": 1, "nodes": [node(0), node(1)], "workload": [pod(0), pod(1)]})
    process = RunnerProcess(default_runner())
    request = {"scenario": small.to_dict()}
    try:
        process.request(request, timeout=60)
        print(f"runner RSS after 1 scenario: {rss_kib(process.pid) / 1024:.1f} MiB")
        start = time.perf_counter()
        for i in range(1, args.rss_scenarios + 1):
            process.request(request, timeout=60)
            if i % 1000 == 0:
                print(f"runner RSS after {i + 1} scenarios: {rss_kib(process.pid) / 1024:.1f} MiB "
                      f"({i / (time.perf_counter() - start):.1f} scenarios/s)")
    finally:
        process.close()


if __name__ == "__main__":
    main()
