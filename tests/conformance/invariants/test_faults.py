"""The fault rules (invariants/faults.py, and deleted-node-unused under vanish faults): the reference passes
them with their faults fired, broken schedulers that mishandle a fault fail them, runs without a fault of
their kind say nothing, and outcomes upstream may legitimately show are accepted."""

from __future__ import annotations

import dataclasses
from typing import Callable

import pytest
from hypothesis import HealthCheck, find, settings

from conformance.invariants import REGISTRY
from reference.scenario import Scenario
from reference.scheduler.scheduler import Scheduler

# A pod unreserved but not forgotten after a failed binding: the same broken scheduler the mutant matrix has for
# a pod rejected after Reserve (its room stays taken).
from ..pending_mutants_2 import _rejected_pods_stay_assumed as keeps_failed_binding_assumed
from ..test_timeline_reference import node, pod
from ._kit import config, run_on_reference, violated

RESERVE_PROBES = config({"reserve": ["Probe0", "Probe1"]})


def scenario(timeline, *, nodes=None, workload=(), cfg=None) -> Scenario:
    return Scenario.from_dict({"nodes": nodes if nodes is not None else [node()], "workload": list(workload),
                               "timeline": list(timeline), **({"config": cfg} if cfg else {})})


def fail_bind(error="conflict", **extra):
    return {"op": "fail", "call": "bind", "error": error, **extra}


# --- broken schedulers ------------------------------------------------------------------------------

def rebinds_after_restart(sched: Scheduler) -> None:
    """The restarted scheduler lists the pods it bound as pending (a stale list), and its API server takes a
    second binding (no BindingREST refusal)."""
    store = sched.store
    if not store.pods:
        return  # the first scheduler: nothing listed yet
    for uid, p in list(store.pods.items()):
        if store.bind_count.get(uid):
            store.pods[uid] = dataclasses.replace(p, node_name="")

    def bind(p, node_name, **_):
        stored = store.pods[p.effective_uid]
        store.pods[p.effective_uid] = bound = dataclasses.replace(stored, node_name=node_name)
        store.on_pod_bound(bound)
    store.bind = bind


def no_unreserve_on_failed_binding(sched: Scheduler) -> None:
    """A failed binding forgets the assumed pod but runs no Unreserve (a plugin's reservation leaks)."""
    handle = sched._handle_binding_failure

    def handle_without_unreserve(fw, *args):
        fw.run_reserve_plugins_unreserve = lambda *a: None
        try:
            handle(fw, *args)
        finally:
            del fw.run_reserve_plugins_unreserve
    sched._handle_binding_failure = handle_without_unreserve


def drops_pod_after_failed_binding(sched: Scheduler) -> None:
    """A pod whose binding failed is never requeued."""
    handle = sched._handle_binding_failure

    def dropping(fw, state, qpi, p, host, failure):
        add = sched.queue.add_unschedulable_if_not_present
        sched.queue.add_unschedulable_if_not_present = lambda q: sched.queue.done(q.pod.effective_uid)
        try:
            handle(fw, state, qpi, p, host, failure)
        finally:
            sched.queue.add_unschedulable_if_not_present = add
    sched._handle_binding_failure = dropping


def keeps_deleted_nodes(sched: Scheduler) -> None:
    """A deleted node stays in the cache, so later cycles may still choose it."""
    sched.delete_node = lambda name: None


RESTART = scenario([{"op": "restart", "pod": "p", "point": "prebind"}], workload=[pod("p", cpu="100m")])
FAILED = scenario([fail_bind(pod="p")], workload=[pod("p", cpu="100m")])
MUTANTS: dict[str, tuple[Callable[[Scheduler], None], str, Scenario]] = {
    "rebinds-after-restart": (rebinds_after_restart, "bound-at-most-once", scenario(
        [{"op": "restart", "pod": "q", "point": "bind"}],
        workload=[pod("p", cpu="100m"), pod("q", cpu="100m")])),
    "no-unreserve-on-failed-binding": (no_unreserve_on_failed_binding, "unreserve-after-failed-binding", scenario(
        [fail_bind(pod="p")], workload=[pod("p", cpu="100m")], cfg=RESERVE_PROBES)),
    "keeps-failed-binding-assumed": (keeps_failed_binding_assumed, "no-room-leaked", FAILED),
    "drops-pod-after-failed-binding": (drops_pod_after_failed_binding, "no-room-leaked", FAILED),
    # q comes a second after n1 vanished under p (at the same instant the order could be either).
    "keeps-deleted-nodes": (keeps_deleted_nodes, "deleted-node-unused", scenario(
        [{"op": "vanish", "pod": "p", "point": "permit", "object": "node"},
         {"when": 1, "op": "create", "object": pod("q", cpu="100m")}],
        workload=[pod("p", cpu="100m")])),
}


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_the_reference_passes_and_the_mutant_fails(mutant):
    hook, invariant, sc = MUTANTS[mutant]
    good = run_on_reference(sc)
    assert good.outcome.faults, "the fault must fire on the reference"
    REGISTRY[invariant].check(good)
    assert good.exercised
    assert violated(invariant, run_on_reference(sc, hook=hook))


