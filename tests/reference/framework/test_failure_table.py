"""Spec §3.1 failure table, row by row, against upstream schedule_one.go / types.go (v1.37.2).

For each failure point: which plugins run afterwards (PostFilter, Unreserve, PostBind), where the pod is
requeued (queue.unschedulable for rejections, error_backoff for errors), the rejector plugins recorded,
the PodScheduled reason, status.nominatedNodeName, the events, and the FitError message.
"""

from __future__ import annotations

import pytest

from reference.interfaces import NominatingInfo, NominatingMode, PostFilterResult
from reference.status import SUCCESS
from tests.builders import node, pod
from tests.reference.framework._scripted import EVERY_EVENT, Scripted, build, calls, st

N = {"cpu": 1000, "pods": 10}


def where(sched, name: str) -> str:
    q = sched.queue
    uid = name
    if uid in q.unschedulable:
        return "unschedulable"
    for label, lst in (("active", q.active), ("backoff", q.backoff), ("error_backoff", q.error_backoff)):
        if any(x.pod.effective_uid == uid for x in lst):
            return label
    return "none"


def qinfo(sched, name: str):
    q = sched.queue
    if name in q.unschedulable:
        return q.unschedulable[name]
    return next(x for x in (*q.active, *q.backoff, *q.error_backoff) if x.pod.effective_uid == name)


def events(sched, name: str = "p") -> list[tuple[str, str, str]]:
    return [(e.type, e.reason, e.message) for e in sched.store.events if e.pod == f"default/{name}"]


class FakeExtender:
    """Just enough of an extender: filter drops `reject` nodes; bind raises `bind_error` when set."""

    name = "ext"

    def __init__(self, reject=(), unresolvable=(), filter_error=None, binder=False, bind_error=None,
                 ignorable=False) -> None:
        self.reject, self.unresolvable, self.filter_error = set(reject), set(unresolvable), filter_error
        self.binder, self.bind_error, self.ignorable = binder, bind_error, ignorable
        self.bound: list[tuple[str, str]] = []

    def is_interested(self, pod) -> bool:
        return True

    def is_filter(self) -> bool:
        return True

    def is_prioritizer(self) -> bool:
        return False

    def is_binder(self) -> bool:
        return self.binder

    def is_ignorable(self) -> bool:
        return self.ignorable

    def filter(self, pod, nodes):
        if self.filter_error:
            raise RuntimeError(self.filter_error)
        kept = [n for n in nodes if n.name not in self.reject | self.unresolvable]
        return (kept, {n: "ext says no" for n in self.reject},
                {n: "ext says never" for n in self.unresolvable})

    def prioritize(self, pod, nodes):
        return [], 1

    def bind(self, pod, host):
        if self.bind_error:
            raise RuntimeError(self.bind_error)
        self.bound.append((pod.name, host))


def two_nodes():
    return [node("n1", allocatable=N), node("n2", allocatable=N)]


def profile(log, **points):
    """Probe P everywhere (PostFilter: Unschedulable, no reasons, no result) unless overridden."""
    probe = Scripted("P", log, post_filter=st("Unschedulable"))
    base = {p: [probe] for p in ("preFilter", "filter", "postFilter", "preScore", "score", "reserve", "permit",
                                 "preBind", "bind", "postBind")}
    base.update(points)
    return base


# --- dropped pods ------------------------------------------------------------------------------

def test_profile_not_found_pod_is_never_queued_or_attempted() -> None:
    log: list = []
    sched = build(profile(log), nodes=two_nodes())
    sched.add_pod(pod("p", scheduler_name="other-scheduler"))
    sched.run_until_idle(deadline=0.5)
    assert "default/p" not in sched.results()
    assert log == [] and sched.store.events == [] and where(sched, "p") == "none"


