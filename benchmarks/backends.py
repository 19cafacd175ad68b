"""Throughput of the reference and upstream backends, and the runner's memory over many scenarios.

    PYTHONPATH=. python benchmarks/backends.py [--scenarios 200] [--rss-scenarios 10000]

Needs harness/bin/runner (`harness/build.sh`). Prints one line per measurement and the ratios:
  1. scenarios/s on the same scenarios drawn (derandomized) from `generators.scenarios()`, deadline 3 s;
  2. pods/s for 1,000 pods on 100 nodes with the default profile;
  3. a fixed 2-node, 2-pod scenario: reference scenarios/s, and the runner's scenarios/s and RSS every
     1,000 scenarios up to --rss-scenarios.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

from hypothesis import HealthCheck, given, settings

# Run as a script, this directory heads sys.path and benchmarks/generators.py would shadow `generators`.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from conformance.backends.reference import ReferenceBackend  # noqa: E402 - after the path fix above
from conformance.backends.runner_protocol import RunnerProcess  # noqa: E402
from conformance.backends.upstream import UpstreamBackend, default_runner  # noqa: E402
from generators import scenarios  # noqa: E402
from reference.scenario import Scenario  # noqa: E402

# Generated scenarios get this deadline: a pod that keeps failing with Error is retried with
# backoff until the deadline, which costs the upstream backend wall time (the reference: none).
DEADLINE = 3.0


def drawn(count: int) -> list[Scenario]:
    """`count` scenarios from generators.scenarios(), the same ones on every run, with DEADLINE."""
    found: list[Scenario] = []

    @settings(max_examples=count, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(scenarios(max_nodes=4, max_pods=4, probes=2, max_permit_timeout=0.5))
    def collect(s: Scenario) -> None:
        found.append(s)

    collect()
    return [dataclasses.replace(s, deadline=DEADLINE) for s in found[:count]]


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
    parser.add_argument("--scenarios", type=int, default=200)
    parser.add_argument("--rss-scenarios", type=int, default=10_000)
    args = parser.parse_args()
    reference, upstream = ReferenceBackend(), UpstreamBackend()
    try:
        items = drawn(args.scenarios)
        ref_s, _ = timed(reference.run, items)
        up_s, outs = timed(upstream.run, items)
        bound = sum(p.phase == "bound" for o in outs for p in o.pods.values())
        idle = [t for t in up_s if t < DEADLINE - 0.05]
        print(f"generated scenarios: {len(items)}; reference {len(items) / sum(ref_s):.1f}/s, "
              f"upstream {len(items) / sum(up_s):.2f}/s (reference/upstream {sum(up_s) / sum(ref_s):.0f}x); "
              f"upstream bound {bound} pods")
        print(f"  upstream: {len(items) - len(idle)} scenarios ran into the {DEADLINE:g} s deadline (retries, "
              f"Permit waits); the other {len(idle)} ended idle after {statistics.median(idle) * 1000:.0f} ms "
              f"median, {max(idle) * 1000:.0f} ms max ({len(idle) / sum(idle):.1f}/s)")

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
    ref_small, _ = timed(reference.run, [small] * 1000)
    print(f"fixed 2-node 2-pod scenario, reference: {1000 / sum(ref_small):.0f}/s")
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
