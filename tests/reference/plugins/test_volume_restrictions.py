"""Ports rows of volumerestrictions/volume_restrictions_test.go.

Ported: "nothing" and "one state" of TestGCEDiskConflicts, TestAWSDiskConflicts, TestRBDDiskConflicts,
TestISCSIDiskConflicts, their "same state" rows, TestAccessModeConflicts' rows, and "pod with a volume that
doesn't have restrictions". Left out: TestVolumeRestrictions_DeferredResizeSkipped
(InPlacePodVerticalScalingSchedulerPreemption is off); the hints are run by the queueing table.
"""

import pytest

from reference.cycle_state import CycleState
from reference.nodeinfo import NodeInfo, PodInfo
from reference.plugins.volume_restrictions import VolumeRestrictions, after_assigned_pod_deleted
from reference.status import Code, Status
from reference.types import Node
from reference.codec import from_manifest
from tests.builders import pod_with_volumes
from tests.reference.plugins._volumes import VolumeHandle

SKIP = Status.new(Code.SKIP)
GCE = {"name": "", "gcePersistentDisk": {"pdName": "foo"}}
AWS = {"name": "", "awsElasticBlockStore": {"volumeID": "foo"}}
RBD = {"name": "", "rbd": {"monitors": ["a", "b"], "pool": "foo", "image": "bar"}}
ISCSI = {"name": "", "iscsi": {"targetPortal": "127.0.0.1:3260", "iqn": "iqn.2016-12.server:storage.target01",
                               "lun": 0}}
PVC = {"name": "pvc", "persistentVolumeClaim": {"claimName": "claim-with-rwop-1"}}


@pytest.mark.parametrize("pod,node_info", [
    pytest.param(pod_with_volumes(), NodeInfo(), id="nothing"),
    pytest.param(pod_with_volumes(), NodeInfo.of(None, [pod_with_volumes(GCE)]), id="GCE-one state"),
    pytest.param(pod_with_volumes(), NodeInfo.of(None, [pod_with_volumes(AWS)]), id="AWS-one state"),
    pytest.param(pod_with_volumes(), NodeInfo.of(None, [pod_with_volumes(RBD)]), id="RBD-one state"),
    pytest.param(pod_with_volumes(), NodeInfo.of(None, [pod_with_volumes(ISCSI)]), id="ISCSI-one state"),
    pytest.param(pod_with_volumes({"name": "volume with no restriction"}), NodeInfo(),
                 id="pod with a volume that doesn't have restrictions"),
    pytest.param(pod_with_volumes({"name": "cm", "configMap": {"name": "x"}}, {"name": "e", "emptyDir": {}}), NodeInfo(),
                 id="configMap and emptyDir volumes are not restricted"),
])
def test_pre_filter_skips_pods_without_restricted_volumes(pod, node_info):
    # Upstream stops after a Skip, so Filter is not called.
    assert VolumeRestrictions().pre_filter(CycleState(), pod, []) == (None, SKIP)


CONFLICT = Status.new(Code.UNSCHEDULABLE, "node(s) had no available disk")
RWOP_CONFLICT = Status.new(Code.UNSCHEDULABLE, "node(s) unavailable due to PersistentVolumeClaim with "
                           "ReadWriteOncePod access mode already in-use by another pod")


@pytest.mark.parametrize("volume", [GCE, AWS, RBD, ISCSI], ids=["GCE", "AWS", "RBD", "ISCSI"])
def test_same_disk_conflicts(volume):
    """"same state" rows: the node's pod mounts the same disk read-write."""
    plugin, pod, state = VolumeRestrictions(), pod_with_volumes(volume), CycleState()
    assert plugin.pre_filter(state, pod, []) == (None, Status())
    assert plugin.filter(state, pod, NodeInfo.of(None, [pod_with_volumes(volume)])) == CONFLICT
    assert plugin.filter(state, pod, NodeInfo.of(None, [pod_with_volumes()])) == Status()


def _claim(name: str, mode: str) -> object:
    return from_manifest({"apiVersion": "v1", "kind": "PersistentVolumeClaim",
                          "metadata": {"name": name,
                                       "namespace": "default"}, "spec": {"accessModes": [mode]}})


def test_access_mode_conflicts():
    """TestAccessModeConflicts: a ReadWriteOncePod claim used by a pod on some node conflicts everywhere;
    a missing claim is UnschedulableAndUnresolvable."""
    holder = pod_with_volumes(PVC)
    holder = type(holder)(**{**holder.__dict__, "name": "holder", "node_name": "n"})
    handle = VolumeHandle(_claim("claim-with-rwop-1", "ReadWriteOncePod"), nodes=(Node(name="n"),),
                          pods=(holder,))
    plugin, pod, state = VolumeRestrictions(handle), pod_with_volumes(PVC), CycleState()
    assert plugin.pre_filter(state, pod, []) == (None, Status())
    assert plugin.filter(state, pod, NodeInfo()) == RWOP_CONFLICT
    assert plugin.remove_pod(state, pod, PodInfo.of(holder), NodeInfo()) == Status()
    assert plugin.filter(state, pod, NodeInfo()) == Status()
    missing = pod_with_volumes({"name": "x", "persistentVolumeClaim": {"claimName": "claim-not-found"}})
    assert VolumeRestrictions(handle).pre_filter(CycleState(), missing, []) == (
        None, Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
                         'persistentvolumeclaim "claim-not-found" not found'))
    free = VolumeHandle(_claim("claim-with-rwop-1", "ReadWriteOncePod"))
    assert VolumeRestrictions(free).pre_filter(CycleState(), pod, []) == (None, SKIP)


def test_without_pre_filter_state_filter_and_extensions_error():
    plugin, pod, state = VolumeRestrictions(), pod_with_volumes(), CycleState()
    missing = Status.as_status('cannot read "PreFilterVolumeRestrictions" from cycleState')
    assert plugin.filter(state, pod, NodeInfo()) == missing
    assert plugin.pre_filter_extensions() is plugin
    assert plugin.add_pod(state, pod, PodInfo.of(pod_with_volumes(PVC)), NodeInfo()) == missing
    assert plugin.remove_pod(state, pod, PodInfo.of(pod_with_volumes(PVC)), NodeInfo()) == missing


@pytest.mark.parametrize("deleted, want", [
    (pod_with_volumes(GCE), "Queue"), (pod_with_volumes(AWS), "QueueSkip"), (pod_with_volumes(), "QueueSkip"),
], ids=["the deleted pod held the disk", "it held another kind of disk", "it held no disk"])
def test_a_deleted_pod_holding_the_disk_requeues(deleted, want):
    """isSchedulableAfterAssignedPodDeleted: a deleted pod whose disk conflicted with the pod's."""
    hint, err = after_assigned_pod_deleted(pod_with_volumes(GCE), deleted, None)
    assert (hint.value, err) == (want, None)
