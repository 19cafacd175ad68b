"""Liveness at quiescence and the outcome-only preemption rules, on reference runs and edited outcomes."""

from __future__ import annotations

import dataclasses

from conformance.invariants import REGISTRY

from ..hard_mutants import _each_framework, _lost_wakeups, _pdbs_ignored, _victims_not_reprieved
from ._kit import edited, node, pod, run_on_reference, scenario, violation, with_pod

LIVE = REGISTRY["schedulable-pods-bound"]
NEVER = REGISTRY["never-preempting-pods-evict-none"]
PDB = REGISTRY["pdb-kept-when-avoidable"]
MINIMAL = REGISTRY["preemption-victims-minimal"]


def _waits_for_web() -> list[dict]:
    """pod-0 needs a web pod on its node; pod-1 (web) comes later in the queue."""
    waiting = pod("pod-0")
    waiting["spec"]["affinity"] = {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "kubernetes.io/hostname"}]}}
    web = pod("pod-1")
    web["metadata"]["labels"] = {"app": "web"}
    return [waiting, web]


def test_a_lost_wakeup_leaves_a_schedulable_pod_pending() -> None:
    sc = scenario(_waits_for_web())
    run = run_on_reference(sc)
    assert run.outcome.pods["default/pod-0"].phase == "bound"
    LIVE.check(run)
    broken = run_on_reference(sc, hook=_lost_wakeups)
    assert broken.outcome.pods["default/pod-0"].phase == "unschedulable"
    v = violation(LIVE, broken)
    assert v.pod == "default/pod-0" and "node-0" in str(v)
    assert broken.exercised


def test_a_rejection_no_stock_plugin_gives_is_not_judged() -> None:
    broken = run_on_reference(scenario(_waits_for_web()), hook=_lost_wakeups)
    condition = {"status": "False", "reason": "Unschedulable", "message": "0/1 nodes are available: 1 my plugin."}
    run = with_pod(broken, "default/pod-0", condition=condition)
    LIVE.check(run)
    assert not run.exercised


def test_a_pod_that_fits_nowhere_may_stay_pending() -> None:
    run = run_on_reference(scenario([pod("pod-0", cpu="8")]))
    assert run.outcome.pods["default/pod-0"].phase == "unschedulable"
    LIVE.check(run)
    assert run.exercised


def _pdb(allowed: int) -> dict:
    return {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "pdb-0", "namespace": "default"},
            "spec": {"selector": {"matchLabels": {"app": "web"}}, "maxUnavailable": allowed},
            "status": {"currentHealthy": 1, "desiredHealthy": 1 - allowed, "disruptionsAllowed": allowed,
                       "expectedPods": 1}}


def _full(app_by_node: dict[str, str], preemptor_cpu: str = "1", **preemptor) -> "object":
    """Nodes of 1 CPU, each full of one low-priority pod of the given app; a PDB over web with no room."""
    nodes = [node(n, cpu="1") for n in app_by_node]
    bound = []
    for i, (n, app) in enumerate(app_by_node.items()):
        p = pod(f"running-{i}", priority=100, cpu="1", on=n)
        p["metadata"]["labels"] = {"app": app}
        bound.append(p)
    sc = scenario([pod("pod-0", priority=1000, cpu=preemptor_cpu, **preemptor)], nodes=nodes, bound=bound)
    return dataclasses.replace(sc, objects=(_pdb(0),))


def test_the_budget_holds_when_another_node_needs_no_disruption() -> None:
    sc = _full({"node-0": "web", "node-1": "db"})
    run = run_on_reference(sc)
    assert run.outcome.deleted == ("default/running-1",)
    PDB.check(run)
    MINIMAL.check(run)
    assert run.exercised
    broken = run_on_reference(sc, hook=_each_framework(_pdbs_ignored))
    assert broken.outcome.deleted == ("default/running-0",)
    v = violation(PDB, broken)
    assert "pdb-0" in str(v) and "node-1" in str(v)


def test_breaking_the_budget_is_allowed_when_every_node_needs_it() -> None:
    run = run_on_reference(_full({"node-0": "web"}))
    assert run.outcome.deleted == ("default/running-0",)
    PDB.check(run)


def test_a_victim_that_could_stay_is_caught() -> None:
    nodes = [node("node-0", cpu="2")]
    bound = [pod(f"running-{i}", priority=100, cpu="1", on="node-0") for i in range(2)]
    sc = scenario([pod("pod-0", priority=1000, cpu="1")], nodes=nodes, bound=bound)
    run = run_on_reference(sc)
    assert len(run.outcome.deleted) == 1
    MINIMAL.check(run)
    broken = run_on_reference(sc, hook=_each_framework(_victims_not_reprieved))
    assert len(broken.outcome.deleted) == 2
    violation(MINIMAL, broken)


def test_never_preempting_pods_evict_no_one() -> None:
    sc = _full({"node-0": "db"}, policy="Never")
    run = run_on_reference(sc)
    assert run.outcome.deleted == ()
    NEVER.check(run)
    assert run.exercised
    violation(NEVER, edited(run, deleted=("default/running-0",)))


def test_without_the_queue_counter_the_preemption_is_not_attributed() -> None:
    run = run_on_reference(_full({"node-0": "web", "node-1": "db"}), hook=_each_framework(_pdbs_ignored))
    blind = edited(run, capabilities={"preemption"})
    PDB.check(blind)
    assert not blind.exercised


def test_on_wall_clock_only_pods_that_needed_no_wakeup_are_judged() -> None:
    """A cluster's run may end while a woken pod waits out its backoff: a pod that waited for another
    is not judged there; one that fitted from the start is."""
    broken = run_on_reference(scenario(_waits_for_web()), hook=_lost_wakeups)
    on_cluster = edited(broken, capabilities={"preemption"})
    LIVE.check(on_cluster)
    assert not on_cluster.exercised
    fits = run_on_reference(scenario([pod("pod-0")]))
    stuck = with_pod(fits, "default/pod-0", phase="unschedulable", node="", condition={
        "status": "False", "reason": "Unschedulable", "message": "0/1 nodes are available: 1 Insufficient cpu."})
    stuck = edited(stuck, bindings=(), capabilities={"preemption"})
    violation(LIVE, stuck)
