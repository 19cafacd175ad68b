"""Spec §6 (scheduling queue) against pkg/scheduler/backend/queue (v1.37.2, SchedulerPopFromBackoffQ on):
pop order, backoff durations and 1 s window alignment, error vs rejected backoff, gates, activate."""

from __future__ import annotations

from dataclasses import replace

import pytest

from reference.cycle_state import PODS_TO_ACTIVATE_KEY
from reference.interfaces import PostBindPlugin
from reference.plugins.scheduling_gates import SchedulingGates
from reference.status import SUCCESS
from tests.builders import node, pod
from tests.reference.framework._scripted import EVERY_EVENT, NODE_ADDED, Scripted, build, calls, result, st

N = {"cpu": 1000, "pods": 10}


def base(log, **points):
    probe = Scripted("P", log)
    out = {p: [probe] for p in ("preFilter", "filter", "reserve", "bind")}
    out.update(points)
    return out


def test_pops_by_priority_then_queue_timestamp() -> None:
    log: list = []
    sched = build(base(log), nodes=[node("n1", allocatable=N)])
    sched.add_pod(pod("old", priority=5))
    sched.clock.advance_to(1.0)
    for name, prio in (("low", 0), ("new", 5), ("high", 9), ("none", None), ("mid", 3)):
        sched.add_pod(pod(name, priority=prio))
    sched.run_until_idle(deadline=0.5)
    assert [c.pod for c in calls(log, "PreFilter")] == ["high", "old", "new", "mid", "low", "none"]


@pytest.mark.parametrize("initial,maximum,want", [
    (1, 10, [1, 2, 4, 8, 10, 10, 10]),
    (2, 5, [2, 4, 5, 5, 5, 5, 5]),
    (1, 1, [1, 1, 1, 1, 1, 1, 1]),
])
def test_backoff_duration_doubles_and_caps(initial, maximum, want) -> None:
    sched = build(base([]), pod_initial_backoff_seconds=initial, pod_max_backoff_seconds=maximum)
    assert [sched.queue.backoff_duration(n) for n in range(1, 8)] == want
    assert sched.queue.backoff_duration(0) == 0


def _timed_error_scheduler(start: float = 0.0, **kwargs):
    log: list = []
    times: list[float] = []
    holder: dict = {}

    def fail(p):
        times.append(holder["s"].clock.now())
        return st("Error", "boom")

    x = Scripted("X", log, pre_filter=fail)
    sched = build(base(log, preFilter=[x]), nodes=[node("n1", allocatable=N)], **kwargs)
    holder["s"] = sched
    sched.clock.advance_to(start)
    sched.add_pod(pod("p"))
    return sched, times


def test_error_backoff_retry_times_follow_1_2_4_8_10_10_aligned_to_1s_windows() -> None:
    sched, times = _timed_error_scheduler()
    sched.run_until_idle(deadline=100)
    # expiry = truncate(failure time + backoff); the pod leaves backoff once the aligned "now" is past it
    assert times == [0, 2, 5, 10, 19, 30, 41, 52]
    assert [b - a for a, b in zip(times, times[1:])] == [2, 3, 5, 9, 11, 11, 11]


def test_backoff_expiry_is_truncated_to_the_window() -> None:
    sched, times = _timed_error_scheduler(start=0.5)
    sched.run_until_idle(deadline=4.5)
    assert times == [0.5, 2.0, 5.0]  # 0.5+1 -> window 1 -> runs at 2; 2+2=4 -> runs at 5


def test_error_backoff_counts_consecutive_errors() -> None:
    sched, times = _timed_error_scheduler()
    sched.run_until_idle(deadline=6)
    info = sched.queue.error_backoff[0]
    assert (info.consecutive_errors_count, info.unschedulable_count, info.attempts) == (3, 0, 3)


def test_backoff_disabled_with_zero_max() -> None:
    sched, times = _timed_error_scheduler(pod_max_backoff_seconds=0, max_attempts=4)
    sched.run_until_idle(deadline=0.5)
    assert times == [0, 0, 0, 0]