def test_deleting_pod_is_dropped_with_event_and_not_requeued() -> None:
    log: list = []
    sched = build(profile(log), nodes=two_nodes())
    sched.add_pod(pod("p", deletion_timestamp="2024-01-01T00:00:00Z"))
    sched.run_until_idle(deadline=0.5)
    assert calls(log, "PreFilter") == []
    assert events(sched) == [("Warning", "FailedScheduling", "skip schedule deleting pod: default/p")]
    assert where(sched, "p") == "none"
    assert "p" not in sched.store.conditions


# --- scheduling-cycle failures -----------------------------------------------------------------

def test_no_nodes_is_uau_wrapping_error_with_error_backoff_and_no_postfilter() -> None:
    log: list = []
    sched = build(profile(log))
    sched.add_pod(pod("p", nominated_node_name="gone"))
    sched.run_until_idle(deadline=0.5)
    r = sched.results()["default/p"]
    assert (r.phase, r.condition_reason, r.condition_message) == (
        "unschedulable", "Unschedulable", "no nodes available to schedule pods")
    assert calls(log, "PreFilter") == [] and calls(log, "PostFilter") == []
    assert where(sched, "p") == "error_backoff"
    assert qinfo(sched, "p").unschedulable_plugins == set()
    assert r.nominated_node_name == ""  # cleared
    assert events(sched) == [("Warning", "FailedScheduling", "no nodes available to schedule pods")]


def test_prefilter_error_error_backoff_no_postfilter_nnn_cleared() -> None:
    log: list = []
    x = Scripted("X", log, pre_filter=st("Error", "boom"))
    sched = build(profile(log, preFilter=[x]), nodes=two_nodes())
    sched.add_pod(pod("p", nominated_node_name="n1"))
    sched.run_until_idle(deadline=0.5)
    r = sched.results()["default/p"]
    assert (r.condition_reason, r.condition_message) == ("SchedulerError", 'running PreFilter plugin "X": boom')
    assert calls(log, "PostFilter") == []
    assert where(sched, "p") == "error_backoff"
    assert qinfo(sched, "p").consecutive_errors_count == 1 and qinfo(sched, "p").unschedulable_count == 0
    assert r.nominated_node_name == ""


@pytest.mark.parametrize("code", ["Unschedulable", "UnschedulableAndUnresolvable"])
def test_prefilter_rejection_runs_postfilter_records_plugin_and_parks(code: str) -> None:
    log: list = []
    x = Scripted("X", log, pre_filter=st(code, "no way"))
    pf = Scripted("PF", log, post_filter=st("Unschedulable", "preemption: not helpful"),
                  post_filter_result=PostFilterResult(NominatingInfo("n2", NominatingMode.OVERRIDE)))
    sched = build(profile(log, preFilter=[x], postFilter=[pf]), nodes=two_nodes())
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    r = sched.results()["default/p"]
    # upstream FitError.Error(): " %v" for the PostFilter message, no trailing period
    assert r.condition_message == "0/2 nodes are available: no way. preemption: not helpful"
    assert r.condition_reason == "Unschedulable"
    assert [c.plugin for c in calls(log, "PostFilter")] == ["PF"]
    assert calls(log, "Filter") == []
    assert where(sched, "p") == "unschedulable"
    assert qinfo(sched, "p").unschedulable_plugins == {"X"}
    assert r.nominated_node_name == "n2"  # from the PostFilter result (Override)
    assert sched.queue.nominated_node(sched.store.pods["p"]) == "n2"


def test_prefilter_rejection_message_without_postfilter_message() -> None:
    log: list = []
    x = Scripted("X", log, pre_filter=st("Unschedulable", "a", "b"))
    sched = build(profile(log, preFilter=[x]), nodes=two_nodes())
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    assert sched.results()["default/p"].condition_message == "0/2 nodes are available: a, b."


def test_empty_prefilter_result_intersection_records_result_plugins() -> None:
    log: list = []
    a = Scripted("A", log, pre_filter_result={"n1"})
    b = Scripted("B", log, pre_filter_result={"n2"})
    sched = build(profile(log, preFilter=[a, b]), nodes=two_nodes())
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    r = sched.results()["default/p"]
    assert r.condition_message == "0/2 nodes are available: node(s) didn't satisfy plugin(s) [A B] simultaneously."
    assert calls(log, "PostFilter") and where(sched, "p") == "unschedulable"
    assert qinfo(sched, "p").unschedulable_plugins == {"A", "B"}


