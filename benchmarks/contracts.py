"""Contract properties over every plugin of a profile: results, exercised counts and examples/s per property.

    PYTHONPATH=. python benchmarks/contracts.py [--profile ci] [--max-examples N] [--plugin NAME ...]
        [--own-scheduler FILE] [--race] [--shared] [--json OUT]

Uses the stock build's plugin driver (harness/bin/driver, or $SCHED_CONFORMANCE_BIN/driver; built on first use)
or, with --own-scheduler, that build's. Examples/s is wall time per property including Hypothesis' drawing and
shrinking of the inputs; `driver/s` counts only the time inside the property's check (the driver's calls and the
judgement). With --race, plugin-race-free runs too, on the -race driver; the same properties also run on it once
more to give the race build's slowdown. Last, each input strategy is drawn alone (the profile's examples, no
check): the wall rate's other half.

With --shared, the properties of one input strategy are also searched together, as the suite does
(`find_violations`: each example drawn once, every property checks it), right after they ran alone: a
`shared` line per group gives property examples/s (the examples every property checked, summed, per second of
the group's wall time) beside the same figure for the runs alone.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from conformance.contracts import REGISTRY, Tally, find_violation, find_violations  # noqa: E402 - after the path fix
from conformance.contracts.session import ContractSession  # noqa: E402
from conformance.builds.own_scheduler import resolve  # noqa: E402


def measure(session: ContractSession, plugin: str, prop, *, profile: str, max_examples: int | None,
            race: bool) -> dict:
    driver = session.driver(plugin, race=race)
    tally = Tally()
    start = time.perf_counter()
    failure = find_violation(driver, prop, profile=profile, max_examples=max_examples, tally=tally)
    wall = time.perf_counter() - start
    row = {"plugin": plugin, "property": prop.id, "race": race, "examples": tally.examples,
           "exercised": tally.exercised, "seconds": round(wall, 2),
           "examples_per_s": round(tally.examples / wall) if wall and not failure else None,
           "driver_per_s": round(tally.examples / tally.seconds) if tally.seconds else None,
           "result": "pass" if failure is None else "FAIL"}
    if failure is not None:
        row["violation"] = str(failure.violation)
        row["example"] = failure.example.to_dict()
    return row


def measure_shared(session: ContractSession, plugin: str, props: list, alone: list[dict], *, profile: str,
                   max_examples: int | None) -> dict:
    """The group searched as the suite does, beside the sum of its properties' runs alone."""
    driver = session.driver(plugin)
    tallies: dict[str, Tally] = {}
    start = time.perf_counter()
    failures = find_violations(driver, props, profile=profile, max_examples=max_examples, tallies=tallies)
    wall = time.perf_counter() - start
    examples = sum(t.examples for t in tallies.values())
    alone_wall = sum(r["seconds"] for r in alone)
    alone_examples = sum(r["examples"] for r in alone)
    return {"plugin": plugin, "shared": [p.id for p in props], "seconds": round(wall, 2), "examples": examples,
            "property_examples_per_s": round(examples / wall) if wall else None,
            "alone_seconds": round(alone_wall, 2),
            "alone_property_examples_per_s": round(alone_examples / alone_wall) if alone_wall else None,
            "failed": sorted(failures), "exercised": {k: t.exercised for k, t in tallies.items()}}


def draw_rates(profile: str, max_examples: int | None) -> dict[str, int]:
    """Examples/s of each property's input strategy drawn alone, as find_violation draws it."""
    from conformance.search import run_search
    rates = {}
    for strategy in dict.fromkeys(prop.strategy for prop in REGISTRY.values()):
        drawn: list = []
        start = time.perf_counter()
        run_search(strategy(), drawn.append, key=f"draw-rate/{strategy.__name__}", profile=profile,
                   max_examples=max_examples)
        rates[strategy.__name__] = round(len(drawn) / (time.perf_counter() - start))
    return rates


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="ci")
    parser.add_argument("--max-examples", type=int)
    parser.add_argument("--plugin", action="append", default=[])
    parser.add_argument("--own-scheduler")
    parser.add_argument("--race", action="store_true")
    parser.add_argument("--shared", action="store_true", help="also search each strategy's properties together")
    parser.add_argument("--json")
    args = parser.parse_args()
    session = ContractSession(resolve(own_file=args.own_scheduler) if args.own_scheduler else None)
    rows = []
    started = time.perf_counter()
    try:
        for plugin in args.plugin or session.plugins():
            points = session.driver(plugin).points
            groups: dict = {}
            for prop in REGISTRY.values():
                if not prop.applies(points) or (prop.race and not args.race):
                    continue
                runs = [prop.race] + ([True] if args.race and not prop.race and prop.id in RACE_RATIO else [])
                for race in runs:
                    row = measure(session, plugin, prop, profile=args.profile, max_examples=args.max_examples,
                                  race=race)
                    rows.append(row)
                    print(f"{plugin:34} {prop.id:32} {'race ' if race else ''}{row['result']:4} "
                          f"exercised {row['exercised']:3}/{row['examples']:3}  {row['seconds']:6.2f} s  "
                          f"{row['examples_per_s'] or '-':>5} examples/s  {row['driver_per_s'] or '-':>5} driver/s",
                          flush=True)
                    if row["result"] == "FAIL":
                        print("    " + row["violation"].splitlines()[0], flush=True)
                    if not race:
                        groups.setdefault(prop.strategy, []).append((prop, row))
            for members in (g for g in groups.values() if args.shared and len(g) > 1):
                row = measure_shared(session, plugin, [p for p, _ in members], [r for _, r in members],
                                     profile=args.profile, max_examples=args.max_examples)
                rows.append(row)
                print(f"{plugin:34} shared by {len(members)}: {', '.join(row['shared'])}\n{'':34} "
                      f"{row['seconds']:6.2f} s  {row['property_examples_per_s']} property examples/s (alone: "
                      f"{row['alone_seconds']:.2f} s, {row['alone_property_examples_per_s']}/s)", flush=True)
    finally:
        session.close()
    print(f"total {time.perf_counter() - started:.0f} s for {len(rows)} plugin/property runs")
    draws = draw_rates(args.profile, args.max_examples)
    print("drawing alone: " + ", ".join(f"{name} {rate}/s" for name, rate in draws.items()))
    if args.json:
        Path(args.json).write_text(json.dumps({"runs": rows, "draws": draws}, indent=1) + "\n")
    return 0


# Properties also run on the -race driver with --race, for the race build's slowdown.
RACE_RATIO = ("plugin-no-panic", "plugin-deterministic")

if __name__ == "__main__":
    raise SystemExit(main())
