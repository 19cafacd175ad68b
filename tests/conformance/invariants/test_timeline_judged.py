"""Invariants judge each binding on the cluster as it was when the scheduler made it (invariants/cluster.py):
timeline scenarios where judging on the scenario's own cluster gave false failures pass, and schedulers
that bind against a stale cluster (mutants below, or outcomes edited the way such a backend reports) fail."""

from __future__ import annotations

import dataclasses

import pytest

from conformance.invariants import REGISTRY, Run, Violation
from reference.scenario import Scenario
from reference.scheduler.scheduler import Scheduler

from ..test_timeline_reference import TAINT, node, pod
from ._kit import CAPABILITIES, run_on_reference

INV = REGISTRY
GATE = [{"name": "example.com/wait"}]
UNGATE = {"op": "update", "kind": "Pod", "name": "p", "patch": {"spec": {"schedulingGates": None}}}


def scenario(timeline, *, nodes=None, pods=(), workload=()) -> Scenario:
    return Scenario.from_dict({"nodes": nodes if nodes is not None else [node()], "pods": list(pods),
                               "workload": list(workload), "timeline": timeline})


def old_run(run: Run) -> Run:
    """The same outcome judged as before timelines: on the scenario's own cluster (no events applied)."""
    return Run(run.scenario, dataclasses.replace(run.outcome, timeline=()), run.capabilities)


def passes(inv: str, run: Run) -> None:
    INV[inv].check(run)


def fails(inv: str, run: Run) -> Violation:
    with pytest.raises(Violation) as info:
        INV[inv].check(run)
    assert info.value.invariant == inv
    return info.value


# --- the scheduler's stale clusters --------------------------------------------------------------

def ignores_node_updates(sched: Scheduler) -> None:
    """Node updates never reach the cache (a missed informer update): taints and labels stay as they were."""
    sched.update_node = lambda node: sched.queue.move_all_to_active_or_backoff()


def ignores_late_bound_pods(sched: Scheduler) -> None:
    """Bound pods created once scheduling began never reach the cache: their room looks free."""
    add, run_until_idle, started = sched.add_pod, sched.run_until_idle, []

    def add_pod(p):
        if not (started and p.node_name):
            add(p)

    def run(*args, **kwargs):
        started.append(True)
        run_until_idle(*args, **kwargs)
    sched.add_pod, sched.run_until_idle = add_pod, run


# --- capacity-respected --------------------------------------------------------------------------

def test_capacity_counts_the_room_a_deletion_freed():
    run = run_on_reference(scenario([{"when": "idle", "op": "delete", "kind": "Pod", "name": "big"}],
                                    pods=[pod("big", node_name="n1")], workload=[pod("p")]))
    assert run.outcome.pods["default/p"].node == "n1"
    fails("capacity-respected", old_run(run))  # the false failure judging on the scenario's cluster gave
    passes("capacity-respected", run)


def test_capacity_catches_a_binding_before_the_deletion():
    run = run_on_reference(scenario([{"when": 2, "op": "delete", "kind": "Pod", "name": "big"}],
                                    pods=[pod("big", node_name="n1")], workload=[pod("p")]))
    passes("capacity-respected", run)
    early = ({**run.outcome.bindings[0], "t": 1.0},)  # bound while big still held the room
    fails("capacity-respected", Run(run.scenario, dataclasses.replace(run.outcome, bindings=early), CAPABILITIES))


def test_capacity_catches_a_cache_that_misses_a_created_bound_pod():
    sc = scenario([{"when": 1, "op": "create", "object": pod("big", node_name="n1")}, {"when": 2, **UNGATE}],
                  workload=[pod("p", schedulingGates=GATE)])
    passes("capacity-respected", run_on_reference(sc))
    broken = run_on_reference(sc, hook=ignores_late_bound_pods)
    assert broken.outcome.pods["default/p"].node == "n1"
    fails("capacity-respected", broken)


# --- taints-tolerated, node-selection-respected, unschedulable-nodes-avoided --------------------

def test_taints_judged_after_the_taint_is_removed():
    run = run_on_reference(scenario([{"when": 2, "op": "update", "kind": "Node", "name": "n1",
                                      "patch": {"spec": {"taints": []}}}],
                                    nodes=[node(taints=[TAINT])], workload=[pod("p")]))
    assert run.outcome.pods["default/p"].node == "n1"
    fails("taints-tolerated", old_run(run))
    passes("taints-tolerated", run)


def test_taints_catch_a_scheduler_that_ignores_an_added_taint():
    sc = scenario([{"when": 1, "op": "update", "kind": "Node", "name": "n1", "patch": {"spec": {"taints": [TAINT]}}},
                   {"when": 2, **UNGATE}], workload=[pod("p", schedulingGates=GATE)])
    passes("taints-tolerated", run_on_reference(sc))
    v = fails("taints-tolerated", run_on_reference(sc, hook=ignores_node_updates))
    assert "maintenance" in str(v)


