"""The conformance suite's own speed and bite, on the reference backend, in one run.

    PYTHONPATH=. python benchmarks/suite.py [--profile ci] [--backend reference] [--mutants [--shrink-seconds 8]]

Prints, per invariant, the examples run and examples/second of the search (the suite's test for
it, without pytest), the whole suite's wall time, and with --mutants, for every deliberately broken
reference in tests/conformance/mutants.py: examples and seconds to detection, shrink time and the
shrunk counterexample's size, with the medians.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

# Run as a script, this directory heads sys.path and benchmarks/generators.py would shadow `generators`.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from conformance.backends import make_backend  # noqa: E402 - after the path fix above
from conformance.extender.server import ExtenderServer  # noqa: E402
from conformance.invariants import REGISTRY  # noqa: E402
from conformance.search import find_violation  # noqa: E402


class _Counting:
    """A backend proxy that counts the scenarios run through it."""

    def __init__(self, backend) -> None:
        self.backend, self.runs = backend, 0
        self.name, self.capabilities = backend.name, backend.capabilities

    def run(self, scenario):
        self.runs += 1
        return self.backend.run(scenario)


def per_invariant(backend, profile: str) -> float:
    """Runs each invariant's search as the suite does (find_violation); returns the total wall time."""
    total = 0.0
    print(f"{'invariant':42s} {'examples':>8s} {'seconds':>8s} {'examples/s':>10s}  result")
    for inv in REGISTRY.values():
        if inv.requires - set(backend.capabilities):
            print(f"{inv.id:42s} {'':>8s} {'':>8s} {'':>10s}  skipped (capability)")
            continue
        counting = _Counting(backend)
        start = time.perf_counter()
        failure = find_violation(counting, inv, profile=profile, shrink=False)
        seconds = time.perf_counter() - start
        total += seconds
        result = "pass" if failure is None else f"FAIL after {failure.examples} examples"
        print(f"{inv.id:42s} {counting.runs:8d} {seconds:8.2f} {counting.runs / seconds:10.1f}  {result}", flush=True)
    print(f"suite wall time ({profile} profile, {backend.name}): {total:.1f} s")
    return total


def mutants(server: ExtenderServer, profile: str, shrink_seconds: float) -> None:
    from conformance.backends.reference import ReferenceBackend
    from tests.conformance.mutants import MUTANTS
    rows = []
    print(f"\n{'mutant':42s} {'examples':>8s} {'detect s':>8s} {'shrink s':>8s}  shrunk size")
    for m in MUTANTS:
        backend = ReferenceBackend(hook=m.hook, extender_server=server)
        found = find_violation(backend, REGISTRY[m.invariant], profile=profile, shrink_seconds=shrink_seconds)
        if found is None:
            print(f"{m.name:42s} MISSED")
            continue
        size = found.size()
        rows.append((found.examples, found.seconds, size.get("nodes", 0), size.get("pods", 0)))
        print(f"{m.name:42s} {found.examples:8d} {found.seconds:8.2f} {found.shrink_seconds:8.1f}  {size}", flush=True)
    if rows:
        med = [statistics.median(col) for col in zip(*rows)]
        print(f"medians over {len(rows)} caught of {len(MUTANTS)}: {med[0]:.0f} examples, {med[1]:.2f} s to "
              f"detection; shrunk to {med[2]:.0f} node(s), {med[3]:.0f} pod(s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="ci")
    parser.add_argument("--backend", default="reference")
    parser.add_argument("--mutants", action="store_true", help="also measure detection of the broken backends")
    parser.add_argument("--shrink-seconds", type=float, default=8.0, help="shrink budget per broken backend")
    args = parser.parse_args()
    with ExtenderServer() as server:
        backend = make_backend(args.backend, extender_server=server)
        try:
            per_invariant(backend, args.profile)
        finally:
            backend.close()
        if args.mutants:
            mutants(server, args.profile, args.shrink_seconds)


if __name__ == "__main__":
    main()
