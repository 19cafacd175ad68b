"""Ports the volume-free rows of volumezone/volume_zone_test.go.

Ported: "pod without volume" of TestSingleZone (PreFilter Skip). Left out: every other row of
TestSingleZone, TestMultiZone and TestWithBinding (their pods use PVCs, not modelled:
NotModelledError, tested below), the queueing-hint tests and TestVolumeZone_DeferredResizeSkipped
(InPlacePodVerticalScalingSchedulerPreemption is off).
"""

import pytest

from reference.cycle_state import CycleState
from reference.errors import NotModelledError
from reference.nodeinfo import NodeInfo
from reference.plugins.volume_zone import VolumeZone
from reference.status import SUCCESS, Code, Status
from reference.types import Node, Pod

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


def test_pvc_volumes_are_not_modelled():
    pod = Pod(name="p", volumes=({"name": "v", "persistentVolumeClaim": {"claimName": "PVC_1"}},))
    with pytest.raises(NotModelledError, match="not modelled by the reference"):
        VolumeZone().pre_filter(CycleState(), pod, [])
    with pytest.raises(NotModelledError):
        VolumeZone().filter(CycleState(), pod, NodeInfo.of(ZONED_NODE))
