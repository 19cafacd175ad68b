"""What changed between two schedulers on one scenario, classified, only where upstream is deterministic.

The probe trace, forced node choices and final results are compared as `conformance.differential`
does for two backends (its `disagreements`). On top of that, a diff compares what two builds of the
real scheduler both report: the plugin list of every profile (a release adds or moves in-tree
plugins), the calls of every in-tree and user plugin (`observed`: point, node, code and score, as
multisets per attempt, with the same cuts at points evaluated in parallel), preemption victims and
nominations, the events' reasons, and a run that fails on one side only. Those outcome-level
comparisons need the whole run to be determined (`differential.settled`: no open host choice, no
deletion, no timeline event), because a random choice earlier changes what every later pod sees, and an
event races with the cycles at its instant (differential/timeline.py: what is compared then).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from reference.probe import PROBE_NAMES

from ..differential.compare import (AFTER_SELECTION, Disagreement, call_multiset, calls_disagreement, disagreements,
                                    errored_in_parallel, partial_dry_run, settled, stops_at_first_feasible)
from ..differential.timeline import first_event
from ..core.errors import BackendFailure
from ..invariants import Run

KINDS = {
    "placement": "a node chosen where the choice is forced (one feasible node or one best score)",
    "schedulability": "a pod's result (bound, unschedulable, error, gated, waiting)",
    "plugin-calls": "which plugins were called at which point and node, with which status code or score",
    "plugin-list": "the plugins a profile runs at an extension point",
    "status-text": "the PodScheduled reason, the FitError message or the events' reasons",
    "preemption": "the victims deleted or the node nominated",
    "timeline": "a timed timeline event applied on one side only (an idle one not reached before the "
                "deadline is timing, not a difference)",
    "error": "the scenario fails (the scheduler refuses it or crashes) on one side only, or with another error",
}


@dataclass(frozen=True)
class SideResult:
    """A side's run of a scenario: its Run, or the error text when the backend failed."""

    run: Run | None
    error: str = ""


@dataclass
class ScenarioDiff:
    """The differences of one scenario, config-level first, then per pod in creation order."""

    name: str
    differences: list[Disagreement] = field(default_factory=list)


def run_side(backend: Any, scenario: Any) -> SideResult:
    try:
        return SideResult(Run(scenario, backend.run(scenario), frozenset(backend.capabilities)))
    except BackendFailure as exc:
        return SideResult(None, str(exc).splitlines()[0])


def differences(a: SideResult, b: SideResult) -> list[Disagreement]:
    """Every difference between the two sides' runs of one scenario, the most basic first."""
    if a.run is None or b.run is None:
        if a.error == b.error:
            return []
        return [_error(a, b)]
    out = _plugin_lists(a.run, b.run)
    out += list(disagreements(a.run, b.run, coarse=True))
    seen = {d.pod for d in out}
    if settled(a.run, b.run):
        out += [d for d in (_observed(a.run, b.run, pod) for pod in a.run.live_pods if pod not in seen) if d]
        out += _preemption(a.run, b.run) + _events(a.run, b.run, {d.pod for d in out})
    elif first := _first_cycle(a.run, b.run):
        out += [first] if first.pod not in seen else []
    return out


def _first(run: Run, before: float) -> tuple[str, int] | None:
    """The pod and observed attempt of the run's first scheduling cycle, when every cycle is seen in `observed`:
    each pod's first PreFilter plugin is an observed one (not a probe), so its call opens every cycle; and
    when it started before the first timeline event (`before`, a virtual time)."""
    pods = run.live_pods
    if not pods or any(not run.plugins_at(p, "preFilter") or run.plugins_at(p, "preFilter")[0] in PROBE_NAMES
                       for p in pods):
        return None
    cycles = [r for r in run.outcome.observed if r.get("point") == "PreFilter"]
    if not cycles:
        return None
    r = min(cycles, key=lambda r: r["seq"])
    if before != float("inf") and (not isinstance(r.get("t"), (int, float)) or r["t"] >= before):
        return None  # a timeline event applied at that instant may or may not have reached the cycle
    return str(r["pod"]), int(r.get("attempt") or 0)


def _first_cycle(a: Run, b: Run) -> Disagreement | None:
    """Where the run is not settled, the first scheduling cycle still is: nothing was assumed or deleted
    before it and the queue pops by priority, then creation. Compared up to host selection, when it started
    before any timeline event applied."""
    events = first_event(a, b)
    first_a, first_b = _first(a, events), _first(b, events)
    if first_a is None or first_b is None:
        return None
    if first_a != first_b:  # PreEnqueue and the queue decide; a difference there shows in the pods' results
        return None
    pod, attempt = first_a
    left = [r for r in _observed_attempts(a, pod).get(attempt, []) if r["point"] not in AFTER_SELECTION]
    right = [r for r in _observed_attempts(b, pod).get(attempt, []) if r["point"] not in AFTER_SELECTION]
    return _compare_calls(a, b, pod, attempt, left, right)


def _plugin_lists(a: Run, b: Run) -> list[Disagreement]:
    """One difference per plugin added to or removed from a point of a profile (or per point whose order moved)."""
    out = []
    for profile in sorted(set(a.outcome.plugins) | set(b.outcome.plugins)):
        left, right = a.outcome.plugins.get(profile) or {}, b.outcome.plugins.get(profile) or {}
        for point in sorted(set(left) | set(right)):
            names_a, names_b = _names(left.get(point)), _names(right.get(point))
            if names_a == names_b:
                continue
            for plugin in (p for p in names_b if p not in names_a):
                out.append(Disagreement(f"plugin added at {point}", "", names_a, names_b, "plugin-list",
                                        ((point, plugin),)))
            for plugin in (p for p in names_a if p not in names_b):
                out.append(Disagreement(f"plugin removed at {point}", "", names_a, names_b, "plugin-list",
                                        ((point, plugin),)))
            if sorted(names_a) == sorted(names_b):
                out.append(Disagreement(f"the order of the plugins at {point}", "", names_a, names_b, "plugin-list",
                                        ((point, "(order)"),)))
    return out


