"""nominated-pods-added and feasible-nodes-scored (issue 32): the reference passes and is judged, what upstream
may legitimately show passes, and a trace missing the calls the rule owes is caught."""

from __future__ import annotations

from conformance.invariants import REGISTRY

from ._kit import config, edited, node, pod, run_on_reference, scenario, violation

ADDED = REGISTRY["nominated-pods-added"]
SCORED = REGISTRY["feasible-nodes-scored"]
TWO_NODES = (node("node-0"), node("node-1"))


def _nominated(second_priority: int = 1):
    """pod-0 (priority 10) is filtered out once and nominated to node-0 by Probe0's PostFilter; pod-1 is
    filtered next."""
    first = {"Probe0": {"Filter": [{"code": "Unschedulable"}, {}], "PostFilter": {"nominate": "node-0"}}}
    return scenario([pod("pod-0", priority=10, probes=first), pod("pod-1", priority=second_priority)],
                    cfg=config(multi_point=("Probe0",)))


def _without(run, point: str, pod_key: str, node_name: str | None = None):
    return edited(run, trace=tuple(r for r in run.outcome.trace if not (
        r.get("point") == point and r.get("pod") == pod_key and node_name in (None, r.get("node")))))


def test_the_nominated_pod_is_added_while_the_next_pod_is_filtered() -> None:
    run = run_on_reference(_nominated())
    ADDED.check(run)
    assert run.exercised
    v = violation(ADDED, _without(run, "AddPod", "default/pod-1"))
    assert v.pod == "default/pod-1" and v.plugin == "Probe0"


def test_a_nominated_pod_of_equal_priority_is_added_too() -> None:
    run = run_on_reference(_nominated(second_priority=10))
    ADDED.check(run)
    assert run.exercised
    violation(ADDED, _without(run, "AddPod", "default/pod-1"))


def test_a_nomination_made_under_defaultpreemption_is_not_judged() -> None:
    """DefaultPreemption clears lower-priority pods' nominations where it preempts: not judged there."""
    sc = _nominated()
    cfg = config(multi_point=("Probe0",))
    cfg["profiles"][0]["plugins"]["multiPoint"]["enabled"].append({"name": "DefaultPreemption"})
    run = run_on_reference(scenario(list(sc.workload), cfg=cfg))
    ADDED.check(_without(run, "AddPod", "default/pod-1"))
    assert not run.exercised


def _scored(**pod_fields):
    return scenario([pod(probes={"Probe0": {"Score": {"byNode": {"node-1": {"score": 30}}}}}, **pod_fields)],
                    nodes=TWO_NODES, cfg=config(multi_point=("Probe0",)))


def test_every_feasible_node_is_scored() -> None:
    run = run_on_reference(_scored())
    SCORED.check(run)
    assert run.exercised
    v = violation(SCORED, _without(run, "Score", "default/pod-0", "node-0"))
    assert v.plugin == "Probe0" and v.actual == ["node-1"]


def test_the_chosen_node_is_scored_whatever_the_filters() -> None:
    """With an in-tree Filter plugin the feasible nodes are unknown, but the chosen node was scored."""
    cfg = config(multi_point=("Probe0", "NodeResourcesFit"))
    run = run_on_reference(scenario([pod(probes={"Probe0": {"Score": {"byNode": {"node-1": {"score": 30}}}}})],
                                    nodes=TWO_NODES, cfg=cfg))
    SCORED.check(_without(run, "Score", "default/pod-0", "node-0"))
    v = violation(SCORED, _without(run, "Score", "default/pod-0", "node-1"))
    assert "the chosen node" in str(v)


def test_an_attempt_with_a_filter_error_is_not_judged() -> None:
    run = run_on_reference(scenario([pod(probes={"Probe0": {"Filter": {"byNode": {"node-0": {"code": "Error"}}}}})],
                                    nodes=TWO_NODES, cfg=config(multi_point=("Probe0",))))
    SCORED.check(run)
    assert not run.exercised
