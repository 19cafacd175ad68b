"""The timeline on a cluster, without one: which namespaces a run needs, and the merge patches an update
sends (conformance/cluster/timeline.py)."""

from conformance.cluster.adapt import Adapter, scenario_namespaces
from conformance.cluster.naming import NamespaceMap
from conformance.cluster.timeline import _added, _resize, has_resize_subresource, merge_diff

from .scenarios import node, pod, scenario


def test_merge_diff_sends_only_what_changed_and_nulls_what_went():
    old = {"metadata": {"labels": {"a": "1", "b": "2"}}, "spec": {"taints": [{"key": "x"}], "keep": 1}}
    new = {"metadata": {"labels": {"a": "1", "c": "3"}}, "spec": {"taints": [], "keep": 1}}
    assert merge_diff(old, new) == {"metadata": {"labels": {"b": None, "c": "3"}}, "spec": {"taints": []}}
    assert merge_diff(new, new) == {}


def test_namespaces_of_the_timeline_are_mapped_but_a_created_one_is_not_made_up_front():
    s = scenario(nodes=[node("n1")], workload=[pod("p")], timeline=[
        {"when": 1, "op": "create", "object": {"apiVersion": "v1", "kind": "Namespace",
                                               "metadata": {"name": "late"}}},
        {"when": 2, "op": "create", "object": pod("q", namespace="late")},
        {"when": 3, "op": "create", "object": pod("r", namespace="other")}])
    assert scenario_namespaces(s) == ["default", "late", "other"]
    nsmap = NamespaceMap.of("r1", 1, scenario_namespaces(s))
    plan = Adapter("r1").plan(s, nsmap)
    assert sorted(n["metadata"]["name"] for n in plan.namespaces) == \
        [nsmap.to_cluster("default"), nsmap.to_cluster("other")]


def _adapted(adapter, nsmap, manifest):
    return adapter.one(manifest, nsmap, {}, {})[0]


def test_a_node_update_keeps_the_run_taint_and_sends_its_status_apart():
    adapter, nsmap = Adapter("r1"), NamespaceMap.of("r1", 1, ["default"])
    tainted = node("n1")
    tainted["spec"] = {"taints": [{"key": "maintenance", "effect": "NoSchedule"}]}
    untainted = {**node("n1", cpu="4"), "spec": {"taints": []}}
    diff = merge_diff(_adapted(adapter, nsmap, tainted), _adapted(adapter, nsmap, untainted))
    assert diff["spec"] == {"taints": [adapter.taint()]}
    assert diff["status"] == {"allocatable": {"cpu": "4"}, "capacity": {"cpu": "4"}}


def test_a_pod_update_adds_tolerations_to_the_live_ones_and_resizes_the_live_containers():
    adapter, nsmap = Adapter("r1"), NamespaceMap.of("r1", 1, ["default"])
    old = pod("p", "1")
    new = pod("p", "500m", tolerations=[{"key": "maintenance", "operator": "Exists"}])
    before, after = _adapted(adapter, nsmap, old), _adapted(adapter, nsmap, new)
    admitted = {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute",
                "tolerationSeconds": 300}
    live = {"spec": {"tolerations": [*before["spec"]["tolerations"], admitted],
                     "containers": [{**before["spec"]["containers"][0], "imagePullPolicy": "IfNotPresent"}]}}
    spec = merge_diff(before, after)["spec"]
    added = {"key": "maintenance", "operator": "Exists"}
    assert _added(live, before, after) == [*live["spec"]["tolerations"], added]
    resize = _resize(live, after, spec)
    assert "containers" not in spec
    assert resize == {"spec": {"containers": [{**live["spec"]["containers"][0],
                                               "resources": {"requests": {"cpu": "500m"}}}]}}


def test_the_resize_subresource_is_used_from_v1_33():
    assert [has_resize_subresource(v) for v in ("v1.37.2", "v1.33.0+k3s1", "v1.32.9", "1.28", "")] == \
        [True, True, False, False, True]