def test_all_nodes_filtered_records_every_rejector_pending_and_extender() -> None:
    log: list = []
    a = Scripted("A", log, filter={"n1": st("Unschedulable", "A says no")})
    b = Scripted("B", log, filter={"n2": st("UnschedulableAndUnresolvable", "B says no")})
    c = Scripted("C", log, filter={"n3": st("Pending", "C waits")})
    ext = FakeExtender(reject={"n4"})
    nodes = [node(f"n{i}", allocatable=N) for i in range(1, 5)]
    sched = build(profile(log, filter=[a, b, c]), nodes=nodes, extenders=[ext])
    sched.add_pod(pod("p", nominated_node_name="n1"))
    sched.run_until_idle(deadline=0.5)
    r = sched.results()["default/p"]
    assert r.condition_message == ("0/4 nodes are available: 1 A says no, 1 B says no, 1 C waits, "
                                   "1 ext says no.")
    assert calls(log, "PostFilter", "P")
    info = qinfo(sched, "p")
    # Diagnosis.AddPluginStatus: Pending is a rejection too, so C is in both sets
    assert info.unschedulable_plugins == {"A", "B", "C", "Extender"}
    assert info.pending_plugins == {"C"}
    assert where(sched, "p") == "unschedulable"
    assert r.nominated_node_name == "n1"  # PostFilter gave no result: nominatingInfo nil, NNN untouched


def test_all_nodes_filtered_without_postfilter_plugins_clears_nnn() -> None:
    log: list = []
    a = Scripted("A", log, filter=st("Unschedulable", "no"))
    points = profile(log, filter=[a])
    del points["postFilter"]
    sched = build(points, nodes=two_nodes())
    sched.add_pod(pod("p", nominated_node_name="n1"))
    sched.run_until_idle(deadline=0.5)
    r = sched.results()["default/p"]
    assert r.condition_message == "0/2 nodes are available: 2 no."
    assert r.nominated_node_name == ""
    assert where(sched, "p") == "unschedulable"


def test_postfilter_result_noop_keeps_nominator_entry_of_pod() -> None:
    log: list = []
    a = Scripted("A", log, filter=st("Unschedulable", "no"))
    pf = Scripted("PF", log, post_filter=st("Unschedulable"),
                  post_filter_result=PostFilterResult(NominatingInfo("n2", NominatingMode.NOOP)))
    sched = build(profile(log, filter=[a], postFilter=[pf]), nodes=two_nodes())
    sched.add_pod(pod("p", nominated_node_name="n1"))
    sched.run_until_idle(deadline=0.5)
    assert sched.results()["default/p"].nominated_node_name == "n1"
    assert sched.queue.nominated_node(sched.store.pods["p"]) == "n1"


@pytest.mark.parametrize("kind", ["filter-error", "addpod-error", "extender-filter-error"])
def test_filter_stage_errors_error_backoff_no_postfilter(kind: str) -> None:
    log: list = []
    exts = []
    points = profile(log)
    want = ""
    if kind == "filter-error":
        points["filter"] = [Scripted("X", log, filter={"n1": st("Error", "kaput")})]
        want = 'running "X" filter plugin: kaput'
    elif kind == "extender-filter-error":
        exts = [FakeExtender(filter_error="ext down")]
        want = "ext down"
    sched = build(points, nodes=two_nodes(), extenders=exts)
    sched.add_pod(pod("p", nominated_node_name="n1"))
    if kind == "addpod-error":
        points["preFilter"][0].b["add_pod"] = st("Unschedulable", "cannot add")
        points["filter"][0].b["filter"] = lambda p, ni: st("Unschedulable", "x") if p.name == "nom" else SUCCESS
        sched.add_pod(pod("nom", priority=5, nominated_node_name="n1"))
        want = 'running AddPod on PreFilter plugin "P": cannot add'
    sched.run_until_idle(deadline=0.5)
    r = sched.results()["default/p"]
    assert (r.condition_reason, r.condition_message) == ("SchedulerError", want)
    assert calls(log, "PostFilter", pod="p") == []
    assert where(sched, "p") == "error_backoff"
    assert r.nominated_node_name == ""


