"""Spec §2.3-§2.10 (PreFilter, Filter with nominated pods, Score, host selection, node sampling),
against framework.go and schedule_one.go (v1.37.2)."""

from __future__ import annotations

import pytest

from reference.cycle_state import CycleState
from reference.scheduler.schedule_one import num_feasible_nodes_to_find
from reference.status import SUCCESS
from tests.builders import node, pod
from tests.reference.framework._scripted import Scripted, build, calls, result, st

N = {"cpu": 1000, "pods": 10}
FW = "default-scheduler"


def nodes(k: int):
    return [node(f"n{i}", allocatable=N) for i in range(1, k + 1)]


def base(log, **points):
    probe = Scripted("P", log, post_filter=st("Unschedulable"))
    out = {p: [probe] for p in ("preFilter", "filter", "postFilter", "reserve", "bind")}
    out.update(points)
    return out


def holds(name):
    return lambda ni: any(pi.pod.name == name for pi in ni.pods)


# --- PreFilter Skip pairing ---------------------------------------------------------------------

def test_prefilter_skip_skips_filter_and_add_pod_of_that_plugin_only() -> None:
    log: list = []
    x = Scripted("X", log, pre_filter=st("Skip"), pre_filter_result={"n9"})  # result ignored with Skip
    y = Scripted("Y", log)
    reject_nom = Scripted("R", log, filter=lambda p, ni: st("Unschedulable", "no") if p.name == "nom" else SUCCESS)
    sched = build(base(log, preFilter=[x, y], filter=[x, y, reject_nom]), nodes=nodes(1))
    sched.add_pod(pod("nom", priority=10, nominated_node_name="n1"))
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    assert result(sched).phase == "bound"
    p_calls = [c for c in log if c.pod == "p"]
    assert [c.plugin for c in p_calls if c.point == "AddPod"] == ["Y"]
    assert [c.plugin for c in p_calls if c.point == "Filter"] == ["Y", "R", "Y", "R"]  # two passes, no X


def test_prefilter_skip_is_per_cycle() -> None:
    log: list = []
    x = Scripted("X", log, pre_filter=lambda p: st("Skip") if p.name == "a" else SUCCESS)
    sched = build(base(log, preFilter=[x], filter=[x]), nodes=nodes(1))
    sched.add_pod(pod("a", priority=1))
    sched.add_pod(pod("b"))
    sched.run_until_idle(deadline=0.5)
    assert [c.pod for c in calls(log, "Filter", "X")] == ["b"]


# --- PreFilterResult ----------------------------------------------------------------------------

def test_prefilter_result_intersection_restricts_filtered_nodes() -> None:
    log: list = []
    a = Scripted("A", log, pre_filter_result={"n1", "n2", "ghost"})  # unknown names are dropped
    b = Scripted("B", log, pre_filter_result={"n2", "n3"})
    c = Scripted("C", log)  # all nodes
    sched = build(base(log, preFilter=[a, b, c], filter=[c]), nodes=nodes(4))
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    assert [x.node for x in calls(log, "Filter")] == ["n2"]
    assert result(sched).node == "n2"


def test_nodes_outside_prefilter_result_are_uau_in_fit_error() -> None:
    log: list = []
    a = Scripted("A", log, pre_filter_result={"n1", "n2"})
    b = Scripted("B", log, pre_filter_result={"n2", "n3"})
    f = Scripted("F", log, filter=st("Unschedulable", "no"))
    sched = build(base(log, preFilter=[a, b], filter=[f]), nodes=nodes(4))
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    assert result(sched).condition_message == (
        "0/4 nodes are available: 1 no, 3 node(s) didn't satisfy plugin(s) [A B].")
    assert sched.queue.unschedulable["p"].unschedulable_plugins == {"A", "B", "F"}


def test_single_plugin_prefilter_result_absent_message() -> None:
    log: list = []
    a = Scripted("A", log, pre_filter_result={"n1"})
    f = Scripted("F", log, filter=st("Unschedulable", "no"))
    sched = build(base(log, preFilter=[a], filter=[f]), nodes=nodes(3))
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    assert result(sched).condition_message == (
        "0/3 nodes are available: 1 no, 2 node(s) didn't satisfy plugin(s) [A].")


