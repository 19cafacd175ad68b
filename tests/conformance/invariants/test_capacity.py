"""capacity-respected counts a preempted workload pod only while it exists: the order the cluster
backend showed (the low-priority pod bound first, then preempted by a later one) is no overcommit."""

from __future__ import annotations

from conformance.invariants import REGISTRY

from ._kit import edited, node, pod, run_on_reference, scenario, violation

CAPACITY = REGISTRY["capacity-respected"]


def _victim_then_preemptor(deleted: tuple[str, ...]):
    sc = scenario([pod("pod-0", priority=-10, cpu="2"), pod("pod-1", cpu="57m")],
                  nodes=[node("node-1", cpu="2")], cfg=None)
    bindings = ({"pod": "default/pod-0", "node": "node-1", "t": 0.01},
                {"pod": "default/pod-1", "node": "node-1", "t": 0.03})
    return edited(run_on_reference(sc), bindings=bindings, deleted=deleted)


def test_a_preempted_workload_pod_frees_its_node():
    CAPACITY.check(_victim_then_preemptor(deleted=("default/pod-0",)))


def test_both_pods_kept_is_an_overcommit():
    v = violation(CAPACITY, _victim_then_preemptor(deleted=()))
    assert v.pod == "default/pod-1" and "cpu" in str(v)
