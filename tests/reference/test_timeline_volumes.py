"""Storage objects in a scenario and its timeline: the updates their API validation refuses are refused in
one line naming `scenario.timeline[i].<field>`; the ones it accepts reach the reference's store with their
events."""

import pytest

from reference.scenario import Scenario, ScenarioError
from reference.scheduler.build import build_scheduler
from reference.scheduler.timeline import run_scenario

NODE = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1", "labels": {"zone": "a"}},
        "status": {"allocatable": {"cpu": "1", "pods": "10"}}}
PV = {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "pv1"},
      "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"],
               "csi": {"driver": "d", "volumeHandle": "h"},
               "nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [
                   {"key": "zone", "operator": "In", "values": ["b"]}]}]}}}}
PVC = {"apiVersion": "v1", "kind": "PersistentVolumeClaim",
       "metadata": {"name": "c1", "annotations": {"pv.kubernetes.io/bind-completed": "yes"}},
       "spec": {"accessModes": ["ReadWriteOnce"], "volumeName": "pv1",
                "resources": {"requests": {"storage": "1Gi"}}}}
SC = {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": "sc"},
      "provisioner": "p"}
CSI_NODE = {"apiVersion": "storage.k8s.io/v1", "kind": "CSINode", "metadata": {"name": "n1"},
            "spec": {"drivers": [{"name": "d", "nodeID": "n1", "allocatable": {"count": 1}}]}}
CSI_DRIVER = {"apiVersion": "storage.k8s.io/v1", "kind": "CSIDriver", "metadata": {"name": "d"},
              "spec": {"attachRequired": True}}
POD = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
       "spec": {"containers": [{"name": "c"}], "volumes": [{"name": "v",
                                                            "persistentVolumeClaim": {"claimName": "c1"}}]}}


def _scenario(*timeline, objects=(PV, PVC, SC, CSI_NODE, CSI_DRIVER)):
    return Scenario.from_dict({"nodes": [NODE], "objects": list(objects), "workload": [POD],
                               "timeline": list(timeline)})


def _update(kind, name, patch):
    return {"when": "idle", "op": "update", "kind": kind, "name": name, "patch": patch}


@pytest.mark.parametrize("event, message", [
    (_update("PersistentVolume", "pv1", {"spec": {"csi": {"volumeHandle": "other"}}}),
     "scenario.timeline[0].patch.spec.csi.volumeHandle: cannot change"),
    (_update("PersistentVolume", "pv1", {"spec": {"nodeAffinity": None}}),
     "scenario.timeline[0].patch.spec.nodeAffinity: is immutable once set"),
    (_update("PersistentVolumeClaim", "c1", {"spec": {"volumeName": "pv2"}}),
     "scenario.timeline[0].patch.spec.volumeName: is immutable once set"),
    (_update("PersistentVolumeClaim", "c1", {"spec": {"resources": {"requests": {"storage": "1Mi"}}}}),
     "scenario.timeline[0].patch.spec.resources.requests.storage: can not be less than the previous value"),
    (_update("StorageClass", "sc", {"volumeBindingMode": "WaitForFirstConsumer"}),
     "scenario.timeline[0].patch.volumeBindingMode: cannot change"),
    (_update("CSINode", "n1", {"spec": {"drivers": [{"name": "e", "nodeID": "n1"}]}}),
     "scenario.timeline[0].patch.spec.drivers: only the drivers' allocatable counts may change"),
    (_update("CSIDriver", "d", {"spec": {"attachRequired": False}}),
     "scenario.timeline[0].patch.spec.attachRequired: is immutable"),
    ({"when": "idle", "op": "delete", "kind": "PersistentVolumeClaim", "name": "c1", "namespace": "other"},
     "scenario.timeline[0].name: PersistentVolumeClaim 'other/c1' does not exist"),
], ids=lambda v: v if isinstance(v, str) else None)
def test_refused_storage_updates(event, message):
    with pytest.raises(ScenarioError) as exc:
        _scenario(event)
    assert str(exc.value).startswith(message), str(exc.value)
    assert "\n" not in str(exc.value)


def test_a_bad_storage_manifest_names_its_field():
    bad = {**SC, "volumeBindingMode": "Later"}
    with pytest.raises(ScenarioError,
                       match=r"scenario\.objects\[2\]: StorageClass\.volumeBindingMode: 'Later'"):
        _scenario(objects=(PV, PVC, bad))


def _run(sc):
    sched = build_scheduler()
    runner = run_scenario(sched, sc)
    return runner.sched.results()["default/p"], runner.sched.store.volumes


def test_accepted_updates_reach_the_store_and_requeue_the_pod():
    """The PV's zone b keeps the pod off n1 until a node of zone b joins; the PV's label update and the
    CSINode's higher count are stored."""
    result, _ = _run(_scenario())
    assert (result.phase, result.attempts) == ("unschedulable", 1)
    node_b = {**NODE, "metadata": {"name": "n2", "labels": {"zone": "b"}}}
    result, volumes = _run(_scenario(
        _update("PersistentVolume", "pv1", {"metadata": {"labels": {"tier": "gold"}}}),
        _update("CSINode", "n1", {"spec": {"drivers": [{"name": "d", "nodeID": "n1",
                                                        "allocatable": {"count": 2}}]}}),
        {"when": "idle", "op": "create", "object": node_b}))
    assert (result.phase, result.node) == ("bound", "n2")
    assert volumes.pv("pv1").labels == {"tier": "gold"}
    assert volumes.csi_node("n1").drivers[0].count == 2


def test_a_deleted_claim_leaves_the_pod_unschedulable():
    result, volumes = _run(_scenario({"when": 0, "op": "delete", "kind": "PersistentVolumeClaim",
                                      "name": "c1"}))
    assert volumes.pvc("default", "c1") is None
    assert result.phase == "unschedulable"
    assert 'persistentvolumeclaim "c1" not found' in result.condition_message
