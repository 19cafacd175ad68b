"""NodeVolumeLimits (nodevolumelimits/csi.go), and its hint tables (TestCSILimitsQHint,
TestCSILimitsAddedPVCQHint, TestCSILimitsDeletedVolumeAttachmentQHint,
TestCSILimitsAfterCSINodeUpdatedQHint).

Ported in the manner of TestCSILimits: a CSI PV against the driver's limit, attached volumes counted
once, VolumeAttachments, inline migratable volumes, a missing PVC. The queueing table runs the hints
through the queue too; InPlacePodVerticalScalingSchedulerPreemption is off.
"""

import pytest

from reference.cycle_state import CycleState
from reference.nodeinfo import NodeInfo
from reference.events import QueueingHint
from reference.plugins.node_volume_limits import (NodeVolumeLimits, after_assigned_pod_deleted,
                                                  after_csi_node_updated, after_pvc_added,
                                                  after_volume_attachment_deleted)
from reference.status import SUCCESS, Code, Status
from reference.types import Node, Pod
from reference.volumes import CSINode, CSINodeDriver, PersistentVolumeClaim, VolumeAttachment
from reference.codec import from_manifest
from tests.builders import pod_with_volumes
from tests.reference.plugins._volumes import VolumeHandle


@pytest.mark.parametrize("pod", [
    pytest.param(pod_with_volumes(), id="no volumes"),
    pytest.param(pod_with_volumes({"name": "e", "emptyDir": {}}, {"name": "h", "hostPath": {"path": "/x"}},
                          {"name": "n", "nfs": {"server": "s", "path": "/"}}, {"name": "c", "csi": {"driver": "d"}}),
                 id="volumes that never count against CSI limits"),
])
def test_pods_without_counted_volumes(pod):
    plugin = NodeVolumeLimits()
    assert plugin.pre_filter(CycleState(), pod, []) == (None, Status.new(Code.SKIP))
    assert plugin.filter(CycleState(), pod, NodeInfo.of(Node(name="n"))) == SUCCESS


EXCEEDED = Status.new(Code.UNSCHEDULABLE, "node(s) exceed max volume count")


def _pv(name: str, handle: str, driver: str = "csi.test") -> object:
    return from_manifest({"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": name},
                          "spec": {"csi": {"driver": driver, "volumeHandle": handle}}})


def _pvc(name: str, volume: str) -> object:
    return from_manifest({"apiVersion": "v1", "kind": "PersistentVolumeClaim",
                          "metadata": {"name": name, "namespace": "default"}, "spec": {"volumeName": volume}})


def _csi_node(*limits: tuple[str, int]) -> object:
    return from_manifest({"apiVersion": "storage.k8s.io/v1", "kind": "CSINode", "metadata": {"name": "n"},
                          "spec": {"drivers": [{"name": d, "nodeID": "n", "allocatable": {"count": c}}
                                               for d, c in limits]}})


def _claims(*names: str):
    return pod_with_volumes(*({"name": n, "persistentVolumeClaim": {"claimName": n}} for n in names))


OBJECTS = (_pv("pv-a", "a"), _pv("pv-b", "b"), _pvc("c-a", "pv-a"), _pvc("c-b", "pv-b"))


@pytest.mark.parametrize("limit,existing,want", [
    (2, ["c-a"], SUCCESS), (1, ["c-a"], EXCEEDED), (1, ["c-b"], SUCCESS), (0, [], EXCEEDED),
], ids=["fits the limit", "exceeds the limit", "an attached volume counts once", "zero limit"])
def test_csi_limits(limit, existing, want):
    handle = VolumeHandle(*OBJECTS, _csi_node(("csi.test", limit)))
    pod = _claims("c-b")
    on_node = [_claims(*existing)] if existing else []
    plugin = NodeVolumeLimits(handle)
    assert plugin.pre_filter(CycleState(), pod, []) == (None, SUCCESS)
    assert plugin.filter(CycleState(), pod, NodeInfo.of(Node(name="n"), on_node)) == want


def test_volume_attachments_count():
    va = from_manifest({"apiVersion": "storage.k8s.io/v1", "kind": "VolumeAttachment",
                        "metadata": {"name": "va"},
                        "spec": {"attacher": "csi.test", "nodeName": "n",
                                 "source": {"persistentVolumeName": "pv-a"}}})
    handle = VolumeHandle(*OBJECTS, va, _csi_node(("csi.test", 1)))
    assert NodeVolumeLimits(handle).filter(CycleState(), _claims("c-b"),
                                           NodeInfo.of(Node(name="n"))) == EXCEEDED
    # Only the node's pods' volumes are taken out of the new ones, not its attachments (csi.go).
    assert NodeVolumeLimits(handle).filter(CycleState(), _claims("c-a"),
                                           NodeInfo.of(Node(name="n"))) == EXCEEDED


def test_inline_migratable_volume_counts_only_with_a_csi_node():
    pod = pod_with_volumes({"name": "v", "awsElasticBlockStore": {"volumeID": "vol-1"}})
    limited = NodeVolumeLimits(VolumeHandle(_csi_node(("ebs.csi.aws.com", 0))))
    assert limited.pre_filter(CycleState(), pod, []) == (None, SUCCESS)
    assert limited.filter(CycleState(), pod, NodeInfo.of(Node(name="n"))) == EXCEEDED
    assert NodeVolumeLimits(VolumeHandle()).filter(CycleState(), pod, NodeInfo.of(Node(name="n"))) == SUCCESS


