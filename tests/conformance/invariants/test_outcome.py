"""fit-error-message and condition-classification: expected values written out from upstream's rules,
the reference's outcomes, and broken variants."""

from __future__ import annotations

import pytest

from conformance.invariants import REGISTRY
from conformance.invariants.outcome import classify, expected_fit_error

from ...conformance.mutants import (_binding_rejection_is_error, _each_framework, _histogram_unsorted,
                                    _one_node_fit_error_counts_all_nodes, _pending_not_a_rejection,
                                    _postfilter_message_with_period, _prefilter_message_as_histogram,
                                    _rejections_kept_as_rejections)
from ._kit import config, edited, extender, node, pod, run_on_reference, scenario, violation, with_pod

MESSAGE = REGISTRY["fit-error-message"]
CLASSIFICATION = REGISTRY["condition-classification"]
TWO_NODES = (node("node-0"), node("node-1"))
P0 = ["Probe0"]
FIRST_AT_BIND = {"disabled": [{"name": "*"}], "enabled": [{"name": "Probe0"}, {"name": "DefaultBinder"}]}
EVERYWHERE = {"preFilter": P0, "filter": P0, "postFilter": P0, "preScore": P0, "score": P0, "reserve": P0,
              "permit": P0, "preBind": P0, "bind": FIRST_AT_BIND}


def unschedulable(code="Unschedulable", *reasons, **extra):
    return {"code": code, **({"reasons": list(reasons)} if reasons else {}), **extra}


# --- fit-error-message --------------------------------------------------------------------------

FIT_CASES = {
    "filter-histogram": (
        {"Probe0": {"Filter": {**unschedulable("Unschedulable", "full"),
                               "byNode": {"node-1": unschedulable("UnschedulableAndUnresolvable", "full", "busy")}}}},
        {"filter": P0}, "0/2 nodes are available: 1 busy, 2 full."),
    "prefilter-uau": (
        {"Probe0": {"PreFilter": unschedulable("UnschedulableAndUnresolvable", "no way", "never")}},
        {}, "0/2 nodes are available: no way, never."),
    "prefilter-last-unschedulable-wins": (
        {"Probe0": {"PreFilter": unschedulable("Unschedulable", "first")},
         "Probe1": {"PreFilter": unschedulable("Unschedulable", "second")}},
        {"preFilter": ["Probe0", "Probe1"]}, "0/2 nodes are available: second."),
    "prefilter-result-absent-nodes": (
        {"Probe0": {"PreFilter": {"result": ["node-0"]}, "Filter": unschedulable("Unschedulable", "full")}},
        {"filter": P0}, "0/2 nodes are available: 1 full, 1 node(s) didn't satisfy plugin(s) [Probe0]."),
    "prefilter-results-disjoint": (
        {"Probe0": {"PreFilter": {"result": ["node-0"]}}, "Probe1": {"PreFilter": {"result": ["node-1"]}}},
        {"preFilter": ["Probe0", "Probe1"]},
        "0/2 nodes are available: node(s) didn't satisfy plugin(s) [Probe0 Probe1] simultaneously."),
    "prefilter-result-empty": (
        {"Probe0": {"PreFilter": {"result": []}}}, {}, "0/2 nodes are available: node(s) didn't satisfy plugin Probe0."),
    "no-reasons": (
        {"Probe0": {"Filter": unschedulable()}}, {"filter": P0}, "0/2 nodes are available:"),
    "postfilter-reasons": (
        {"Probe0": {"Filter": unschedulable("Unschedulable", "full"), "PostFilter": unschedulable("Unschedulable", "a")},
         "Probe1": {"PostFilter": unschedulable("Pending", "b")}},
        {"filter": P0, "postFilter": ["Probe0", "Probe1"]}, "0/2 nodes are available: 2 full. a, b"),
    "postfilter-success-with-reason": (
        {"Probe0": {"Filter": unschedulable("Unschedulable", "full"),
                    "PostFilter": {"reasons": ["tried"], "nominate": "node-1"}}},
        {"filter": P0, "postFilter": P0}, "0/2 nodes are available: 2 full. tried"),
    "reserve-rejection": (
        {"Probe0": {"Reserve": unschedulable("Unschedulable", "taken", "taken")}}, {"reserve": P0},
        "0/1 nodes are available: 2 taken."),
    "permit-rejection-after-wait": (
        {"Probe0": {"Permit": {"code": "Wait", "timeout": "5s"}}, "Probe1": {"Permit": unschedulable("Pending", "no")}},
        {"permit": ["Probe0", "Probe1"]}, "0/1 nodes are available: 1 no."),
}