@pytest.mark.parametrize("kind", ["prescore", "score", "normalize", "out-of-range"])
def test_scoring_errors_error_backoff(kind: str) -> None:
    log: list = []
    behaviour = {"prescore": {"pre_score": st("Unschedulable", "r")},
                 "score": {"score_status": st("Error", "r")},
                 "normalize": {"normalize": st("Error", "r")},
                 "out-of-range": {"score": 101}}[kind]
    x = Scripted("X", log, **behaviour)
    sched = build(profile(log, preScore=[x], score=[x]), nodes=two_nodes())
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    r = sched.results()["default/p"]
    assert r.condition_reason == "SchedulerError"
    assert where(sched, "p") == "error_backoff"
    assert calls(log, "PostFilter") == [] and calls(log, "Reserve") == [] and calls(log, "Unreserve") == []


@pytest.mark.parametrize("point,key", [("reserve", "reserve"), ("permit", "permit")])
@pytest.mark.parametrize("code", ["Unschedulable", "UnschedulableAndUnresolvable", "Pending", "Error"])
def test_reserve_and_permit_failures(point: str, key: str, code: str) -> None:
    log: list = []
    x = Scripted("X", log, **{key: st(code, "r")})
    a, b = Scripted("A", log), Scripted("B", log)
    points = profile(log, reserve=[a, b] if point == "permit" else [a, x, b])
    if point == "permit":
        points["permit"] = [x]
    sched = build(points, nodes=two_nodes())
    sched.add_pod(pod("p", nominated_node_name="n2"))
    sched.run_until_idle(deadline=0.5)
    r = sched.results()["default/p"]
    unreserved = [c.plugin for c in calls(log, "Unreserve")]
    assert unreserved == (["B", "A"] if point == "permit" else ["B", "X", "A"])
    assert calls(log, "PostFilter") == [] and calls(log, "PreBind") == [] and calls(log, "PostBind") == []
    assert r.nominated_node_name == ""
    assert sched.assumed == {}
    info = qinfo(sched, "p")
    if code == "Error":
        assert (r.condition_reason, where(sched, "p")) == ("SchedulerError", "error_backoff")
        assert r.condition_message == f'running {"Reserve" if point == "reserve" else "Permit"} plugin "X": r'
        assert info.unschedulable_plugins == set()
    else:
        assert (r.condition_reason, where(sched, "p")) == ("Unschedulable", "unschedulable")
        assert r.condition_message == "0/1 nodes are available: 1 r."
        assert "X" in info.unschedulable_plugins | info.pending_plugins
        assert events(sched) == [("Warning", "FailedScheduling", "0/1 nodes are available: 1 r.")]


def test_prebind_preflight_error_is_error_backoff_after_unreserve() -> None:
    log: list = []
    x = Scripted("X", log, pre_bind_pre_flight=st("Error", "nope"))
    sched = build(profile(log, preBind=[x]), nodes=two_nodes())
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    r = sched.results()["default/p"]
    assert (r.condition_reason, r.condition_message) == ("SchedulerError", 'running PreBindPreFlight "X": nope')
    assert calls(log, "Unreserve", "P") and not calls(log, "PostBind")
    assert where(sched, "p") == "error_backoff"


# --- WaitOnPermit rejections ---------------------------------------------------------------------

def waiting_scheduler(log, timeout=30):
    w = Scripted("W", log, permit=st("Wait"), permit_timeout=timeout)
    sched = build(profile(log, permit=[w]), nodes=[node("n1", allocatable=N)])
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=1)
    assert sched.results()["default/p"].phase == "waiting"
    return sched, sched.frameworks["default-scheduler"]


