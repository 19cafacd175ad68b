"""Scenario manifests -> API objects of one run: what is added, mapped and refused."""

import json

import pytest

from conformance.cluster.adapt import PLACEHOLDER_IMAGE, Adapter, scenario_namespaces
from conformance.cluster.adapt_objects import ScenarioNotSupported, template_labels
from conformance.cluster.naming import RUN_LABEL, SCENARIO_LABEL, NamespaceMap

from .scenarios import node, pod, scenario


def _plan(sc, **kw):
    adapter = Adapter("r1", **kw)
    return adapter.plan(sc, NamespaceMap.of("r1", 1, scenario_namespaces(sc)))


def test_nodes_get_the_run_taint_last_and_the_run_labels():
    n = node("node-0")
    n["spec"] = {"taints": [{"key": "a", "value": "b", "effect": "NoSchedule"}]}
    plan = _plan(scenario(nodes=[n]))
    made = plan.nodes[0]
    assert made["spec"]["taints"] == [{"key": "a", "value": "b", "effect": "NoSchedule"},
                                      {"key": RUN_LABEL, "value": "r1", "effect": "NoSchedule"}]
    assert made["metadata"]["labels"][RUN_LABEL] == "r1" and made["metadata"]["labels"][SCENARIO_LABEL] == "1"
    assert made["status"]["allocatable"] == {"cpu": "2", "memory": "4Gi", "pods": "110"}
    assert n["spec"]["taints"][-1]["key"] == "a", "the scenario's manifest is not modified"


def test_only_workload_pods_tolerate_the_run_taint():
    plan = _plan(scenario(nodes=[node("node-0")], pods=[pod("old", node_name="node-0")], workload=[pod("new")]))
    tolerated = lambda p: {"key": RUN_LABEL, "operator": "Equal", "value": "r1", "effect": "NoSchedule"} in (  # noqa: E731
        p["spec"].get("tolerations") or [])
    assert tolerated(plan.workload[0]) and not tolerated(plan.bound_pods[0])
    assert plan.workload[0]["metadata"]["namespace"] == "scc-r1-1-default"


def test_priorities_become_priority_classes_of_the_same_value_and_policy():
    plan = _plan(scenario(workload=[pod("a", priority=5), pod("b", priority=5), pod("c"),
                                    pod("d", priority=-3, preemptionPolicy="Never"),
                                    pod("e", priority=2_000_000_000)]))
    classes = {c["metadata"]["name"]: (c["value"], c["preemptionPolicy"]) for c in plan.classes}
    assert classes == {"scc-r1-p5": (5, "PreemptLowerPriority"), "scc-r1-p0": (0, "PreemptLowerPriority"),
                       "scc-r1-pm3-never": (-3, "Never")}
    names = [p["spec"]["priorityClassName"] for p in plan.workload]
    assert names == ["scc-r1-p5", "scc-r1-p5", "scc-r1-p0", "scc-r1-pm3-never", "system-cluster-critical"]
    assert not any("priority" in p["spec"] or "preemptionPolicy" in p["spec"] for p in plan.workload)


def test_priority_above_the_user_range_is_refused_with_the_limit():
    with pytest.raises(ScenarioNotSupported, match="default/a has priority 1500000000.*1000000000"):
        _plan(scenario(workload=[pod("a", priority=1_500_000_000)]))


def test_overhead_becomes_a_runtime_class_carrying_it():
    plan = _plan(scenario(workload=[pod("a", overhead={"cpu": "250m"})]))
    rc = next(c for c in plan.classes if c["kind"] == "RuntimeClass")
    assert rc["overhead"] == {"podFixed": {"cpu": "250m"}}
    assert plan.workload[0]["spec"]["runtimeClassName"] == rc["metadata"]["name"]
    assert "overhead" not in plan.workload[0]["spec"]


