"""differential.compare: the reference against itself, against a broken reference, and the limits
where upstream's randomness makes two correct runs differ."""

from __future__ import annotations

import pytest

from conformance.backends.reference import ReferenceBackend
from conformance.differential import choice_is_open, compare, first_open_choice
from conformance.invariants import Run, Violation

from ...conformance.mutants import _each_framework, _filter_not_short_circuited, _reserve_not_short_circuited
from ._kit import CAPABILITIES, config, edited, node, pod, run_on_reference, scenario, with_pod

TWO_NODES = (node("node-0"), node("node-1"))
SCORED = config({"preFilter": ["Probe0"], "filter": ["Probe0", "Probe1"], "score": ["Probe0"],
                 "reserve": ["Probe0", "Probe1"]})
SCENARIOS = {
    "rejected-everywhere": scenario([pod(probes={"Probe0": {"Filter": {"code": "Unschedulable", "reasons": ["x"]}}})],
                                    nodes=TWO_NODES, cfg=SCORED),
    "best-score": scenario([pod(probes={"Probe0": {"Score": {"score": 10, "byNode": {"node-1": {"score": 90}}}}}),
                            pod("pod-1", probes={"Probe0": {"Reserve": {"code": "Error"},
                                                            "Score": {"byNode": {"node-0": {"score": 5}}}}})],
                           nodes=TWO_NODES,
                           cfg=SCORED),
    "one-feasible": scenario([pod(probes={"Probe1": {"Filter": {"byNode": {"node-0": {"code": "Unschedulable"}}}}})],
                             nodes=TWO_NODES, cfg=SCORED),
}


def seeded(sc, seed: int, hook=None) -> Run:
    return Run(sc, ReferenceBackend(seed=seed, hook=hook).run(sc), frozenset(CAPABILITIES))


@pytest.mark.parametrize("name", SCENARIOS)
def test_the_reference_agrees_with_itself(name) -> None:
    sc = SCENARIOS[name]
    a, b = seeded(sc, 0), seeded(sc, 1)
    assert first_open_choice(a) == first_open_choice(b) == float("inf")
    compare(a, b)


@pytest.mark.parametrize("mutant, name", [(_filter_not_short_circuited, "rejected-everywhere"),
                                          (_reserve_not_short_circuited, "best-score")])
def test_a_broken_reference_disagrees(mutant, name) -> None:
    sc = SCENARIOS[name]
    with pytest.raises(Violation) as info:
        compare(run_on_reference(sc), run_on_reference(sc, hook=_each_framework(mutant)))
    assert info.value.invariant == "differential" and "plugin calls of attempt 1" in str(info.value)


def test_a_forced_choice_must_match() -> None:
    a = run_on_reference(SCENARIOS["best-score"])
    assert a.outcome.pods["default/pod-0"].node == "node-1"
    swap = {"node-0": "node-1", "node-1": "node-0"}
    trace = tuple(dict(r, node=swap[r["node"]]) if r["pod"] == "default/pod-0" and r["point"] in (
        "Reserve", "Permit", "PreBindPreFlight", "PreBind", "PostBind") else r for r in a.outcome.trace)
    b = with_pod(edited(a, trace=trace), "default/pod-0", node="node-0")
    with pytest.raises(Violation, match="the node chosen in attempt 1"):
        compare(a, b)


def test_ties_open_the_choice_and_stop_the_comparison_of_what_follows() -> None:
    """Two nodes tie for pod-0 and the seed decides; pod-1 (3 CPU) then fits only if pod-0 (2 CPU)
    went to the small node."""
    fit = config({"preFilter": ["Probe0", "NodeResourcesFit"], "filter": ["NodeResourcesFit", "Probe0"],
                  "score": ["Probe0"], "reserve": ["Probe0"]})
    sc = scenario([pod("pod-0", priority=1, cpu="2"), pod("pod-1", cpu="3")],
                  nodes=(node("node-0", cpu="2"), node("node-1", cpu="4")), cfg=fit)
    runs = {r.outcome.pods["default/pod-0"].node: r for r in (seeded(sc, s) for s in range(8))}
    a, b = runs["node-0"], runs["node-1"]
    assert (a.outcome.pods["default/pod-1"].phase, b.outcome.pods["default/pod-1"].phase) == ("bound",
                                                                                              "unschedulable")
    assert choice_is_open(a, "default/pod-0", 1) and first_open_choice(a) == 0
    compare(a, b)
    # The open attempt itself is still compared, without the chosen node.
    extra = {"seq": 0, "t": 0.0, "attempt": 1, "pod": "default/pod-0", "plugin": "Probe0", "point": "Filter",
             "node": "node-1", "code": "Success"}
    with pytest.raises(Violation, match="plugin calls of attempt 1"):
        compare(a, edited(b, trace=(extra, *b.outcome.trace)))


