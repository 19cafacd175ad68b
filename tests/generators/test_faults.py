"""Drawn faults (generators/_faults.py): valid by construction, every op, call, point and object drawn,
opt-in only, armed before the drawn events, and shrinking towards none, then the simplest fault."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import find, given, settings

from conformance.search.hypothesis_internals import repeatable
from generators import faults, scenarios, with_faults
from reference.faults import CALLS, OPS, Fault
from reference.scenario import Scenario, pod_key
from reference.timeline import timeline_events

from .support import FAST, sample

DRAWN = dict(faults=3, timeline=2, probes=0, default_plugins=True, max_nodes=2, max_pods=3)


@settings(FAST)
@given(scenarios(**DRAWN))
def test_drawn_faults_are_valid_and_armed_first(sc):
    again = Scenario.from_dict(sc.to_dict())  # validation names a bad entry
    parsed = timeline_events(again)
    is_fault = [isinstance(e, Fault) for e in parsed]
    assert is_fault == sorted(is_fault, reverse=True), sc.timeline
    workload = {pod_key(m) for m in sc.workload}
    assert all(e.pod in workload | {""} for e in parsed if isinstance(e, Fault))


@settings(FAST)
@given(with_faults(scenarios(gates=True, preemption=True), max_faults=2))
def test_with_faults_draws_valid_scenarios(sc):
    timeline_events(Scenario.from_dict(sc.to_dict()))


def test_every_op_call_point_and_object_is_drawn():
    drawn = [f for sc in sample(scenarios(**DRAWN), 150) for f in sc.timeline if f["op"] in OPS]
    seen = Counter((f["op"], f.get("call") or f.get("point")) for f in drawn)
    assert {op for op, _ in seen} == set(OPS)
    assert {d for op, d in seen if op == "fail"} == set(CALLS)
    assert {d for op, d in seen if op == "restart"} == {"reserve", "permit", "prebind", "bind"}
    assert {f["object"] for f in drawn if f["op"] == "vanish"} == {"pod", "node", "victim"}


def test_without_the_opt_in_nothing_changes():
    plain = sample(scenarios(gates=True), 20)
    assert sample(scenarios(gates=True, faults=0), 20) == plain
    assert set(sample(faults(plain[0], max_faults=0), 3)) == {()}
    for bad in (-1, True, 1.5):
        with pytest.raises(ValueError, match=f"faults={bad!r}"):
            scenarios(faults=bad)
    with pytest.raises(ValueError, match="with_faults\\(max_faults=0\\): use 1 or more"):
        with_faults(scenarios(), max_faults=0)


def test_faults_shrink_towards_none_then_the_simplest():
    # Explicit settings: the session's profile (CI=true loads "ci") must not decide how far find() shrinks.
    quick = settings(FAST, max_examples=100)
    with repeatable():
        assert find(scenarios(faults=2), lambda sc: True, settings=quick).timeline == ()
        simplest = find(scenarios(faults=2), lambda sc: bool(sc.timeline), settings=quick).timeline
    assert simplest == ({"op": "fail", "call": "bind", "error": "conflict"},)


def test_min_faults_draws_at_least_that_many_and_shrinks_to_it():
    strategy = with_faults(scenarios(max_nodes=1, max_pods=2), max_faults=2, min_faults=1)
    assert all(1 <= len(sc.timeline) <= 2 for sc in sample(strategy, 20))
    with repeatable():
        simplest = find(strategy, lambda sc: True, settings=settings(FAST, max_examples=100)).timeline
    assert simplest == ({"op": "fail", "call": "bind", "error": "conflict"},)
    for bad in (-1, 3, True):
        with pytest.raises(ValueError, match=f"with_faults\\(min_faults={bad!r}\\): use 0 to max_faults \\(2\\)"):
            with_faults(scenarios(), max_faults=2, min_faults=bad)
    with pytest.raises(ValueError, match="faults\\(min_faults=2\\): use 0 to max_faults \\(1\\)"):
        faults(sample(scenarios(), 1)[0], min_faults=2)
