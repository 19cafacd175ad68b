"""observed-reserve-released on hand-made outcomes: a plugin whose answers move after its Reserve was undone
is named; one that answers as before passes (exercised); nothing is judged when something else changed
between."""

from __future__ import annotations

import pytest

from conformance.core.outcome import Outcome, PodOutcome
from conformance.invariants import REGISTRY, Run, Violation
from reference.scenario import Scenario

INV = REGISTRY["observed-reserve-released"]
POD = "default/pod-0"
LEAK = ("Unschedulable", ["node has a binding in flight"])


def rec(point, plugin="MyPlugin", code="Success", *, attempt=1, t=0.0, node="node-0", pod=POD, **extra):
    return {"pod": pod, "point": point, "attempt": attempt, "plugin": plugin, "node": node, "t": t,
            **({"code": code} if code is not None else {}), **extra}


def failed_then_retried(second=("Success", []), *, between=()) -> list[dict]:
    """The pod's cycle whose binding failed at t=0 (Reserve, PreBind, Unreserve), `between`, its retry at
    t=1."""
    code, reasons = second
    return [rec("Filter"), rec("Filter", node="node-1"), rec("Reserve"), rec("PreBind"),
            rec("Unreserve", code=None), *between,
            rec("Filter", code=code, reasons=reasons, attempt=2, t=1.0),
            rec("Filter", node="node-1", attempt=2, t=1.0)]


FAILED_BIND = {"index": 0, "at": 0, "pod": POD, "fault": "fail", "detail": "bind"}


def run_of(records, *, bindings=(), timeline=(), applied=(), faults=(FAILED_BIND,)) -> Run:
    workload = [{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": n, "namespace": "default"},
                 "spec": {"containers": [{"name": "c", "image": "x"}]}} for n in ("pod-0", "pod-1")]
    scenario = Scenario.from_dict({"version": 1, "workload": workload, "nodes": [
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": n}} for n in ("node-0", "node-1")],
        "timeline": [{"op": "fail", "call": "bind", "error": "conflict"}, *timeline]})
    outcome = Outcome("upstream", "v1.37.2", {POD: PodOutcome("pending", "")}, bindings=tuple(bindings),
                      observed=tuple({"seq": i, **r} for i, r in enumerate(records)),
                      timeline=({"index": 0, "at": 0}, *applied), faults=tuple(faults))
    return Run(scenario, outcome, frozenset({"observed-plugins"}))


def check(run: Run) -> Run:
    with run.checking(INV.id):
        INV.check(run)
    return run


def test_a_plugin_that_answers_as_before_passes_and_is_exercised():
    assert check(run_of(failed_then_retried())).exercised


def test_a_plugin_whose_filter_moved_after_unreserve_is_named():
    with pytest.raises(Violation) as caught:
        check(run_of(failed_then_retried(LEAK)))
    assert caught.value.invariant == INV.id and caught.value.plugin == "MyPlugin"
    assert "MyPlugin answered Filter for default/pod-0 on node-0 with Unschedulable" in str(caught.value)


@pytest.mark.parametrize("what, change", [
    ("another pod bound", {"bindings": [{"pod": "default/pod-1", "node": "node-0", "t": 0.5}]}),
    ("another pod reserved", {"between": [rec("Reserve", pod="default/pod-1", t=0.5)]}),
    ("an event applied", {"timeline": [{"op": "delete", "kind": "Pod", "name": "pod-1", "when": 0.5}],
                          "applied": [{"index": 1, "at": 0.5}]}),
    ("a restart fired", {"faults": [{**FAILED_BIND, "at": 0.5, "fault": "restart"}]}),
])
def test_nothing_is_judged_when_something_else_changed_between(what, change):
    between = change.pop("between", ())
    run = check(run_of(failed_then_retried(LEAK, between=between), **change))
    assert not run.exercised, what


def test_a_cycle_without_unreserve_is_not_judged():
    records = [r for r in failed_then_retried(LEAK) if r["point"] != "Unreserve"]
    assert not check(run_of(records)).exercised