@pytest.mark.parametrize("how,plugin,text", [
    ("reject", "W", "nope"),
    ("timeout", "W", "rejected due to timeout after waiting 30s at plugin W"),
    ("reject-waiting-pod", "", "removed"),
])
def test_wait_on_permit_rejection(how: str, plugin: str, text: str) -> None:
    log: list = []
    sched, fw = waiting_scheduler(log)
    if how == "reject":
        fw.get_waiting_pod("p").reject("W", "nope")
    elif how == "reject-waiting-pod":
        assert fw.reject_waiting_pod("p") is True
    sched.run_until_idle(deadline=0.5 if how != "timeout" else 40)
    r = sched.results()["default/p"]
    assert (r.phase, r.condition_reason) == ("unschedulable", "Unschedulable")
    assert r.condition_message == f"0/1 nodes are available: 1 {text}."
    assert [c.plugin for c in calls(log, "Unreserve")] == ["P"]
    assert calls(log, "PreBind") == [] and calls(log, "PostBind") == []
    assert where(sched, "p") == "unschedulable"
    assert qinfo(sched, "p").unschedulable_plugins == {plugin}
    assert r.nominated_node_name == ""  # patched to n1 while waiting, cleared by the failure
    assert fw.get_waiting_pod("p") is None


def test_reject_waiting_pod_on_unknown_or_finished_pod() -> None:
    log: list = []
    sched, fw = waiting_scheduler(log)
    assert fw.reject_waiting_pod("nobody") is False
    fw.get_waiting_pod("p").allow("W")
    sched.run_until_idle(deadline=0.5)
    assert sched.results()["default/p"].phase == "bound"
    assert fw.reject_waiting_pod("p") is False


def test_deleting_waiting_pod_rejects_it_and_does_not_requeue() -> None:
    log: list = []
    sched, fw = waiting_scheduler(log)
    sched.delete_pod(sched.store.pods["p"])
    sched.run_until_idle(deadline=0.5)
    assert fw.get_waiting_pod("p") is None
    assert [c.plugin for c in calls(log, "Unreserve")] == ["P"]
    assert where(sched, "p") == "none" and sched.assumed == {}
    # handleSchedulingFailure: a pod missing from the informer cache is not requeued, but the
    # FailedScheduling event is still recorded (only the status patch fails)
    assert events(sched) == [("Warning", "FailedScheduling", "0/1 nodes are available: 1 removed.")]
    assert "p" not in sched.store.conditions


# --- binding failures after WaitOnPermit ----------------------------------------------------------

@pytest.mark.parametrize("code", ["Unschedulable", "UnschedulableAndUnresolvable", "Error"])
@pytest.mark.parametrize("point", ["preBind", "bind"])
def test_prebind_and_bind_failures_go_to_error_backoff_even_when_rejected(point: str, code: str) -> None:
    log: list = []
    x = Scripted("X", log, **{"pre_bind" if point == "preBind" else "bind": st(code, "r")})
    sched = build(profile(log, **{point: [x]}), nodes=two_nodes())
    sched.add_pod(pod("p", nominated_node_name="n1"))
    sched.run_until_idle(deadline=0.5)
    r = sched.results()["default/p"]
    assert where(sched, "p") == "error_backoff"
    info = qinfo(sched, "p")
    assert info.unschedulable_plugins == set() and info.consecutive_errors_count == 1
    if code == "Error":
        assert r.condition_reason == "SchedulerError"
        assert r.condition_message == f'running {"PreBind" if point == "preBind" else "Bind"} plugin "X": r'
    else:
        assert (r.condition_reason, r.condition_message) == ("Unschedulable", "r")
    assert [c.plugin for c in calls(log, "Unreserve")] == ["P"]
    assert calls(log, "PostBind") == [] and r.nominated_node_name == ""
    assert sched.store.pods["p"].node_name == ""


