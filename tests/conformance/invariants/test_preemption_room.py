"""preemptor-finds-room and preemption-victims-suffice (issue 32): what upstream may legitimately show passes,
what the broken schedulers of the mutant matrix show does not."""

from __future__ import annotations

from conformance.invariants import REGISTRY, Run

from ._kit import CAPABILITIES, edited, node, pod, run_on_reference, scenario, violation

ROOM = REGISTRY["preemptor-finds-room"]
SUFFICE = REGISTRY["preemption-victims-suffice"]


def _full(victim_priority: int, preemptor_priority: int = 10, **preemptor):
    """One 2-CPU node holding two 1-CPU pods; a 2-CPU workload pod that fits only by evicting both."""
    victims = [pod(f"victim-{i}", priority=victim_priority, cpu="1", on="node-0") for i in range(2)]
    return scenario([pod("pod-0", priority=preemptor_priority, cpu="2", **preemptor)],
                    nodes=(node("node-0", cpu="2"),), bound=victims)


def test_a_pod_among_its_equals_stays_pending_and_is_judged() -> None:
    run = run_on_reference(_full(victim_priority=10))
    assert run.outcome.pods["default/pod-0"].phase == "unschedulable" and not run.outcome.deleted
    ROOM.check(run)
    assert run.exercised


def test_a_never_preempting_pod_may_stay_pending() -> None:
    run = run_on_reference(_full(victim_priority=1, policy="Never"))
    assert run.outcome.pods["default/pod-0"].phase == "unschedulable"
    ROOM.check(run)
    assert not run.exercised


def test_a_pod_left_pending_beside_lower_priority_pods_is_caught() -> None:
    """What a scheduler that never preempts reports: no deletion, the preemptor pending."""
    pending = run_on_reference(_full(victim_priority=10)).outcome
    v = violation(ROOM, Run(_full(victim_priority=1), pending, frozenset(CAPABILITIES)))
    assert v.pod == "default/pod-0"


def test_one_preemption_evicting_both_victims_suffices() -> None:
    run = run_on_reference(_full(victim_priority=1))
    assert len(run.outcome.deleted) == 2
    SUFFICE.check(run)
    assert run.exercised


def test_a_repeated_preemption_naming_the_same_victims_is_accepted() -> None:
    """Upstream may preempt again before the victims' deletions reach its cache: the same victims, named twice."""
    run = run_on_reference(_full(victim_priority=1))
    failed = [e for e in run.outcome.events if e.get("reason") == "FailedScheduling"]
    SUFFICE.check(edited(run, events=(*failed, *run.outcome.events)))


def test_victims_named_one_at_a_time_are_caught() -> None:
    run = run_on_reference(_full(victim_priority=1))
    events = tuple({**e, "message": e["message"].replace("preempting 2 victims", "preempting 1 victims")}
                   for e in run.outcome.events)
    v = violation(SUFFICE, edited(run, events=events))
    assert v.pod == "default/pod-0" and len(v.actual) == 2