@pytest.mark.parametrize("case", FIT_CASES, ids=list(FIT_CASES))
def test_fit_error_message(case) -> None:
    script, points, message = FIT_CASES[case]
    run = run_on_reference(scenario([pod(probes=script)], nodes=TWO_NODES, cfg=config({"preFilter": P0, **points})))
    result = run.outcome.pods["default/pod-0"]
    head, tail = expected_fit_error(run, "default/pod-0", 1)
    assert f"{head} {tail}".strip() == message
    assert (result.phase, result.condition["message"]) == ("unschedulable", message)
    MESSAGE.check(run)
    wrong = message.replace("0/2", "0/3").replace("0/1", "0/2")
    violation(MESSAGE, with_pod(run, "default/pod-0", condition=dict(result.condition, message=wrong)))


def test_extender_reasons_join_the_histogram(extender_server) -> None:
    script = {"ext-0": {"filter": {"fail": {"node-0": "ext full", "node-1": "ext full", "node-2": "ext full"},
                                   "unresolvable": {"node-1": "ext never"}}}}
    sc = scenario([pod(extenders=script)], nodes=(*TWO_NODES, node("node-2")),
                  cfg=config({"preFilter": P0, "filter": P0}, extenders=[extender()]))
    run = run_on_reference(sc, server=extender_server)
    assert run.outcome.pods["default/pod-0"].condition["message"] == "0/3 nodes are available: 1 ext never, 2 ext full."
    MESSAGE.check(run)


def test_with_untraced_postfilter_plugins_only_the_head_is_checked() -> None:
    script = {"Probe0": {"Filter": unschedulable("Unschedulable", "full")}}
    cfg = config({"preFilter": P0, "filter": P0, "postFilter": {"enabled": [{"name": "DefaultPreemption"}]}})
    run = run_on_reference(scenario([pod(probes=script)], nodes=TWO_NODES, cfg=cfg))
    message = run.outcome.pods["default/pod-0"].condition["message"]
    assert message.startswith("0/2 nodes are available: 2 full. preemption: ")
    assert expected_fit_error(run, "default/pod-0", 1) == ("0/2 nodes are available: 2 full.", None)
    MESSAGE.check(run)
    violation(MESSAGE, with_pod(run, "default/pod-0", condition={"status": "False", "reason": "Unschedulable",
                                                                 "message": "0/2 nodes are available: 2 full.x"}))


def test_rejections_by_plugins_out_of_sight_are_not_judged() -> None:
    """With in-tree filters, a node without a probe rejection may have been rejected by one of them."""
    script = {"Probe0": {"Filter": {**unschedulable("Unschedulable", "full"), "byNode": {"node-1": {}}}}}
    big = pod(probes=script, cpu="6")
    run = run_on_reference(scenario([big], nodes=(node("node-0"), node("node-1", cpu="4")),
                                    cfg=config({"preFilter": P0, "filter": P0}, defaults=True)))
    assert run.outcome.pods["default/pod-0"].phase == "unschedulable"
    assert expected_fit_error(run, "default/pod-0", 1) is None


def test_no_nodes() -> None:
    run = run_on_reference(scenario([pod()], nodes=(), cfg=config()))
    assert run.outcome.pods["default/pod-0"].condition["message"] == "no nodes available to schedule pods"
    MESSAGE.check(run)
    violation(MESSAGE, with_pod(run, "default/pod-0", condition={"status": "False", "reason": "Unschedulable",
                                                                 "message": "0/0 nodes are available:"}))


