"""Throughput with the user's own scheduler: the example module's build against the stock runner.

    PYTHONPATH=. python benchmarks/own_scheduler.py [--scenarios 300] [--rounds 2]

Needs Go (the example module is built, or taken from the build cache) and harness/bin/runner. Runs,
side by side in each round, on the same derandomized scenarios:
  1. the stock runner on generated configs, without and with every plugin observed;
  2. the example build's runner on the same scenarios (what the user's build costs by itself);
  3. the example build's runner on scenarios from the user's config (examples/plugins/configs/
     prefer-labeled.yaml, laid out by that build), the scenarios `--scheduler-config` runs;
  4. the same build without coverage instrumentation (build.sh --mod without --cover, into a temporary
     directory): what counting the user's statements costs (line 3 counts them, into a counter directory).
Prints scenarios/s per line and the ratios to line 1.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# Run as a script, this directory heads sys.path and benchmarks/generators.py would shadow `generators`.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from conformance import paths  # noqa: E402
from conformance.backends.upstream import UpstreamBackend  # noqa: E402
from conformance.builds import coverage  # noqa: E402
from conformance.builds.builder import build  # noqa: E402
from conformance.builds.own_scheduler import resolve  # noqa: E402
from generators import scenarios  # noqa: E402
from reference.scenario import Scenario  # noqa: E402

EXAMPLE = _HERE.parent / "examples" / "plugins"


def collect(strategy: st.SearchStrategy[Scenario], count: int) -> list[Scenario]:
    out: list[Scenario] = []

    @settings(max_examples=count, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def draw(scenario: Scenario) -> None:
        out.append(scenario)
    draw()
    return out


def rate(backend: UpstreamBackend, batch: list[Scenario]) -> float:
    backend.run(batch[0])  # warm: the runner process is up
    start = time.perf_counter()
    for scenario in batch:
        backend.run(scenario)
    return len(batch) / (time.perf_counter() - start)


def uninstrumented_runner(own, out: Path) -> Path:
    """The build's runner again, from the same prepared module, without --cover."""
    mod = build(own.spec).directory / "mod"
    subprocess.run(["bash", str(paths.harness() / "build.sh"), "--mod", str(mod), "--out", str(out)], check=True,
                   capture_output=True)
    return out / "runner"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenarios", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    own = resolve(directory=EXAMPLE)  # examples/plugins/pyproject.toml: PreferLabeled and its config
    runner = own.runner()
    plain = uninstrumented_runner(own, Path(tempfile.mkdtemp(prefix="sched-conformance-bench-")))
    counters = coverage.start_session()
    own_backend = UpstreamBackend(runner=runner)
    base = own.base_config(own_backend)
    stock_batch = collect(st.one_of(scenarios(probes=3, max_pods=4), scenarios(preemption=True, probes=2)),
                          args.scenarios)
    own_batch = collect(st.one_of(scenarios(probes=3, max_pods=4, base=base),
                                  scenarios(preemption=True, probes=2, base=base)), args.scenarios)
    lines = {"stock runner, generated configs, nothing observed": (lambda: UpstreamBackend(observe=()), stock_batch),
             "stock runner, generated configs, every plugin observed": (UpstreamBackend, stock_batch),
             "example build, generated configs": (lambda: UpstreamBackend(runner=runner), stock_batch),
             "example build, the user's config + probes": (lambda: UpstreamBackend(runner=runner), own_batch),
             "the same, not instrumented for coverage": (lambda: UpstreamBackend(runner=plain), own_batch)}
    for round_ in range(1, args.rounds + 1):
        print(f"round {round_} ({args.scenarios} scenarios per line)")
        first = None
        for label, (make, batch) in lines.items():
            backend = make()
            try:
                value = rate(backend, batch)
            finally:
                backend.close()
            first = first or value
            print(f"  {label:<56} {value:6.1f} scenarios/s  {value / first:4.2f}x")
    own_backend.close()
    report = coverage.collect(counters, own.module_dir(), counters / "report")
    print(coverage.summary_lines(report)[0] if report else "no coverage counters were written")
    coverage.end_session(counters)


if __name__ == "__main__":
    main()
