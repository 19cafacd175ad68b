"""Timeline faults on the reference backend (docs/scenario.md, Faults): each fires as upstream's client and
scheduler answer that error, vanish or restart, the firings are in `Outcome.faults`, and backends without a
fault capability refuse the scenario before anything starts."""

from __future__ import annotations

import pytest

from conformance.backends.base import refuse_faults
from conformance.backends.reference import ReferenceBackend
from conformance.core.errors import BackendFailure
from conformance.extender.server import ExtenderServer
from reference.errors import FrameworkError
from reference.scenario import Scenario
from reference.scheduler.build import build_scheduler
from reference.scheduler.timeline import run_scenario

from .invariants._kit import config, extender
from .test_timeline_reference import node, pod

PREEMPTION = {"nodes": [node(cpu="1")], "pods": [pod("v", node_name="n1", priority=0)],
              "workload": [pod("p", priority=100)]}


def run(timeline, *, nodes=None, workload=(), cfg=None, **more):
    sc = Scenario.from_dict({"nodes": nodes if nodes is not None else [node()], "workload": list(workload),
                             "timeline": list(timeline), **({"config": cfg} if cfg else {}), **more})
    return ReferenceBackend().run(sc)


def fail(call, error="conflict", **extra):
    return {"op": "fail", "call": call, "error": error, **extra}


def reasons(outcome, pod="default/p"):
    return [e["reason"] for e in outcome.events if e["pod"] == pod]


def test_a_conflict_on_the_binding_fails_the_binding_cycle_and_the_pod_is_retried():
    out = run([fail("bind")], workload=[pod("p", cpu="100m")])
    assert out.faults == ({"index": 0, "at": 0.0, "pod": "default/p", "fault": "fail", "detail": "bind"},)
    assert reasons(out) == ["FailedScheduling", "Scheduled"]
    failed = next(e for e in out.events if e["reason"] == "FailedScheduling")
    assert failed["message"] == 'running Bind plugin "DefaultBinder": Operation cannot be fulfilled on ' \
                                'pods/binding "p": injected conflict'
    assert out.pods["default/p"].phase == "bound" and out.pods["default/p"].attempts == 2
    assert len(out.bindings) == 1 and out.bindings[0]["t"] > 0  # after its backoff


@pytest.mark.parametrize("times, attempts", [(3, 1), (4, 2)])
def test_default_binder_retries_an_internal_error_four_times(times, attempts):
    out = run([fail("bind", "internal", times=times)], workload=[pod("p", cpu="100m")])
    assert len(out.faults) == times
    assert out.pods["default/p"].phase == "bound" and out.pods["default/p"].attempts == attempts


@pytest.mark.parametrize("times, landed", [(1, 0.01), (2, 0.06), (3, 0.31)])
def test_the_retries_are_spaced_as_retry_default_backoff(times, landed):
    # util.BindPod: retry.DefaultBackoff sleeps 10 ms, then x5 (jitter left out); the cycle waits meanwhile
    # and the pod stays assumed until its binding lands: q, created in the meantime, does not take its room.
    q = {"when": 0.005, "op": "create", "object": pod("q", cpu="1")}
    out = run([fail("bind", "internal", times=times), q], workload=[pod("p", cpu="1")])
    assert [round(f["at"], 6) for f in out.faults] == [0.0, 0.01, 0.06][:times]
    assert [(b["pod"], round(b["t"], 6)) for b in out.bindings] == [("default/p", landed)]
    assert [round(r["t"], 6) for r in out.trace if r["point"] == "PostBind"] == []  # no PostBind probe
    assert out.pods["default/q"].phase == "unschedulable"


