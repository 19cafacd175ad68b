"""Ports tainttoleration/taint_toleration_test.go: TestTaintTolerationScore, TestTaintTolerationFilter,
TestTaintTolerationFilterWithFeatureGate.

Left out: rows with `enableTaintTolerationComparisonOps: true` (TaintTolerationComparisonOperators is off in
v1.37.2 and the reference models the defaults): 2 score rows and 5 filter rows, and the 2 gate-on rows of
TestTaintTolerationFilterWithFeatureGate; TestIsSchedulableAfterNodeChange and
Test_isSchedulableAfterTargetPodTolerationChange (queueing hints are not modelled);
TestTaintToleration_DeferredResizeSkipped (InPlacePodVerticalScalingSchedulerPreemption is off).
"""

import pytest

from reference.cycle_state import CycleState
from reference.interfaces import MAX_NODE_SCORE, NodeScore
from reference.nodeinfo import NodeInfo
from reference.plugins.taint_toleration import TaintToleration
from reference.status import SUCCESS, Code, Status
from reference.types import Node, Pod, Taint, Toleration

UNTOLERATED = Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "node(s) had untolerated taint(s)")
PNS, NS = "PreferNoSchedule", "NoSchedule"


def tol(key, value="", effect="", operator="Equal"):
    return Toleration(key=key, operator=operator, value=value, effect=effect)


def taint(key, value, effect):
    return Taint(key=key, value=value, effect=effect)


def pod_tolerating(*tolerations):
    return Pod(name="pod1", tolerations=tuple(tolerations))


def node_tainted(name, *taints):
    return Node(name=name, taints=tuple(taints))


SCORE_CASES = [
    pytest.param(
        pod_tolerating(tol("foo", "bar", PNS)),
        [node_tainted("nodeA", taint("foo", "bar", PNS)), node_tainted("nodeB", taint("foo", "blah", PNS))],
        [MAX_NODE_SCORE, 0],
        id="node with taints tolerated by the pod, gets a higher score than those node with intolerable taints"),
    pytest.param(
        pod_tolerating(tol("cpu-type", "arm64", PNS), tol("disk-type", "ssd", PNS)),
        [node_tainted("nodeA"), node_tainted("nodeB", taint("cpu-type", "arm64", PNS)),
         node_tainted("nodeC", taint("cpu-type", "arm64", PNS), taint("disk-type", "ssd", PNS))],
        [MAX_NODE_SCORE, MAX_NODE_SCORE, MAX_NODE_SCORE],
        id="the nodes that all of their taints are tolerated by the pod, get the same score, no matter how many "
           "tolerable taints a node has"),
    pytest.param(
        pod_tolerating(tol("foo", "bar", PNS)),
        [node_tainted("nodeA"), node_tainted("nodeB", taint("cpu-type", "arm64", PNS)),
         node_tainted("nodeC", taint("cpu-type", "arm64", PNS), taint("disk-type", "ssd", PNS))],
        [MAX_NODE_SCORE, 50, 0],
        id="the more intolerable taints a node has, the lower score it gets."),
    pytest.param(
        pod_tolerating(tol("cpu-type", "arm64", NS), tol("disk-type", "ssd", NS)),
        [node_tainted("nodeA"), node_tainted("nodeB", taint("cpu-type", "arm64", NS)),
         node_tainted("nodeC", taint("cpu-type", "arm64", PNS), taint("disk-type", "ssd", PNS))],
        [MAX_NODE_SCORE, MAX_NODE_SCORE, 0],
        id="only taints and tolerations that have effect PreferNoSchedule are checked by taints-tolerations priority "
           "function"),
    pytest.param(
        pod_tolerating(),
        [node_tainted("nodeA"), node_tainted("nodeB", taint("cpu-type", "arm64", PNS))],
        [MAX_NODE_SCORE, 0],
        id="Default behaviour No taints and tolerations, lands on node with no taints"),
]


@pytest.mark.parametrize("pod,nodes,expected", SCORE_CASES)
def test_taint_toleration_score(pod, nodes, expected):
    plugin = TaintToleration()
    state = CycleState()
    infos = [NodeInfo.of(n) for n in nodes]
    assert plugin.pre_score(state, pod, infos).is_success()
    scores = []
    for info in infos:
        score, status = plugin.score(state, pod, info)
        assert status.is_success()
        scores.append(NodeScore(info.name, score))
    assert plugin.score_extensions().normalize_score(state, pod, scores).is_success()
    assert [(s.name, s.score) for s in scores] == [(n.name, e) for n, e in zip(nodes, expected)]