def test_extender_bind_error_fails_binding_and_plugins_not_called() -> None:
    log: list = []
    ext = FakeExtender(binder=True, bind_error="ext bind failed")
    sched = build(profile(log), nodes=two_nodes(), extenders=[ext])
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    r = sched.results()["default/p"]
    assert (r.condition_reason, r.condition_message) == ("SchedulerError", "ext bind failed")
    assert calls(log, "Bind") == [] and calls(log, "Unreserve")
    assert where(sched, "p") == "error_backoff"


def test_ignorable_extender_bind_error_falls_back_to_bind_plugins() -> None:
    log: list = []
    ext = FakeExtender(binder=True, bind_error="ext bind failed", ignorable=True)
    sched = build(profile(log), nodes=two_nodes(), extenders=[ext])
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    assert sched.results()["default/p"].phase == "bound"
    assert calls(log, "Bind", "P")


def test_extender_binds_instead_of_plugins() -> None:
    log: list = []
    ext = FakeExtender(binder=True)
    sched = build(profile(log), nodes=two_nodes(), extenders=[ext])
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    r = sched.results()["default/p"]
    assert r.phase == "bound" and ext.bound == [("p", r.node)]
    assert calls(log, "Bind") == [] and calls(log, "PostBind", "P")


def test_all_bind_plugins_skip_no_event_no_condition_error_backoff() -> None:
    log: list = []
    a = Scripted("A", log, bind=st("Skip"))
    b = Scripted("B", log, bind=st("Skip"))
    sched = build(profile(log, bind=[a, b]), nodes=two_nodes())
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    r = sched.results()["default/p"]
    assert [c.plugin for c in calls(log, "Bind")] == ["A", "B"]
    assert (r.phase, r.condition_reason, r.condition_message) == ("pending", "", "")
    assert events(sched) == [] and "p" not in sched.store.conditions
    assert [c.plugin for c in calls(log, "Unreserve")] == ["P"] and calls(log, "PostBind") == []
    assert where(sched, "p") == "error_backoff"


def test_success_runs_postbind_once_no_unreserve_scheduled_event() -> None:
    log: list = []
    sched = build(profile(log), nodes=two_nodes())
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    r = sched.results()["default/p"]
    assert r.phase == "bound"
    assert [(c.point, c.node) for c in calls(log, "PostBind")] == [("PostBind", r.node)]
    assert calls(log, "Unreserve") == []
    assert events(sched) == [("Normal", "Scheduled", f"Successfully assigned default/p to {r.node}")]
    assert where(sched, "p") == "none" and sched.assumed == {}


def test_binding_rejection_wakes_other_unschedulable_pods_but_not_itself() -> None:
    """handleBindingCycleError: the forgotten assumed pod is an AssignedPodDelete event for the others."""
    log: list = []
    x = Scripted("X", log, pre_bind=lambda p, n: st("Unschedulable", "r") if p.name == "p" else SUCCESS)
    blocker = Scripted("B", log, filter=lambda p, ni: st("Unschedulable", "full") if p.name == "q" else SUCCESS,
                       events=EVERY_EVENT)
    sched = build(profile(log, preBind=[x], filter=[blocker]), nodes=two_nodes())
    sched.add_pod(pod("q", priority=10))
    sched.run_until_idle(deadline=0.5)
    assert where(sched, "q") == "unschedulable"
    tried = len(calls(log, "PreFilter", pod="q"))
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    assert where(sched, "p") == "error_backoff"
    assert len(calls(log, "PreFilter", pod="q")) == tried + 1  # q was moved and retried


def test_failed_scheduling_event_truncated_to_note_length_limit() -> None:
    log: list = []
    long = "x" * 2000
    x = Scripted("X", log, pre_filter=st("Error", long))
    sched = build(profile(log, preFilter=[x]), nodes=two_nodes())
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    full = f'running PreFilter plugin "X": {long}'
    assert events(sched) == [("Warning", "FailedScheduling", full[:1020] + " ...")]
    assert sched.results()["default/p"].condition_message == full
