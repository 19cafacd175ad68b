"""Extender invariants against the reference (with the suite's extender server) and broken variants."""

from __future__ import annotations

import pytest

from conformance.backends.reference import ReferenceBackend
from conformance.invariants import REGISTRY, Run

from ...conformance.mutants import (_extender_filter_ignored, _extender_scores_dropped, _extender_weights_ignored,
                                    _extenders_ignorable, _prioritize_errors_fail)
from ._kit import CAPABILITIES, config, edited, extender, node, pod, run_on_reference, scenario, violation, with_pod

PROBES = {"preFilter": ["Probe0"], "reserve": ["Probe0"]}
TWO_NODES = (node("node-0"), node("node-1"))


def cfg(*extenders, points=PROBES):
    return config(points, extenders=extenders)


# --- extender-filter-respected ------------------------------------------------------------------

FILTER_RESPECTED = REGISTRY["extender-filter-respected"]


def test_failed_node_is_not_chosen(extender_server) -> None:
    sc = scenario([pod(extenders={"ext-0": {"filter": {"fail": {"node-0": "no"}}}})], nodes=TWO_NODES,
                  cfg=cfg(extender()))
    run = run_on_reference(sc, server=extender_server)
    assert run.outcome.pods["default/pod-0"].node == "node-1"
    FILTER_RESPECTED.check(run)


@pytest.mark.parametrize("verdict", ["fail", "unresolvable"])
def test_extender_filter_ignored_is_caught(extender_server, verdict) -> None:
    sc = scenario([pod(extenders={"ext-0": {"filter": {verdict: {"node-0": "no"}}}})], cfg=cfg(extender()))
    assert run_on_reference(sc, server=extender_server).outcome.pods["default/pod-0"].phase == "unschedulable"
    run = run_on_reference(sc, server=extender_server, hook=_extender_filter_ignored)
    v = violation(FILTER_RESPECTED, run)
    assert v.actual == "node-0" and v.plugin == "ext-0"


def test_an_error_answer_fails_no_node(extender_server) -> None:
    run = run_on_reference(scenario([pod()], cfg=cfg(extender())), server=extender_server)
    assert run.outcome.pods["default/pod-0"].node == "node-0"
    answer = {"seq": len(run.outcome.trace), "t": 0.0, "pod": "default/pod-0", "point": "extender.filter",
              "extender": "ext-0", "nodes": ["node-0"], "failed": {"node-0": "no"}}
    FILTER_RESPECTED.check(edited(run, trace=(*run.outcome.trace, dict(answer, code="Error", error="x"))))
    violation(FILTER_RESPECTED, edited(run, trace=(*run.outcome.trace, dict(answer, code="Success"))))


# --- ignorable-extender-errors-tolerated ---------------------------------------------------------

IGNORABLE = REGISTRY["ignorable-extender-errors-tolerated"]


@pytest.mark.parametrize("action", [{"status": 500}, {"error": "extender says no"}], ids=["http-500", "error-field"])
def test_ignorable_filter_error_is_skipped(extender_server, action) -> None:
    sc = scenario([pod(extenders={"ext-0": {"filter": action}})], nodes=TWO_NODES,
                  cfg=cfg(extender(ignorable=True)))
    run = run_on_reference(sc, server=extender_server)
    assert run.outcome.pods["default/pod-0"].phase == "bound"
    IGNORABLE.check(run)
    broken = run_on_reference(sc, server=extender_server, hook=_extenders_ignorable(False))
    assert broken.outcome.pods["default/pod-0"].phase == "error"
    assert "an ignorable extender's error failed the pod" in str(violation(IGNORABLE, broken))
    # Without any message naming the error, the attempt that stopped after it still gives it away.
    silent = with_pod(edited(broken, events=()), "default/pod-0", condition=None)
    assert "stopped after ignorable extender ext-0" in str(violation(IGNORABLE, silent))


def test_the_same_text_from_a_non_ignorable_extender_is_not_blamed_on_the_ignorable_one(extender_server) -> None:
    script = {"ext-0": {"filter": {"error": "boom"}}, "ext-1": {"filter": {"error": "boom"}}}
    sc = scenario([pod(extenders=script)], cfg=cfg(extender("ext-0", ignorable=True), extender("ext-1")))
    run = run_on_reference(sc, server=extender_server)
    assert run.outcome.pods["default/pod-0"].condition["message"] == "boom"
    IGNORABLE.check(run)


def test_an_ignorable_error_on_no_node_or_before_a_rejecting_extender_may_end_unschedulable(extender_server) -> None:
    script = {"ext-0": {"filter": {"status": 500}}, "ext-1": {"filter": {"fail": {"node-0": "no"}}}}
    sc = scenario([pod(extenders=script)], cfg=cfg(extender("ext-0", ignorable=True), extender("ext-1")))
    run = run_on_reference(sc, server=extender_server)
    assert run.outcome.pods["default/pod-0"].phase == "unschedulable"
    IGNORABLE.check(run)


# --- extender-prioritize-errors-tolerated --------------------------------------------------------

PRIORITIZE = REGISTRY["extender-prioritize-errors-tolerated"]


