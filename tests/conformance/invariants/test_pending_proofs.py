"""The invariants issue 32's framework and queue mutants are caught by (new, or widened to catch them) accept
what upstream may legitimately do: a gated or refused pod held, a pod held at Permit when the deadline comes,
a Permit rejection's one-node FitError, a node deleted on the way, an error right after a PreFilter rejection;
and each fails the outcome a broken scheduler would report."""

from __future__ import annotations

import dataclasses

from conformance.invariants import REGISTRY, Run
from reference.scenario import Scenario

from ..test_timeline_reference import node as timeline_node
from ..test_timeline_reference import pod as timeline_pod
from ._kit import config, edited, node, pod, run_on_reference, scenario, violated, violation, with_pod

TWO_NODES = (node("node-0"), node("node-1"))


# --- preenqueue-gates: a pod nothing gated is not held -------------------------------------------

def test_gated_and_refused_pods_may_stay_gated() -> None:
    cfg = config({"preEnqueue": ["Probe0"], "preFilter": ["Probe0"]}, defaults=True)
    run = run_on_reference(scenario([pod("gated", gates=["example.com/a"]),
                                     pod("refused", probes={"Probe0": {"PreEnqueue": {"code": "Wait"}}}),
                                     pod("free")], cfg=cfg))
    assert {k: r.phase for k, r in run.outcome.pods.items()} == {
        "default/gated": "gated", "default/refused": "gated", "default/free": "bound"}
    REGISTRY["preenqueue-gates"].check(run)


def test_an_admitted_pod_reported_gated_fails() -> None:
    run = run_on_reference(scenario([pod()], cfg=config({"preEnqueue": ["Probe0"], "preFilter": ["Probe0"]})))
    broken = edited(with_pod(run, "default/pod-0", phase="gated", attempts=0, node=""), bindings=(),
                    trace=tuple(r for r in run.outcome.trace if r["point"] == "PreEnqueue"))
    assert violation(REGISTRY["preenqueue-gates"], broken).pod == "default/pod-0"


# --- calls-match-profile: a pod naming a profile is attempted ------------------------------------

def _second_profile() -> Scenario:
    cfg = config(multi_point=("Probe0",))
    cfg["profiles"].append({**cfg["profiles"][0], "schedulerName": "other-scheduler"})
    manifest = pod()
    manifest["spec"]["schedulerName"] = "other-scheduler"
    return scenario([manifest], cfg=cfg)


def test_a_pod_never_attempted_by_its_profile_fails_only_on_virtual_time() -> None:
    run = run_on_reference(_second_profile())
    REGISTRY["calls-match-profile"].check(run)
    dropped = edited(with_pod(run, "default/pod-0", phase="pending", attempts=0, node=""), bindings=(),
                     trace=())
    assert violated("calls-match-profile", dropped)
    wall_clock = edited(dropped, capabilities=run.capabilities - {"virtual-time"})
    assert not violated("calls-match-profile", wall_clock)


# --- plugins-run-until-stop: a loop the attempt went past ran --------------------------------------

def test_loops_left_out_by_design_pass() -> None:
    """A PreBindPreFlight Skip drops the plugin's PreBind; a Permit rejection ends the attempt before
    binding."""
    cfg = config(multi_point=("Probe0",))
    skips = pod("skips", probes={"Probe0": {"PreBindPreFlight": {"code": "Skip"}}})
    rejected = pod("rejected", probes={"Probe0": {"Permit": {"code": "Unschedulable"}}})
    run = run_on_reference(scenario([skips, rejected], cfg=cfg))
    assert run.outcome.pods["default/skips"].phase == "bound"
    assert not run.outcome.calls(pod="default/skips", point="PreBind")
    REGISTRY["plugins-run-until-stop"].check(run)


def test_a_bound_pod_without_its_permit_call_fails() -> None:
    run = run_on_reference(scenario([pod()], cfg=config(multi_point=("Probe0",))))
    broken = edited(run, trace=tuple(r for r in run.outcome.trace if r["point"] != "Permit"))
    assert violation(REGISTRY["plugins-run-until-stop"], broken).plugin == "Probe0"


# --- postfilter-only-without-feasible-node: PostFilter after a PreFilter rejection -----------------

def test_no_postfilter_owed_when_an_error_follows_the_rejection() -> None:
    cfg = config(multi_point=("Probe0", "Probe1"))
    run = run_on_reference(scenario([pod(probes={"Probe0": {"PreFilter": {"code": "Unschedulable"}},
                                                 "Probe1": {"PreFilter": {"code": "Error"}}})], cfg=cfg))
    assert not run.outcome.calls(point="PostFilter")
    REGISTRY["postfilter-only-without-feasible-node"].check(run)