@pytest.mark.parametrize("mutant, case", [(_histogram_unsorted, "filter-histogram"),
                                          (_postfilter_message_with_period, "postfilter-reasons"),
                                          (_prefilter_message_as_histogram, "prefilter-uau"),
                                          (_one_node_fit_error_counts_all_nodes, "reserve-rejection")])
def test_broken_messages_are_caught(mutant, case) -> None:
    script, points, message = FIT_CASES[case]
    run = run_on_reference(scenario([pod(probes=script)], nodes=TWO_NODES, cfg=config({"preFilter": P0, **points})),
                           hook=mutant)
    v = violation(MESSAGE, run)
    assert v.expected == message and v.actual != message


def two_attempts():
    """pod-0 is rejected twice with different reasons; pod-1 binding in between makes it retry."""
    script = {"Probe0": {"Filter": [unschedulable("Unschedulable", "a"), unschedulable("Unschedulable", "b")]}}
    run = run_on_reference(scenario([pod("pod-0", priority=1, probes=script), pod("pod-1")],
                                    cfg=config({"preFilter": P0, "filter": P0})))
    assert run.attempts("default/pod-0") == [1, 2]
    return run


def test_a_real_time_backend_may_report_the_attempt_before_the_last() -> None:
    run = two_attempts()
    assert run.outcome.pods["default/pod-0"].condition["message"] == "0/1 nodes are available: 1 b."
    stale = with_pod(run, "default/pod-0", condition={"status": "False", "reason": "Unschedulable",
                                                      "message": "0/1 nodes are available: 1 a."})
    violation(MESSAGE, stale)
    MESSAGE.check(edited(stale, capabilities=run.capabilities - {"virtual-time"}))


# --- condition-classification -------------------------------------------------------------------

CLASS_CASES = {
    "prefilter-error": ({"PreFilter": {"code": "Error"}}, "SchedulerError"),
    "prefilter-pending": ({"PreFilter": {"code": "Pending"}}, "SchedulerError"),
    "prefilter-uau": ({"PreFilter": {"code": "UnschedulableAndUnresolvable"}}, "Unschedulable"),
    "prefilter-unschedulable": ({"PreFilter": {"code": "Unschedulable"}}, "Unschedulable"),
    "filter-error": ({"Filter": {"code": "Error"}}, "SchedulerError"),
    "filter-wait": ({"Filter": {"code": "Wait"}}, "SchedulerError"),
    "filter-rejects-all": ({"Filter": {"code": "Unschedulable"}}, "Unschedulable"),
    "postfilter-error": ({"Filter": {"code": "Unschedulable"}, "PostFilter": {"code": "Error"}}, "Unschedulable"),
    "prescore-unschedulable": ({"PreScore": {"code": "Unschedulable"}}, "SchedulerError"),
    "score-unschedulable": ({"Score": {"code": "Unschedulable"}}, "SchedulerError"),
    "score-out-of-range": ({"Score": {"score": 101}}, "SchedulerError"),
    "reserve-unschedulable": ({"Reserve": {"code": "Unschedulable"}}, "Unschedulable"),
    "reserve-error": ({"Reserve": {"code": "Error"}}, "SchedulerError"),
    "permit-pending": ({"Permit": {"code": "Pending"}}, "Unschedulable"),
    "permit-skip": ({"Permit": {"code": "Skip"}}, "SchedulerError"),
    "permit-wait-rejected": ({"Permit": {"code": "Wait", "timeout": "4s", "then": {"signal": "reject", "after": "1s"}}},
                             "Unschedulable"),
    "prebindpreflight-unschedulable": ({"PreBindPreFlight": {"code": "Unschedulable"}}, "SchedulerError"),
    "prebind-unschedulable": ({"PreBind": {"code": "Unschedulable"}}, "Unschedulable"),
    "prebind-skip": ({"PreBind": {"code": "Skip"}}, "SchedulerError"),
    "bind-uau": ({"Bind": {"code": "UnschedulableAndUnresolvable"}}, "Unschedulable"),
    "bind-error": ({"Bind": {"code": "Error"}}, "SchedulerError"),
}


