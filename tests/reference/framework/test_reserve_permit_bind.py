"""Spec §2.12-§2.17 against framework.go / waiting_pods_map.go / schedule_one.go (v1.37.2):
Unreserve order, Permit waiting and timeouts on the virtual clock, allow/reject races, PreBindPreFlight,
Bind skipping and PostBind."""

from __future__ import annotations

import pytest

from reference.status import SUCCESS
from tests.builders import node, pod
from tests.reference.framework._scripted import EVERY_EVENT, Scripted, build, calls, result, st

N = {"cpu": 1000, "pods": 10}
FW = "default-scheduler"


def one_node_scheduler(log, **points):
    probe = Scripted("P", log)
    base = {p: [probe] for p in ("preFilter", "filter", "reserve", "permit", "preBind", "bind", "postBind")}
    base.update(points)
    return build(base, nodes=[node("n1", allocatable=N)])


# --- Unreserve ----------------------------------------------------------------------------------

FAILURES = {
    "reserve-rejected": dict(point="reserve", key="reserve", value=st("Unschedulable", "r")),
    "reserve-error": dict(point="reserve", key="reserve", value=st("Error", "r")),
    "permit-rejected": dict(point="permit", key="permit", value=st("UnschedulableAndUnresolvable", "r")),
    "permit-error": dict(point="permit", key="permit", value=st("Error", "r")),
    "permit-skip": dict(point="permit", key="permit", value=st("Skip")),
    "wait-on-permit-rejected": dict(point="permit", key="permit", value=st("Wait"), timeout=5),
    "prebind-preflight-error": dict(point="preBind", key="pre_bind_pre_flight", value=st("Error", "r")),
    "prebind-rejected": dict(point="preBind", key="pre_bind", value=st("Unschedulable", "r")),
    "prebind-error": dict(point="preBind", key="pre_bind", value=st("Error", "r")),
    "bind-rejected": dict(point="bind", key="bind", value=st("Unschedulable", "r")),
    "bind-error": dict(point="bind", key="bind", value=st("Error", "r")),
    "bind-all-skip": dict(point="bind", key="bind", value=st("Skip")),
}


@pytest.mark.parametrize("failure", list(FAILURES))
def test_unreserve_runs_all_reserve_plugins_in_reverse_order(failure: str) -> None:
    f = FAILURES[failure]
    log: list = []
    reserve = [Scripted(n, log) for n in ("A", "B", "C")]
    x = Scripted("X", log, **{f["key"]: f["value"]}, permit_timeout=f.get("timeout", 0))
    if f["point"] == "reserve":
        reserve.insert(1, x)  # A, X, B, C: B and C never reserved, still unreserved
    points = {"reserve": reserve}
    if f["point"] != "reserve":
        points[f["point"]] = [x]
    sched = one_node_scheduler(log, **points)
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=f.get("timeout", 0) + 0.5)  # errors back off 1 s: one attempt only
    names = [r.name for r in reserve]
    reserved = [c.plugin for c in calls(log, "Reserve")]
    assert reserved == (["A", "X"] if f["point"] == "reserve" else names)
    assert [c.plugin for c in calls(log, "Unreserve")] == list(reversed(names))
    assert {c.node for c in calls(log, "Unreserve")} == {"n1"}
    assert calls(log, "PostBind") == []
    assert sched.store.pods["p"].node_name == ""


def test_unreserve_never_called_on_success() -> None:
    log: list = []
    reserve = [Scripted(n, log) for n in ("A", "B")]
    sched = one_node_scheduler(log, reserve=reserve)
    for name in ("p", "q", "r"):
        sched.add_pod(pod(name))
    sched.run_until_idle()
    assert all(r.phase == "bound" for r in sched.results().values())
    assert len(calls(log, "Reserve")) == 6 and calls(log, "Unreserve") == []


# --- Permit: waiting and timeouts --------------------------------------------------------------

def waiting(log, timeout, *extra_waiters):
    w = Scripted("W", log, permit=st("Wait"), permit_timeout=timeout)
    sched = one_node_scheduler(log, permit=[w, *extra_waiters])
    sched.add_pod(pod("p"))
    return sched, sched.frameworks[FW]


