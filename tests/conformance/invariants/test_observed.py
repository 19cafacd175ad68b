"""The observed-plugin invariants on hand-made outcomes: each passes on what upstream does (and counts
as exercised), and catches the broken framework or plugin it is about, naming the plugin."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.invariants import REGISTRY, Run, Violation
from conformance.core.outcome import Outcome, PodOutcome
from reference.scenario import Scenario

POD = "default/pod-0"
CAPS = frozenset({"observed-plugins"})


def rec(point: str, plugin: str, code: str | None = "Success", *, node: str = "", attempt: int = 1, **extra) -> dict:
    r = {"pod": POD, "point": point, "attempt": attempt, "plugin": plugin, **extra}
    if node:
        r["node"] = node
    if code is not None:
        r["code"] = code
    return r


def run_of(records: list[dict], phase: str = "bound") -> Run:
    observed = tuple({"seq": i, "t": 0, **r} for i, r in enumerate(records))
    bindings = tuple({"pod": POD, "node": r["node"], "t": 0} for r in records
                     if r["point"] == "Bind" and r.get("code") == "Success" and r["plugin"] != "LyingBinder")
    scenario = Scenario.from_dict({"version": 1, "workload": [
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "pod-0", "namespace": "default"},
         "spec": {"containers": [{"name": "c", "image": "x"}]}}]})
    outcome = Outcome("upstream", "v1.37.1", {POD: PodOutcome(phase, "node-0" if phase == "bound" else "")},
                      bindings=bindings, observed=observed)
    return Run(scenario, outcome, CAPS)


# A default-profile cycle as upstream records it: Filter in configured order per node, a rejection
# ending a node's pass, Score and NormalizeScore, Reserve, PreBindPreFlight, Bind.
BOUND_CYCLE = [
    rec("PreFilter", "NodeResourcesFit"), rec("PreFilter", "NodeAffinity", "Skip"),
    rec("Filter", "NodeName", node="node-0"), rec("Filter", "NodeResourcesFit", node="node-0"),
    rec("Filter", "NodeName", node="node-1"), rec("Filter", "NodeResourcesFit", "Unschedulable", node="node-1"),
    rec("Filter", "NodeName", node="node-2"), rec("Filter", "NodeResourcesFit", node="node-2"),
    rec("PreScore", "TaintToleration"), rec("PreScore", "NodeAffinity", "Skip"),
    rec("Score", "TaintToleration", node="node-0", score=0), rec("Score", "TaintToleration", node="node-2", score=0),
    rec("NormalizeScore", "TaintToleration", scores={"node-0": 100, "node-2": 100}),
    rec("Score", "ImageLocality", node="node-0", score=7), rec("Score", "ImageLocality", node="node-2", score=0),
    rec("Reserve", "VolumeBinding"), rec("Reserve", "DynamicResources"),
    rec("PreBindPreFlight", "VolumeBinding", "Skip"), rec("Bind", "DefaultBinder", node="node-0"),
]
# A cycle where nothing fits: PostFilter runs, DynamicResources passes (Unschedulable), DefaultPreemption answers.
FAILED_CYCLE = [
    rec("Filter", "NodeResourcesFit", "Unschedulable", node="node-0"),
    rec("PostFilter", "DynamicResources", "Unschedulable"), rec("PostFilter", "DefaultPreemption", "Unschedulable"),
]
# A Reserve failure: Unreserve for every Reserve plugin, in reverse order.
UNRESERVED_CYCLE = [
    rec("Reserve", "VolumeBinding"), rec("Reserve", "DynamicResources", "Unschedulable"),
    rec("Unreserve", "DynamicResources", None), rec("Unreserve", "VolumeBinding", None),
]

CONFORMING = {"bound": (BOUND_CYCLE, "bound"), "failed": (FAILED_CYCLE, "unschedulable"),
              "unreserved": (UNRESERVED_CYCLE, "unschedulable")}


def replace(records: list[dict], index: int, **changes) -> list[dict]:
    out = [dict(r) for r in records]
    out[index].update(changes)
    return out


# invariant -> (cycle, broken records, the plugin the violation names)
BROKEN = {
    "observed-legal-codes": (BOUND_CYCLE, replace(BOUND_CYCLE, 3, code="Skip"), "NodeResourcesFit"),
    "observed-score-range": (BOUND_CYCLE, replace(BOUND_CYCLE, 13, score=160), "ImageLocality"),
    "observed-filter-stops-at-rejection": (BOUND_CYCLE, BOUND_CYCLE[:3] + [
        rec("Filter", "NodeName", "Unschedulable", node="node-0"),
        rec("Filter", "NodeResourcesFit", node="node-0")] + BOUND_CYCLE[4:], "NodeResourcesFit"),
    "observed-skip-honoured": (BOUND_CYCLE, BOUND_CYCLE + [rec("Filter", "NodeAffinity", node="node-0")],
                               "NodeAffinity"),
    "observed-score-feasible-only": (BOUND_CYCLE, BOUND_CYCLE + [
        rec("Score", "ImageLocality", node="node-1", score=0)], "NodeResourcesFit"),
    "observed-postfilter-only-when-infeasible": (FAILED_CYCLE, replace(FAILED_CYCLE, 1, code="Success"),
                                                 "DefaultPreemption"),
    "observed-unreserve-reverse-order": (UNRESERVED_CYCLE, UNRESERVED_CYCLE[:2] + UNRESERVED_CYCLE[:1:-1],
                                         "VolumeBinding"),
    "observed-bind-first-non-skip": (BOUND_CYCLE, BOUND_CYCLE + [rec("Bind", "DefaultBinder", node="node-0")],
                                     "DefaultBinder"),
    # A binder that says Success without creating the binding (the outcome has no binding for it).
    "observed-bind-success-binds": (BOUND_CYCLE, BOUND_CYCLE[:-1] + [rec("Bind", "LyingBinder", node="node-0")],
                                    "LyingBinder"),
}


# Observed invariants whose runs need more than these cycles (faults, a retry), with the module that breaks them.
ELSEWHERE = {"observed-reserve-released": "test_reserve_released.py"}


def test_every_observed_invariant_has_a_broken_case():
    assert set(BROKEN) | set(ELSEWHERE) == {i for i in REGISTRY if i.startswith("observed-")}
    here = Path(__file__).parent
    assert all((here / module).is_file() for module in ELSEWHERE.values())


@pytest.mark.parametrize("invariant", sorted(BROKEN))
def test_the_invariant_holds_and_is_exercised_on_what_upstream_does(invariant):
    cycle, _, _ = BROKEN[invariant]
    phase = next(phase for records, phase in CONFORMING.values() if records is cycle)
    run = run_of(cycle, phase)
    REGISTRY[invariant].check(run)
    assert run.exercised


@pytest.mark.parametrize("invariant", sorted(BROKEN))
def test_the_invariant_catches_its_broken_case_and_names_the_plugin(invariant):
    cycle, broken, plugin = BROKEN[invariant]
    phase = next(phase for records, phase in CONFORMING.values() if records is cycle)
    with pytest.raises(Violation) as info:
        REGISTRY[invariant].check(run_of(broken, phase))
    assert info.value.invariant == invariant
    assert info.value.plugin == plugin, str(info.value)


def test_a_second_filter_pass_on_cloned_state_is_not_a_rejection_ignored():
    """Nominated pods' pass 1 rejects nothing, pass 2 starts over on the original state: both are upstream's."""
    two_passes = [rec("Filter", "NodeName", node="node-0"), rec("Filter", "NodeResourcesFit", "Unschedulable",
                                                                node="node-0"),
                  rec("Filter", "NodeName", node="node-0"), rec("Filter", "NodeResourcesFit", node="node-0")]
    REGISTRY["observed-filter-stops-at-rejection"].check(run_of(two_passes, "unschedulable"))


def test_a_cycle_cut_by_the_deadline_owes_no_unreserve():
    waiting = [rec("Reserve", "VolumeBinding"), rec("Reserve", "DynamicResources"), rec("Permit", "Probe", "Wait")]
    REGISTRY["observed-unreserve-reverse-order"].check(run_of(waiting, "waiting"))
