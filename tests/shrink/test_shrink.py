"""Shrink quality: counterexamples end at the smallest scenario that still shows the problem."""

from __future__ import annotations

import collections
import json

from generators import (clusters, extender_scripts, node_affinities, node_selector_terms, nodes, pod_affinity_terms,
                        pods, probe_scripts, quantities, resource_lists, scenarios, scheduler_configs, taints,
                        tolerations, topology_spread_constraints)
from reference.config import expand_config, load_config
from reference.plugins import in_tree_registry
from reference.probe import PROBE_NAMES, probe_registry
from reference.scenario import PROBE_SCRIPT_ANNOTATION
from tests.generators.reference_run import run
from tests.generators.support import sample

from .minimal import minimal

REGISTRY = in_tree_registry().merged(probe_registry())
CONFIG = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration"}
AMPLE = {"cpu": "8", "memory": "16Gi", "pods": "110"}
SIMPLEST_NODE = {"apiVersion": "v1", "kind": "Node",
                 "metadata": {"name": "node-0", "labels": {"kubernetes.io/hostname": "node-0"}},
                 "status": {"capacity": AMPLE, "allocatable": AMPLE}}
SIMPLEST_POD = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "pod-0", "namespace": "default"},
                "spec": {"containers": [{"name": "c0", "image": "registry.k8s.io/pause:3.10"}]}}
FOCUS = ("PreFilter", "Reserve", "Permit", "PreBind", "Bind")


def multi_point(*probes: str) -> dict:
    return {**CONFIG, "profiles": [{"schedulerName": "default-scheduler", "plugins": {
        "multiPoint": {"enabled": [{"name": p} for p in probes]}}}]}


def built(config) -> dict:
    return expand_config(load_config(config, registry=REGISTRY), REGISTRY)


def reserve_probes(config) -> int:
    return max(sum(n in PROBE_NAMES for n in p.names("reserve")) for p in built(config).values())


def script(pod) -> dict:
    return json.loads(pod["metadata"].get("annotations", {}).get(PROBE_SCRIPT_ANNOTATION, "{}"))


