"""The queue's requeueing paths beyond queue.go's table, against pkg/scheduler/backend/queue/scheduling_queue.go
and pkg/scheduler/eventhandlers.go (v1.37.2): events seen in flight, Pending rejectors, hint errors, gates,
the leftover flush, a pod's own status patch, nominations."""

from __future__ import annotations

from dataclasses import replace

from reference.events import NODE, ActionType, ClusterEvent, ClusterEventWithHint, QueueingHint
from reference.framework.cluster_events import EVENT_FORCE_ACTIVATE
from reference.interfaces import QueuedPodInfo
from reference.nodeinfo import PodInfo
from reference.plugins.scheduling_gates import SchedulingGates
from reference.scheduler.queue_hints import QueueingHintFunction, QueueingStrategy, is_pod_worth_requeuing
from reference.status import SUCCESS
from tests.builders import node, pod
from tests.reference.framework._scripted import EVERY_EVENT, Scripted, build, calls, result, st
from tests.reference.queueing.harness import names

N = {"cpu": 1000, "pods": 10}
NODE_ADD = ClusterEvent(NODE, ActionType.ADD)


def _queue(sched) -> dict[str, set[str]]:
    q = sched.queue
    return {"active": names(q.active), "backoff": names(q.backoff), "unschedulable": names(q.unschedulable.values())}


def _base(log, **points):
    probe = Scripted("P", log)
    out = {p: [probe] for p in ("preFilter", "filter", "reserve", "bind")}
    out.update(points)
    return out


def _node_added_in_flight(event: ClusterEventWithHint):
    """The scheduler after one attempt at pod p, whose Filter plugin X (registering `event`) adds node n2
    while rejecting it."""
    log: list = []
    holder: dict = {}

    def reject_and_add_node(p, ni):
        if "n2" not in holder["s"].store.nodes:
            holder["s"].add_node(node("n2", allocatable=N))
        return st("Unschedulable", "no")

    x = Scripted("X", log, filter=reject_and_add_node, events=[event])
    sched = build(_base(log, filter=[x]), nodes=[node("n1", allocatable=N)])
    holder["s"] = sched
    sched.add_pod(pod("p"))
    sched.schedule_one()
    return sched


def test_an_event_seen_in_flight_requeues_the_pod_when_it_comes_back() -> None:
    """determineSchedulingHintForInFlightPod: a node added during the pod's Filter is replayed."""
    sched = _node_added_in_flight(ClusterEventWithHint(NODE_ADD))
    assert _queue(sched)["backoff"] | _queue(sched)["active"] == {"p"}


def test_an_event_seen_in_flight_whose_hint_skips_leaves_the_pod_waiting() -> None:
    skip = ClusterEventWithHint(NODE_ADD, lambda p, old, new: (QueueingHint.QUEUE_SKIP, None))
    assert _queue(_node_added_in_flight(skip))["unschedulable"] == {"p"}


def test_an_event_before_the_pod_was_popped_is_not_replayed() -> None:
    log: list = []
    x = Scripted("X", log, filter=st("Unschedulable", "no"), events=[ClusterEventWithHint(NODE_ADD)])
    sched = build(_base(log, filter=[x]), nodes=[node("n1", allocatable=N)])
    sched.add_pod(pod("q"))
    sched.schedule_one()  # q in flight ends before p is popped
    sched.add_pod(pod("p"))
    sched.schedule_one()
    assert _queue(sched)["unschedulable"] == {"p", "q"}


def _qpi(unschedulable=(), pending=()) -> QueuedPodInfo:
    return QueuedPodInfo(PodInfo.of(pod("p")), unschedulable_plugins=set(unschedulable), pending_plugins=set(pending))


def _hint(answer, err=None):
    return lambda p, old, new: (answer, err)


def test_queue_from_a_pending_rejector_skips_backoff_and_from_an_unschedulable_one_does_not() -> None:
    hint_map = {NODE_ADD: [QueueingHintFunction("A", _hint(QueueingHint.QUEUE)),
                           QueueingHintFunction("B", _hint(QueueingHint.QUEUE))]}
    assert is_pod_worth_requeuing(hint_map, _qpi(["A"], ["B"]), NODE_ADD, None, node("n")) \
        is QueueingStrategy.QUEUE_IMMEDIATELY
    assert is_pod_worth_requeuing(hint_map, _qpi(["A"]), NODE_ADD, None, node("n")) \
        is QueueingStrategy.QUEUE_AFTER_BACKOFF