@pytest.mark.parametrize("case", CLASS_CASES, ids=list(CLASS_CASES))
def test_condition_classification(case) -> None:
    script, reason = CLASS_CASES[case]
    run = run_on_reference(scenario([pod(probes={"Probe0": script})], nodes=TWO_NODES, cfg=config(EVERYWHERE)))
    result = run.outcome.pods["default/pod-0"]
    assert classify(run, "default/pod-0", run.attempts("default/pod-0")[-1])[0] == reason
    assert result.condition["reason"] == reason
    CLASSIFICATION.check(run)
    other = "Unschedulable" if reason == "SchedulerError" else "SchedulerError"
    wrong = with_pod(run, "default/pod-0", condition=dict(result.condition, reason=other))
    assert violation(CLASSIFICATION, wrong).expected == reason


def test_extender_bind_error_is_a_scheduler_error(extender_server) -> None:
    sc = scenario([pod(extenders={"ext-0": {"bind": {"error": "no"}}})],
                  cfg=config(EVERYWHERE, extenders=[extender(verbs=("bind",))]))
    run = run_on_reference(sc, server=extender_server)
    assert run.outcome.pods["default/pod-0"].condition["reason"] == "SchedulerError"
    assert classify(run, "default/pod-0", run.attempts("default/pod-0")[-1])[1]["point"] == "extender.bind"
    CLASSIFICATION.check(run)


@pytest.mark.parametrize("mutant, point, code, reason", [
    (_binding_rejection_is_error, "PreBind", "Unschedulable", "Unschedulable"),
    (_pending_not_a_rejection, "Reserve", "Pending", "Unschedulable"),
    (_each_framework(_rejections_kept_as_rejections), "PreScore", "Pending", "SchedulerError"),
    (_each_framework(_rejections_kept_as_rejections), "PreBindPreFlight", "Unschedulable", "SchedulerError")])
def test_broken_classifications_are_caught(mutant, point, code, reason) -> None:
    sc = scenario([pod(probes={"Probe0": {point: {"code": code}}})], nodes=TWO_NODES, cfg=config(EVERYWHERE))
    CLASSIFICATION.check(run_on_reference(sc))
    v = violation(CLASSIFICATION, run_on_reference(sc, hook=mutant))
    assert (v.expected, v.status) == (reason, code) and v.actual != reason


def test_an_addpod_error_while_filtering_is_a_scheduler_error() -> None:
    """pod-0 is nominated to node-0 after its first attempt; filtering pod-1 adds it there and AddPod fails."""
    first = {"Probe0": {"Filter": [{"code": "Unschedulable"}, {}], "PostFilter": {"nominate": "node-0"}}}
    sc = scenario([pod("pod-0", priority=10, probes=first),
                   pod("pod-1", priority=1, probes={"Probe0": {"AddPod": {"code": "Error"}}})],
                  cfg=config(multi_point=("Probe0",)))
    run = run_on_reference(sc)
    assert run.outcome.pods["default/pod-1"].condition["reason"] == "SchedulerError"
    REGISTRY["condition-classification"].check(run)
    wrong = with_pod(run, "default/pod-1", phase="unschedulable",
                     condition={"status": "False", "reason": "Unschedulable", "message": "x"})
    assert violation(REGISTRY["condition-classification"], wrong).expected == "SchedulerError"


def test_untraced_last_attempts_are_not_judged() -> None:
    """In-tree PreFilter first: without the queue's count, the last traced attempt may not be the last."""
    sc = scenario([pod(probes={"Probe0": {"Reserve": {"code": "Error"}}})],
                  cfg=config({"preFilter": P0, "reserve": P0}, defaults=True))
    run = run_on_reference(sc)
    result = run.outcome.pods["default/pod-0"]
    wrong = with_pod(run, "default/pod-0", condition=dict(result.condition, reason="Unschedulable"))
    violation(CLASSIFICATION, wrong)
    CLASSIFICATION.check(edited(wrong, capabilities=run.capabilities - {"queue-attempts"}))
    CLASSIFICATION.check(with_pod(wrong, "default/pod-0", attempts=result.attempts + 1))