@pytest.mark.parametrize("timeout,shown,fires_at", [
    (30, "30s", 30.0),
    (1.5, "1.5s", 1.5),
    (0, "0s", 0.0),
    (15 * 60, "15m0s", 900.0),
    (3600, "15m0s", 900.0),  # capped at maxTimeout
    (90, "1m30s", 90.0),
])
def test_permit_timeout_on_virtual_clock(timeout: float, shown: str, fires_at: float) -> None:
    log: list = []
    sched, fw = waiting(log, timeout)
    if fires_at > 0:
        sched.run_until_idle(deadline=fires_at - 0.001)
        assert result(sched).phase == "waiting"
        assert fw.get_waiting_pod("p").get_pending_plugins() == ["W"]
    sched.run_until_idle(deadline=fires_at)
    r = result(sched)
    assert (r.phase, r.condition_message) == (
        "unschedulable", f"0/1 nodes are available: 1 rejected due to timeout after waiting {shown} at plugin W.")
    assert [e.time for e in sched.store.events] == [fires_at]
    assert calls(log, "PreBind") == []


def test_timers_start_at_end_of_scheduling_cycle_and_do_not_block_other_pods() -> None:
    log: list = []
    w = Scripted("W", log, permit=lambda p, n: st("Wait") if p.name == "p" else SUCCESS, permit_timeout=30,
                 events=EVERY_EVENT)
    sched = one_node_scheduler(log, permit=[w])
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=10)
    sched.add_pod(pod("q"))
    sched.run_until_idle(deadline=5)
    assert result(sched, "q").phase == "bound" and result(sched, "p").phase == "waiting"
    sched.run_until_idle(deadline=30)
    # the timer started in p's cycle at t=0 (q's cycle did not restart it)
    assert [e.time for e in sched.store.events if e.pod == "default/p"] == [30.0]
    assert "timeout after waiting 30s" in result(sched, "p").condition_message
    # q was bound while p was in flight, so p is retried at once (popped from backoffQ) and waits again
    assert result(sched, "p").attempts == 2 and result(sched, "p").phase == "waiting"


def test_waiting_pod_gets_nominated_node_name_patched_while_waiting() -> None:
    log: list = []
    sched, fw = waiting(log, 30)
    sched.run_until_idle(deadline=1)
    assert sched.store.pods["p"].nominated_node_name == "n1"
    assert calls(log, "PreBindPreFlight", "P") and not calls(log, "PreBind")


def test_allow_then_reject_first_signal_wins() -> None:
    log: list = []
    sched, fw = waiting(log, 30)
    sched.run_until_idle(deadline=1)
    wp = fw.get_waiting_pod("p")
    wp.allow("W")
    wp.reject("W", "too late")
    sched.run_until_idle(deadline=1)
    assert result(sched).phase == "bound"
    assert calls(log, "Unreserve") == []


def test_reject_then_allow_first_signal_wins() -> None:
    log: list = []
    sched, fw = waiting(log, 30)
    sched.run_until_idle(deadline=1)
    wp = fw.get_waiting_pod("p")
    wp.reject("W", "no")
    wp.allow("W")
    sched.run_until_idle(deadline=1)
    r = result(sched)
    assert (r.phase, r.condition_message) == ("unschedulable", "0/1 nodes are available: 1 no.")
    assert sched.clock.next_deadline() is None  # reject stopped the timer


def test_all_waiting_plugins_must_allow() -> None:
    log: list = []
    v = Scripted("V", log, permit=st("Wait"), permit_timeout=60)
    sched, fw = waiting(log, 30, v)
    sched.run_until_idle(deadline=1)
    wp = fw.get_waiting_pod("p")
    assert sorted(wp.get_pending_plugins()) == ["V", "W"]
    wp.allow("W")
    wp.allow("W")  # repeated allow is harmless
    wp.allow("unknown")
    sched.run_until_idle(deadline=1)
    assert result(sched).phase == "waiting" and wp.get_pending_plugins() == ["V"]
    wp.allow("V")
    sched.run_until_idle(deadline=1)
    assert result(sched).phase == "bound"


