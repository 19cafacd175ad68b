"""Differences grouped by cause, each group shrunk to a small scenario that still differs the same way.

A scenario's first difference in behaviour is its cause (the others may follow from it: a pod placed
elsewhere changes what the next pods see), and each change of a profile's plugin list is one too;
scenarios whose causes agree on kind, extension points, plugins and what differs form a group. The key leaves out pods, nodes and attempt numbers, so the same cause
found with other seeds (or another profile) lands in the same group, which is what a baseline accepts.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterator

from reference.scenario import Scenario, ScenarioError
from reference.probe import PROBE_NAMES

from ..differential import Disagreement
from ..search import scenario_size
from .compare import ScenarioDiff
from .engine import Sides, diff_one
from .scenarios import Drawn

# Probes are the suite's own plugins: the probe's name says nothing about the cause across seeds, where
# a real plugin's name does.
PROBE = "Probe*"


def cause_key(d: Disagreement, causes: tuple[tuple[str, str], ...] | None = None) -> str:
    """`kind point/plugin[,...] (what)`, with attempt numbers, pods and probe numbers left out."""
    causes = sorted({f"{point}/{PROBE if plugin in PROBE_NAMES else plugin}"
                     for point, plugin in (d.causes if causes is None else causes)})
    what = re.sub(r"\battempt \d+", "attempt N", re.sub(r"profile \S+", "profile P", d.what))
    return " ".join(p for p in (d.kind, ",".join(causes), f"({what})") if p)


@dataclass
class Group:
    key: str
    kind: str
    causes: tuple[tuple[str, str], ...]
    scenarios: list[tuple[Drawn, ScenarioDiff]] = field(default_factory=list)
    shrunk: Scenario | None = None
    shrunk_differences: list[Disagreement] = field(default_factory=list)
    shrink_runs: int = 0
    gates: dict[str, tuple[bool | None, bool | None]] = field(default_factory=dict)
    accepted: str | None = None  # the baseline's note when the group is accepted

    @property
    def plugins(self) -> set[str]:
        return {plugin for _, plugin in self.causes}

    @property
    def example(self) -> Scenario:
        return self.shrunk if self.shrunk is not None else self.scenarios[0][0].scenario


def causes_of(differences: list[Disagreement]) -> dict[str, Disagreement]:
    """Key -> difference for the groups a scenario belongs to: each plugin-list change (a config-level fact, not
    a consequence of anything) and the first difference in behaviour (the others may follow from it)."""
    out = {cause_key(d): d for d in differences if d.kind == "plugin-list"}
    first = next((d for d in differences if d.kind != "plugin-list"), None)
    if first is not None:
        # One group per (point, plugin) whose calls changed: new PreFilter calls of three plugins are three
        # causes, which other scenarios show in other combinations.
        for cause in first.causes or ((),):
            key = cause_key(first, (cause,) if cause else ())
            out[key] = replace(first, causes=(cause,) if cause else ())
    return out


def group(found: list[tuple[Drawn, ScenarioDiff]]) -> list[Group]:
    """Groups by cause key (`causes_of`), largest group first."""
    out: dict[str, Group] = {}
    for drawn, diff in found:
        for key, cause in causes_of(diff.differences).items():
            out.setdefault(key, Group(key, cause.kind, cause.causes)).scenarios.append((drawn, diff))
    for g in out.values():
        g.scenarios.sort(key=lambda item: _weight(item[0].scenario))
    return sorted(out.values(), key=lambda g: (-len(g.scenarios), g.key))


def _weight(scenario: Scenario) -> int:
    return sum(scenario_size(scenario).values())


def candidates(scenario: Scenario) -> Iterator[Scenario]:
    """Smaller variants: one timeline event, workload pod, bound pod, node (with its pods), object, pod
    script or probe placement fewer; each a valid scenario."""
    data = scenario.to_dict()
    for section in ("timeline", "workload", "pods", "objects"):
        items = data.get(section) or []
        for i in range(len(items)):
            if section == "workload" and len(items) == 1:
                break
            yield from _valid({**data, section: items[:i] + items[i + 1:]})
    nodes = data.get("nodes") or []
    for i, node in enumerate(nodes if len(nodes) > 1 else ()):
        name = node["metadata"]["name"]
        pods = [p for p in data.get("pods") or [] if p.get("spec", {}).get("nodeName") != name]
        yield from _valid({**data, "nodes": nodes[:i] + nodes[i + 1:], "pods": pods})
    for i, pod in enumerate(data.get("workload") or []):
        for annotation in (pod.get("metadata") or {}).get("annotations") or {}:
            trimmed = {**pod, "metadata": {**pod["metadata"], "annotations": {
                k: v for k, v in pod["metadata"]["annotations"].items() if k != annotation}}}
            yield from _valid({**data, "workload": [*data["workload"][:i], trimmed, *data["workload"][i + 1:]]})
    yield from _fewer_probe_placements(data)


def _fewer_probe_placements(data: dict) -> Iterator[Scenario]:
    for p_index, profile in enumerate((data.get("config") or {}).get("profiles") or []):
        for point, plugin_set in ((profile.get("plugins") or {}).items()):
            enabled = (plugin_set or {}).get("enabled") or []
            for i, entry in enumerate(enabled):
                if entry.get("name") not in PROBE_NAMES:
                    continue
                plugins = {**profile["plugins"], point: {**plugin_set, "enabled": enabled[:i] + enabled[i + 1:]}}
                profiles = list(data["config"]["profiles"])
                profiles[p_index] = {**profile, "plugins": plugins}
                yield from _valid({**data, "config": {**data["config"], "profiles": profiles}})


def _valid(data: dict) -> Iterator[Scenario]:
    try:
        scenario = Scenario.from_dict(data)
        scenario.check()
    except (ScenarioError, ValueError, KeyError, TypeError):
        return
    yield scenario


def shrink(g: Group, sides: Sides, *, budget_runs: int = 150, budget_seconds: float = 60.0) -> None:
    """Greedy: take the first smaller variant that still has a first difference with the group's key, until
    no variant does or the budget is spent; the result is confirmed by one more run."""
    current = g.example
    current_diffs = g.scenarios[0][1].differences
    start, runs = time.monotonic(), 0
    improved = True
    while improved and runs < budget_runs and time.monotonic() - start < budget_seconds:
        improved = False
        for candidate in candidates(current):
            if runs >= budget_runs or time.monotonic() - start >= budget_seconds:
                break
            runs += 1
            diffs = diff_one(sides, candidate)
            if g.key in causes_of(diffs):
                current, current_diffs, improved = candidate, diffs, True
                break
    if current is not g.scenarios[0][0].scenario:
        runs += 1
        if g.key not in causes_of(diff_one(sides, current)):  # a difference that does not repeat: keep the original
            current, current_diffs = g.scenarios[0][0].scenario, g.scenarios[0][1].differences
    # The group's own difference first: the example shows it, then what else differs there (once each).
    current_diffs = sorted(current_diffs, key=lambda d: g.key not in causes_of([d]))
    current_diffs = list({(d.what, d.pod, repr(d.left), repr(d.right)): d for d in current_diffs}.values())
    g.shrunk, g.shrunk_differences, g.shrink_runs = current, current_diffs, runs


def shrink_all(groups: list[Group], sides: Sides, *, progress: Callable[[str], None] = lambda _: None,
               **budget: Any) -> None:
    for i, g in enumerate(groups, 1):
        before = _weight(g.example)
        shrink(g, sides, **budget)
        progress(f"group {i}/{len(groups)} {g.key}: shrunk from size {before} to {_weight(g.example)} "
                 f"in {g.shrink_runs} runs")


__all__ = ["Group", "PROBE", "candidates", "cause_key", "causes_of", "group", "shrink", "shrink_all"]
