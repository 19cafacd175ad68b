"""Ports the volume-free rows of volumerestrictions/volume_restrictions_test.go.

Ported: "nothing" and "one state" of TestGCEDiskConflicts, TestAWSDiskConflicts, TestRBDDiskConflicts,
TestISCSIDiskConflicts, "nothing" of TestAccessModeConflicts, and "pod with a volume that doesn't have
restrictions". Left out: every row whose incoming pod has a PVC or an inline GCE/AWS/RBD/iSCSI disk
(the reference raises NotModelledError for those, tested below), the queueing-hint tests and
TestVolumeRestrictions_DeferredResizeSkipped (InPlacePodVerticalScalingSchedulerPreemption is off).
"""

import pytest

from reference.cycle_state import CycleState
from reference.errors import NotModelledError
from reference.nodeinfo import NodeInfo, PodInfo
from reference.plugins.volume_restrictions import VolumeRestrictions
from reference.status import Code, Status
from tests.builders import pod_with_volumes

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


@pytest.mark.parametrize("volume", [GCE, AWS, RBD, ISCSI, PVC], ids=["gce", "aws", "rbd", "iscsi", "pvc"])
def test_restricted_volumes_are_not_modelled(volume):
    plugin, pod, state = VolumeRestrictions(), pod_with_volumes(volume), CycleState()
    with pytest.raises(NotModelledError, match="not modelled by the reference"):
        plugin.pre_filter(state, pod, [])
    with pytest.raises(NotModelledError):
        plugin.filter(state, pod, NodeInfo())
    with pytest.raises(NotModelledError):
        plugin.add_pod(state, pod, PodInfo.of(pod_with_volumes()), NodeInfo())


def test_without_pre_filter_state_filter_and_extensions_error():
    plugin, pod, state = VolumeRestrictions(), pod_with_volumes(), CycleState()
    missing = Status.as_status('cannot read "PreFilterVolumeRestrictions" from cycleState')
    assert plugin.filter(state, pod, NodeInfo()) == missing
    assert plugin.pre_filter_extensions() is plugin
    assert plugin.add_pod(state, pod, PodInfo.of(pod_with_volumes(PVC)), NodeInfo()) == missing
    assert plugin.remove_pod(state, pod, PodInfo.of(pod_with_volumes(PVC)), NodeInfo()) == missing