def test_containers_get_names_and_images_the_api_requires_and_a_pod_without_any_is_refused():
    p = pod("a")
    p["spec"]["containers"] = [{"resources": {}}]
    p["spec"]["initContainers"] = [{}]
    made = _plan(scenario(workload=[p])).workload[0]["spec"]
    assert made["containers"][0] == {"resources": {}, "name": "c0", "image": PLACEHOLDER_IMAGE}
    assert made["initContainers"][0] == {"name": "init0", "image": PLACEHOLDER_IMAGE}
    empty = pod("b")
    empty["spec"]["containers"] = []
    with pytest.raises(ScenarioNotSupported, match="default/b has no containers"):
        _plan(scenario(workload=[empty]))


def test_affinity_namespaces_are_mapped_like_the_pods():
    term = {"labelSelector": {"matchLabels": {"a": "b"}}, "topologyKey": "zone", "namespaces": ["team"]}
    p = pod("a", affinity={"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [term]}})
    sc = scenario(workload=[p])
    assert scenario_namespaces(sc) == ["default", "team"]
    made = _plan(sc).workload[0]["spec"]["affinity"]["podAntiAffinity"]
    assert made["requiredDuringSchedulingIgnoredDuringExecution"][0]["namespaces"] == ["scc-r1-1-team"]


def test_foreign_node_guard_adds_the_run_label_to_every_term():
    p = pod("a", affinity={"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}]},
        {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["node-1"]}]}]}}})
    guarded = _plan(scenario(workload=[p, pod("b")]), guard_foreign_nodes=True).workload
    expr = {"key": RUN_LABEL, "operator": "In", "values": ["r1"]}
    terms = guarded[0]["spec"]["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"]
    assert [t["matchExpressions"][-1] for t in terms] == [expr, expr]
    assert terms[1]["matchFields"][0]["values"] == ["node-1"]
    plain = guarded[1]["spec"]["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
    assert plain == {"nodeSelectorTerms": [{"matchExpressions": [expr]}]}
    assert "affinity" not in _plan(scenario(workload=[pod("b")])).workload[0]["spec"]


def test_scheduler_name_is_mapped_only_for_default_scheduler_pods():
    plan = _plan(scenario(workload=[pod("a"), pod("b", schedulerName="other")]), scheduler_name="mine")
    assert [p["spec"]["schedulerName"] for p in plan.workload] == ["mine", "other"]


def test_extender_preempt_victims_are_named_by_cluster_key():
    script = {"ext-0": {"preempt": {"victims": {"node-0": ["default/v"]}}, "filter": {"fail": {"node-1": "x"}}}}
    p = pod("a")
    p["metadata"]["annotations"] = {"sched-conformance.io/extender-script": json.dumps(script)}
    made = json.loads(_plan(scenario(workload=[p])).workload[0]["metadata"]["annotations"]["sched-conformance.io/extender-script"])
    assert made["ext-0"]["preempt"]["victims"] == {"node-0": ["scc-r1-1-default/v"]}
    assert made["ext-0"]["filter"] == script["ext-0"]["filter"]


def test_objects_become_valid_api_objects():
    objects = [
        {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"}, "spec": {"selector": {"app": "a"}}},
        {"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "rs"},
         "spec": {"selector": {"matchLabels": {"app": "a"}, "matchExpressions": [{"key": "t", "operator": "Exists"}]}}},
        {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "pdb"},
         "spec": {"maxUnavailable": 1, "selector": {"matchLabels": {"app": "a"}}}, "status": {"disruptionsAllowed": 1}},
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team", "labels": {"tier": "x"}}},
    ]
    plan = _plan(scenario(objects=objects))
    svc, rs, pdb = plan.objects
    assert svc["spec"]["clusterIP"] == "None" and svc["metadata"]["namespace"] == "scc-r1-1-default"
    assert rs["spec"]["replicas"] == 0
    assert rs["spec"]["template"]["metadata"]["labels"] == {"app": "a", "t": "sched-conformance"}
    assert plan.status[("PodDisruptionBudget", "scc-r1-1-default", "pdb")] == {"status": {"disruptionsAllowed": 1}}
    team = next(n for n in plan.namespaces if n["metadata"]["name"] == "scc-r1-1-team")
    assert team["metadata"]["labels"] == {"tier": "x", RUN_LABEL: "r1", SCENARIO_LABEL: "1"}


def test_controller_with_empty_selector_is_refused():
    rs = {"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "rs"}, "spec": {}}
    with pytest.raises(ScenarioNotSupported, match="ReplicaSet default/rs has an empty selector"):
        _plan(scenario(objects=[rs]))


def test_template_labels_satisfy_the_selector():
    assert template_labels({"a": "b"}) == {"a": "b"}
    assert template_labels({"matchExpressions": [{"key": "k", "operator": "In", "values": ["v", "w"]},
                                                 {"key": "n", "operator": "NotIn", "values": ["x"]}]}) == {"k": "v"}
    with pytest.raises(ScenarioNotSupported):
        template_labels({"matchLabels": {"k": "x"}, "matchExpressions": [{"key": "k", "operator": "NotIn", "values": ["x"]}]})


PRIORITY_CLASS = {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "high"},
                  "value": 1000, "preemptionPolicy": "Never"}
RUNTIME_CLASS = {"apiVersion": "node.k8s.io/v1", "kind": "RuntimeClass", "metadata": {"name": "kata"},
                 "handler": "kata", "overhead": {"podFixed": {"cpu": "250m"}}}


def test_same_priority_with_either_policy_gets_two_classes():
    plan = _plan(scenario(workload=[pod("a", priority=7), pod("b", priority=7, preemptionPolicy="Never")]))
    assert [p["spec"]["priorityClassName"] for p in plan.workload] == ["scc-r1-p7", "scc-r1-p7-never"]


def test_scenario_classes_are_created_per_scenario_and_named_by_its_pods():
    sc = scenario(objects=[PRIORITY_CLASS, RUNTIME_CLASS],
                  workload=[pod("a", priority=1000, priorityClassName="high", preemptionPolicy="Never",
                                runtimeClassName="kata", overhead={"cpu": "250m"}), pod("b", priority=3)])
    plan = _plan(sc)
    made = {c["metadata"]["name"]: c for c in plan.classes}
    assert set(made) == {"scc-r1-1-high", "scc-r1-1-kata", "scc-r1-p3"}
    for name in ("scc-r1-1-high", "scc-r1-1-kata"):
        assert made[name]["metadata"]["labels"] == {RUN_LABEL: "r1", SCENARIO_LABEL: "1"}
    assert SCENARIO_LABEL not in made["scc-r1-p3"]["metadata"]["labels"], "bare-priority classes live for the run"
    assert (made["scc-r1-1-high"]["value"], made["scc-r1-1-kata"]["handler"]) == (1000, "kata")
    spec = plan.workload[0]["spec"]
    assert (spec["priorityClassName"], spec["runtimeClassName"]) == ("scc-r1-1-high", "scc-r1-1-kata")
    assert (spec["priority"], spec["preemptionPolicy"], spec["overhead"]) == (1000, "Never", {"cpu": "250m"}), \
        "admission compares these with the class; they stay"
    assert sc.objects[0]["metadata"]["name"] == "high", "the scenario's manifest is not modified"


def test_a_pod_naming_a_class_the_scenario_lacks_gets_one_made_from_its_priority():
    plan = _plan(scenario(workload=[pod("a", priority=1000, priorityClassName="high")]))
    assert plan.workload[0]["spec"]["priorityClassName"] == "scc-r1-p1000"


PVC = {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "c1"},
       "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}


@pytest.mark.parametrize("data,where", [
    ({"objects": [PVC]}, r"scenario\.objects\[0\]"),
    ({"timeline": [{"when": "idle", "op": "create", "object": PVC}]}, r"scenario\.timeline\[0\]"),
], ids=["object", "timeline event"])
def test_storage_objects_are_refused_in_one_line(data, where):
    with pytest.raises(ScenarioNotSupported, match=f"{where}: a PersistentVolumeClaim is not run on a cluster"
                                                   ".*--backend reference or upstream") as exc:
        _plan(scenario(nodes=[node("node-0")], workload=[pod("a")], **data))
    assert "\n" not in str(exc.value)