@pytest.mark.parametrize("results,message", [
    ([{"n1"}, set()], "node(s) didn't satisfy plugin(s) [A B] simultaneously"),
    ([set()], "node(s) didn't satisfy plugin A"),
    ([set(), None], "node(s) didn't satisfy plugin A"),
    ([{"n1"}, {"n2"}, {"n1"}], "node(s) didn't satisfy plugin(s) [A B] simultaneously"),
], ids=["two", "one", "one-then-all", "stops-at-first-empty"])
def test_empty_prefilter_result_messages_and_stop(results, message) -> None:
    log: list = []
    pls = [Scripted(name, log, pre_filter_result=r) for name, r in zip("ABC", results)]
    sched = build(base(log, preFilter=pls, filter=[]), nodes=nodes(2))
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    assert result(sched).condition_message == f"0/2 nodes are available: {message}."
    ran = [c.plugin for c in calls(log, "PreFilter")]
    stop = next(i for i in range(len(results)) if i >= 1 or results[0] == set())
    if results == [set(), None]:
        stop = 0
    assert ran == [pl.name for pl in pls][:stop + 1]
    assert calls(log, "PostFilter")  # a FitError: PostFilter runs


def test_prefilter_unschedulable_then_result_plugins_keep_running() -> None:
    log: list = []
    a = Scripted("A", log, pre_filter=st("Unschedulable", "a no"))
    b = Scripted("B", log, pre_filter_result={"n1"})
    sched = build(base(log, preFilter=[a, b]), nodes=nodes(2))
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    assert [c.plugin for c in calls(log, "PreFilter")] == ["A", "B"]
    assert result(sched).condition_message == "0/2 nodes are available: a no."


# --- how many nodes are evaluated --------------------------------------------------------------

@pytest.mark.parametrize("percentage,num_nodes,want", [
    (0, 1, 1), (0, 50, 50), (0, 99, 99), (0, 100, 100), (0, 1000, 420), (0, 5000, 500), (0, 6000, 300),
    (0, 10000, 500), (10, 1000, 100), (50, 1000, 500), (5, 100, 100), (100, 150, 150), (1, 5000, 100),
    (30, 99, 99),
])
def test_num_feasible_nodes_to_find(percentage: int, num_nodes: int, want: int) -> None:
    assert num_feasible_nodes_to_find(percentage, num_nodes) == want


def test_filtering_stops_at_num_nodes_to_find_and_round_robins() -> None:
    log: list = []
    x = Scripted("X", log)
    sched = build(base(log, filter=[x], score=[x]), nodes=nodes(200))  # pct 50-200/125=49 -> 98 -> 100
    sched.add_pod(pod("a", priority=1))
    sched.add_pod(pod("b"))
    sched.run_until_idle(deadline=0.5)
    a_nodes = [c.node for c in calls(log, "Filter", "X", "a")]
    b_nodes = [c.node for c in calls(log, "Filter", "X", "b")]
    assert a_nodes == [f"n{i}" for i in range(1, 101)]
    assert b_nodes == [f"n{i}" for i in range(101, 201)]  # starts where a stopped
    assert len(calls(log, "Score", "X", "a")) == 100


def test_profile_percentage_of_nodes_to_score() -> None:
    log: list = []
    x = Scripted("X", log)
    sched = build(base(log, filter=[x], score=[x]), nodes=nodes(300), percentage_of_nodes_to_score=50)
    sched.add_pod(pod("a"))
    sched.run_until_idle(deadline=0.5)
    assert len(calls(log, "Filter", "X")) == 150


def test_without_scoring_or_extenders_first_feasible_node_wins() -> None:
    log: list = []
    x = Scripted("X", log, filter={"n1": st("Unschedulable", "no")})
    sched = build(base(log, filter=[x]), nodes=nodes(5))
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    assert [c.node for c in calls(log, "Filter", "X")] == ["n1", "n2"]
    assert result(sched).node == "n2"


def test_rejected_nodes_count_in_round_robin_index() -> None:
    log: list = []
    x = Scripted("X", log, filter={"n1": st("Unschedulable", "no")})
    sched = build(base(log, filter=[x]), nodes=nodes(5))
    for name in ("a", "b"):
        sched.add_pod(pod(name, priority=2 if name == "a" else 1))
    sched.run_until_idle(deadline=0.5)
    assert [c.node for c in calls(log, "Filter", "X", "b")] == ["n3"]  # a processed n1 (rejected) and n2


# --- scoring --------------------------------------------------------------------------------

def test_single_feasible_node_skips_prescore_and_score() -> None:
    log: list = []
    x = Scripted("X", log, filter={"n2": st("Unschedulable", "no")})
    sched = build(base(log, filter=[x], preScore=[x], score=[x]), nodes=nodes(2))
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    assert result(sched).node == "n1"
    assert calls(log, "PreScore") == [] and calls(log, "Score") == []