def test_a_restart_in_the_retries_sleep_drops_the_binding():
    # The old scheduler's client dies while it sleeps before its second try (q, ungated at 5 ms, restarts it):
    # nothing lands then; the new scheduler binds p at once.
    tl = [fail("bind", "internal", pod="p"), {"op": "restart", "pod": "q", "point": "reserve"},
          {"when": 0.005, "op": "update", "kind": "Pod", "name": "q",
           "patch": {"spec": {"schedulingGates": None}}}]
    out = run(tl, workload=[pod("p", cpu="100m"), pod("q", cpu="100m", schedulingGates=[{"name": "g"}])])
    assert [f["fault"] for f in out.faults] == ["fail", "restart"]
    assert [(b["pod"], b["t"]) for b in out.bindings if b["pod"] == "default/p"] == [("default/p", 0.005)]


def test_a_probe_binder_is_not_retried():
    binds = {"Probe0": {"Bind": {"code": "Success"}}}
    out = run([fail("bind", "internal")], workload=[pod("p", cpu="100m", probe=binds)],
              cfg=config({"bind": {"enabled": [{"name": "Probe0"}], "disabled": [{"name": "DefaultBinder"}]}}))
    assert len(out.faults) == 1 and out.pods["default/p"].attempts == 2


def test_a_timeout_is_not_retried():
    out = run([fail("bind", "timeout")], workload=[pod("p", cpu="100m")])
    assert len(out.faults) == 1 and out.pods["default/p"].attempts == 2


def test_occurrence_counts_matching_calls_after_arming():
    out = run([fail("bind", occurrence=2)], workload=[pod("p", cpu="100m"), pod("q", cpu="100m")])
    assert [f["pod"] for f in out.faults] == ["default/q"]
    out = run([fail("bind", pod="q")], workload=[pod("p", cpu="100m"), pod("q", cpu="100m")])
    assert [f["pod"] for f in out.faults] == ["default/q"]


def test_a_fault_armed_later_only_counts_calls_after_it():
    out = run([fail("bind", when=1)], workload=[pod("p", cpu="100m")])
    assert out.faults == () and out.timeline == ({"index": 0, "at": 1.0},)


def test_a_failed_status_patch_is_ignored_and_leaves_no_condition():
    out = run([fail("status", "timeout")], workload=[pod("p", cpu="2")])
    assert [f["detail"] for f in out.faults] == ["status"]
    assert reasons(out) == ["FailedScheduling"]
    assert out.pods["default/p"].condition is None


def test_a_status_conflict_is_retried():
    out = run([fail("status", times=3)], workload=[pod("p", cpu="2")])
    assert len(out.faults) == 3 and out.pods["default/p"].condition["reason"] == "Unschedulable"


def test_a_failed_event_write_is_dropped():
    out = run([fail("event", "internal")], workload=[pod("p", cpu="100m")])
    assert reasons(out) == [] and out.pods["default/p"].phase == "bound"


def test_a_failed_victim_delete_fails_that_preemption_and_activates_the_preemptor():
    out = run([fail("evict", "internal", pod="v")], **PREEMPTION)
    assert [f["detail"] for f in out.faults] == ["evict"]
    assert out.deleted == ("default/v",)  # the preemptor, activated, preempted again
    assert out.pods["default/p"].phase == "bound"


def test_a_victim_that_vanished_is_not_the_schedulers_deletion():
    out = run([{"op": "vanish", "pod": "p", "point": "preempt", "object": "victim"}], **PREEMPTION)
    assert out.faults[0]["object"] == "Pod/default/v"
    assert out.deleted == () and out.pods["default/p"].phase == "bound"


def test_a_node_vanishing_at_prebind_keeps_the_binding_decided_before():
    out = run([{"op": "vanish", "pod": "p", "point": "prebind", "object": "node"}],
              workload=[pod("p", cpu="100m"), pod("q", cpu="100m")])
    assert out.pods["default/p"].node == "n1" and out.pods["default/q"].phase == "unschedulable"


def test_a_pod_vanishing_at_permit_is_forgotten_and_its_room_freed():
    out = run([{"op": "vanish", "pod": "p", "point": "permit", "object": "pod"}],
              workload=[pod("p", cpu="1"), pod("q", cpu="1")])
    assert "default/p" not in out.pods and out.pods["default/q"].phase == "bound"
    assert out.bindings == ({"pod": "default/q", "node": "n1", "t": 0.0},)


