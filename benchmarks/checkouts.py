"""Two checkouts of the suite side by side: the wall time of the same commands, interleaved, in one run.

    python benchmarks/checkouts.py --before ../old-checkout --after . [--rounds 2] [--only reference]

For a refactoring that must keep its speed: each round runs every command once on each checkout (before, after,
alternating which goes first), so load from elsewhere on the machine falls on both; prints the median wall time of
each and the ratio after/before. A checkout runs its own code (its directory heads sys.path) with this Python's
packages, and its own harness/bin (link one build into both when the Go code is the same).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

SUITE = ["-m", "pytest", "--pyargs", "conformance.suite", "-p", "no:cacheprovider", "-q", "--conformance-profile", "ci",
         "--conformance-reproducers", "{tmp}/reproducers"]
COMMANDS = {
    "reference": [*SUITE, "--conformance-backend", "reference"],
    "upstream": [*SUITE, "--conformance-backend", "upstream"],
    "differential": [*SUITE, "--conformance-backend", "upstream", "--conformance-compare", "reference",
                     "-k", "differential"],
    "check-plugin-all": ["-m", "pytest", "--pyargs", "conformance.contracts.suite", "-p", "no:cacheprovider", "-q",
                         "--conformance-profile", "ci", "--conformance-check-plugin-all", "-k", "not plugin-race-free",
                         "--conformance-reproducers", "{tmp}/reproducers"],
}
# Checkouts from before the option table (conformance/options.py) named these pytest options without the prefix.
_UNPREFIXED = {"--conformance-backend", "--conformance-compare", "--conformance-reproducers",
               "--conformance-check-plugin-all"}


def _argv(checkout: Path, argv: list[str]) -> list[str]:
    if (checkout / "conformance" / "options.py").is_file():
        return argv
    # Their unprefixed --kubeconfig clashes with pytest-kind's, which this Python may have installed.
    old = ["--" + a[len("--conformance-"):] if a in _UNPREFIXED else a for a in argv]
    return [*old[:2], "-p", "no:pytest-kind", *old[2:]]


def run(checkout: Path, argv: list[str], tmp: Path) -> tuple[float, int]:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, *(a.format(tmp=tmp) for a in _argv(checkout, argv))], cwd=checkout, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seconds = time.perf_counter() - start
    summary = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
    print(f"    {checkout.name or checkout}: {seconds:.1f}s  {summary}", flush=True)
    return seconds, proc.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--after", type=Path, default=Path("."))
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--only", action="append", choices=sorted(COMMANDS), default=[])
    parser.add_argument("--tmp", type=Path, default=Path("/tmp/sched-conformance-checkouts"))
    args = parser.parse_args()
    sides = {"before": args.before.resolve(), "after": args.after.resolve()}
    results: dict[str, dict[str, list[float]]] = {}
    for name in args.only or list(COMMANDS):
        print(f"{name}:", flush=True)
        times: dict[str, list[float]] = {"before": [], "after": []}
        for round_ in range(args.rounds):
            order = ["before", "after"] if round_ % 2 == 0 else ["after", "before"]
            for side in order:
                tmp = args.tmp / side
                tmp.mkdir(parents=True, exist_ok=True)
                seconds, code = run(sides[side], COMMANDS[name], tmp)
                if code not in (0, 1):  # 1: a violation still ran the whole search; anything else did not run
                    raise SystemExit(f"{name} on {side} exited {code}: its time says nothing; fix the command")
                times[side].append(seconds)
        results[name] = times
    print("\ncommand            before (s)  after (s)  after/before")
    for name, times in results.items():
        before, after = statistics.median(times["before"]), statistics.median(times["after"])
        print(f"{name:<18} {before:>10.1f} {after:>10.1f} {after / before:>13.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