def test_no_score_plugins_and_no_extenders_total_score_one() -> None:
    log: list = []
    x = Scripted("X", log)
    sched = build(base(log, preScore=[x]), nodes=nodes(3))
    fw = sched.frameworks[FW]
    fw.set_snapshot(sched._snapshot())
    scores = sched.algorithm.prioritize_nodes(fw, CycleState(), pod("p"), fw.snapshot().node_info_list)
    assert [(s.name, s.total, s.scores) for s in scores] == [("n1", 1, []), ("n2", 1, []), ("n3", 1, [])]
    assert calls(log, "PreScore") == []  # not even PreScore runs


@pytest.mark.parametrize("score", [101, -1])
def test_score_out_of_range_without_normalize(score: int) -> None:
    log: list = []
    x = Scripted("X", log, score={"n2": score})
    sched = build(base(log, score=[x]), nodes=nodes(2))
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    r = result(sched)
    assert (r.condition_reason, r.condition_message) == (
        "SchedulerError", 'applying score defaultWeights on Score plugins: plugin "X" returns an invalid score '
        f"{score}, it should in the range of [0, 100] after normalizing")


def _scale_to(value):
    def normalize(scores):
        for s in scores:
            s.score = value(s.score)
        return SUCCESS
    return normalize


def test_range_check_applies_after_normalize() -> None:
    log: list = []
    x = Scripted("X", log, score={"n1": 500, "n2": 1000}, normalize=_scale_to(lambda s: s // 10))
    sched = build(base(log, score=[x]), nodes=nodes(2))
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    assert result(sched).phase == "bound" and result(sched).node == "n2"
    log2: list = []
    y = Scripted("Y", log2, score=50, normalize=_scale_to(lambda s: s * 3))
    sched2 = build(base(log2, score=[y]), nodes=nodes(2))
    sched2.add_pod(pod("p"))
    sched2.run_until_idle(deadline=0.5)
    assert result(sched2).condition_message.endswith(
        'plugin "Y" returns an invalid score 150, it should in the range of [0, 100] after normalizing')


@pytest.mark.parametrize("wx,wy,want", [(3, 1, "n1"), (1, 3, "n2"), (2, 1, "n1"), (1, 1, "n2")])
def test_weights_applied(wx: int, wy: int, want: str) -> None:
    log: list = []
    x = Scripted("X", log, score={"n1": 10, "n2": 0})
    y = Scripted("Y", log, score={"n1": 0, "n2": 15})
    sched = build(base(log, score=[x, y]), nodes=nodes(2), weights={"X": wx, "Y": wy})
    fw = sched.frameworks[FW]
    fw.set_snapshot(sched._snapshot())
    scores, status = fw.run_score_plugins(CycleState(), pod("p"), fw.snapshot().node_info_list)
    assert status.is_success()
    assert [(s.name, s.scores, s.total) for s in scores] == [
        ("n1", [("X", 10 * wx), ("Y", 0)], 10 * wx), ("n2", [("X", 0), ("Y", 15 * wy)], 15 * wy)]
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    assert result(sched).node == want


def test_score_skipped_plugin_contributes_nothing() -> None:
    log: list = []
    x = Scripted("X", log, pre_score=st("Skip"), score=100)
    y = Scripted("Y", log, score={"n2": 1})
    sched = build(base(log, preScore=[x, y], score=[x, y]), nodes=nodes(2))
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    assert result(sched).node == "n2" and calls(log, "Score", "X") == []


@pytest.mark.parametrize("seed", range(12))
def test_host_chosen_among_max_totals(seed: int) -> None:
    log: list = []
    x = Scripted("X", log, score={"n1": 50, "n2": 90, "n3": 90, "n4": 10})
    sched = build(base(log, score=[x]), nodes=nodes(4), seed=seed)
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    assert result(sched).node in {"n2", "n3"}


def test_ties_broken_randomly_and_reproducibly_by_seed() -> None:
    def chosen(seed):
        log: list = []
        x = Scripted("X", log, score=7)
        sched = build(base(log, score=[x]), nodes=nodes(3), seed=seed)
        sched.add_pod(pod("p"))
        sched.run_until_idle(deadline=0.5)
        return result(sched).node
    picks = [chosen(s) for s in range(30)]
    assert picks == [chosen(s) for s in range(30)]
    assert set(picks) == {"n1", "n2", "n3"}


# --- nominated pods -----------------------------------------------------------------------------

def nominated_setup(log, filter_fn, nodes_=1):
    reject_nom = Scripted("R", log, filter=lambda p, ni: st("Unschedulable", "nom never fits")
                          if p.name == "nom" else filter_fn(p, ni))
    sched = build(base(log, filter=[reject_nom]), nodes=nodes(nodes_))
    sched.add_pod(pod("nom", priority=10, nominated_node_name="n1"))
    sched.run_until_idle(deadline=0.5)
    assert sched.queue.nominated_node(sched.store.pods["nom"]) == "n1"
    return sched


@pytest.mark.parametrize("priority,phase", [(0, "unschedulable"), (10, "unschedulable"), (11, "bound")])
def test_higher_or_equal_priority_nominated_pod_blocks_lower_pod(priority: int, phase: str) -> None:
    log: list = []
    taken = lambda p, ni: st("Unschedulable", "taken") if holds("nom")(ni) else SUCCESS  # noqa: E731
    sched = nominated_setup(log, taken)
    sched.add_pod(pod("p", priority=priority))
    sched.run_until_idle(deadline=0.5)
    r = result(sched)
    assert r.phase == phase
    if phase == "unschedulable":
        assert r.condition_message == "0/1 nodes are available: 1 taken."
        assert [c.plugin for c in calls(log, "AddPod", pod="p")] == ["P"]
    else:
        assert calls(log, "AddPod", pod="p") == []
        assert len(calls(log, "Filter", "R", "p")) == 1  # nothing added: a single pass


def test_lower_pod_lands_elsewhere_when_nominated_pod_takes_the_node() -> None:
    log: list = []
    taken = lambda p, ni: st("Unschedulable", "taken") if holds("nom")(ni) else SUCCESS  # noqa: E731
    sched = nominated_setup(log, taken, nodes_=2)
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    assert result(sched).node == "n2"


def test_second_pass_without_nominated_pods_must_also_pass() -> None:
    log: list = []
    needs = lambda p, ni: SUCCESS if holds("nom")(ni) else st("Unschedulable", "needs nom")  # noqa: E731
    sched = nominated_setup(log, needs)
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    r = result(sched)
    assert r.condition_message == "0/1 nodes are available: 1 needs nom."
    assert len(calls(log, "Filter", "R", "p")) == 2  # pass 1 (with nom) succeeded, pass 2 failed


def test_first_pass_failure_skips_second_pass() -> None:
    log: list = []
    taken = lambda p, ni: st("Unschedulable", "taken") if holds("nom")(ni) else SUCCESS  # noqa: E731
    sched = nominated_setup(log, taken)
    sched.add_pod(pod("p"))
    sched.run_until_idle(deadline=0.5)
    assert len(calls(log, "Filter", "R", "p")) == 1


def test_nominated_pod_is_not_counted_against_itself() -> None:
    log: list = []
    sched = nominated_setup(log, lambda p, ni: SUCCESS)
    nominated = sched.queue.nominated_pods_for_node("n1")
    assert [pi.pod.name for pi in nominated] == ["nom"]
    # nom's own retry (same UID) must not add itself
    sched.frameworks[FW].set_snapshot(sched._snapshot())
    info = sched.frameworks[FW].snapshot().node_info_list[0]
    before = len(calls(log, "AddPod"))
    sched.frameworks[FW].run_filter_plugins_with_nominated_pods(CycleState(), sched.store.pods["nom"], info)
    assert len(calls(log, "AddPod")) == before


def test_nominated_node_fast_path_evaluates_only_that_node() -> None:
    log: list = []
    x = Scripted("X", log)
    sched = build(base(log, filter=[x], score=[x]), nodes=nodes(3))
    sched.add_pod(pod("p", nominated_node_name="n2"))
    sched.run_until_idle(deadline=0.5)
    assert [c.node for c in calls(log, "Filter", "X")] == ["n2"]
    assert result(sched).node == "n2" and calls(log, "Score") == []


def test_infeasible_nominated_node_falls_back_to_all_nodes() -> None:
    log: list = []
    x = Scripted("X", log, filter={"n2": st("Unschedulable", "no")})
    sched = build(base(log, filter=[x], score=[x]), nodes=nodes(3))
    sched.add_pod(pod("p", nominated_node_name="n2"))
    sched.run_until_idle(deadline=0.5)
    assert [c.node for c in calls(log, "Filter", "X")] == ["n2", "n1", "n2", "n3"]
    assert result(sched).node in {"n1", "n3"}


def test_unknown_nominated_node_falls_back_to_all_nodes() -> None:
    log: list = []
    x = Scripted("X", log)
    sched = build(base(log, filter=[x], score=[x]), nodes=nodes(2))
    sched.add_pod(pod("p", nominated_node_name="gone"))
    sched.run_until_idle(deadline=0.5)
    assert [c.node for c in calls(log, "Filter", "X")] == ["n1", "n2"]
    assert result(sched).phase == "bound"