def test_rejected_pod_in_backoff_pops_at_once_when_active_is_empty() -> None:
    """SchedulerPopFromBackoffQ: podBackoffQ (rejected pods) is popped when activeQ is empty; the error
    backoff queue never is."""
    log: list = []
    times: list[float] = []
    holder: dict = {}

    def reject(p, ni):
        times.append(holder["s"].clock.now())
        return st("Unschedulable", "no")

    x = Scripted("X", log, filter=reject, events=NODE_ADDED)
    sched = build(base(log, filter=[x]), nodes=[node("n1", allocatable=N)])
    holder["s"] = sched
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    assert "p" in sched.queue.unschedulable and times == [0]
    sched.add_node(node("n2", allocatable=N))  # a cluster event moves p to podBackoffQ (backing off until 1)
    assert [q.pod.name for q in sched.queue.backoff] == ["p"]
    sched.run_until_idle(deadline=0.5)
    assert times[1:] == [0, 0]  # retried at t=0 on both nodes, before its backoff expired
    info = sched.queue.unschedulable["p"]
    assert (info.unschedulable_count, info.consecutive_errors_count) == (2, 0)


def test_active_pods_go_before_backoff_pods() -> None:
    log: list = []
    x = Scripted("X", log, filter=lambda p, ni: st("Unschedulable", "no") if p.name == "p" else SUCCESS,
                 events=NODE_ADDED)
    sched = build(base(log, filter=[x]), nodes=[node("n1", allocatable=N)])
    sched.add_pod(pod("p", priority=100))
    sched.run_until_idle(deadline=0.5)
    sched.add_node(node("n2", allocatable=N))
    sched.add_pod(pod("q"))
    sched.run_until_idle(deadline=0.5)
    assert [c.pod for c in calls(log, "PreFilter")] == ["p", "q", "p"]


def test_unschedulable_pod_waits_for_an_event() -> None:
    log: list = []
    x = Scripted("X", log, filter=lambda p, ni: st("Unschedulable", "no") if ni.name == "n1" else SUCCESS,
                 events=NODE_ADDED)
    sched = build(base(log, filter=[x]), nodes=[node("n1", allocatable=N)])
    sched.add_pod(pod("p"))
    sched.run_until_idle()
    assert len(calls(log, "PreFilter")) == 1 and result(sched).phase == "unschedulable"
    sched.add_node(node("n2", allocatable=N))
    sched.run_until_idle()
    assert result(sched).phase == "bound" and result(sched).node == "n2"


# --- scheduling gates ---------------------------------------------------------------------------

def test_gated_pod_never_reaches_prefilter_until_gates_removed() -> None:
    log: list = []
    sched = build(base(log, preEnqueue=[SchedulingGates()]), nodes=[node("n1", allocatable=N)])
    gated = pod("p", scheduling_gates=("a", "b"))
    sched.add_pod(gated)
    sched.run_until_idle()
    r = result(sched)
    assert (r.phase, r.attempts) == ("gated", 0)
    assert calls(log, "PreFilter") == [] and sched.store.events == []
    assert sched.queue.unschedulable["p"].gating_plugin == "SchedulingGates"
    sched.update_pod(replace(gated, scheduling_gates=("b",)))
    sched.run_until_idle()
    assert result(sched).phase == "gated" and calls(log, "PreFilter") == []
    sched.add_node(node("n2", allocatable=N))  # cluster events do not release gated pods
    sched.run_until_idle()
    assert result(sched).phase == "gated"
    sched.update_pod(replace(gated, scheduling_gates=()))
    sched.run_until_idle()
    assert result(sched).phase == "bound" and result(sched).attempts == 1
    assert [c.pod for c in calls(log, "PreFilter")] == ["p"]


def test_pre_enqueue_first_rejecting_plugin_gates() -> None:
    log: list = []
    a = Scripted("A", log, pre_enqueue=lambda p: st("Unschedulable", "later") if p.labels.get("hold") else SUCCESS,
                 events=EVERY_EVENT)
    b = Scripted("B", log)
    sched = build(base(log, preEnqueue=[a, b]), nodes=[node("n1", allocatable=N)])
    held = pod("p", labels={"hold": "1"})
    sched.add_pod(held)
    sched.run_until_idle()
    assert result(sched).phase == "gated" and calls(log, "PreEnqueue", "B") == []
    assert sched.queue.unschedulable["p"].gating_plugin == "A"
    sched.update_pod(replace(held, labels={}))
    sched.run_until_idle()
    assert result(sched).phase == "bound"
    assert [c.plugin for c in calls(log, "PreEnqueue")] == ["A", "A", "B"]