def test_an_added_toleration_is_judged_with_the_pod_as_it_was():
    run = run_on_reference(scenario([{"when": 1, "op": "update", "kind": "Pod", "name": "p", "patch": {
        "spec": {"tolerations": [{"key": "maintenance", "operator": "Exists"}]}}}],
        nodes=[node(taints=[TAINT])], workload=[pod("p")]))
    assert run.outcome.pods["default/p"].node == "n1"
    fails("taints-tolerated", old_run(run))
    passes("taints-tolerated", run)
    early = ({**run.outcome.bindings[0], "t": 0.5},)  # bound before the toleration was added
    fails("taints-tolerated", Run(run.scenario, dataclasses.replace(run.outcome, bindings=early), CAPABILITIES))


def test_node_selection_after_a_relabel():
    relabel = {"op": "update", "kind": "Node", "name": "n1", "patch": {"metadata": {"labels": {"zone": "b"}}}}
    run = run_on_reference(scenario([{"when": "idle", **relabel}], workload=[pod("p", nodeSelector={"zone": "b"})]))
    assert run.outcome.pods["default/p"].node == "n1"
    fails("node-selection-respected", old_run(run))
    passes("node-selection-respected", run)
    unlabel = {"op": "update", "kind": "Node", "name": "n1", "patch": {"metadata": {"labels": {"zone": None}}}}
    sc = scenario([{"when": 1, **unlabel}, {"when": 2, **UNGATE}],
                  nodes=[node(labels={"zone": "b"})], workload=[pod("p", nodeSelector={"zone": "b"},
                                                                     schedulingGates=GATE)])
    passes("node-selection-respected", run_on_reference(sc))
    fails("node-selection-respected", run_on_reference(sc, hook=ignores_node_updates))


def test_unschedulable_after_uncordon_and_a_binding_to_a_cordoned_node():
    run = run_on_reference(scenario([{"when": 1, "op": "update", "kind": "Node", "name": "n1",
                                      "patch": {"spec": {"unschedulable": None}}}],
                                    nodes=[{**node(), "spec": {"unschedulable": True}}], workload=[pod("p")]))
    assert run.outcome.pods["default/p"].node == "n1"
    fails("unschedulable-nodes-avoided", old_run(run))
    passes("unschedulable-nodes-avoided", run)
    cordon = {"op": "update", "kind": "Node", "name": "n1", "patch": {"spec": {"unschedulable": True}}}
    sc = scenario([{"when": 1, **cordon}, {"when": 2, **UNGATE}], workload=[pod("p", schedulingGates=GATE)])
    passes("unschedulable-nodes-avoided", run_on_reference(sc))
    fails("unschedulable-nodes-avoided", run_on_reference(sc, hook=ignores_node_updates))


def test_a_binding_onto_a_node_created_later_is_caught_and_a_tie_is_taken_both_ways():
    run = run_on_reference(scenario([{"when": 1, "op": "create", "object": node("n2")}],
                                    pods=[pod("big", node_name="n1")], workload=[pod("p")]))
    assert run.outcome.pods["default/p"].node == "n2" and run.outcome.bindings[0]["t"] == 1.0
    passes("taints-tolerated", run)  # bound at the node's creation time: either order is accepted
    early = ({**run.outcome.bindings[0], "t": 0.5},)
    fails("taints-tolerated", Run(run.scenario, dataclasses.replace(run.outcome, bindings=early), CAPABILITIES))


def test_on_a_wall_clock_a_binding_just_before_the_event_is_accepted():
    run = run_on_reference(scenario([{"when": 2, "op": "update", "kind": "Node", "name": "n1",
                                      "patch": {"spec": {"taints": []}}}],
                                    nodes=[node(taints=[TAINT])], workload=[pod("p")]))
    early = ({**run.outcome.bindings[0], "t": 1.0},)  # an informer may have seen the removal early
    caps = CAPABILITIES - {"virtual-time"}
    passes("taints-tolerated", Run(run.scenario, dataclasses.replace(run.outcome, bindings=early), caps))
    early = ({**run.outcome.bindings[0], "t": -5.0},)
    fails("taints-tolerated", Run(run.scenario, dataclasses.replace(run.outcome, bindings=early), caps))


# --- the run's pods --------------------------------------------------------------------------------

def test_timeline_created_pods_count_and_deleted_ones_end():
    run = run_on_reference(scenario([{"when": 1, "op": "create", "object": pod("q")},
                                     {"when": "idle", "op": "delete", "kind": "Pod", "name": "p"}],
                                    nodes=[node(cpu="2")], workload=[pod("p")]))
    assert set(run.pods) == {"default/p", "default/q"}
    assert run.live_pods == ["default/q"]
    for inv in ("capacity-respected", "taints-tolerated", "schedulable-pods-bound"):
        passes(inv, run)
