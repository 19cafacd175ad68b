"""Ports rows of volumezone/volume_zone_test.go.

Ported: "pod without volume" and the zone rows of TestSingleZone (a PV's zone against the node's, a beta
PV label read as the GA one), TestMultiZone's "__"-separated zones, TestWithBinding's missing-object rows
and the hint tables. Left out: TestVolumeZone_DeferredResizeSkipped
(InPlacePodVerticalScalingSchedulerPreemption is off).
"""

import pytest

from reference.cycle_state import CycleState
from reference.nodeinfo import NodeInfo
from reference.plugins.volume_zone import (VolumeZone, after_pv_change, after_pvc_change,
                                           after_storage_class_added)
from reference.status import SUCCESS, Code, Status
from reference.types import Node, Pod
from reference.codec import from_manifest
from reference.volumes import PersistentVolume, PersistentVolumeClaim, StorageClass
from tests.reference.plugins._volumes import VolumeHandle

ZONED_NODE = Node(name="host1", labels={"topology.kubernetes.io/zone": "us-west1-a",
                                        "failure-domain.beta.kubernetes.io/zone": "us-west1-a"})


def test_pod_without_volume():
    pod = Pod(name="pod_1", namespace="default")
    plugin = VolumeZone()
    assert plugin.pre_filter(CycleState(), pod, []) == (None, Status.new(Code.SKIP))
    assert plugin.filter(CycleState(), pod, NodeInfo.of(ZONED_NODE)) == SUCCESS


@pytest.mark.parametrize("node", [ZONED_NODE, Node(name="plain")], ids=["zoned node", "node without zone labels"])
def test_non_pvc_volumes_match_every_node(node):
    pod = Pod(name="p", volumes=({"name": "e", "emptyDir": {}},))
    plugin = VolumeZone()
    assert plugin.pre_filter(CycleState(), pod, []) == (None, Status.new(Code.SKIP))
    assert plugin.filter(CycleState(), pod, NodeInfo.of(node)) == SUCCESS


ZONE = "topology.kubernetes.io/zone"
CONFLICT = Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "node(s) had no available volume zone")


def _handle(pv_labels: dict, *, volume_name: str = "Vol_1", class_name: str | None = None,
            classes: tuple = ()) -> VolumeHandle:
    spec = {"volumeName": volume_name} if volume_name else {}
    if class_name is not None:
        spec["storageClassName"] = class_name
    objects = [from_manifest({"apiVersion": "v1", "kind": "PersistentVolume", "metadata":
                              {"name": "Vol_1", "labels": pv_labels}}),
               from_manifest({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata":
                              {"name": "PVC_1", "namespace": "default"}, "spec": spec})]
    objects += [from_manifest({"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
                               "metadata": {"name": n},
                               "provisioner": "p", "volumeBindingMode": m}) for n, m in classes]
    return VolumeHandle(*objects)


POD = Pod(name="p", volumes=({"name": "v", "persistentVolumeClaim": {"claimName": "PVC_1"}},))


@pytest.mark.parametrize("pv_labels,node_labels,want", [
    ({ZONE: "us-west1-a"}, {ZONE: "us-west1-a"}, SUCCESS),
    ({ZONE: "us-west1-a"}, {ZONE: "us-west1-b"}, CONFLICT),
    ({ZONE: "us-west1-a"}, {"failure-domain.beta.kubernetes.io/zone": "us-west1-a"}, CONFLICT),
    ({"failure-domain.beta.kubernetes.io/zone": "us-west1-a"}, {ZONE: "us-west1-a"}, SUCCESS),
    ({ZONE: "us-west1-a"}, {"uselessLabel": "none"}, SUCCESS),
    ({ZONE: "us-west1-a__us-west1-b"}, {ZONE: "us-west1-b"}, SUCCESS),
    ({ZONE: "us-west1-a__us-west1-b"}, {ZONE: "us-west1-c"}, CONFLICT),
], ids=["same zone", "other zone", "beta node label (only a beta PV key reads the GA node label)",
        "beta PV label", "node without zone labels",
        "multi-zone PV matches", "multi-zone PV does not match"])