# --- unreserved-pods-forgotten ---------------------------------------------------------------------

def test_a_pod_held_at_permit_at_the_deadline_is_waiting() -> None:
    waits = pod(probes={"Probe0": {"Permit": {"code": "Wait", "timeout": "10s"}}})
    sc = dataclasses.replace(scenario([waits], cfg=config(multi_point=("Probe0",))), deadline=5.0)
    run = run_on_reference(sc)
    assert run.outcome.pods["default/pod-0"].phase == "waiting"
    REGISTRY["unreserved-pods-forgotten"].check(run)
    assert not run.exercised


def test_a_rejected_pod_left_assumed_fails() -> None:
    run = run_on_reference(scenario([pod(probes={"Probe0": {"Permit": {"code": "Unschedulable"}}})],
                                    cfg=config(multi_point=("Probe0",))))
    REGISTRY["unreserved-pods-forgotten"].check(run)
    assert violated("unreserved-pods-forgotten", with_pod(run, "default/pod-0", phase="waiting"))


# --- cycle-state-kept-in-attempt ---------------------------------------------------------------------

LOST = ('running "NodeResourcesFit" filter plugin: error reading "PreFilterNodeResourcesFit" from '
        'cycleState: not found')


def _failed_with(run: Run, message: str) -> Run:
    return edited(with_pod(run, "default/pod-0", phase="error", node="",
                           condition={"status": "False", "reason": "SchedulerError", "message": message}),
                  bindings=())


def test_a_stock_plugin_losing_its_state_fails() -> None:
    run = run_on_reference(scenario([pod(cpu="1")], cfg=config(multi_point=(), defaults=True)))
    REGISTRY["cycle-state-kept-in-attempt"].check(run)
    assert violated("cycle-state-kept-in-attempt", _failed_with(run, LOST))
    assert not violated("cycle-state-kept-in-attempt", _failed_with(run, "running PreBind plugin: boom"))


# --- fit-error-counts-nodes --------------------------------------------------------------------------

def test_a_permit_rejection_counts_one_node() -> None:
    run = run_on_reference(scenario([pod(probes={"Probe0": {"Permit": {"code": "Unschedulable"}}})],
                                    nodes=(*TWO_NODES, node("node-2")), cfg=config(multi_point=("Probe0",))))
    assert run.outcome.pods["default/pod-0"].condition["message"].startswith("0/1 nodes are available")
    REGISTRY["fit-error-counts-nodes"].check(run)
    assert run.exercised


def test_a_node_deleted_on_the_way_may_be_counted_either_way() -> None:
    delete = {"when": 1, "op": "delete", "kind": "Node", "name": "n2"}
    ungate = {"when": 2, "op": "update", "kind": "Pod", "name": "p",
              "patch": {"spec": {"schedulingGates": None}}}
    sc = Scenario.from_dict({"nodes": [timeline_node("n1", cpu="1"), timeline_node("n2", cpu="1")],
                             "pods": [timeline_pod("full", cpu="1", node_name="n1")],
                             "workload": [timeline_pod("p", schedulingGates=[{"name": "example.com/a"}])],
                             "timeline": [delete, ungate]})
    run = run_on_reference(sc)
    message = run.outcome.pods["default/p"].condition["message"]
    assert message.startswith("0/1 nodes are available")
    REGISTRY["fit-error-counts-nodes"].check(run)
    two = message.replace("0/1", "0/2", 1)
    assert not violated("fit-error-counts-nodes", with_pod(run, "default/p", condition={
        **run.outcome.pods["default/p"].condition, "message": two}))
    assert violated("fit-error-counts-nodes", with_pod(run, "default/p", condition={
        **run.outcome.pods["default/p"].condition, "message": message.replace("0/1", "0/3", 1)}))


def test_a_profile_without_the_plugins_prefilter_is_not_judged() -> None:
    """NodePorts disabled in multiPoint but enabled at Filter: its Filter finds no PreFilter state, upstream
    too."""
    cfg = config({"multiPoint": {"disabled": [{"name": "NodePorts"}]},
                  "filter": {"enabled": [{"name": "NodePorts"}]}}, multi_point=(), defaults=True)
    run = run_on_reference(scenario([pod()], cfg=cfg))
    assert "PreFilterNodePorts" in run.outcome.pods["default/pod-0"].condition["message"]
    REGISTRY["cycle-state-kept-in-attempt"].check(run)