def test_every_strategy_shrinks_to_what_its_docstring_says():
    assert minimal(quantities(), lambda q: True) == "0"
    assert minimal(resource_lists(), lambda r: True) == {}
    assert minimal(taints(), lambda t: True) == {"key": "example.com/dedicated", "effect": "NoSchedule"}
    assert minimal(tolerations(), lambda t: True) == {"key": "example.com/dedicated"}
    hostname_in_node_0 = {"key": "kubernetes.io/hostname", "operator": "In", "values": ["node-0"]}
    assert minimal(node_selector_terms(), lambda t: True) == {"matchExpressions": [hostname_in_node_0]}
    assert minimal(node_affinities(), lambda a: True) == {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchExpressions": [hostname_in_node_0]}]}}
    web = {"matchLabels": {"app": "web"}}
    assert minimal(pod_affinity_terms(), lambda t: True) == {"labelSelector": web,
                                                            "topologyKey": "kubernetes.io/hostname"}
    assert minimal(topology_spread_constraints(), lambda c: True) == {
        "maxSkew": 1, "topologyKey": "kubernetes.io/hostname", "whenUnsatisfiable": "DoNotSchedule",
        "labelSelector": web}
    assert minimal(nodes(), lambda n: True) == SIMPLEST_NODE
    assert minimal(pods(), lambda p: True) == SIMPLEST_POD
    cluster = minimal(clusters(), lambda c: True)
    assert (cluster.nodes, cluster.pods, cluster.objects) == ((SIMPLEST_NODE,), (), ())
    assert minimal(scheduler_configs(probes=3, profiles=3, extenders=3), lambda c: True) == CONFIG
    assert minimal(probe_scripts(probes=3), lambda s: True) == {}
    assert minimal(extender_scripts(extenders=3), lambda s: True) == {}


def test_the_simplest_scenario():
    scenario = minimal(scenarios(profiles=3, extenders=3, gates=True), lambda s: True)
    assert (scenario.config, scenario.nodes, scenario.pods, scenario.objects, scenario.workload) == (
        CONFIG, (SIMPLEST_NODE,), (), (), (SIMPLEST_POD,))


def test_a_pod_that_fits_no_node_shrinks_to_one_node_and_one_container():
    scenario = minimal(scenarios(probes=0), lambda s: any(r.phase == "unschedulable" for r in run(s).results.values()))
    # The reason may be a pod already there (a host port, anti-affinity), but nothing more than one.
    assert len(scenario.nodes) == 1 and len(scenario.pods) <= 1 and len(scenario.workload) == 1
    assert len(scenario.workload[0]["spec"]["containers"]) == 1
    assert scenario.config == CONFIG


def test_a_config_with_two_reserve_probes_shrinks_to_exactly_two_and_no_other_change():
    assert minimal(scheduler_configs(probes=4, profiles=3, extenders=3),
                   lambda c: reserve_probes(c) >= 2) == multi_point("Probe0", "Probe1")
    focused = minimal(scheduler_configs(probes=4, points=("Reserve",)), lambda c: reserve_probes(c) >= 2)
    assert focused == {**CONFIG, "profiles": [{"schedulerName": "default-scheduler", "plugins": {
        "reserve": {"enabled": [{"name": "Probe0"}, {"name": "Probe1"}]}}}]}


def test_a_scenario_where_unreserve_runs_shrinks_to_one_node_and_one_pod():
    scenario = minimal(scenarios(), lambda s: any(r["point"] == "Unreserve" for r in run(s).trace))
    assert scenario.nodes == (SIMPLEST_NODE,) and not scenario.pods and len(scenario.workload) == 1
    assert scenario.config == multi_point("Probe0")
    assert script(scenario.workload[0]) == {"Probe0": {"Reserve": {"code": "Unschedulable"}}}


# --- a deliberately broken framework, found and shrunk ---------------------------------------------

def forward_unreserve(sched) -> None:
    """The mutant: Unreserve in configured order instead of reverse order."""
    for fw in sched.frameworks.values():
        def unreserve(state, pod, node_name, fw=fw):
            for plugin in fw.reserve_plugins:
                plugin.unreserve(state, pod, node_name)
        fw.run_reserve_plugins_unreserve = unreserve


def unreserve_out_of_order(scenario, hook=None) -> bool:
    """Some attempt's Unreserve calls are not the reverse of the probes' Reserve order (spec §2.12)."""
    profiles = built(scenario.config)
    calls = collections.defaultdict(list)
    for record in run(scenario, hook=hook).trace:
        if record["point"] == "Unreserve":
            calls[record["pod"], record["attempt"]].append(record["plugin"])
    for (key, _), plugins in calls.items():
        pod = next(p for p in scenario.workload if f'{p["metadata"]["namespace"]}/{p["metadata"]["name"]}' == key)
        order = [n for n in profiles[pod["spec"].get("schedulerName", "default-scheduler")].names("reserve")
                 if n in PROBE_NAMES]
        if plugins != order[::-1]:
            return True
    return False


def test_the_unbroken_reference_unreserves_in_reverse_order():
    assert not any(unreserve_out_of_order(s) for s in sample(scenarios(points=FOCUS), 150))


def test_forward_unreserve_shrinks_to_one_node_one_pod_and_two_reserve_probes():
    for options in ({}, {"points": FOCUS}):
        scenario = minimal(scenarios(**options), lambda s: unreserve_out_of_order(s, forward_unreserve))
        assert len(scenario.nodes) == 1 and not scenario.pods and len(scenario.workload) == 1, options
        assert reserve_probes(scenario.config) == 2, options
        assert script(scenario.workload[0]) in ({"Probe0": {"Reserve": {"code": "Unschedulable"}}},
                                                {"Probe0": {"PreFilter": {}, "Reserve": {"code": "Unschedulable"}}})
