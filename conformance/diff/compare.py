"""What changed between two schedulers on one scenario, classified, only where upstream is deterministic.

The probe trace, forced node choices and final results are compared as `conformance.differential`
does for two backends (its `disagreements`). On top of that, a diff compares what two builds of the
real scheduler both report: the plugin list of every profile (a release adds or moves in-tree
plugins), the calls of every in-tree and user plugin (`observed`: point, node, code and score, as
multisets per attempt, with the same cuts at points evaluated in parallel), preemption victims and
nominations, the events' reasons, and a run that fails on one side only. Those outcome-level
comparisons need the whole run to be determined (`differential.settled`: no open host choice, no
deletion), because a random choice earlier changes what every later pod sees.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ..differential import (Disagreement, call_multiset, calls_disagreement, disagreements, errored_in_parallel,
                            partial_dry_run, settled, stops_at_first_feasible)
from ..errors import BackendFailure
from ..invariants import Run

KINDS = {
    "placement": "a node chosen where the choice is forced (one feasible node or one best score)",
    "schedulability": "a pod's result (bound, unschedulable, error, gated, waiting)",
    "plugin-calls": "which plugins were called at which point and node, with which status code or score",
    "plugin-list": "the plugins a profile runs at an extension point",
    "status-text": "the PodScheduled reason, the FitError message or the events' reasons",
    "preemption": "the victims deleted or the node nominated",
    "error": "the scenario fails (the scheduler refuses it or crashes) on one side only, or with another error",
}


@dataclass(frozen=True)
class SideResult:
    """A side's run of a scenario: its Run, or the error text when the backend failed."""

    run: Run | None
    error: str = ""


@dataclass
class ScenarioDiff:
    """The differences of one scenario; the first is the cause, the others may follow from it."""

    name: str
    differences: list[Disagreement] = field(default_factory=list)

    @property
    def cause(self) -> Disagreement | None:
        return self.differences[0] if self.differences else None


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
        return [Disagreement("whether the scenario runs", "", a.error or "runs", b.error or "runs", "error")]
    out = _plugin_lists(a.run, b.run)
    out += list(disagreements(a.run, b.run, coarse=True))
    if settled(a.run, b.run):
        seen = {d.pod for d in out}
        out += [d for d in (_observed(a.run, b.run, pod) for pod in a.run.live_pods if pod not in seen) if d]
        out += _preemption(a.run, b.run) + _events(a.run, b.run, {d.pod for d in out})
    return out


def _plugin_lists(a: Run, b: Run) -> list[Disagreement]:
    out = []
    for profile in sorted(set(a.outcome.plugins) | set(b.outcome.plugins)):
        left, right = a.outcome.plugins.get(profile) or {}, b.outcome.plugins.get(profile) or {}
        for point in sorted(set(left) | set(right)):
            names_a, names_b = _names(left.get(point)), _names(right.get(point))
            if names_a != names_b:
                causes = tuple(sorted((point, p) for p in set(names_a) ^ set(names_b))) or ((point, "(order)"),)
                out.append(Disagreement(f"the plugins of profile {profile} at {point}", "", names_a, names_b,
                                        "plugin-list", causes))
    return out


def _names(entries: Any) -> list[str]:
    return [e.get("name", "") if isinstance(e, Mapping) else str(e) for e in entries or ()]


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
        cut = errored_in_parallel(left[attempt]) | errored_in_parallel(right[attempt])
        if stops_at_first_feasible(a, pod):
            cut |= {"Filter", "AddPod"}
        if partial_dry_run(a, pod):
            cut |= {"Filter", "AddPod", "RemovePod"}
        calls_a = call_multiset(left[attempt], True, cut, extra=("score", "scores"), coarse=True)
        calls_b = call_multiset(right[attempt], True, cut, extra=("score", "scores"), coarse=True)
        if calls_a != calls_b:
            return calls_disagreement(f"the observed plugin calls of attempt {attempt} (plugin, point, node, code, "
                                      f"score, scores)", pod, calls_a, calls_b)
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
