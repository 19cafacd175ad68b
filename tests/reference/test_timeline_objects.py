"""The reference's store follows the timeline's namespaces, PDBs, services and workloads, and a class the
timeline creates admits the pods created after it."""

from reference.scenario import Scenario
from reference.scheduler.build import build_scheduler
from reference.scheduler.timeline import run_scenario

NODE = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"},
        "status": {"allocatable": {"cpu": "1", "pods": "10"}}}
NS = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team", "labels": {"a": "1"}}}
PDB = {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "pdb"},
       "spec": {"minAvailable": 1, "selector": {"matchLabels": {"app": "a"}}}}
SVC = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "svc"}, "spec": {"selector": {"app": "a"}}}
RS = {"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "rs"},
      "spec": {"selector": {"matchLabels": {"app": "a"}}}}
PC = {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "high"}, "value": 7}


def run(objects, timeline):
    scenario = Scenario.from_dict({"nodes": [NODE], "objects": objects, "timeline": timeline})
    sched = build_scheduler()
    runner = run_scenario(sched, scenario)
    return sched, runner


def test_objects_are_created_updated_and_deleted_in_the_store():
    sched, runner = run([NS, PDB, SVC], [
        {"when": 1, "op": "update", "kind": "Namespace", "name": "team",
         "patch": {"metadata": {"labels": {"a": "2"}}}},
        {"when": 1, "op": "update", "kind": "PodDisruptionBudget", "name": "pdb",
         "patch": {"spec": {"minAvailable": 2}}},
        {"when": 2, "op": "delete", "kind": "Service", "name": "svc"},
        {"when": 2, "op": "create", "object": RS},
        {"when": 3, "op": "create", "object": {**NS, "metadata": {"name": "other"}}},
    ])
    assert runner.applied == [{"index": 0, "at": 1.0}, {"index": 1, "at": 1.0}, {"index": 2, "at": 2.0},
                              {"index": 3, "at": 2.0}, {"index": 4, "at": 3.0}]
    assert sched.store.namespace_labels() == {"team": {"a": "2"}, "other": {}}
    assert [(p.name, p.min_available) for p in sched.store.pdbs] == [("pdb", 2)]
    assert [(w.kind, w.name) for w in sched.store.workload_objects] == [("ReplicaSet", "rs")]


def test_deleted_namespace_and_pdb_leave_the_store():
    sched, _ = run([NS, PDB], [
        {"when": "idle", "op": "delete", "kind": "Namespace", "name": "team"},
        {"when": "idle", "op": "delete", "kind": "PodDisruptionBudget", "name": "pdb"}])
    assert sched.store.namespaces == {} and sched.store.pdbs == []


def test_a_class_created_by_the_timeline_admits_later_pods():
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
           "spec": {"priorityClassName": "high", "priority": 7, "containers": [{"name": "c"}]}}
    sched, runner = run([], [{"when": 0, "op": "create", "object": PC},
                             {"when": 1, "op": "create", "object": pod}])
    assert runner.pod_keys == ["default/p"]
    assert [(p.key, p.node_name, p.priority) for p in sched.store.pods.values()] == [("default/p", "n1", 7)]