def test_one_allows_other_times_out() -> None:
    log: list = []
    v = Scripted("V", log, permit=st("Wait"), permit_timeout=20)
    sched, fw = waiting(log, 10, v)
    sched.run_until_idle(deadline=1)
    fw.get_waiting_pod("p").allow("W")  # W's 10 s timer is stopped
    sched.run_until_idle(deadline=60)
    r = result(sched)
    assert r.condition_message == "0/1 nodes are available: 1 rejected due to timeout after waiting 20s at plugin V."
    assert [e.time for e in sched.store.events] == [20.0]


def test_shorter_timeout_of_two_waiters_rejects_first() -> None:
    log: list = []
    v = Scripted("V", log, permit=st("Wait"), permit_timeout=20)
    sched, fw = waiting(log, 10, v)
    sched.run_until_idle(deadline=60)
    assert result(sched).condition_message == (
        "0/1 nodes are available: 1 rejected due to timeout after waiting 10s at plugin W.")
    sched2 = sched.queue.unschedulable["p"]
    assert sched2.unschedulable_plugins == {"W"}


def test_permit_reject_after_earlier_wait_creates_no_waiting_pod() -> None:
    log: list = []
    w = Scripted("W", log, permit=st("Wait"), permit_timeout=30)
    r = Scripted("R", log, permit=st("Unschedulable", "r"))
    later = Scripted("L", log)
    sched = one_node_scheduler(log, permit=[w, r, later])
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    fw = sched.frameworks[FW]
    assert fw.get_waiting_pod("p") is None and len(fw.waiting_pods) == 0
    assert sched.clock.next_deadline() is None  # no timer was ever started
    assert calls(log, "Permit", "L") == []
    assert result(sched).condition_message == "0/1 nodes are available: 1 r."
    assert calls(log, "PreBindPreFlight") == []


def test_waiting_pods_visible_through_handle() -> None:
    log: list = []
    sched, fw = waiting(log, 30)
    sched.run_until_idle(deadline=1)
    seen = []
    fw.iterate_over_waiting_pods(lambda wp: seen.append((wp.get_pod().name, wp.get_pod().node_name)))
    assert seen == [("p", "n1")]
    fw.iterate_over_waiting_pods(lambda wp: wp.allow("W"))
    sched.run_until_idle(deadline=1)
    assert result(sched).phase == "bound" and fw.get_waiting_pod("p") is None


# --- PreBindPreFlight / PreBind ------------------------------------------------------------------

def nominations(sched) -> list[str]:
    """Every nominatedNodeName patch; binding clears the field again (ClearingNominatedNodeNameAfterBinding)."""
    patched: list[str] = []
    patch = sched.store.set_nominated_node_name
    sched.store.set_nominated_node_name = lambda pod, node: patched.append(node) or patch(pod, node)
    return patched


def test_prebind_preflight_skip_removes_prebind_calls() -> None:
    log: list = []
    a = Scripted("A", log, pre_bind_pre_flight=st("Skip"))
    b = Scripted("B", log)
    c = Scripted("C", log, pre_bind_pre_flight=st("Skip"))
    sched = one_node_scheduler(log, preBind=[a, b, c])
    patched = nominations(sched)
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    assert [c.plugin for c in calls(log, "PreBindPreFlight")] == ["A", "B", "C"]
    assert [c.plugin for c in calls(log, "PreBind")] == ["B"]
    r = result(sched)
    assert r.phase == "bound" and patched == ["n1"] and r.nominated_node_name == ""


def test_all_preflights_skip_no_prebind_and_no_nnn_patch() -> None:
    log: list = []
    a = Scripted("A", log, pre_bind_pre_flight=st("Skip"))
    sched = one_node_scheduler(log, preBind=[a])
    patched = nominations(sched)
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    r = result(sched)
    assert r.phase == "bound" and calls(log, "PreBind") == []
    assert patched == []  # neither PreBind nor WaitOnPermit will work


def test_all_preflights_skip_but_waiting_patches_nnn() -> None:
    log: list = []
    a = Scripted("A", log, pre_bind_pre_flight=st("Skip"))
    w = Scripted("W", log, permit=st("Wait"), permit_timeout=30)
    sched = one_node_scheduler(log, preBind=[a], permit=[w])
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=1)
    assert sched.store.pods["p"].nominated_node_name == "n1"


