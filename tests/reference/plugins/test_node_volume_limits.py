"""NodeVolumeLimits (nodevolumelimits/csi.go) for pods the reference models.

No row of csi_test.go is ported: TestCSILimits and TestVolumeLimitScalingGate schedule pods with PVCs,
ephemeral or migratable inline volumes against CSINodes (not modelled: NotModelledError, tested
below); the other tests are queueing hints or need InPlacePodVerticalScalingSchedulerPreemption (off).
"""

import pytest

from reference.cycle_state import CycleState
from reference.errors import NotModelledError
from reference.nodeinfo import NodeInfo
from reference.plugins.node_volume_limits import COUNTED_SOURCES, NodeVolumeLimits
from reference.status import SUCCESS, Code, Status
from reference.types import Node
from tests.builders import pod_with_volumes


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


@pytest.mark.parametrize("source", COUNTED_SOURCES)
def test_counted_volumes_are_not_modelled(source):
    pod = pod_with_volumes({"name": "v", source: {}})
    with pytest.raises(NotModelledError, match="not modelled by the reference"):
        NodeVolumeLimits().pre_filter(CycleState(), pod, [])
    with pytest.raises(NotModelledError):
        NodeVolumeLimits().filter(CycleState(), pod, NodeInfo.of(Node(name="n")))