def test_only_the_rejectors_hints_count_and_an_error_means_queue() -> None:
    hint_map = {NODE_ADD: [QueueingHintFunction("A", _hint(QueueingHint.QUEUE)),
                           QueueingHintFunction("B", _hint(QueueingHint.QUEUE_SKIP, "boom"))]}
    assert is_pod_worth_requeuing(hint_map, _qpi(["C"]), NODE_ADD, None, node("n")) is QueueingStrategy.QUEUE_SKIP
    assert is_pod_worth_requeuing(hint_map, _qpi(["B"]), NODE_ADD, None, node("n")) \
        is QueueingStrategy.QUEUE_AFTER_BACKOFF


def test_no_rejector_requeues_and_a_wildcard_aimed_at_another_pod_does_not() -> None:
    assert is_pod_worth_requeuing({}, _qpi(), NODE_ADD, None, None) is QueueingStrategy.QUEUE_AFTER_BACKOFF
    other = pod("other")
    assert is_pod_worth_requeuing({}, _qpi(["A"]), EVENT_FORCE_ACTIVATE, None, other) is QueueingStrategy.QUEUE_SKIP
    assert is_pod_worth_requeuing({}, _qpi(["A"]), EVENT_FORCE_ACTIVATE, None, pod("p")) \
        is QueueingStrategy.QUEUE_AFTER_BACKOFF


def test_removing_the_last_gate_runs_pre_enqueue_again_and_moves_the_pod() -> None:
    log: list = []
    sched = build(_base(log, preEnqueue=[SchedulingGates()]), nodes=[node("n1", allocatable=N)])
    gated = pod("p", scheduling_gates=("a", "b"))
    sched.add_pod(gated)
    sched.update_pod(replace(gated, scheduling_gates=("b",)))
    assert _queue(sched)["unschedulable"] == {"p"}  # a gate remains: no UpdatePodSchedulingGatesEliminated
    sched.update_pod(replace(gated, scheduling_gates=()))
    assert _queue(sched)["active"] == {"p"}
    sched.run_until_idle()
    assert result(sched).phase == "bound"


def test_a_gated_pod_is_not_moved_by_events_its_gate_did_not_register() -> None:
    log: list = []
    sched = build(_base(log, preEnqueue=[SchedulingGates()]), nodes=[node("n1", allocatable=N)])
    sched.add_pod(pod("p", scheduling_gates=("a",)))
    sched.add_node(node("n2", allocatable=N))
    assert _queue(sched)["unschedulable"] == {"p"}
    assert sched.queue.unschedulable["p"].gating_plugin == "SchedulingGates"


def test_leftover_flush_moves_pods_waiting_longer_than_five_minutes() -> None:
    log: list = []
    x = Scripted("X", log, filter=st("Unschedulable", "no"))
    sched = build(_base(log, filter=[x]), nodes=[node("n1", allocatable=N)])
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=1)
    sched.clock.advance_to(300.0)
    sched.queue.flush_unschedulable_leftover()
    assert _queue(sched)["unschedulable"] == {"p"}  # exactly 5 minutes is not longer
    sched.clock.advance_to(301.5)
    sched.queue.flush_unschedulable_leftover()
    assert _queue(sched)["unschedulable"] == set()
    assert sched.queue.unschedulable == {} and sched.queue.next_unschedulable_flush() is None


def test_the_failure_condition_patch_moves_no_pod() -> None:
    """Deviation (ARCHITECTURE.md): the PodScheduled condition patch is no update event, as in the upstream
    runner; a rejector on the default registration (every event) therefore waits."""
    log: list = []
    x = Scripted("X", log, filter=st("Unschedulable", "no"), events=EVERY_EVENT)
    sched = build(_base(log, filter=[x]), nodes=[node("n1", allocatable=N)])
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=5)
    assert len(calls(log, "PreFilter", pod="p")) == 1
    assert _queue(sched)["unschedulable"] == {"p"}


def test_a_pod_leaving_its_nomination_frees_the_node_for_lower_or_equal_priority_pods() -> None:
    """updatePodInSchedulingQueue: a changed nominatedNodeName is the old node's AssignedPod/Delete,
    for pods of priority <= the nominated pod's."""
    log: list = []
    x = Scripted("X", log, filter=lambda p, ni: st("Unschedulable", "no") if p.name != "nom" else SUCCESS,
                 events=[ClusterEventWithHint(ClusterEvent("AssignedPod", ActionType.DELETE))])
    sched = build(_base(log, filter=[x]), nodes=[node("n1", allocatable=N)])
    sched.add_pod(pod("low", priority=1))
    sched.add_pod(pod("high", priority=100))
    sched.run_until_idle(deadline=0.5)
    assert _queue(sched)["unschedulable"] == {"low", "high"}
    nominated = pod("nom", priority=50, nominated_node_name="n1")
    sched.add_pod(nominated)
    sched.update_pod(replace(nominated, nominated_node_name=""))
    assert _queue(sched)["unschedulable"] == {"high"}
    assert _queue(sched)["active"] | _queue(sched)["backoff"] == {"low", "nom"}