def test_a_restart_loses_the_waiting_pods_and_the_new_scheduler_binds_them():
    # q waits at Permit (allowed after 5 s) when p's restart fires: the new scheduler starts both afresh.
    wait = {"Probe0": {"Permit": {"code": "Wait", "timeout": "10s", "then": {"signal": "allow", "after": "5s"}}}}
    out = run([{"op": "restart", "pod": "p", "point": "permit"}],
              workload=[pod("q", cpu="100m", probe=wait), pod("p", cpu="100m", probe={})],
              cfg=config({"permit": ["Probe0"]}))
    assert [f["fault"] for f in out.faults] == ["restart"]
    assert {k: r.phase for k, r in out.pods.items()} == {"default/q": "bound", "default/p": "bound"}
    assert len(out.bindings) == 2
    permits = [(r["pod"], r["attempt"]) for r in out.trace if r.get("point") == "Permit"]
    assert permits[:1] == [("default/q", 1)] and ("default/q", 2) in permits


def test_a_restart_after_the_binding_landed_keeps_it():
    out = run([{"op": "restart", "pod": "q", "point": "reserve"}],
              workload=[pod("p", cpu="100m"), pod("q", cpu="100m")])
    assert [b["pod"] for b in out.bindings] == ["default/p", "default/q"]


def test_a_restart_needs_a_factory():
    sc = Scenario.from_dict({"nodes": [node()], "workload": [pod("p", cpu="100m")],
                             "timeline": [{"op": "restart", "pod": "p", "point": "bind"}]})
    with pytest.raises(FrameworkError, match=r"timeline\[0\] restarts the scheduler.*pass factory="):
        run_scenario(build_scheduler(), sc)


def test_the_reference_has_every_fault_capability():
    assert {"fault-fail", "fault-vanish", "fault-restart"} <= ReferenceBackend.capabilities


@pytest.mark.parametrize("op, entry", [
    ("fail", fail("bind")),
    ("vanish", {"op": "vanish", "pod": "p", "point": "permit", "object": "node"}),
    ("restart", {"op": "restart", "pod": "p", "point": "bind"}),
])
def test_a_backend_without_the_capability_refuses_in_one_line(op, entry):
    sc = Scenario.from_dict({"nodes": [node()], "workload": [pod("p")],
                             "timeline": [{"when": 0, "op": "delete", "kind": "Node", "name": "n1"}, entry]})
    caps = frozenset({"fault-fail", "fault-vanish", "fault-restart"} - {f"fault-{op}"})
    with pytest.raises(BackendFailure) as info:
        refuse_faults(sc, "upstream", caps)
    assert str(info.value) == (f"scenario.timeline[1]: backend 'upstream' cannot inject a {op} fault (no "
                               f"capability fault-{op}); drop the fault or run it on --backend reference")
    refuse_faults(sc, "upstream", caps | {f"fault-{op}"})


def test_a_failed_disruption_target_patch_fails_that_preemption_too():
    # PreemptPod patches the victim's DisruptionTarget condition first; its error fails the preemption.
    out = run([fail("status", "timeout", pod="v")], **PREEMPTION)
    assert [f["detail"] for f in out.faults] == ["status"]
    assert out.deleted == ("default/v",) and out.pods["default/p"].phase == "bound"


def test_a_binder_extenders_own_binding_is_no_call_of_the_scheduler():
    # The extender binds through the API server itself (the runner: through its own client), so a fail fault
    # on the scheduler's bind calls does not fire.
    binder = config({"reserve": ["Probe0"]}, extenders=[extender("ext-0", verbs=("filter", "bind"))])
    sc = Scenario.from_dict({"nodes": [node()], "workload": [pod("p")], "timeline": [fail("bind")],
                             "config": binder})
    with ExtenderServer() as server:
        out = ReferenceBackend(extender_server=server).run(sc)
    assert out.pods["default/p"].phase == "bound" and out.faults == ()