def test_preflight_disabled_runs_every_prebind_and_never_patches_nnn() -> None:
    log: list = []
    a = Scripted("A", log, pre_bind_pre_flight=st("Skip"))
    probe = Scripted("P", log)
    sched = build({"filter": [probe], "preBind": [a], "bind": [probe]}, nodes=[node("n1", allocatable=N)],
                  nominated_node_name_for_expectation=False)
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    assert calls(log, "PreBindPreFlight") == [] and [c.plugin for c in calls(log, "PreBind")] == ["A"]
    assert result(sched).nominated_node_name == ""


def test_prebind_order_and_stop_at_first_failure() -> None:
    log: list = []
    a, b = Scripted("A", log), Scripted("B", log, pre_bind=st("Error", "x"))
    c = Scripted("C", log)
    sched = one_node_scheduler(log, preBind=[a, b, c])
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    assert [c.plugin for c in calls(log, "PreBind")] == ["A", "B"]


# --- Bind / PostBind -------------------------------------------------------------------------------

def test_bind_skips_to_next_plugin_and_stops_at_first_success() -> None:
    log: list = []
    plugins = [Scripted("A", log, bind=st("Skip")), Scripted("B", log, bind=st("Skip")), Scripted("C", log),
               Scripted("D", log)]
    sched = one_node_scheduler(log, bind=plugins)
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    assert [c.plugin for c in calls(log, "Bind")] == ["A", "B", "C"]
    assert result(sched).phase == "bound" and sched.store.bind_count == {"p": 1}


def test_all_bind_skip_not_bound_no_event_and_retried_after_error_backoff() -> None:
    log: list = []
    a = Scripted("A", log, bind=st("Skip"))
    sched = one_node_scheduler(log, bind=[a])
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    assert sched.store.events == [] and result(sched).phase == "pending"
    assert sched.queue.error_backoff and sched.queue.error_backoff[0].pod.name == "p"
    sched.run_until_idle(deadline=2)  # 1 s backoff, aligned: retried at t=2
    assert len(calls(log, "Bind")) == 2 and result(sched).attempts == 2
    assert sched.store.pods["p"].node_name == ""


def test_no_bind_plugins_is_skip() -> None:
    log: list = []
    probe = Scripted("P", log)
    sched = build({"filter": [probe], "reserve": [probe]}, nodes=[node("n1", allocatable=N)])
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    assert result(sched).phase == "pending" and sched.store.events == []
    assert [c.point for c in calls(log, "Unreserve")] == ["Unreserve"]


def test_postbind_exactly_once_iff_bound() -> None:
    log: list = []
    x = Scripted("X", log, pre_bind=lambda p, n: st("Error", "x") if p.name == "bad" else SUCCESS)
    sched = one_node_scheduler(log, preBind=[x])
    for name in ("a", "b", "bad"):
        sched.add_pod(pod(name))
    sched.run_until_idle(deadline=0.5)
    assert sorted(c.pod for c in calls(log, "PostBind")) == ["a", "b"]
    for name in ("a", "b"):
        assert result(sched, name).phase == "bound"
    assert result(sched, "bad").phase == "error"


def test_postbind_runs_all_plugins_in_order() -> None:
    log: list = []
    pb = [Scripted(n, log) for n in ("A", "B", "C")]
    sched = one_node_scheduler(log, postBind=pb)
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    assert [c.plugin for c in calls(log, "PostBind")] == ["A", "B", "C"]
    # order of the binding cycle for a bound pod
    seq = [c.point for c in log if c.plugin in ("P", "A") and c.point in
           ("Reserve", "Permit", "PreBindPreFlight", "PreBind", "Bind", "PostBind")]
    assert seq == ["Reserve", "Permit", "PreBindPreFlight", "PreBind", "Bind", "PostBind"]


def test_reject_waiting_pod_after_it_was_allowed_returns_false() -> None:
    """waitingPod.stopWithStatus returns false once the pod is `done` (allowed or rejected); the
    framework's RejectWaitingPod returns that value, even while the pod is still in the map."""
    log: list = []
    sched, fw = waiting(log, 30)
    sched.run_until_idle(deadline=1)
    fw.get_waiting_pod("p").allow("W")
    assert fw.reject_waiting_pod("p") is False
    sched.run_until_idle(deadline=1)
    assert result(sched).phase == "bound"
