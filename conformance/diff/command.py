"""`sched-conformance diff`: the same scenarios on two scheduler builds, what changed, and whether a baseline
accepts it. Exit 0: no difference outside the baseline; 1: a new group; 2: a usage or build error."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from ..core.errors import ConformanceError
from ..options import PROFILES, add_cli_options


def add_to(sub: argparse._SubParsersAction) -> None:
    d = sub.add_parser("diff", help="run the same scenarios on two scheduler builds and report what changed "
                                    "(upgrade gating; docs/upgrade-gating.md)")
    d.add_argument("--from", dest="from_version", help="the release you run now, e.g. v1.36.4")
    d.add_argument("--to", dest="to_version", help="the release you move to, e.g. v1.37.2")
    d.add_argument("--from-module", help="your plugin module as it is now (a directory with go.mod)")
    d.add_argument("--to-module", help="your plugin module as you will ship it")
    add_cli_options(d, "diff")  # your own scheduler, the same on both sides
    d.add_argument("--feature-gates", default="", help="Name=true,...: pin these gates on both sides")
    d.add_argument("--profile", default="ci", choices=PROFILES, help="sets the number of scenarios (default ci)")
    d.add_argument("--only", action="append", default=[],
                   help="only the scenarios of this source (a situation's invariant ID or 'general'; repeatable)")
    d.add_argument("--baseline", help="YAML of accepted groups: exit 0 when every difference is accepted")
    d.add_argument("--write-baseline", help="write the groups found as accepted to this YAML file")
    d.add_argument("--report", help="directory for summary.md, diff.json and the reproducers")
    d.add_argument("--junitxml", help="JUnit XML file: one test case per group")
    d.add_argument("--shrink-runs", type=int, default=150, help="runs each group's shrinking may spend (default 150)")
    d.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..extender.server import ExtenderServer
    from . import baseline, gates
    from .engine import Sides
    from .report import markdown, write_all
    from .scenarios import fixed_scenarios
    from .sides import backend_for, build_both, check_gates, log, make_sides
    try:
        pins = gates.parse_pins(args.feature_gates)
    except ValueError as exc:
        raise ConformanceError(str(exc)) from None
    accepted = baseline.read(args.baseline) if args.baseline else None
    if args.only and not args.conformance_scheduler_config and not args.conformance_own_scheduler:
        next(fixed_scenarios(args.profile, only=tuple(args.only)), None)  # an unknown --only fails before building
    a, b = make_sides(from_version=args.from_version, to_version=args.to_version, from_module=args.from_module,
                      to_module=args.to_module, modules=args.conformance_go_modules,
                      plugins=args.conformance_go_plugins, imports=args.conformance_go_imports,
                      scheduler_config=args.conformance_scheduler_config, own_file=args.conformance_own_scheduler)
    build_a, build_b, build_seconds = build_both(a, b)
    # The release each side resolved to (a module's go.mod or the pin), for the labels and the reproducers.
    a, b = a.resolved(build_a.k8s_version), b.resolved(build_b.k8s_version)
    check_gates(build_a, args.feature_gates, "--from")
    check_gates(build_b, args.feature_gates, "--to")
    with ExtenderServer() as server:
        backend_a = backend_for(build_a, extender_server=server, feature_gates=args.feature_gates)
        backend_b = backend_for(build_b, extender_server=server, feature_gates=args.feature_gates)
        try:
            result = _diff(args, (a, b), Sides(backend_a, backend_b, a.label, b.label), build_seconds,
                           (build_a.k8s_version, build_b.k8s_version), pins)
        finally:
            backend_a.close()
            backend_b.close()
    if accepted is not None:
        baseline.apply(result.groups, accepted)
    report_dir = Path(args.report) if args.report else None
    write_all(result, report_dir, Path(args.junitxml) if args.junitxml else None)
    print(markdown(result), end="")
    if args.write_baseline:
        baseline.write(args.write_baseline, result.groups, from_label=a.label, to_label=b.label,
                       previous=accepted)
        log(f"wrote {len(result.groups)} group(s) as accepted to {args.write_baseline}")
        return 0
    if report_dir is not None:
        log(f"report: {report_dir / 'summary.md'}, {report_dir / 'diff.json'}, {report_dir / 'reproducers'}")
    new = result.new_groups
    log(f"{len(result.groups)} group(s) of differences, {len(new)} new" + (" (not in the baseline)" if accepted
                                                                          is not None else ""))
    return 1 if new else 0


def _diff(args: argparse.Namespace, sides: tuple[Any, Any], backends: Any, build_seconds: dict[str, float],
          releases: tuple[str, str], pins: dict[str, bool]) -> Any:
    from . import gates
    from .compare import run_side
    from .engine import run_all
    from .groups import group, shrink_all
    from .report import DiffResult
    from .scenarios import fixed_scenarios
    from .sides import log
    from ..builds.own_scheduler import OwnScheduler
    base = None
    if args.conformance_scheduler_config or args.conformance_own_scheduler:
        base = OwnScheduler(sides[0].spec).base_config(backends.a)
    # Both versions' vocabularies: a label only the new version reads must be drawn too.
    domain = OwnScheduler(sides[0].spec).domain().merged(OwnScheduler(sides[1].spec).domain())
    start = time.monotonic()
    drawn = list(fixed_scenarios(args.profile, base=base, domain=domain, only=tuple(args.only), progress=log))
    log(f"{len(drawn)} scenarios drawn in {time.monotonic() - start:.0f} s; running them on both sides")
    found, tally = run_all(backends, drawn, progress=log)
    if tally.flaky:
        log(f"{len(tally.flaky)} scenario(s) differed once but not the same way when run again (flaky, not "
            f"grouped): {', '.join(tally.flaky)}")
    if tally.uninjectable:
        log(f"{len(tally.uninjectable)} scenario(s) not run: one side cannot inject their faults (a runner "
            f"before v1.37 injects fail faults only): {', '.join(tally.uninjectable)}")
    groups = group(found)
    moved = gates.moved_defaults(*releases) if releases[0] != releases[1] else {}
    for g in groups:
        g.gates = gates.gates_behind(g.plugins, *releases, pinned=set(pins)) if moved else {}
    log(f"{len(found)} of {len(drawn)} scenarios differ, in {len(groups)} group(s); shrinking each")
    shrink_all(groups, backends, progress=log, budget_runs=args.shrink_runs)
    result = DiffResult(sides, groups, tally.scenarios, {"--from": tally.seconds["from"], "--to": tally.seconds["to"]},
                        build_seconds, {k: v for k, v in moved.items() if k not in pins}, args.feature_gates,
                        flaky=tuple(tally.flaky))
    for g in groups:
        result.examples[g.key] = (run_side(backends.a, g.example), run_side(backends.b, g.example))
    return result


__all__ = ["add_to", "run"]