def _names(entries: Any) -> list[str]:
    """Plugin names of one point of an outcome's plugin list: {"enabled": [{"name", "weight"}]} or a list."""
    if isinstance(entries, Mapping):
        entries = entries.get("enabled")
    return [e.get("name", "") if isinstance(e, Mapping) else str(e) for e in entries or ()]


_REFUSED_PLUGIN = re.compile(r'plugin "(\w+)" does not extend (\w+?)Plugin')


def _error(a: SideResult, b: SideResult) -> Disagreement:
    """A run that fails on one side (or differently): caused by a plugin when the error names it."""
    causes = tuple(sorted({(point, plugin) for e in (a.error, b.error) for plugin, point in _REFUSED_PLUGIN.findall(e)}))
    return Disagreement("whether the scenario runs" + (" (a plugin at a point it does not implement)" if causes else ""),
                        "", a.error or "runs", b.error or "runs", "error", causes)


def _observed_attempts(run: Run, pod: str) -> dict[int, list[Mapping[str, Any]]]:
    out: dict[int, list[Mapping[str, Any]]] = {}
    for r in run.outcome.observed:
        if r.get("pod") == pod and "plugin" in r:
            out.setdefault(int(r.get("attempt") or 0), []).append(r)
    return out


def _observed(a: Run, b: Run, pod: str) -> Disagreement | None:
    """The first observed attempt whose calls differ (point, node, code, score). Only when the pod had as many
    attempts on both sides: how often a pod is retried depends on timing the trace does not pin (backoff,
    the moment a cluster event arrives), and a retry sees what happened in between."""
    left, right = _observed_attempts(a, pod), _observed_attempts(b, pod)
    if sorted(left) != sorted(right) or a.attempts(pod) != b.attempts(pod):
        return None
    for attempt in sorted(left):
        if found := _compare_calls(a, b, pod, attempt, left[attempt], right[attempt]):
            return found
    return None


def _compare_calls(a: Run, b: Run, pod: str, attempt: int, left: list, right: list) -> Disagreement | None:
    # A probe's failing Filter or Score call cancels the observed plugins' calls still running too; the probe
    # trace numbers its attempts on its own, so any attempt of the pod's counts (cutting more is safe).
    probes = [r for run in (a, b) for r in run.outcome.trace if r.get("pod") == pod and "plugin" in r]
    cut = errored_in_parallel(left) | errored_in_parallel(right) | errored_in_parallel(probes)
    if stops_at_first_feasible(a, pod):
        cut |= {"Filter", "AddPod"}
    if partial_dry_run(a, pod) or any(r["point"] in ("RemovePod", "AddPod") for r in (*left, *right, *probes)):
        # A preemption's dry run evaluates candidates in parallel and stops once it has enough; nominated pods
        # (AddPod, a second Filter pass) reach an attempt only once the scheduler has recorded the nomination.
        cut |= {"Filter", "AddPod", "RemovePod"}
    calls_a = call_multiset(left, True, cut, extra=("score", "scores"), coarse=True)
    calls_b = call_multiset(right, True, cut, extra=("score", "scores"), coarse=True)
    if calls_a != calls_b:
        return calls_disagreement(f"the observed calls of attempt {attempt} (plugin, point, node, code, score, "
                                  f"scores)", pod, calls_a, calls_b)
    return None


def _preemption(a: Run, b: Run) -> list[Disagreement]:
    out = []
    if sorted(a.outcome.deleted) != sorted(b.outcome.deleted):
        out.append(Disagreement("the pods deleted (preemption victims)", "", sorted(a.outcome.deleted),
                                sorted(b.outcome.deleted), "preemption", (("PostFilter", "DefaultPreemption"),)))
    for pod in a.live_pods:
        ra, rb = a.outcome.pods.get(pod), b.outcome.pods.get(pod)
        # A bound pod's nomination is bookkeeping whose last state is timing (NominatedNodeNameForExpectation
        # sets it before binding, ClearingNominatedNodeNameAfterBinding clears it after).
        if ra and rb and "bound" not in (ra.phase, rb.phase) and ra.nominated_node_name != rb.nominated_node_name:
            out.append(Disagreement("the nominated node", pod, ra.nominated_node_name, rb.nominated_node_name,
                                    "preemption", (("PostFilter", "DefaultPreemption"),)))
    return out


def _events(a: Run, b: Run, already: set[str]) -> list[Disagreement]:
    out = []
    for pod in (p for p in a.live_pods if p not in already):
        left, right = _reasons(a, pod), _reasons(b, pod)
        if left != right:
            out.append(Disagreement("the events' reasons", pod, left, right, "status-text"))
    return out


def _reasons(run: Run, pod: str) -> list[str]:
    """The reasons of the pod's events, as a set: how many FailedScheduling a retried pod gets is timing."""
    return sorted({str(e.get("reason")) for e in run.outcome.events if e.get("pod") == pod})


__all__ = ["KINDS", "ScenarioDiff", "SideResult", "differences", "run_side"]
