"""Throughput of the reference and upstream backends, and the runner's memory over many scenarios.

    PYTHONPATH=. python benchmarks/backends.py [--scenarios 200] [--rss-scenarios 10000]

Needs harness/bin/runner (`harness/build.sh`). Prints one line per measurement and the ratios:
  1. scenarios/s on the same scenarios drawn (derandomized) from `generators.scenarios()`;
  2. pods/s for 1,000 pods on 100 nodes with the default profile;
  3. the runner's RSS every 1,000 scenarios up to --rss-scenarios (small fixed scenarios).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any, Callable

from hypothesis import HealthCheck, given, settings

from conformance.backends.reference import ReferenceBackend
from conformance.backends.runner_protocol import RunnerProcess
from conformance.backends.upstream import UpstreamBackend, default_runner
from generators import scenarios
from reference.scenario import Scenario


def drawn(count: int) -> list[Scenario]:
    """`count` scenarios from generators.scenarios(), the same ones on every run."""
    found: list[Scenario] = []

    @settings(max_examples=count, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(scenarios(max_nodes=4, max_pods=4, probes=2, max_permit_timeout=0.5))
    def collect(s: Scenario) -> None:
        found.append(s)

    collect()
    return found[:count]


def node(i: int) -> dict[str, Any]:
    resources = {"cpu": "32", "memory": "64Gi", "pods": "110"}
    name = f"node-{i}"
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name}},
            "status": {"capacity": resources, "allocatable": resources}}


def pod(i: int) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": f"pod-{i}", "namespace": "default"},
            "spec": {"containers": [{"name": "c", "image": "x",
                                     "resources": {"requests": {"cpu": "100m", "memory": "128Mi"}}}]}}


def timed(run: Callable[[Scenario], Any], items: list[Scenario]) -> tuple[float, list[Any]]:
    start = time.perf_counter()
    outcomes = [run(s) for s in items]
    return time.perf_counter() - start, outcomes


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
        print(f"generated scenarios: {len(items)}; reference {len(items) / ref_s:.1f}/s, "
              f"upstream {len(items) / up_s:.1f}/s (ratio reference/upstream {up_s / ref_s:.2f}); "
              f"upstream bound {bound} pods")

        big = Scenario.from_dict({"version": 1, "nodes": [node(i) for i in range(100)],
                                  "workload": [pod(i) for i in range(1000)], "deadline": 300})
        ref_s, (ref_out,) = timed(reference.run, [big])
        up_s, (up_out,) = timed(upstream.run, [big])
        for name, seconds, out in (("reference", ref_s, ref_out), ("upstream", up_s, up_out)):
            n = sum(p.phase == "bound" for p in out.pods.values())
            print(f"1000 pods on 100 nodes, {name}: {seconds:.2f} s, {n} bound, {n / seconds:.0f} pods/s")
        print(f"pods/s ratio upstream/reference: {ref_s / up_s:.2f}")
    finally:
        upstream.close()

    small = {"scenario": Scenario.from_dict({"version": 1, "nodes": [node(0), node(1)],
                                             "workload": [pod(0), pod(1)]}).to_dict()}
    process = RunnerProcess(default_runner())
    try:
        start = time.perf_counter()
        print(f"runner RSS at start: {rss_kib(process.pid) / 1024:.1f} MiB")
        for i in range(1, args.rss_scenarios + 1):
            process.request(small, timeout=60)
            if i % 1000 == 0:
                print(f"runner RSS after {i} scenarios: {rss_kib(process.pid) / 1024:.1f} MiB "
                      f"({i / (time.perf_counter() - start):.1f} scenarios/s)")
    finally:
        process.close()


if __name__ == "__main__":
    main()
