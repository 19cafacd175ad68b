"""A diff's report: Markdown summary, the same as JSON, JUnit (one test case per group), and a reproducer
directory per group that replays on either side (`sched-conformance reproduce DIR --version V`)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import yaml

from ..reporting import reproducer
from ..differential import Disagreement
from ..invariants import Run
from .compare import KINDS, SideResult
from .groups import Group
from .sides import Side

WIDTH = 58  # one column of the side-by-side trace


@dataclass
class DiffResult:
    sides: tuple[Side, Side]
    groups: list[Group]
    scenarios: int
    run_seconds: dict[str, float]
    build_seconds: dict[str, float]
    moved_gates: dict[str, tuple[bool | None, bool | None]]
    pinned_gates: str = ""
    examples: dict[str, tuple[SideResult, SideResult]] = field(default_factory=dict)
    reproducers: dict[str, Path] = field(default_factory=dict)
    flaky: tuple[str, ...] = ()  # scenarios whose difference did not replay (engine.replays)

    @property
    def new_groups(self) -> list[Group]:
        return [g for g in self.groups if g.accepted is None]

    @property
    def differing(self) -> int:
        """Scenarios with any difference (a scenario can be in several groups)."""
        return len({drawn.name for g in self.groups for drawn, _ in g.scenarios})

    def rate(self, side: str) -> float:
        return self.scenarios / self.run_seconds[side] if self.run_seconds.get(side) else 0.0


def _difference_line(d: Disagreement) -> str:
    pod = f"{d.pod}: " if d.pod else ""
    return f"{pod}{d.what}: --from {_short(d.left)} | --to {_short(d.right)}"


def _short(value: Any, limit: int = 300) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    return text if len(text) <= limit else text[:limit] + "..."


def _pod_lines(run: Run | None, error: str, pods: list[str]) -> list[str]:
    if run is None:
        return [f"error: {error}"]
    lines = []
    for pod in pods:
        result = run.outcome.pods.get(pod)
        if result is not None:
            where = f" on {result.node}" if result.node else ""
            reason = (result.condition or {}).get("reason", "")
            lines.append(f"{pod}: {result.phase}{where} {reason}".rstrip())
        for r in [*run.outcome.trace, *run.outcome.observed]:
            if r.get("pod") == pod and "plugin" in r and r.get("point") != "PreEnqueue":
                extra = f" score={r['score']}" if r.get("score") is not None else ""
                node = f" {r['node']}" if r.get("node") else ""
                lines.append(f"  {r.get('attempt', '')} {r['point']} {r['plugin']}{node} {r.get('code') or ''}{extra}")
    return lines


def outcome_text(result: SideResult, pods: list[str]) -> str:
    return "\n".join(_pod_lines(result.run, result.error, pods))


def side_by_side(a: SideResult, b: SideResult, pods: list[str], limit: int = 60) -> str:
    left, right = _pod_lines(a.run, a.error, pods), _pod_lines(b.run, b.error, pods)
    rows = [f"{'--from':<{WIDTH}} | --to"]
    for i in range(max(len(left), len(right))):
        l, r = (left[i] if i < len(left) else ""), (right[i] if i < len(right) else "")
        rows.append(f"{l[:WIDTH]:<{WIDTH}} | {r[:WIDTH]}" + ("  <>" if l != r else ""))
    if len(rows) > limit:
        rows = rows[:limit] + [f"... {len(rows) - limit} more lines (see the reproducer)"]
    return "\n".join(rows)


def _example_pods(g: Group) -> list[str]:
    named = [d.pod for d in g.shrunk_differences if d.pod]
    return list(dict.fromkeys(named)) or g.example.workload_keys()


def markdown(result: DiffResult) -> str:
    a, b = result.sides
    new = result.new_groups
    lines = [f"# sched-conformance diff: {a.label} -> {b.label}", "",
             f"{result.scenarios} scenarios on both sides; {result.differing} differ, "
             f"in {len(result.groups)} group(s), {len(new)} not in the baseline."
             + (f" {len(result.flaky)} more differed once but not when run again on both sides (flaky, not "
                f"grouped): {', '.join(result.flaky)}." if result.flaky else ""), "",
             f"Speed: --from {result.rate('--from'):.1f} scenarios/s, --to {result.rate('--to'):.1f} scenarios/s; "
             f"builds: --from {result.build_seconds.get('--from', 0):.0f} s, --to "
             f"{result.build_seconds.get('--to', 0):.0f} s (0 s: cached).", ""]
    if result.moved_gates:
        moved = ", ".join(f"{g} {x}->{y}" for g, (x, y) in result.moved_gates.items())
        lines += [f"Feature-gate defaults that differ between the sides (gates the scheduler reads): {moved}."
                  + (f" Pinned on both sides: {result.pinned_gates}." if result.pinned_gates else
                     " Pin any of them on both sides with --feature-gates Name=true,..."), ""]
    lines += ["| group | kind | scenarios | gate defaults behind it | baseline |", "|---|---|---|---|---|"]
    for g in result.groups:
        gates = ", ".join(f"{name} {x}->{y}" for name, (x, y) in g.gates.items()) or "-"
        lines.append(f"| `{g.key}` | {g.kind} | {len(g.scenarios)} | {gates} | "
                     f"{'accepted: ' + g.accepted if g.accepted is not None else '**new**'} |")
    for i, g in enumerate(result.groups, 1):
        lines += ["", f"## {i}. `{g.key}`", "", f"{g.kind}: {KINDS.get(g.kind, '')}.",
                  f"{len(g.scenarios)} scenario(s), e.g. {', '.join(d.name for d, _ in g.scenarios[:5])}."]
        if g.gates:
            lines.append("Follows a feature-gate default change: " + ", ".join(
                f"{name} (--from {x}, --to {y})" for name, (x, y) in g.gates.items()) + ".")
        lines += ["", "Shrunk example (the group's difference first, then what else differs there):", ""]
        lines += [f"- {_difference_line(d)}" for d in g.shrunk_differences[:5]]
        lines += ["", "```yaml", yaml.safe_dump(g.example.to_dict(), sort_keys=False, width=110).rstrip(), "```"]
        if g.key in result.examples:
            lines += ["", "Both sides on the shrunk example:", "", "```",
                      side_by_side(*result.examples[g.key], _example_pods(g)), "```"]
        if g.key in result.reproducers:
            directory = result.reproducers[g.key]
            lines += ["", f"Reproduce with: `{replay_command(directory)}` (both sides, compared); one side: "
                          f"{one_side(directory, a, b)}"]
    return "\n".join(lines) + "\n"


def to_json(result: DiffResult) -> dict[str, Any]:
    a, b = result.sides
    return {"from": a.label, "to": b.label, "scenarios": result.scenarios, "differing": result.differing,
            "seconds": result.run_seconds, "scenariosPerSecond": {s: result.rate(s) for s in ("--from", "--to")},
            "buildSeconds": result.build_seconds, "movedGateDefaults": {k: list(v) for k, v in result.moved_gates.items()},
            "pinnedGates": result.pinned_gates, "flaky": list(result.flaky),
            "groups": [{"key": g.key, "kind": g.kind, "causes": [list(c) for c in g.causes],
                        "scenarios": [d.name for d, _ in g.scenarios], "accepted": g.accepted,
                        "gates": {k: list(v) for k, v in g.gates.items()}, "shrinkRuns": g.shrink_runs,
                        "example": {"scenario": g.example.to_dict(),
                                    "differences": [_difference_dict(d) for d in g.shrunk_differences]},
                        "reproducer": str(result.reproducers.get(g.key, "")) or None}
                       for g in result.groups]}


def _difference_dict(d: Disagreement) -> dict[str, Any]:
    return {"kind": d.kind, "what": d.what, "pod": d.pod, "from": d.left, "to": d.right,
            "causes": [list(c) for c in d.causes]}


def junit(result: DiffResult) -> str:
    a, b = result.sides
    cases = []
    for g in result.groups:
        body = escape("\n".join(_difference_line(d) for d in g.shrunk_differences[:5]))
        if g.accepted is None:
            inner = f'<failure message={quoteattr(f"new difference: {g.key}")}>{body}</failure>'
        else:
            inner = f"<system-out>{escape('accepted: ' + g.accepted)}\n{body}</system-out>"
        cases.append(f'  <testcase classname="sched-conformance.diff" name={quoteattr(g.key)}>{inner}</testcase>')
    if not result.groups:
        cases.append('  <testcase classname="sched-conformance.diff" name="no differences"/>')
    failures = len(result.new_groups)
    name = quoteattr(f"diff {a.label} -> {b.label}")
    return (f'<?xml version="1.0" encoding="utf-8"?>\n<testsuites>\n<testsuite name={name} '
            f'tests="{max(1, len(result.groups))}" failures="{failures}" errors="0">\n' + "\n".join(cases)
            + "\n</testsuite>\n</testsuites>\n")


def replay_command(directory: Path) -> str:
    return f"sched-conformance reproduce {directory}"


def one_side(directory: Path, a: Side, b: Side) -> str:
    """The commands that replay on one side: by release when the releases differ, else by side."""
    if a.spec.k8s_version != b.spec.k8s_version:
        return " or ".join(f"`{replay_command(directory)} --version {s.spec.k8s_version}`" for s in (a, b))
    return " or ".join(f"`{replay_command(directory)} --side {s.flag.lstrip('-')}`" for s in (a, b))


def write_reproducers(result: DiffResult, root: Path) -> None:
    a, b = result.sides
    for i, g in enumerate(result.groups, 1):
        directory = root / "reproducers" / f"{i:02d}-{reproducer.slug(g.key)[:60]}"
        message = "\n".join(_difference_line(d) for d in g.shrunk_differences[:5])
        sides = {side.flag.lstrip("-"): {"label": side.label, "k8sVersion": side.spec.k8s_version,
                                         "ownScheduler": f"{side.flag.lstrip('-')}-scheduler.toml"}
                 for side in (a, b)}
        reproducer.write(directory, g.example, invariant="diff", backend="upstream", message=message,
                         extra_meta={"group": g.key, "sides": sides, "featureGates": result.pinned_gates},
                         replay=f"{replay_command(directory)}\n# one side: {one_side(directory, a, b)}")
        for side in (a, b):
            reproducer.write_own_scheduler(directory, side.spec.to_toml(),
                                           name=f"{side.flag.lstrip('-')}-scheduler.toml")
        result.reproducers[g.key] = directory


def write_all(result: DiffResult, report_dir: Path | None, junit_file: Path | None) -> None:
    if report_dir is not None:
        report_dir.mkdir(parents=True, exist_ok=True)
        write_reproducers(result, report_dir)
        (report_dir / "summary.md").write_text(markdown(result))
        (report_dir / "diff.json").write_text(json.dumps(to_json(result), indent=2, default=str) + "\n")
    if junit_file is not None:
        junit_file.parent.mkdir(parents=True, exist_ok=True)
        junit_file.write_text(junit(result))


__all__ = ["DiffResult", "junit", "markdown", "outcome_text", "side_by_side", "to_json", "write_all", "write_reproducers"]
