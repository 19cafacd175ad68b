"""Ports nodename/node_name_test.go (TestNodeName, TestNodeName_PreFilter), whole."""

import pytest

from reference.cycle_state import CycleState
from reference.interfaces import PreFilterResult
from reference.nodeinfo import NodeInfo
from reference.plugins.node_name import ERR_REASON, NodeName
from reference.status import SUCCESS, Code, Status
from reference.types import Node, Pod


@pytest.mark.parametrize("pod,node,want", [
    pytest.param(Pod(name="p"), Node(name=""), SUCCESS, id="no host specified"),
    pytest.param(Pod(name="p", node_name="foo"), Node(name="foo"), SUCCESS, id="host matches"),
    pytest.param(Pod(name="p", node_name="bar"), Node(name="foo"),
                 Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON), id="host doesn't match"),
])
def test_node_name(pod, node, want):
    assert NodeName().filter(CycleState(), pod, NodeInfo.of(node)) == want


@pytest.mark.parametrize("pod,want", [
    pytest.param(Pod(name="p", node_name="foo"), PreFilterResult(frozenset({"foo"})),
                 id="assigned pod with nodeName set, prefilter restricts to assigned node"),
    pytest.param(Pod(name="p"), None, id="unassigned pod without nodeName set, prefilter returns nil"),
])
def test_node_name_pre_filter(pod, want):
    assert NodeName().pre_filter(CycleState(), pod, []) == (want, SUCCESS)
