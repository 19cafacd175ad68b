"""Ports volumebinding/volume_binding_test.go's hint tables (TestIsSchedulableAfterPersistentVolumeClaimChange,
TestIsSchedulableAfterCSIStorageCapacityChange, TestIsSchedulableAfterCSINodeChange): each row's objects and
its answer; a wrong object type answers Queue with an error (the queue reads it as Queue)."""

from __future__ import annotations

import pytest

from reference.events import QueueingHint
from reference.plugins.volume_binding_hints import after_capacity_change, after_csi_node_change, after_pvc_change
from reference.types import Pod
from reference.volumes import CSINode, CSIStorageCapacity, PersistentVolumeClaim
from reference.volumes.types import MIGRATED_PLUGINS_ANNOTATION

Q, SKIP = QueueingHint.QUEUE, QueueingHint.QUEUE_SKIP


def _pod(*volumes: dict, namespace: str = "default") -> Pod:
    return Pod(name="pod-a", namespace=namespace, volumes=volumes)


def _claim(name: str) -> dict:
    return {"name": name, "persistentVolumeClaim": {"claimName": name}}


def _ephemeral(name: str) -> dict:
    return {"name": name, "ephemeral": {"volumeClaimTemplate": {}}}


PVC_B = PersistentVolumeClaim(name="pvc-b")


@pytest.mark.parametrize("pod, old, new, want", [
    (_pod({"name": "e", "emptyDir": {}}), PVC_B, PVC_B, SKIP),
    (_pod(_claim("pvc-a"), _claim("pvc-b"), namespace="ns-a"), None, PVC_B, SKIP),
    (_pod(_claim("pvc-a"), _claim("pvc-c")), PVC_B, PVC_B, SKIP),
    (_pod(_ephemeral("ephemeral-a"), _ephemeral("ephemeral-c")),
     PersistentVolumeClaim(name="pod-a-ephemeral-b"), PersistentVolumeClaim(name="pod-a-ephemeral-b"), SKIP),
    (_pod(_claim("pvc-a"), _claim("pvc-b")), PVC_B, PVC_B, Q),
    (_pod(_ephemeral("ephemeral-a"), _ephemeral("ephemeral-b")),
     PersistentVolumeClaim(name="pod-a-ephemeral-b"), PersistentVolumeClaim(name="pod-a-ephemeral-b"), Q),
], ids=["pod has no pvc or ephemeral volumes",
        "pvc with the same name as the one used by the pod in a different namespace is modified",
        "pod has no pvc that is being modified", "pod has no generic ephemeral volume that is being modified",
        "pod has the pvc that is being modified", "pod has the generic ephemeral volume that is being modified"])
def test_after_pvc_change(pod, old, new, want):
    assert after_pvc_change(pod, old, new) == (want, None)


def test_after_pvc_change_type_conversion_error():
    hint, err = after_pvc_change(_pod(), object(), object())
    assert hint is Q and err


def _cap(capacity: int | None = None, maximum: int | None = None) -> CSIStorageCapacity:
    return CSIStorageCapacity(name="cap-a", capacity=capacity, maximum_volume_size=maximum)


@pytest.mark.parametrize("old, new, want", [
    (None, _cap(), Q), (_cap(), _cap(100), Q), (_cap(), _cap(maximum=100), Q), (_cap(50), _cap(100), Q),
    (_cap(100, 50), _cap(100), Q), (_cap(100, 50), _cap(100, 60), Q), (_cap(100, 50), _cap(100, 50), SKIP),
    (_cap(100), _cap(100), SKIP), (_cap(100, 50), _cap(50), SKIP), (_cap(100), _cap(90), SKIP),
    (_cap(100, 100), _cap(100, 90), SKIP),
], ids=["a new CSIStorageCapacity", "capacity set", "maximumVolumeSize set", "capacity increase",
        "maximumVolumeSize unset", "maximumVolumeSize increase", "no changes", "equal capacity",
        "equal after maximumVolumeSize unset", "capacity decrease", "maximumVolumeSize decrease"])
def test_after_capacity_change(old, new, want):
    assert after_capacity_change(_pod(), old, new) == (want, None)


def _csi_node(migrated: str | None) -> CSINode:
    return CSINode(name="n", annotations={} if migrated is None else {MIGRATED_PLUGINS_ANNOTATION: migrated})


@pytest.mark.parametrize("old, new, want", [
    (None, _csi_node(None), Q), (_csi_node(None), _csi_node("test1"), Q),
    (_csi_node("test1"), _csi_node("test1, test2"), Q), (_csi_node("test1"), _csi_node("test1"), SKIP),
], ids=["CSINode is newly created", "CSINode's migrated-plugins annotations is added",
        "CSINode's migrated-plugins annotation is updated",
        "CSINode is updated but migrated-plugins annotation gets unchanged"])
def test_after_csi_node_change(old, new, want):
    assert after_csi_node_change(_pod(), old, new) == (want, None)
