"""Preemption invariants: the reference's DefaultPreemption and two broken ones."""

from __future__ import annotations

from conformance.invariants import REGISTRY

from ...conformance.mutants import _each_framework, _equal_priority_victims, _evict_on_every_candidate
from ._kit import edited, node, pod, run_on_reference, scenario, violation, with_pod

LOWER_ONLY = REGISTRY["preemption-evicts-lower-priority-only"]
NOMINATED = REGISTRY["preemptor-nominated"]
SMALL = (node("node-0", cpu="1"), node("node-1", cpu="1"))


def full_cluster(victim_priority: int = 0, preemptor_priority: int = 10, **preemptor):
    """Every node full of one victim; one workload pod that fits only by evicting."""
    victims = [pod(f"victim-{i}", priority=victim_priority, cpu="1", on=n["metadata"]["name"])
               for i, n in enumerate(SMALL)]
    return scenario([pod("preemptor", priority=preemptor_priority, cpu="1", **preemptor)], nodes=SMALL, bound=victims)


def _sides(run) -> tuple[str, str]:
    """The node whose victim was evicted and the other one: the two candidates tie on every criterion, and
    upstream picks either (its candidates come from a map), the reference the first."""
    assert len(run.outcome.deleted) == 1 and run.outcome.deleted[0] in ("default/victim-0", "default/victim-1")
    i = int(run.outcome.deleted[0][-1])
    return f"node-{i}", f"node-{1 - i}"


def test_reference_evicts_one_lower_priority_pod_and_binds_there() -> None:
    run = run_on_reference(full_cluster())
    there, _ = _sides(run)
    assert run.outcome.pods["default/preemptor"].node == there
    LOWER_ONLY.check(run)
    NOMINATED.check(run)


def test_equal_priority_victims_are_caught() -> None:
    sc = full_cluster(victim_priority=10)
    assert run_on_reference(sc).outcome.deleted == ()
    run = run_on_reference(sc, hook=_each_framework(_equal_priority_victims))
    assert run.outcome.deleted
    v = violation(LOWER_ONLY, run)
    assert v.pod in run.outcome.deleted and v.actual == 10


def test_preemption_policy_never_cannot_preempt() -> None:
    run = run_on_reference(full_cluster(policy="Never"))
    assert run.outcome.deleted == ()
    deleted = edited(run, deleted=("default/victim-0",))
    assert "no workload pod that may preempt" in str(violation(LOWER_ONLY, deleted))


def test_evicting_on_every_candidate_is_caught() -> None:
    run = run_on_reference(full_cluster(), hook=_each_framework(_evict_on_every_candidate))
    assert set(run.outcome.deleted) == {"default/victim-0", "default/victim-1"}
    v = violation(NOMINATED, run)  # one failed attempt, two nodes with deletions: one is left over
    assert v.pod in run.outcome.deleted and "failed attempts per workload pod" in str(v)


def test_a_nomination_on_the_node_is_a_witness() -> None:
    run = run_on_reference(full_cluster(), hook=_each_framework(_evict_on_every_candidate))
    NOMINATED.check(with_pod(run, "default/preemptor", phase="unschedulable", node="",
                             nominated_node_name="node-0"))


def test_a_preemptor_bound_on_another_node_is_allowed() -> None:
    """Asynchronous preemption: the preemptor's retry may run before its victim's deletion reaches the cache,
    while another node has room; it binds there and nobody ends on the victim's node."""
    run = run_on_reference(full_cluster())
    _, other = _sides(run)
    assert run.outcome.pods["default/preemptor"].attempts == 2
    elsewhere = edited(run, bindings=({"pod": "default/preemptor", "node": other, "t": 0.0},))
    NOMINATED.check(with_pod(elsewhere, "default/preemptor", phase="bound", node=other, nominated_node_name=""))


def test_each_node_with_deletions_needs_its_own_failed_attempt() -> None:
    run = run_on_reference(full_cluster(), hook=_each_framework(_evict_on_every_candidate))
    assert run.outcome.pods["default/preemptor"].attempts == 2  # one failed attempt, then bound
    NOMINATED.check(with_pod(run, "default/preemptor", attempts=3))  # two failed attempts account for two nodes
    violation(NOMINATED, with_pod(run, "default/preemptor", attempts=2))


def test_without_the_queues_counter_any_eligible_pod_accounts() -> None:
    run = run_on_reference(full_cluster(), hook=_each_framework(_evict_on_every_candidate))
    NOMINATED.check(edited(run, capabilities=run.capabilities - {"queue-attempts"}))


def test_a_lower_priority_pod_may_take_the_room_of_a_preemptor_bound_elsewhere() -> None:
    victims = [pod(f"victim-{i}", cpu="1", on=n["metadata"]["name"]) for i, n in enumerate(SMALL)]
    sc = scenario([pod("preemptor", priority=10, cpu="1"), pod("late", priority=0, cpu="1")], nodes=SMALL,
                  bound=victims)
    run = run_on_reference(sc)
    there, other = _sides(run)
    late_there = ({"pod": "default/late", "node": there, "t": 0.0},)
    stayed = edited(run, bindings=late_there)
    stayed = with_pod(with_pod(stayed, "default/late", phase="bound", node=there), "default/preemptor",
                      phase="unschedulable", node="", nominated_node_name=other)
    assert "no pod ending there" in str(violation(LOWER_ONLY, stayed))
    moved = edited(stayed, bindings=(*late_there, {"pod": "default/preemptor", "node": other, "t": 0.0}))
    LOWER_ONLY.check(with_pod(moved, "default/preemptor", phase="bound", node=other))
