"""Options are checked when a strategy is built, and focused scenarios keep their promises."""

from __future__ import annotations

import json

import pytest
from hypothesis import given

from generators import (clusters, extender_scripts, nodes, pod_affinity_terms, pods, probe_scripts, quantities,
                        resource_lists, scenarios, scheduler_configs)
from reference import codec
from reference.probe import PROBE_NAMES
from reference.resources import pod_requests
from reference.scenario import PROBE_SCRIPT_ANNOTATION

from .reference_run import run
from .support import FAST

BAD_OPTIONS = [
    (lambda: quantities(resource="gpu"), "'gpu'"),
    (lambda: quantities(max_value=-1), "-1"),
    (lambda: resource_lists(resources=["cpu", "disk"]), "'disk'"),
    (lambda: nodes(name=""), "''"),
    (lambda: pods(name="Pod_0"), "'Pod_0'"),
    (lambda: pods(namespaces=[]), "namespaces=[]"),
    (lambda: pod_affinity_terms(namespaces="default"), "'default'"),
    (lambda: clusters(min_nodes=3, max_nodes=2), "min_nodes=3"),
    (lambda: clusters(namespaces=["prod"]), "'prod'"),
    (lambda: scheduler_configs(probes=9), "probes=9"),
    (lambda: scheduler_configs(profiles=0), "profiles=0"),
    (lambda: scheduler_configs(default_plugins="yes"), "'yes'"),
    (lambda: scheduler_configs(points=["Reserve", "Unbind"]), "'Unbind'"),
    (lambda: scheduler_configs(points="Reserve"), "'Reserve'"),
    (lambda: probe_scripts(probes={"Probe9": ["Reserve"]}), "'Probe9'"),
    (lambda: probe_scripts(max_permit_timeout=-1), "-1"),
    (lambda: extender_scripts(extenders={"ext-0": ["score"]}), "'score'"),
    (lambda: scenarios(max_nodes=0), "max_nodes=0"),
    (lambda: scenarios(max_pods=0), "max_pods=0"),
    (lambda: scenarios(extenders=4), "extenders=4"),
    (lambda: scenarios(preemption=True, default_plugins=False), "default_plugins=False"),
]


@pytest.mark.parametrize("build, named", BAD_OPTIONS, ids=[n for _, n in BAD_OPTIONS])
def test_bad_options_fail_at_build_time_naming_the_value(build, named):
    with pytest.raises(ValueError) as raised:
        build()
    message = str(raised.value)
    assert named in message and "\n" not in message


def probes_in(config):
    return {e["name"] for p in config.get("profiles", []) for s in p.get("plugins", {}).values()
            for e in s.get("enabled", []) if e["name"] in PROBE_NAMES}


@FAST
@given(scenarios(max_nodes=2, max_pods=2, probes=0))
def test_sizes_and_no_probes(scenario):
    assert 1 <= len(scenario.nodes) <= 2 and 1 <= len(scenario.workload) <= 2 and len(scenario.pods) <= 2
    assert not probes_in(scenario.config)
    assert not any(PROBE_SCRIPT_ANNOTATION in p["metadata"].get("annotations", {}) for p in scenario.workload)


@FAST
@given(scenarios(probes=2, profiles=3, extenders=1))
def test_counts_stay_within_their_maximum(scenario):
    assert probes_in(scenario.config) <= {"Probe0", "Probe1"}
    assert len(scenario.config.get("profiles", [1])) <= 3 and len(scenario.config.get("extenders", [])) <= 1
    names = {p["schedulerName"] for p in scenario.config.get("profiles", [{"schedulerName": "default-scheduler"}])}
    assert {p["spec"].get("schedulerName", "default-scheduler") for p in scenario.workload} <= names


@FAST
@given(scenarios(points=("Reserve", "Permit"), max_permit_timeout=0.5))
def test_focused_points_scripts(scenario):
    for pod in scenario.workload:
        script = json.loads(pod["metadata"].get("annotations", {}).get(PROBE_SCRIPT_ANNOTATION, "{}"))
        assert {point for points in script.values() for point in points} <= {"Reserve", "Permit"}


@FAST
@given(scenarios(gates=False, probes=0))
def test_no_gates_unless_asked(scenario):
    assert not any("schedulingGates" in p["spec"] for p in scenario.workload)


@FAST
@given(scenarios(preemption=True, probes=0, max_nodes=3, max_pods=3))
def test_preemption_scenarios_fill_every_node_and_must_evict(scenario):
    preemptor = scenario.workload[0]
    high = preemptor["spec"]["priority"]
    used: dict[str, int] = {}
    for manifest in scenario.pods:
        assert manifest["spec"].get("priority", 0) < high
        used[manifest["spec"]["nodeName"]] = used.get(manifest["spec"]["nodeName"], 0) + pod_requests(
            codec.pod_from_manifest(manifest)).get("cpu", 0)
    for node in scenario.nodes:
        allocatable = codec.node_from_manifest(node).allocatable
        if allocatable["pods"]:  # a node without pod slots has no room for victims either
            assert used.get(node["metadata"]["name"], 0) == allocatable["cpu"]
    outcome = run(scenario)
    key = f'{preemptor["metadata"]["namespace"]}/{preemptor["metadata"]["name"]}'
    assert outcome.results[key].phase == "bound" and outcome.deleted, outcome.results[key]
