"""The generators cover the interesting space: every feature appears at least as often as its floor
(tests/generators/features.py), so a generator cannot silently collapse."""

from __future__ import annotations

import copy

import pytest

from generators import extender_scripts, probe_scripts, scenarios
from reference.scenario import Scenario

from .features import (ACTION_FEATURES, EXTENDER_FEATURES, NODE_FEATURES, POD_FEATURES, SCENARIO_FEATURES,
                       WORKLOAD_FEATURES, extender_actions, probe_actions, rates, shortfalls)
from .support import sample

NODES = ("node-0", "node-1", "node-2")


@pytest.fixture(scope="module")
def drawn() -> list[Scenario]:
    return sample(scenarios(profiles=2, extenders=2, gates=True), 300)


def test_pods_nodes_and_scenarios_cover_every_feature(drawn):
    assert len(drawn) == 300
    pods = [p for s in drawn for p in (*s.pods, *s.workload)]
    assert shortfalls(pods, POD_FEATURES) == {}
    assert shortfalls([p for s in drawn for p in s.workload], WORKLOAD_FEATURES) == {}
    assert shortfalls([n for s in drawn for n in s.nodes], NODE_FEATURES) == {}
    assert shortfalls(drawn, SCENARIO_FEATURES) == {}


def test_probe_scripts_cover_every_code_and_action():
    actions = [a for script in sample(probe_scripts(probes=3, nodes=NODES), 800) for a in probe_actions(script)]
    assert len(actions) > 1000
    assert shortfalls(actions, ACTION_FEATURES) == {}


def test_extender_scripts_cover_every_answer():
    scripts = sample(extender_scripts(extenders=2, nodes=NODES, victims={"node-0": ["default/running-0"]}), 300)
    assert shortfalls([a for s in scripts for a in extender_actions(s)], EXTENDER_FEATURES) == {}


# --- the floors catch a collapsed generator -----------------------------------------------------------

def test_a_generator_that_stopped_drawing_affinity_falls_short(drawn):
    collapsed = []
    for scenario in drawn:
        pods = copy.deepcopy([*scenario.pods, *scenario.workload])
        for pod in pods:
            pod["spec"].pop("affinity", None)
        collapsed += pods
    assert set(shortfalls(collapsed, POD_FEATURES)) == {"any affinity", "node affinity", "pod affinity",
                                                        "pod anti-affinity"}


def test_the_simplest_scenario_has_no_feature():
    simplest = Scenario(
        nodes=({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-0", "labels": {
            "kubernetes.io/hostname": "node-0"}}, "status": {"capacity": {"cpu": "8", "memory": "16Gi", "pods": "110"},
                                                               "allocatable": {"cpu": "8", "memory": "16Gi",
                                                                               "pods": "110"}}},),
        workload=({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "pod-0", "namespace": "default"},
                   "spec": {"containers": [{"name": "c0", "image": "registry.k8s.io/pause:3.10"}]}},))
    present = {name for name, rate in rates(list(simplest.workload), POD_FEATURES).items() if rate}
    assert present == {"no requests"}
    assert not any(rates(list(simplest.workload), WORKLOAD_FEATURES).values())
    assert not any(rates(list(simplest.nodes), NODE_FEATURES).values())
    assert not any(rates([simplest], SCENARIO_FEATURES).values())