def test_pre_enqueue_runs_the_gating_plugin_first() -> None:
    """`runPreEnqueuePluginsForPod`: the plugin that gated the pod runs first next time; while it still gates,
    no other plugin runs."""
    log: list = []
    a = Scripted("A", log)
    b = Scripted("B", log, pre_enqueue=lambda p: st("Unschedulable", "later") if p.labels.get("hold") else SUCCESS,
                 events=EVERY_EVENT)
    sched = build(base(log, preEnqueue=[a, b]), nodes=[node("n1", allocatable=N)])
    held = pod("p", labels={"hold": "1"})
    sched.add_pod(held)
    sched.run_until_idle()
    sched.update_pod(replace(held, labels={"hold": "1", "x": "y"}))
    sched.run_until_idle()
    assert result(sched).phase == "gated" and sched.queue.unschedulable["p"].gating_plugin == "B"
    sched.update_pod(replace(held, labels={}))
    sched.run_until_idle()
    assert result(sched).phase == "bound"
    assert [c.plugin for c in calls(log, "PreEnqueue")] == ["A", "B", "B", "B", "A"]


def test_pre_enqueue_runs_when_a_pod_enters_backoff_not_when_it_leaves() -> None:
    """SchedulerPopFromBackoffQ: `moveToBackoffQ` runs PreEnqueue, `moveToActiveQ` from backoffQ skips
    it; a pod gated on the way into backoffQ is never popped from there."""
    log: list = []
    times: list[float] = []
    holder: dict = {}

    def pre_enqueue(p):
        times.append(holder["s"].clock.now())
        return st("Unschedulable", "held") if len(times) == 3 else SUCCESS

    gate = Scripted("G", log, pre_enqueue=pre_enqueue)
    x = Scripted("X", log, pre_filter=lambda p: st("Error", "boom"))
    sched = build(base(log, preEnqueue=[gate], preFilter=[x]), nodes=[node("n1", allocatable=N)])
    holder["s"] = sched
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=5)
    assert times == [0.0, 0.0, 2.0]  # added; into backoffQ after the error at 0; after the retry at 2
    assert [c.pod for c in calls(log, "PreFilter")] == ["p", "p"]
    assert result(sched).phase == "gated" and sched.queue.error_backoff == []


# --- activate -----------------------------------------------------------------------------------

def test_activate_moves_unschedulable_and_backoff_pods_to_active_ignoring_backoff() -> None:
    log: list = []
    times: list[float] = []
    holder: dict = {}

    def pre_filter(p):
        times.append((p.name, holder["s"].clock.now()))
        return st("Error", "boom") if p.name == "e" else SUCCESS

    x = Scripted("X", log, pre_filter=pre_filter, filter=lambda p, ni: st("Unschedulable", "no")
                 if p.name == "u" else SUCCESS)
    sched = build(base(log, preFilter=[x], filter=[x]), nodes=[node("n1", allocatable=N)])
    holder["s"] = sched
    sched.add_pod(pod("u"))
    sched.add_pod(pod("e"))
    sched.run_until_idle(deadline=0.5)
    assert "u" in sched.queue.unschedulable and [q.pod.name for q in sched.queue.error_backoff] == ["e"]
    sched.queue.activate([sched.store.pods["u"], sched.store.pods["e"]])
    assert sorted(q.pod.name for q in sched.queue.active) == ["e", "u"]
    sched.run_until_idle(deadline=0.5)
    assert sorted(times) == [("e", 0.0), ("e", 0.0), ("u", 0.0), ("u", 0.0)]


class _ActivateAfterBind(PostBindPlugin):
    NAME = "Activator"

    def __init__(self, target) -> None:
        self.target = target

    def post_bind(self, state, pod, node_name) -> None:
        state.read(PODS_TO_ACTIVATE_KEY).pods[self.target.key] = self.target


def test_pods_to_activate_written_by_a_plugin_are_activated_after_binding() -> None:
    """q failed with an error (error backoff is never popped early); p's PostBind asks to activate q,
    so q is retried at t=0 instead of after its backoff."""
    log: list = []
    times: list = []
    holder: dict = {}

    def pre_filter(p):
        times.append((p.name, holder["s"].clock.now()))
        return st("Error", "boom") if p.name == "q" and len(times) == 1 else SUCCESS

    x = Scripted("X", log, pre_filter=pre_filter)
    q = pod("q", priority=10)
    sched = build(base(log, preFilter=[x], postBind=[_ActivateAfterBind(q)]), nodes=[node("n1", allocatable=N)])
    holder["s"] = sched
    sched.add_pod(q)
    sched.run_until_idle(deadline=0.5)
    assert [i.pod.name for i in sched.queue.error_backoff] == ["q"]
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    assert times == [("q", 0.0), ("p", 0.0), ("q", 0.0)]
    assert result(sched, "q").phase == "bound"
