"""Every generated object is valid Kubernetes: the v1.37 OpenAPI schema (kubernetes-validate), the
API server's own rules (apirules), and it round-trips through the reference codec."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generators import (clusters, node_affinities, node_selector_terms, nodes, pod_affinity_terms, pods,
                        quantities, resource_lists, scenarios, taints, tolerations, topology_spread_constraints)
from generators._quantities import spellings
from generators.pools import NAMESPACES
from reference import codec
from reference.quantity import resource_value
from reference.resources import pod_requests
from reference.scenario import Scenario

from .apirules import api_errors
from .apischema import schema_errors
from .support import FAST

_ENCODE = {
    "Pod": codec.pod_to_manifest, "Node": codec.node_to_manifest, "Namespace": codec.namespace_to_manifest,
    "PodDisruptionBudget": codec.pdb_to_manifest, "Service": codec.workload_to_manifest,
    "ReplicaSet": codec.workload_to_manifest,
}
_OWNER = {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "rs-0", "uid": "uid-rs-0"}


def assert_valid(manifest: dict) -> None:
    assert schema_errors(manifest) == [], json.dumps(manifest)
    assert api_errors(manifest) == [], json.dumps(manifest)
    decoded = codec.from_manifest(manifest)
    assert codec.from_manifest(_ENCODE[manifest["kind"]](decoded)) == decoded


def _pod_with(**spec) -> dict:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
            "spec": {"containers": [{"name": "c", "image": "nginx:1.27"}], **spec}}


@FAST
@given(nodes(name="node-3"))
def test_nodes(node):
    assert_valid(node)
    assert node["metadata"]["labels"]["kubernetes.io/hostname"] == "node-3"


@FAST
@given(pods(name="pod-7", namespaces=NAMESPACES, scheduler_names=("default-scheduler", "scheduler-1"),
            owners=[_OWNER]))
def test_pods(pod):
    assert_valid(pod)


@FAST
@given(pods(node_name="node-1"))
def test_bound_pods_carry_no_gates(pod):
    assert_valid(pod)
    assert pod["spec"]["nodeName"] == "node-1" and "schedulingGates" not in pod["spec"]


@FAST
@given(taints())
def test_taints(taint):
    assert_valid({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}, "spec": {"taints": [taint]},
                  "status": {"capacity": {"cpu": "1", "memory": "1Gi", "pods": "1"},
                             "allocatable": {"cpu": "1", "memory": "1Gi", "pods": "1"}}})


@FAST
@given(st.one_of(
    tolerations().map(lambda t: _pod_with(tolerations=[t])),
    node_selector_terms().map(lambda t: _pod_with(affinity={"nodeAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [t]}}})),
    node_affinities().map(lambda a: _pod_with(affinity={"nodeAffinity": a})),
    pod_affinity_terms().map(lambda t: _pod_with(affinity={"podAntiAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": [t]}})),
    topology_spread_constraints().map(lambda c: _pod_with(topologySpreadConstraints=[c])),
    resource_lists(resources=("cpu", "memory")).map(
        lambda r: _pod_with(containers=[{"name": "c", "image": "i", "resources": {"requests": r}}]))))
def test_terms_inside_a_pod(pod):
    assert_valid(pod)


@FAST
@given(st.sampled_from(["cpu", "memory", "pods", "example.com/gpu"]).flatmap(
    lambda r: st.tuples(st.just(r), quantities(resource=r, max_value=4000))))
def test_quantities_parse_within_bounds(drawn):
    resource, text = drawn
    assert 0 <= resource_value(resource, text) <= 4000


@pytest.mark.parametrize("resource,value,plainest", [
    ("cpu", 250, "250m"), ("cpu", 1500, "1.5"), ("cpu", 192000, "192"), ("cpu", 1234, "1234m"),
    ("memory", 512 * 1024 ** 2, "512Mi"), ("memory", 1536 * 1024 ** 2, "1.5Gi"), ("memory", 2 * 1024 ** 3, "2Gi"),
    ("memory", 1024 ** 4, "1Ti"), ("memory", 1536 * 1024 ** 3, "1.5Ti"), ("memory", 10 ** 9, "1G"),
    ("memory", 1234567, "1234567"), ("example.com/gpu", 16, "16"),
])
def test_every_spelling_is_exact_and_the_plainest_is_first(resource, value, plainest):
    written = spellings(resource, value)
    assert written[0] == plainest
    assert [resource_value(resource, s) for s in written] == [value] * len(written)


def _requests_by_node(cluster_pods):
    used: dict[str, dict[str, int]] = {}
    for manifest in cluster_pods:
        node = used.setdefault(manifest["spec"]["nodeName"], {"pods": 0})
        node["pods"] += 1
        for name, value in pod_requests(codec.pod_from_manifest(manifest)).items():
            node[name] = node.get(name, 0) + value
    return used


@FAST
@given(clusters(max_nodes=3, max_pods=6))
def test_clusters_respect_capacity(cluster):
    for manifest in (*cluster.nodes, *cluster.pods, *cluster.objects):
        assert_valid(manifest)
    Scenario(nodes=cluster.nodes, pods=cluster.pods, objects=cluster.objects).check()
    allocatable = {n["metadata"]["name"]: codec.node_from_manifest(n).allocatable for n in cluster.nodes}
    for node, used in _requests_by_node(cluster.pods).items():
        assert all(v <= allocatable[node].get(k, 0) for k, v in used.items() if v > 0), (node, used)


@FAST
@given(st.one_of(scenarios(profiles=2, extenders=2, gates=True), scenarios(preemption=True, max_nodes=2)))
def test_scenarios(scenario):
    for manifest in (*scenario.nodes, *scenario.pods, *scenario.objects, *scenario.workload):
        assert_valid(manifest)
    assert Scenario.from_dict(json.loads(scenario.to_json())) == scenario


# --- the checks above catch what a real API server rejects ------------------------------------------

def _node(**spec) -> dict:
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}, "spec": spec,
            "status": {"capacity": {"cpu": "1", "memory": "1Gi", "pods": "1"},
                       "allocatable": {"cpu": "1", "memory": "1Gi", "pods": "1"}}}


def _container(**fields) -> dict:
    return {"name": "c", "image": "nginx:1.27", **fields}


BROKEN = {
    "unknown field": _pod_with(nodeSelectorTerms=[]),
    "limit below request": _pod_with(containers=[_container(resources={"requests": {"cpu": "2"},
                                                                       "limits": {"cpu": "1"}})]),
    "gpu without limit": _pod_with(containers=[_container(resources={"requests": {"example.com/gpu": "1"}})]),
    "no image": _pod_with(containers=[{"name": "c"}]),
    "duplicate container names": _pod_with(initContainers=[_container()], containers=[_container()]),
    "sidecar policy on a container": _pod_with(containers=[_container(restartPolicy="Always")]),
    "duplicate host ports": _pod_with(containers=[
        _container(ports=[{"containerPort": 80, "hostPort": 80}]),
        {"name": "d", "image": "i", "ports": [{"containerPort": 81, "hostPort": 80}]}]),
    "Exists with a value": _pod_with(tolerations=[{"key": "k", "operator": "Exists", "value": "v"}]),
    "empty key with Equal": _pod_with(tolerations=[{"operator": "Equal"}]),
    "tolerationSeconds without NoExecute": _pod_with(tolerations=[{"operator": "Exists", "tolerationSeconds": 1}]),
    "In without values": _pod_with(nodeSelector={}, affinity={"nodeAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
            {"matchExpressions": [{"key": "k", "operator": "In"}]}]}}}),
    "no node selector terms": _pod_with(affinity={"nodeAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": []}}}),
    "weight 0": _pod_with(affinity={"podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": 0, "podAffinityTerm": {"topologyKey": "zone"}}]}}),
    "minDomains with ScheduleAnyway": _pod_with(topologySpreadConstraints=[
        {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "ScheduleAnyway", "minDomains": 2}]),
    "matchLabelKeys in the selector": _pod_with(topologySpreadConstraints=[
        {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
         "labelSelector": {"matchLabels": {"app": "web"}}, "matchLabelKeys": ["app"]}]),
    "gates on a bound pod": _pod_with(nodeName="n", schedulingGates=[{"name": "example.com/gate-a"}]),
    "priority without its class": _pod_with(priority=1000),
    "overhead without its RuntimeClass": _pod_with(overhead={"cpu": "100m"}),
    "bad label": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "labels": {"app": "-x"}},
                  "spec": {"containers": [_container()]}},
    "uppercase name": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "Pod"},
                       "spec": {"containers": [_container()]}},
    "duplicate taints": _node(taints=[{"key": "k", "effect": "NoSchedule"}, {"key": "k", "effect": "NoSchedule"}]),
    "bad taint effect": _node(taints=[{"key": "k", "effect": "Sometimes"}]),
    "both budgets": {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "b"},
                     "spec": {"minAvailable": 1, "maxUnavailable": 1, "selector": {"matchLabels": {"a": "b"}}}},
    "template not selected": {"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "r"},
                              "spec": {"selector": {"matchLabels": {"app": "web"}}, "template": {
                                  "metadata": {"labels": {"app": "db"}}, "spec": {"containers": [_container()]}}}},
    "service without ports": {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"},
                              "spec": {"selector": {"app": "web"}}},
}


@pytest.mark.parametrize("manifest", BROKEN.values(), ids=BROKEN.keys())
def test_the_checks_reject_invalid_objects(manifest):
    assert schema_errors(manifest) + api_errors(manifest)