def test_zones(pv_labels, node_labels, want):
    plugin, state = VolumeZone(_handle(pv_labels)), CycleState()
    assert plugin.pre_filter(state, POD, []) == (None, SUCCESS)
    assert plugin.filter(state, POD, NodeInfo.of(Node(name="n", labels=node_labels))) == want


def test_pv_without_topology_skips():
    assert VolumeZone(_handle({})).pre_filter(CycleState(), POD, []) == (None, Status.new(Code.SKIP))


@pytest.mark.parametrize("handle,reason", [
    (VolumeHandle(), 'persistentvolumeclaim "PVC_1" not found'),
    (_handle({}, volume_name="Vol_2"), 'persistentvolume "Vol_2" not found'),
    (_handle({}, volume_name="", class_name="Class_0"), 'storageclass.storage.k8s.io "Class_0" not found'),
    (_handle({}, volume_name=""), "PersistentVolumeClaim had no pv name and storageClass name"),
    (_handle({}, volume_name="", class_name="Class_1", classes=(("Class_1", "Immediate"),)),
     "PersistentVolume had no name"),
], ids=["missing PVC", "missing PV", "missing StorageClass", "no pv nor class", "unbound Immediate claim"])
def test_with_binding_errors(handle, reason):
    assert VolumeZone(handle).pre_filter(CycleState(), POD, []) == (
        None, Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, reason))


def test_wait_for_first_consumer_claim_skips():
    handle = _handle({}, volume_name="", class_name="Class_W", classes=(("Class_W", "WaitForFirstConsumer"),))
    assert VolumeZone(handle).pre_filter(CycleState(), POD, []) == (None, Status.new(Code.SKIP))


# --- hints: TestIsSchedulableAfterPersistentVolumeChange, ...StorageClassAdded, ...ClaimAdded ----------

BETA = "failure-domain.beta.kubernetes.io/zone"


def _pv(**labels: str) -> PersistentVolume:
    return PersistentVolume(name="Vol_1", labels=dict(labels))


@pytest.mark.parametrize("old, new, want", [
    (None, _pv(**{BETA: "us-west1-b"}), "Queue"),
    (_pv(**{BETA: "us-west1-a"}), _pv(**{BETA: "us-west1-b"}), "Queue"),
    (_pv(**{BETA: "us-west1-a"}), _pv(**{BETA: "us-west1-a", ZONE: "zone"}), "Queue"),
    (_pv(**{BETA: "us-west1-a", ZONE: "zone"}), _pv(**{BETA: "us-west1-a", ZONE: "zone"}), "QueueSkip"),
], ids=["pv was created", "pv's zone was changed", "pv's zone label was added",
        "pv was updated, topology same"])
def test_after_pv_change(old, new, want):
    hint, err = after_pv_change(POD, old, new)
    assert (hint.value, err) == (want, None)


def test_a_wrong_object_queues_with_an_error():
    hint, err = after_pv_change(POD, "not-a-pv", _pv())
    assert hint.value == "Queue" and err


@pytest.mark.parametrize("mode, want", [("WaitForFirstConsumer", "Queue"), ("Immediate", "QueueSkip")])
def test_after_storage_class_added(mode, want):
    hint, _ = after_storage_class_added(POD, None, StorageClass(name="sc", volume_binding_mode=mode))
    assert hint.value == want


@pytest.mark.parametrize("claim, want", [
    (PersistentVolumeClaim(name="PVC_1"), "Queue"), (PersistentVolumeClaim(name="PVC_2"), "QueueSkip"),
    (PersistentVolumeClaim(name="PVC_1", namespace="other"), "QueueSkip"),
], ids=["the pod's claim", "another claim", "the pod's claim name in another namespace"])
def test_after_pvc_change(claim, want):
    hint, _ = after_pvc_change(POD, None, claim)
    assert hint.value == want