def test_results_are_compared_only_over_the_same_attempts() -> None:
    a = run_on_reference(SCENARIOS["rejected-everywhere"])
    changed = {"status": "False", "reason": "Unschedulable", "message": "0/2 nodes are available: 2 y."}
    with pytest.raises(Violation, match="FitError message"):
        compare(a, with_pod(a, "default/pod-0", condition=changed))
    extra = {"seq": 999, "t": 5.0, "attempt": 2, "pod": "default/pod-0", "plugin": "Probe0", "point": "PreFilter",
             "code": "Success"}
    compare(a, with_pod(edited(a, trace=(*a.outcome.trace, extra)), "default/pod-0", condition=changed))


def test_the_order_of_preemption_errors_is_a_race_but_not_their_text() -> None:
    """DefaultPreemption's dry run appends each node's error as its parallel worker finishes."""
    a = run_on_reference(SCENARIOS["rejected-everywhere"])

    def failed(errors: str) -> Run:
        message = f"0/2 nodes are available: 2 x. preemption: [{errors}]"
        return with_pod(a, "default/pod-0", condition={"status": "False", "reason": "Unschedulable",
                                                       "message": message})
    first = 'running RemovePod on PreFilter plugin "Probe0": %!w(<nil>)'
    second = 'running RemovePod on PreFilter plugin "Probe0": '
    compare(failed(f"{first}, {second}"), failed(f"{second}, {first}"))
    with pytest.raises(Violation, match="FitError message"):
        compare(failed(f"{first}, {second}"), failed(f"{first}, {first}x"))


def test_calls_cancelled_after_a_parallel_failure_do_not_count() -> None:
    """Upstream scores nodes in parallel and cancels the rest after a failure: one run may have scored
    one more node than the other. Which plugin failed with which code must still agree."""
    sc = scenario([pod(probes={"Probe0": {"Score": {"code": "Unschedulable"}}})], nodes=TWO_NODES, cfg=SCORED)
    a = run_on_reference(sc)
    scores = [r for r in a.records("default/pod-0", 1, "Score")]
    assert [r["node"] for r in scores] == ["node-0"]
    more = tuple(a.outcome.trace) + (dict(scores[0], seq=10_000, node="node-1"),)
    compare(a, edited(a, trace=more))
    other = tuple(dict(r, code="Error") if r is scores[0] else r for r in a.outcome.trace)
    with pytest.raises(Violation, match="plugin calls of attempt 1"):
        compare(a, edited(a, trace=other))


def test_normalize_calls_cancelled_after_another_plugins_failure_do_not_count() -> None:
    """Upstream normalizes the Score plugins in parallel and cancels the rest when one fails (framework.go
    normalizeScores): one run may have normalized a plugin the other never reached."""
    two = config({"filter": ["Probe0"], "score": ["Probe0", "Probe1"]})
    two["profiles"][0]["pluginConfig"] = [{"name": p, "args": {"scoreExtensions": True}} for p in ("Probe0", "Probe1")]
    sc = scenario([pod(probes={"Probe0": {"NormalizeScore": {"code": "Error"}}})], nodes=TWO_NODES, cfg=two)
    a = run_on_reference(sc)
    normalized = a.records("default/pod-0", 1, "NormalizeScore")
    assert [(r["plugin"], r["code"]) for r in normalized] == [("Probe0", "Error")]
    reached = tuple(a.outcome.trace) + (dict(normalized[0], seq=10_000, plugin="Probe1", code="Success"),)
    compare(a, edited(a, trace=reached))
    other = tuple(dict(r, code="Wait") if r is normalized[0] else r for r in a.outcome.trace)
    with pytest.raises(Violation, match="plugin calls of attempt 1"):
        compare(a, edited(a, trace=other))


def test_without_scoring_which_nodes_get_filtered_is_open() -> None:
    """Upstream then stops at the first feasible node its parallel workers report; the reference at
    the first in order. Other runs may filter more nodes and choose another one."""
    sc = scenario([pod(probes={"Probe0": {"Reserve": {"byNode": {"node-1": {"code": "Error"}}}}})],
                  nodes=(*TWO_NODES, node("node-2")),
                  cfg=config({"preFilter": ["Probe0"], "filter": ["Probe0"], "reserve": ["Probe0"]}))
    a = run_on_reference(sc)
    assert [r["node"] for r in a.records("default/pod-0", 1, "Filter")] == ["node-0"]
    b_trace = []
    for r in a.outcome.trace:
        if r["point"] == "Filter":
            b_trace += [dict(r, node=n) for n in ("node-0", "node-1")]
        else:
            b_trace.append(dict(r, node="node-1", code="Error") if r["point"] == "Reserve" else r)
    b = edited(a, trace=tuple(dict(r, seq=i) for i, r in enumerate(b_trace)))
    compare(a, b)


def test_calls_after_an_open_choice_depend_on_the_node() -> None:
    script = {"Probe0": {"Reserve": {"byNode": {"node-1": {"code": "Unschedulable"}}}}}
    sc = scenario([pod(probes=script)], nodes=TWO_NODES,
                  cfg=config({"preFilter": ["Probe0"], "score": ["Probe0"], "reserve": ["Probe0"]}))
    runs = {r.outcome.pods["default/pod-0"].phase: r for r in (seeded(sc, s) for s in range(8))}
    assert set(runs) == {"bound", "unschedulable"}
    compare(runs["bound"], runs["unschedulable"])