@pytest.mark.parametrize("invariant", ["unreserve-after-failed-binding", "no-room-leaked"])
def test_without_a_fault_the_rules_say_nothing(invariant):
    sc = scenario([], workload=[pod("p", cpu="100m")], cfg=RESERVE_PROBES)
    run = run_on_reference(sc)
    REGISTRY[invariant].check(run)
    assert not run.exercised


def test_a_fault_that_never_fires_exercises_nothing():
    # q never reaches Reserve (it does not fit): the restart is armed but never fires.
    sc = scenario([{"op": "restart", "pod": "q", "point": "reserve"}],
                  workload=[pod("p", cpu="100m"), pod("q", cpu="2")])
    run = run_on_reference(sc)
    assert run.outcome.faults == () and run.outcome.timeline == ({"index": 0, "at": 0.0},)
    for invariant in ("unreserve-after-failed-binding", "no-room-leaked"):
        REGISTRY[invariant].check(run)
        assert not run.exercised


# --- what the rules accept -------------------------------------------------------------------------

def test_a_retried_internal_error_is_no_failed_binding():
    # DefaultBinder retries an internal error (util.BindPod): the second try binds; Unreserve is not owed.
    sc = scenario([fail_bind("internal", pod="p")], workload=[pod("p", cpu="100m")], cfg=RESERVE_PROBES)
    run = run_on_reference(sc)
    assert run.outcome.pods["default/p"].phase == "bound" and len(run.outcome.faults) == 1
    REGISTRY["unreserve-after-failed-binding"].check(run)
    REGISTRY["unreserve-reverse-order"].check(run)
    assert not run.outcome.calls(pod="default/p", point="Unreserve")


def test_an_attempt_cut_by_a_restart_owes_no_unreserve():
    sc = scenario([{"op": "restart", "pod": "p", "point": "prebind"}], workload=[pod("p", cpu="100m")],
                  cfg=RESERVE_PROBES)
    run = run_on_reference(sc)
    assert [r["attempt"] for r in run.outcome.calls(pod="default/p", point="Reserve")] == [1, 1, 2, 2]
    assert not run.outcome.calls(pod="default/p", point="Unreserve")
    REGISTRY["unreserve-reverse-order"].check(run)
    REGISTRY["bound-at-most-once"].check(run)
    assert run.outcome.pods["default/p"].phase == "bound"


def test_a_pod_bound_to_its_node_that_vanished_at_permit_is_legitimate():
    # The binding does not look the node up (BindingREST): the cycle chose n1 before it vanished.
    hook, invariant, sc = MUTANTS["keeps-deleted-nodes"]
    run = run_on_reference(sc)
    assert run.outcome.pods["default/p"].node == "n1"
    assert run.outcome.pods["default/q"].phase == "unschedulable"
    assert run.outcome.faults[0]["object"] == "Node/n1"
    REGISTRY["deleted-node-unused"].check(run)


def test_a_status_patch_that_failed_leaves_the_pod_without_a_condition():
    # handleSchedulingFailure logs a failed patch; the pod is still queued and retried.
    sc = scenario([fail_bind(pod="p"), {"op": "fail", "call": "status", "error": "timeout"}],
                  workload=[pod("p", cpu="100m")])
    run = run_on_reference(sc)
    assert [f["detail"] for f in run.outcome.faults] == ["bind", "status"]
    assert run.outcome.pods["default/p"].phase == "bound"
    REGISTRY["no-room-leaked"].check(run)
    assert run.exercised


def test_a_vanished_pod_leaves_the_outcome_and_its_room():
    sc = scenario([{"op": "vanish", "pod": "p", "point": "reserve", "object": "pod"}],
                  workload=[pod("p", cpu="1"), pod("q", cpu="1")])
    run = run_on_reference(sc)
    assert "default/p" not in run.outcome.pods and run.outcome.pods["default/q"].phase == "bound"
    assert "default/p" not in run.live_pods
    for invariant in ("bound-at-most-once", "no-room-leaked", "deleted-node-unused"):
        REGISTRY[invariant].check(run)


# --- the search ------------------------------------------------------------------------------------

SHRINK = settings(max_examples=600, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("mutant", ["no-unreserve-on-failed-binding", "drops-pod-after-failed-binding"])
def test_the_recipe_finds_the_mutant_and_shrinks_it_small(mutant):
    hook, invariant, _ = MUTANTS[mutant]
    strategy = REGISTRY[invariant].situation.strategy()
    found = find(strategy, lambda sc: violated(invariant, run_on_reference(sc, hook=hook)), settings=SHRINK)
    assert len(found.nodes) <= 2 and len(found.workload) + len(found.pods) <= 2 \
        and len(found.timeline) <= 1, found.to_dict()
    assert not violated(invariant, run_on_reference(found))
