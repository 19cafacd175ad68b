"""Ports nodeunschedulable/node_unschedulable_test.go (TestNodeUnschedulable).

Left out: TestIsSchedulableAfterNodeChange and TestIsSchedulableAfterPodTolerationChange (queueing
hints are not modelled), TestNodeUnschedulable_DeferredResizeSkipped (needs
InPlacePodVerticalScalingSchedulerPreemption, off in v1.37.2).
"""

import pytest

from reference.cycle_state import CycleState
from reference.nodeinfo import NodeInfo
from reference.plugins.node_unschedulable import ERR_REASON_UNSCHEDULABLE, NodeUnschedulable
from reference.status import SUCCESS, Code, Status
from reference.types import Node, Pod, Toleration


@pytest.mark.parametrize("pod,node,want", [
    pytest.param(Pod(name="p"), Node(name="n", unschedulable=True),
                 Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_UNSCHEDULABLE),
                 id="Does not schedule pod to unschedulable node (node.Spec.Unschedulable==true)"),
    pytest.param(Pod(name="p"), Node(name="n", unschedulable=False), SUCCESS, id="Schedule pod to normal node"),
    pytest.param(Pod(name="p", tolerations=(Toleration(key="node.kubernetes.io/unschedulable", effect="NoSchedule"),)),
                 Node(name="n", unschedulable=True), SUCCESS,
                 id="Schedule pod with toleration to unschedulable node (node.Spec.Unschedulable==true)"),
])
def test_node_unschedulable(pod, node, want):
    assert NodeUnschedulable().filter(CycleState(), pod, NodeInfo.of(node)) == want


def test_pre_filter_is_success_not_skip():
    assert NodeUnschedulable().pre_filter(CycleState(), Pod(name="p"), []) == (None, SUCCESS)


@pytest.mark.parametrize("toleration,tolerated", [
    (Toleration(operator="Exists"), True),
    (Toleration(key="node.kubernetes.io/unschedulable", operator="Exists", effect="NoExecute"), False),
    (Toleration(key="node.kubernetes.io/unschedulable", operator="Gt", value="0"), False),
])
def test_only_tolerations_of_the_unschedulable_no_schedule_taint_count(toleration, tolerated):
    pod = Pod(name="p", tolerations=(toleration,))
    status = NodeUnschedulable().filter(CycleState(), pod, NodeInfo.of(Node(name="n", unschedulable=True)))
    assert status.is_success() is tolerated
