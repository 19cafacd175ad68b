"""From API objects, events and trace records to outcome parts."""

from conformance.cluster.collector import ARRIVAL
from conformance.cluster.naming import NamespaceMap
from conformance.cluster.observe import (awaited_events, events_of, have_events, phase_of, pod_outcome,
                                         settled, trace_of)

NS = NamespaceMap.of("r", 1, ["default"])
CNS = NS.to_cluster("default")


def _pod(node="", reason=None, message="m", nominated=""):
    status = {"nominatedNodeName": nominated} if nominated else {}
    if reason:
        status["conditions"] = [{"type": "PodScheduled", "status": "False", "reason": reason, "message": message}]
    return {"metadata": {"namespace": CNS, "name": "p"}, "spec": {"nodeName": node}, "status": status}


def test_phase_from_node_and_condition():
    assert phase_of(_pod(node="n"), []) == "bound"
    assert phase_of(_pod(reason="Unschedulable"), []) == "unschedulable"
    assert phase_of(_pod(reason="SchedulerError"), []) == "error"
    assert phase_of(_pod(reason="SchedulingGated"), []) == "gated"
    assert phase_of(_pod(), []) == "pending"


def test_phase_from_the_probes_where_the_api_shows_nothing():
    assert phase_of(_pod(), [{"point": "Permit", "code": "Wait"}]) == "waiting"
    assert phase_of(_pod(reason="Unschedulable"), [{"point": "PreBind", "code": "Success"}]) == "waiting"
    assert phase_of(_pod(), [{"point": "PreEnqueue", "code": "Unschedulable"}]) == "gated"
    assert phase_of(_pod(reason="Unschedulable"), [{"point": "Permit", "code": "Unschedulable"}]) == "unschedulable"
    assert phase_of(_pod(reason="Unschedulable"), [{"point": "Unreserve"}]) == "unschedulable"


def test_settled_means_bound_or_told_why_not():
    assert settled(_pod(node="n")) and settled(_pod(reason="Unschedulable")) and not settled(_pod())


def test_pod_outcome_maps_namespaces_in_messages_and_hides_api_server_conditions():
    out = pod_outcome(_pod(reason="Unschedulable", message=f"pod {CNS}/v blocks", nominated="n1"),
                      [{"attempt": 1}, {"attempt": 3}], NS)
    assert out.condition == {"status": "False", "reason": "Unschedulable", "message": "pod default/v blocks"}
    assert (out.attempts, out.nominated_node_name) == (3, "n1")
    assert pod_outcome(_pod(reason="SchedulingGated"), [], NS).condition is None
    assert pod_outcome(_pod(node="n", reason="Unschedulable"), [], NS).condition is None


def _event(name, reason, t, *, reporter="default-scheduler", count=None, kind="Pod"):
    e = {"regarding": {"kind": kind, "namespace": CNS, "name": name}, "reason": reason, "type": "Normal",
         "note": f"Successfully assigned {CNS}/{name} to n", "reportingController": reporter, "eventTime": t}
    if count:
        e["series"] = {"count": count}
    return e


def test_events_are_the_schedulers_about_workload_pods_in_time_order_with_repeats_expanded():
    events = [_event("b", "Scheduled", "2026-01-01T00:00:02.000000Z"),
              _event("a", "FailedScheduling", "2026-01-01T00:00:01.000000Z", count=2),
              _event("a", "Scheduled", "2026-01-01T00:00:03.000000Z", reporter="other-scheduler"),
              _event("c", "Scheduled", "2026-01-01T00:00:00.000000Z"),
              _event("a", "Scheduled", "2026-01-01T00:00:04.000000Z", kind="Node")]
    out = events_of(events, {f"{CNS}/a", f"{CNS}/b"}, {"default-scheduler"}, NS)
    assert [(e["pod"], e["reason"]) for e in out] == [("default/a", "FailedScheduling")] * 2 + [("default/b", "Scheduled")]
    assert out[-1]["message"] == "Successfully assigned default/b to n"


def test_trace_merges_probe_and_extender_records_by_time_keeping_probe_order():
    probe = [{"seq": 11, "pod": f"{CNS}/a", "point": "Filter", ARRIVAL: 100.30},
             {"seq": 10, "pod": f"{CNS}/a", "point": "PreFilter", ARRIVAL: 100.31}]
    ext = [{"seq": 0, "t": 100.305, "pod": f"{CNS}/a", "point": "extender.filter"}]
    out = trace_of(probe, ext, NS, start=100.0)
    assert [(r["seq"], r["point"]) for r in out] == [(0, "PreFilter"), (1, "Filter"), (2, "extender.filter")]
    assert all(r["pod"] == "default/a" and ARRIVAL not in r for r in out)
    assert [r["t"] for r in out] == [0.3, 0.3, 0.305]


def test_the_run_waits_for_the_event_of_the_pods_last_message():
    key = f"{CNS}/p"
    wanted = awaited_events({key: _pod(reason="Unschedulable", message="second")}, {})
    assert wanted == {key: ("FailedScheduling", "second")}

    def event(note):
        return {"regarding": {"namespace": CNS, "name": "p"}, "reason": "FailedScheduling", "note": note}
    assert not have_events([event("first")], wanted)  # an earlier attempt's, before the timeline event
    assert have_events([event("first"), event("second")], wanted)
    assert have_events([event("sec ...")], wanted)  # truncated to the note limit
    assert have_events([{**event(""), "reason": "Scheduled"}], awaited_events({key: _pod(node="n")}, {}))