FILTER_CASES = [
    pytest.param(pod_tolerating(), node_tainted("nodeA", taint("dedicated", "user1", NS)), UNTOLERATED,
                 id="A pod having no tolerations can't be scheduled onto a node with nonempty taints"),
    pytest.param(pod_tolerating(tol("dedicated", "user1", NS, operator="")),
                 node_tainted("nodeA", taint("dedicated", "user1", NS)), SUCCESS,
                 id="A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule"),
    pytest.param(pod_tolerating(tol("dedicated", "user2", NS)), node_tainted("nodeA", taint("dedicated", "user1", NS)),
                 UNTOLERATED,
                 id="A pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule"),
    pytest.param(pod_tolerating(tol("foo", effect=NS, operator="Exists")),
                 node_tainted("nodeA", taint("foo", "bar", NS)), SUCCESS,
                 id="A pod can be scheduled onto the node, with a toleration uses operator Exists that tolerates the "
                    "taints on the node"),
    pytest.param(pod_tolerating(tol("dedicated", "user2", NS), tol("foo", effect=NS, operator="Exists")),
                 node_tainted("nodeA", taint("dedicated", "user2", NS), taint("foo", "bar", NS)), SUCCESS,
                 id="A pod has multiple tolerations, node has multiple taints, all the taints are tolerated, pod can "
                    "be scheduled onto the node"),
    pytest.param(pod_tolerating(tol("foo", "bar", PNS)), node_tainted("nodeA", taint("foo", "bar", NS)), UNTOLERATED,
                 id="A pod has a toleration that keys and values match the taint on the node, but (non-empty) effect "
                    "doesn't match, can't be scheduled onto the node"),
    pytest.param(pod_tolerating(tol("foo", "bar")), node_tainted("nodeA", taint("foo", "bar", NS)), SUCCESS,
                 id="The pod has a toleration that keys and values match the taint on the node, the effect of "
                    "toleration is empty, and the effect of taint is NoSchedule. Pod can be scheduled onto the node"),
    pytest.param(pod_tolerating(tol("dedicated", "user2", NS)), node_tainted("nodeA", taint("dedicated", "user1", PNS)),
                 SUCCESS,
                 id="The pod has a toleration that key and value don't match the taint on the node, but the effect of "
                    "taint on node is PreferNoSchedule. Pod can be scheduled onto the node"),
    pytest.param(pod_tolerating(), node_tainted("nodeA", taint("dedicated", "user1", PNS)), SUCCESS,
                 id="The pod has no toleration, but the effect of taint on node is PreferNoSchedule. Pod can be "
                    "scheduled onto the node"),
    # TestTaintTolerationFilterWithFeatureGate, gate-off rows.
    pytest.param(pod_tolerating(tol("node.kubernetes.io/sla", "750", NS, operator="Gt")),
                 node_tainted("nodeA", taint("node.kubernetes.io/sla", "950", NS)), UNTOLERATED,
                 id="Pod with Gt toleration cannot be scheduled when feature gate is disabled"),
    pytest.param(pod_tolerating(tol("node.kubernetes.io/sla", "950", NS, operator="Lt")),
                 node_tainted("nodeA", taint("node.kubernetes.io/sla", "800", NS)), UNTOLERATED,
                 id="Pod with Lt toleration cannot be scheduled when feature gate is disabled"),
    pytest.param(pod_tolerating(tol("dedicated", "user1", NS), tol("node.kubernetes.io/sla", "750", NS, operator="Gt")),
                 node_tainted("nodeA", taint("dedicated", "user1", NS)), SUCCESS,
                 id="Pod with mixed tolerations (Equal and Gt) when feature gate is disabled - only Equal is honored"),
    pytest.param(pod_tolerating(tol("dedicated", "user1", NS), tol("node.kubernetes.io/sla", "750", NS, operator="Gt")),
                 node_tainted("nodeA", taint("dedicated", "user1", NS), taint("node.kubernetes.io/sla", "950", NS)),
                 UNTOLERATED,
                 id="Pod with mixed tolerations, Gt toleration needed but filtered out when feature gate is disabled"),
]


@pytest.mark.parametrize("pod,node,want", FILTER_CASES)
def test_taint_toleration_filter(pod, node, want):
    assert TaintToleration().filter(CycleState(), pod, NodeInfo.of(node)) == want


def test_no_execute_taints_are_filtered_too():
    node = node_tainted("n", taint("k", "v", "NoExecute"))
    assert TaintToleration().filter(CycleState(), pod_tolerating(), NodeInfo.of(node)) == UNTOLERATED


def test_pre_filter_is_success_not_skip():
    assert TaintToleration().pre_filter(CycleState(), pod_tolerating(), []) == (None, SUCCESS)


def test_score_without_pre_score_is_an_error():
    score, status = TaintToleration().score(CycleState(), pod_tolerating(), NodeInfo.of(node_tainted("n")))
    assert (score, status) == (0, Status.as_status('failed to read "PreScoreTaintToleration" from cycleState: '
                                                   'not found'))