def test_missing_claim_is_unresolvable():
    status = NodeVolumeLimits(VolumeHandle()).filter(CycleState(), _claims("gone"),
                                                     NodeInfo.of(Node(name="n")))
    assert status == Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
                                'looking up PVC default/gone: persistentvolumeclaim "gone" not found')


# --- hints: TestCSILimitsQHint, TestCSILimitsAddedPVCQHint -------------------------------------

def _pod(name: str = "p", namespace: str = "default", node_name: str = "", *volumes: dict) -> Pod:
    return Pod(name=name, namespace=namespace, node_name=node_name, volumes=volumes)


def _pvc_volume(claim: str) -> dict:
    return {"name": claim, "persistentVolumeClaim": {"claimName": claim}}


EBS = {"name": "ebs", "awsElasticBlockStore": {}}
Q, SKIP = QueueingHint.QUEUE, QueueingHint.QUEUE_SKIP


@pytest.mark.parametrize("deleted, want", [
    (_pod("d", "default", "n", _pvc_volume("placeholder")), Q),
    (_pod("d", "default", "n", EBS), Q),
    (_pod("d", "default", "n"), SKIP),
    (_pod("d", "default", "", _pvc_volume("csi-ebs.csi.aws.com-0")), SKIP),
], ids=["return a Queue when a deleted pod has a PVC",
        "return a Queue when a deleted pod has a inline migratable volume",
        "return a QueueSkip when a deleted pod doesn't have any volume",
        "return a QueueSkip when a deleted pod is not scheduled."])
def test_assigned_pod_deleted_hint(deleted, want):
    assert after_assigned_pod_deleted(_pod("new", "default", "", EBS), deleted, None) == (want, None)


def _claim_of(name: str, namespace: str) -> PersistentVolumeClaim:
    return PersistentVolumeClaim(name=name, namespace=namespace)


@pytest.mark.parametrize("pod, added, want", [
    (_pod("p", "ns1"), _claim_of("", "ns2"), SKIP),
    (_pod("p", "ns1", "", _pvc_volume("pvc1")), _claim_of("pvc1", "ns1"), Q),
    (_pod("pod1", "ns1", "", {"name": "ephemeral", "ephemeral": {}}), _claim_of("pod1-ephemeral", "ns1"), Q),
    (_pod("p", "ns1", "", _pvc_volume("pvc1")), _claim_of("pvc2", "ns1"), SKIP),
    (_pod("p", "ns1"), _claim_of("pvc2", "ns1"), SKIP),
], ids=["a pod isn't in the same namespace as an added PVC", "a pod is in the same namespace as an added PVC",
        "a pod has an ephemeral volume related to an added PVC",
        "a pod doesn't have the same PVC as an added PVC", "a pod doesn't have any PVC attached"])
def test_added_pvc_hint(pod, added, want):
    assert after_pvc_added(pod, None, added) == (want, None)


def _attachment(attacher: str) -> VolumeAttachment:
    return VolumeAttachment(name="va", attacher=attacher, node_name="n", persistent_volume_name="pv")


EBS_TEST = {"name": "ebs", "awsElasticBlockStore": {"volumeID": "test"}}
GCE_TEST = {"name": "gce", "gcePersistentDisk": {"pdName": "test"}}


@pytest.mark.parametrize("volumes, attacher, want", [
    ((_pvc_volume("pvc1"),), "test.storage.gke.io", Q),
    ((EBS_TEST,), "ebs.csi.aws.com", Q),
    ((GCE_TEST,), "ebs.csi.aws.com", SKIP),
    ((EBS_TEST, _pvc_volume("pvc1")), "ebs.csi.aws.com", Q),
    ((EBS_TEST, _pvc_volume("pvc1")), "test.storage.gke.io", Q),
    ((), "test.storage.gke.io", SKIP),
], ids=["a pod has PVC when VolumeAttachment is deleting",
        "an Inline Migratable volume (AWSEBSDriver) when VolumeAttachment (AWSEBSDriver) is deleting (match)",
        "an Inline Migratable volume (GCEPDDriver) when VolumeAttachment (AWSEBSDriver) is deleting (no match)",
        "an Inline Migratable volume (AWSEBSDriver) and PVC, VolumeAttachment (AWSEBSDriver)",
        "an Inline Migratable volume (AWSEBSDriver) and PVC, another attacher",
        "a pod has no PVC when VolumeAttachment is deleting"])
def test_volume_attachment_deleted_hint(volumes, attacher, want):
    pod = _pod("p", "ns1", "", *volumes)
    assert after_volume_attachment_deleted(pod, _attachment(attacher), None) == (want, None)


def _limits(count: int) -> CSINode:
    return CSINode(name="test-node", drivers=(CSINodeDriver(name="test-driver", node_id="test-node", count=count),))


@pytest.mark.parametrize("old, new, want", [(1, 2, Q), (2, 1, SKIP), (1, 1, SKIP)],
                         ids=["limit raised, queue", "limit decreased, skip queueing",
                              "limit unchanged, skip queueing"])
def test_csi_node_updated_hint(old, new, want):
    """TestCSILimitsAfterCSINodeUpdatedQHint."""
    assert after_csi_node_updated(_pod(), _limits(old), _limits(new)) == (want, None)