def test_prioritize_errors_are_ignored(extender_server) -> None:
    sc = scenario([pod(extenders={"ext-0": {"prioritize": {"status": 500}}})], nodes=TWO_NODES,
                  cfg=cfg(extender(verbs=("prioritize",))))
    run = run_on_reference(sc, server=extender_server)
    assert run.outcome.pods["default/pod-0"].phase == "bound"
    assert [r["code"] for r in run.extender_records("default/pod-0", "prioritize")] == ["Error"]
    PRIORITIZE.check(run)
    broken = run_on_reference(sc, server=extender_server, hook=_prioritize_errors_fail)
    v = violation(PRIORITIZE, broken)
    assert "/ext-0/prioritize" in str(v.actual)
    silent = with_pod(edited(broken, events=()), "default/pod-0", condition=None)
    assert "stopped after extenders prioritized" in str(violation(PRIORITIZE, silent))


# --- extender-scores-scaled ---------------------------------------------------------------------

SCALED = REGISTRY["extender-scores-scaled"]
WEIGHTED = (extender("ext-0", verbs=("prioritize",), weight=5), extender("ext-1", verbs=("prioritize",), weight=1))
SCORES = {"ext-0": {"prioritize": {"scores": {"node-0": 1}}}, "ext-1": {"prioritize": {"scores": {"node-1": 2}}}}


def test_extender_scores_are_weighted(extender_server) -> None:
    sc = scenario([pod(extenders=SCORES)], nodes=TWO_NODES, cfg=cfg(*WEIGHTED))
    run = run_on_reference(sc, server=extender_server)
    assert run.outcome.pods["default/pod-0"].node == "node-0"  # 5 x 10 x 1 = 50 beats 1 x 10 x 2 = 20
    SCALED.check(run)
    v = violation(SCALED, run_on_reference(sc, server=extender_server, hook=_extender_weights_ignored))
    assert v.actual == "node-1" and v.expected == ["node-0"]


def test_extender_scores_left_out_of_the_total_are_caught(extender_server) -> None:
    """Without the extenders' scores every node totals 0 and the seed picks; some seed picks node-1."""
    sc = scenario([pod(extenders=SCORES)], nodes=TWO_NODES, cfg=cfg(*WEIGHTED))
    picks = {}
    for seed in range(6):
        outcome = ReferenceBackend(extender_server=extender_server, seed=seed, hook=_extender_scores_dropped).run(sc)
        picks[outcome.pods["default/pod-0"].node] = Run(sc, outcome, frozenset(CAPABILITIES))
    assert set(picks) == {"node-0", "node-1"}
    SCALED.check(picks["node-0"])
    assert violation(SCALED, picks["node-1"]).actual == "node-1"


def test_profiles_with_score_plugins_are_left_to_chosen_node_has_max_score(extender_server) -> None:
    points = {**PROBES, "score": ["Probe0"]}
    sc = scenario([pod(extenders=SCORES)], nodes=TWO_NODES, cfg=cfg(*WEIGHTED, points=points))
    SCALED.check(run_on_reference(sc, server=extender_server, hook=_extender_weights_ignored))
    violation(REGISTRY["chosen-node-has-max-score"],
              run_on_reference(sc, server=extender_server, hook=_extender_weights_ignored))


# --- extender-filter-error-fails ----------------------------------------------------------------

FILTER_ERROR = REGISTRY["extender-filter-error-fails"]


def test_non_ignorable_filter_error_fails_with_scheduler_error(extender_server) -> None:
    sc = scenario([pod(extenders={"ext-0": {"filter": {"error": "boom"}}})], nodes=TWO_NODES, cfg=cfg(extender()))
    run = run_on_reference(sc, server=extender_server)
    result = run.outcome.pods["default/pod-0"]
    assert (result.phase, result.condition["reason"], result.condition["message"]) == ("error", "SchedulerError",
                                                                                          "boom")
    FILTER_ERROR.check(run)
    v = violation(FILTER_ERROR, run_on_reference(sc, server=extender_server, hook=_extenders_ignorable(True)))
    assert v.plugin == "ext-0"
    wrong = with_pod(run, "default/pod-0", phase="unschedulable",
                     condition={"status": "False", "reason": "Unschedulable", "message": "boom"})
    assert violation(FILTER_ERROR, wrong).expected == "SchedulerError"


def test_an_error_on_the_nominated_node_alone_may_be_followed_by_a_fit_error(extender_server) -> None:
    """Upstream only logs errors of the nominated-node pass, then filters every node."""
    sc = scenario([pod(extenders={"ext-0": {"filter": {"error": "boom"}}})], nodes=TWO_NODES, cfg=cfg(extender()))
    run = run_on_reference(sc, server=extender_server)
    last = max(r["seq"] for r in run.extender_records("default/pod-0", "filter"))
    trace = tuple(dict(r, nodes=["node-1"]) if r["seq"] == last else r for r in run.outcome.trace)
    unschedulable = {"status": "False", "reason": "Unschedulable", "message": "0/2 nodes are available: 2 x."}
    nominated = with_pod(edited(run, trace=trace), "default/pod-0", phase="unschedulable", condition=unschedulable,
                         nominated_node_name="node-1")
    FILTER_ERROR.check(nominated)
    violation(FILTER_ERROR, with_pod(nominated, "default/pod-0", nominated_node_name=""))
