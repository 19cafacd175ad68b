"""DefaultPreemption, ported from pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go
(v1.37.1) and the DefaultPreemptionArgs cases of apis/config/validation/validation_pluginargs_test.go.

Left out:
- TestPostFilter "preemption result filtered out by extenders": extenders are not reachable from the handle.
- TestPostFilter "pod with SchedulingGroup ...", the PodGroup cases of TestPodEligibleToPreemptOthers and
  every TestDefaultPreemption_PodGroupPostFilter_*: GenericWorkload is off by default; PodGroups not modelled.
- TestPostFilter "deferred pod resize ..." (3 cases): pod resize conditions are not modelled.
- TestCustomSelection / TestCustomOrdering: custom IsEligiblePod / MoreImportantVictim hooks are not offered.
- TestPreEnqueue: the reference runs the async preemption to completion inside PostFilter, so no pod is
  ever "running preemption" when PreEnqueue runs (tested below as always-Success).
- Async API-call variants: one run per case (the reference has no API dispatcher).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from reference.cycle_state import CycleState
from reference.errors import ConfigError
from reference.framework.runtime import Framework
from reference.interfaces import NodeToStatus, NominatingInfo, NominatingMode, PostFilterResult, PreFilterPlugin
from reference.nodeinfo import PodInfo, Snapshot
from reference.plugins.default_preemption import (DefaultPreemption, DefaultPreemptionArgs,
                                                  calculate_num_candidates)
from reference.plugins.node_resources_fit import NodeResourcesFit
from reference.plugins.preemption.evaluator import dry_run_preemption, select_candidate
from reference.scheduler.clock import VirtualClock
from reference.status import SUCCESS, Code, Status
from reference.types import LabelSelector, Pod, PodDisruptionBudget
from tests.builders import FakeClient, node, pod

NEG, LOW, MID, HIGH, VERY_HIGH = -100, 0, 100, 1000, 10000
SMALL = {"cpu": 100, "memory": 100}
MEDIUM = {"cpu": 200, "memory": 200}
LARGE = {"cpu": 300, "memory": 300}
VERY_LARGE = {"cpu": 500, "memory": 500}
ONE_POD = {"pods": 1}
NODE_RES = {"cpu": 200, "memory": 400}
PDB_KEY, VIOLATING, NON_VIOLATING = "test.kubernetes.io/is-violating-pdb", "violating", "non-violating"
U, UAU = Code.UNSCHEDULABLE, Code.UNSCHEDULABLE_AND_UNRESOLVABLE


def mk_node(name, res, **kw):
    """`st.MakeNode().Capacity(res)`: 32 pods unless `res` says otherwise."""
    return node(name, allocatable={"pods": 32, **res}, **kw)


def mk_pod(name, *, req=None, **kw):
    return pod(name, requests=[req] if req else [], **kw)


class FailingExtensionPlugin(PreFilterPlugin):
    """Upstream's TestPlugin: AddPod/RemovePod fail on nodes labelled error=true."""

    NAME = "test-plugin"

    def pre_filter(self, state, p, nodes):
        return None, SUCCESS

    def pre_filter_extensions(self):
        return self

    def add_pod(self, state, p, to_add, node_info):
        return self._check("add", p, node_info)

    def remove_pod(self, state, p, to_remove, node_info):
        return self._check("remove", p, node_info)

    @staticmethod
    def _check(verb, p, node_info):
        if node_info.node.labels.get("error") == "true":
            return Status.as_status(f"failed to {verb} pod: {p.name}")
        return SUCCESS


def build(nodes, pods, preemptor, *, pdbs=(), extra_pre_filter=(), nominator=None):
    client = FakeClient(pdbs=list(pdbs))
    fit = NodeResourcesFit.new(None, None)
    fw = Framework("default", {"preFilter": [fit, *extra_pre_filter], "filter": [fit]}, {}, client=client,
                   clock=VirtualClock(), nominator=nominator)
    fw.set_snapshot(Snapshot(nodes, pods))
    state = CycleState()
    _, status, _ = fw.run_pre_filter_plugins(state, preemptor)
    assert status.is_success(), status
    return DefaultPreemption.new(DefaultPreemptionArgs(), fw), fw, state, client


def statuses(codes, absent=UAU):
    return NodeToStatus({n: Status.new(c) for n, c in codes.items()}, Status.new(absent))


def nominated(name):
    return PostFilterResult(NominatingInfo(name, NominatingMode.OVERRIDE))


def found(name, n):
    return Status.new(Code.SUCCESS, f"preemption: found a potential placement for pod on node {name}, preempting {n} victims")


def unsched(msg):
    return Status.new(U, "preemption: " + msg)


POST_FILTER_CASES = [
    pytest.param(
        mk_pod("p", priority=HIGH), [mk_pod("p1", node_name="node1")], [mk_node("node1", ONE_POD)], (),
        statuses({"node1": U}), nominated("node1"), found("node1", 1),
        id="pod with higher priority can be made schedulable"),
    pytest.param(
        mk_pod("p"), [mk_pod("p1", node_name="node1")], [mk_node("node1", ONE_POD)], (),
        statuses({"node1": U}), nominated(""),
        unsched("0/1 nodes are available: 1 No preemption victims found for incoming pod."),
        id="pod with tied priority is still unschedulable"),
    pytest.param(
        mk_pod("p", priority=HIGH), [mk_pod("p1", node_name="node1")], [mk_node("node1", ONE_POD)], (),
        statuses({"node1": UAU}), nominated(""),
        unsched("0/1 nodes are available: 1 Preemption is not helpful for scheduling."),
        id="preemption should respect filteredNodesStatuses"),
    pytest.param(
        mk_pod("p", priority=HIGH), [mk_pod("p1", node_name="node1")], [mk_node("node1", ONE_POD)], (),
        statuses({}), nominated(""),
        unsched("0/1 nodes are available: 1 Preemption is not helpful for scheduling."),
        id="preemption should respect absent NodeToStatusReader entry meaning UnschedulableAndUnresolvable"),
    pytest.param(
        mk_pod("p", priority=MID),
        [mk_pod("p1", priority=HIGH, node_name="node1"), mk_pod("p2", priority=LOW, node_name="node2")],
        [mk_node("node1", ONE_POD), mk_node("node2", ONE_POD)], (),
        statuses({"node1": U, "node2": U}), nominated("node2"), found("node2", 1),
        id="pod can be made schedulable on one node"),
    pytest.param(
        mk_pod("p", priority=VERY_HIGH),
        [mk_pod("p1", labels={PDB_KEY: NON_VIOLATING}, priority=HIGH, node_name="node1"),
         mk_pod("p2", labels={PDB_KEY: VIOLATING}, priority=LOW, node_name="node1"),
         mk_pod("p3", labels={PDB_KEY: VIOLATING}, priority=MID, node_name="node2")],
        [mk_node("node1", ONE_POD), mk_node("node2", ONE_POD)],
        (PodDisruptionBudget("violating-pdb", selector=LabelSelector({PDB_KEY: VIOLATING}), min_available="100%"),
         PodDisruptionBudget("non-violating-pdb", selector=LabelSelector({PDB_KEY: NON_VIOLATING}),
                             min_available="0", disruptions_allowed=2**31 - 1)),
        statuses({"node1": U, "node2": U}), nominated("node2"), found("node2", 1),
        id="pod can be made schedulable on minHighestPriority node"),
    pytest.param(
        mk_pod("p", priority=HIGH, req=LARGE),
        [mk_pod("p1", node_name="node1"), mk_pod("p2", node_name="node2")],
        [mk_node("node1", NODE_RES), mk_node("node2", NODE_RES)], (),
        statuses({"node1": U, "node2": U}), nominated(""),
        unsched("0/2 nodes are available: 2 Insufficient cpu."),
        id="no candidate nodes found, no enough resource after removing low priority pods"),
    pytest.param(
        mk_pod("p", priority=HIGH, req=LARGE),
        [mk_pod("p1", node_name="node1", priority=HIGH), mk_pod("p2", node_name="node2"),
         mk_pod("p3", node_name="node3", priority=HIGH)],
        [mk_node("node1", ONE_POD), mk_node("node2", NODE_RES), mk_node("node3", ONE_POD)], (),
        statuses({"node1": U, "node2": U, "node3": U}), nominated(""),
        unsched("0/3 nodes are available: 1 Insufficient cpu, 2 No preemption victims found for incoming pod."),
        id="no candidate nodes found with mixed reasons, no lower priority pod and no enough CPU resource"),
    pytest.param(
        mk_pod("p", priority=HIGH, req=LARGE),
        [mk_pod("p1", node_name="node1"), mk_pod("p2", node_name="node2")],
        [mk_node(f"node{i}", NODE_RES) for i in range(1, 5)], (),
        statuses({"node1": U, "node2": U, "node4": UAU}), nominated(""),
        unsched("0/4 nodes are available: 2 Insufficient cpu, 2 Preemption is not helpful for scheduling."),
        id="no candidate nodes found with mixed reason, 2 UnschedulableAndUnresolvable nodes and 2 nodes "
           "don't have enough CPU resource"),
    pytest.param(
        mk_pod("p", priority=HIGH, req=LARGE), [mk_pod("p1", node_name="node1")],
        [mk_node("node1", LARGE, labels={"error": "true"})], (),
        statuses({"node1": U}), None,
        Status.as_status('preemption: running RemovePod on PreFilter plugin "test-plugin": failed to remove pod: p'),
        id="only one node but failed with TestPlugin"),
    pytest.param(
        mk_pod("p", priority=HIGH, req=LARGE),
        [mk_pod("p1", node_name="node1"), mk_pod("p2", node_name="node2", req=MEDIUM)],
        [mk_node("node1", LARGE, labels={"error": "true"}), mk_node("node2", LARGE)], (),
        statuses({"node1": U, "node2": U}), nominated("node2"), found("node2", 1),
        id="one failed with TestPlugin and the other pass"),
]


@pytest.mark.parametrize("preemptor,pods,nodes,pdbs,filtered,want_result,want_status", POST_FILTER_CASES)
def test_post_filter(preemptor, pods, nodes, pdbs, filtered, want_result, want_status):
    pl, _, state, _ = build(nodes, pods, preemptor, pdbs=pdbs, extra_pre_filter=[FailingExtensionPlugin()])
    result, status = pl.post_filter(state, preemptor, filtered)
    assert (status.code, status.reasons) == (want_status.code, want_status.reasons)
    assert result == want_result


def test_post_filter_deletes_victims_and_preempts_waiting_pods():
    """The observable end state of prepareCandidateAsync: running victims deleted via the client,
    waiting victims rejected in memory (not deleted)."""
    preemptor = mk_pod("p", priority=HIGH, req=LARGE)
    running = mk_pod("running", node_name="node1", req=MEDIUM)
    waiting = mk_pod("waiting", node_name="node1", req=MEDIUM)
    pl, fw, state, client = build([mk_node("node1", LARGE)], [running, waiting], preemptor)
    wp = fw.add_waiting_pod(waiting, {"fake-permit": 10.0})
    result, status = pl.post_filter(state, preemptor, statuses({"node1": U}))
    assert status == found("node1", 2) and result == nominated("node1")
    assert client.deleted == ["default/running"]
    assert wp.signal == Status.new(Code.ERROR, "preempted").with_plugin("DefaultPreemption")


def test_post_filter_skips_victims_already_terminating():
    """prepareCandidateAsync sends no API call for a victim whose deletion already started."""
    preemptor = mk_pod("p", priority=HIGH, req=LARGE)
    victims = [mk_pod("gone", node_name="node1", req=MEDIUM, deletion_timestamp="t"),
               mk_pod("live", node_name="node1", req=MEDIUM)]
    pl, _, state, client = build([mk_node("node1", LARGE)], victims, preemptor)
    _, status = pl.post_filter(state, preemptor, statuses({"node1": U}))
    assert status == found("node1", 2)
    assert client.deleted == ["default/live"]


class ClearingClient(FakeClient):
    cleared: list

    def clear_nominated_node_name(self, p):
        self.cleared.append(p.name)
        return None


class StaticNominator:
    def __init__(self, by_node):
        self.by_node = by_node

    def nominated_pods_for_node(self, node_name):
        return [PodInfo.of(p) for p in self.by_node.get(node_name, [])]


def test_post_filter_clears_lower_priority_nominations():
    """getLowerPriorityNominatedPods + clearNominatedNodeName on the chosen node only."""
    preemptor = mk_pod("p", priority=HIGH, req=LARGE)
    nominations = StaticNominator({"node1": [mk_pod("low", priority=LOW, nominated_node_name="node1"),
                                             mk_pod("top", priority=VERY_HIGH, nominated_node_name="node1")],
                                   "node2": [mk_pod("other", priority=LOW, nominated_node_name="node2")]})
    pl, fw, state, _ = build([mk_node("node1", LARGE)], [mk_pod("v", node_name="node1", req=MEDIUM)], preemptor,
                             nominator=nominations)
    client = ClearingClient()
    client.cleared = []
    fw._client = client
    _, status = pl.post_filter(state, preemptor, statuses({"node1": U}))
    assert status == found("node1", 1)
    assert client.cleared == ["low"] and client.deleted == ["default/v"]


# --- TestSelectBestCandidate --------------------------------------------------------------------

def _p(name, node_name, prio, req, start=0):
    return mk_pod(name, node_name=node_name, priority=prio, req=req, start_time=start * 1e-9)


SELECT_BEST_CASES = [
    pytest.param(["node1", "node2"], HIGH, LARGE,
                 [_p("p1", "node1", MID, LARGE), _p("p2", "node2", MID, LARGE)], {"node1", "node2"},
                 id="a pod that fits on both nodes when lower priority pods are preempted"),
    pytest.param(["node1", "node2", "node3"], HIGH, VERY_LARGE,
                 [_p("p1.1", "node1", MID, MEDIUM), _p("p1.2", "node1", MID, LARGE),
                  _p("p2.1", "node2", MID, MEDIUM), _p("p2.2", "node2", LOW, MEDIUM),
                  _p("p3.1", "node3", LOW, MEDIUM), _p("p3.2", "node3", LOW, MEDIUM)], {"node3"},
                 id="node with min highest priority pod is picked"),
    pytest.param(["node1", "node2", "node3"], HIGH, VERY_LARGE,
                 [_p("p1.1", "node1", MID, MEDIUM), _p("p1.2", "node1", MID, LARGE),
                  _p("p2.1", "node2", MID, LARGE), _p("p2.2", "node2", LOW, MEDIUM),
                  _p("p3.1", "node3", MID, MEDIUM), _p("p3.2", "node3", MID, MEDIUM)], {"node2"},
                 id="when highest priorities are the same, minimum sum of priorities is picked"),
    pytest.param(["node1", "node2", "node3"], HIGH, VERY_LARGE,
                 [_p("p1.1", "node1", MID, SMALL), _p("p1.2", "node1", NEG, SMALL),
                  _p("p1.3", "node1", MID, SMALL), _p("p1.4", "node1", NEG, SMALL),
                  _p("p2.1", "node2", MID, LARGE), _p("p2.2", "node2", NEG, MEDIUM),
                  _p("p3.1", "node3", MID, MEDIUM), _p("p3.2", "node3", NEG, SMALL),
                  _p("p3.3", "node3", LOW, SMALL)], {"node2"},
                 id="when highest priority and sum are the same, minimum number of pods is picked"),
    pytest.param(["node1", "node2", "node3"], HIGH, VERY_LARGE,
                 [_p("p1.1", "node1", MID, SMALL), _p("p1.2", "node1", NEG, SMALL),
                  _p("p1.3", "node1", NEG, SMALL),
                  _p("p2.1", "node2", MID, LARGE), _p("p2.2", "node2", NEG, MEDIUM),
                  _p("p3.1", "node3", MID, MEDIUM), _p("p3.2", "node3", NEG, SMALL),
                  _p("p3.3", "node3", LOW, SMALL)], {"node2"},
                 id="sum of adjusted priorities is considered"),
    pytest.param(["node1", "node2", "node3", "node4"], VERY_HIGH, VERY_LARGE,
                 [_p("p1.1", "node1", MID, SMALL), _p("p1.2", "node1", LOW, SMALL),
                  _p("p1.3", "node1", LOW, SMALL),
                  _p("p2.1", "node2", HIGH, LARGE),
                  _p("p3.1", "node3", MID, MEDIUM), _p("p3.2", "node3", LOW, SMALL),
                  _p("p3.3", "node3", LOW, SMALL), _p("p3.4", "node3", LOW, MEDIUM),
                  _p("p4.1", "node4", MID, MEDIUM), _p("p4.2", "node4", MID, SMALL),
                  _p("p4.3", "node4", MID, SMALL), _p("p4.4", "node4", NEG, SMALL)], {"node1"},
                 id="non-overlapping lowest high priority, sum priorities, and number of pods"),
    pytest.param(["node1", "node2", "node3"], HIGH, VERY_LARGE,
                 [_p("p1.1", "node1", MID, MEDIUM, 2), _p("p1.2", "node1", MID, MEDIUM, 2),
                  _p("p2.1", "node2", MID, MEDIUM, 3), _p("p2.2", "node2", MID, MEDIUM, 3),
                  _p("p3.1", "node3", MID, MEDIUM, 1), _p("p3.2", "node3", MID, MEDIUM, 1)], {"node2"},
                 id="same priority, same number of victims, different start time for each node's pod"),
    pytest.param(["node1", "node2", "node3"], HIGH, VERY_LARGE,
                 [_p("p1.1", "node1", MID, MEDIUM, 4), _p("p1.2", "node1", MID, MEDIUM, 2),
                  _p("p2.1", "node2", MID, MEDIUM, 5), _p("p2.2", "node2", MID, MEDIUM, 1),
                  _p("p3.1", "node3", MID, MEDIUM, 3), _p("p3.2", "node3", MID, MEDIUM, 6)], {"node3"},
                 id="same priority, same number of victims, different start time for all pods"),
    pytest.param(["node1", "node2", "node3"], HIGH, VERY_LARGE,
                 [_p("p1.1", "node1", LOW, MEDIUM, 4), _p("p1.2", "node1", MID, MEDIUM, 2),
                  _p("p2.1", "node2", MID, MEDIUM, 6), _p("p2.2", "node2", LOW, MEDIUM, 1),
                  _p("p3.1", "node3", LOW, MEDIUM, 3), _p("p3.2", "node3", MID, MEDIUM, 5)], {"node2"},
                 id="different priority, same number of victims, different start time for all pods"),
]


@pytest.mark.parametrize("node_names,prio,req,pods,expected", SELECT_BEST_CASES)
def test_select_best_candidate(node_names, prio, req, pods, expected):
    preemptor = mk_pod("p", priority=prio, req=req)
    nodes = [mk_node(n, VERY_LARGE) for n in node_names]
    pl, fw, state, _ = build(nodes, pods, preemptor)
    infos = fw.snapshot().node_info_list
    offset, num = pl.get_offset_and_num_candidates(len(infos))
    candidates, _, _ = dry_run_preemption(pl.select_victims_on_node, state, preemptor, infos, [], offset, num)
    best = select_candidate(candidates)
    assert best is not None and best.name in expected


# --- TestPodEligibleToPreemptOthers ---------------------------------------------------------------

@dataclass(frozen=True)
class Condition:
    type: str
    status: str
    reason: str


@dataclass(frozen=True)
class PodWithConditions(Pod):
    """st.MakePod().Condition(...): reference.types.Pod has no status conditions yet."""

    conditions: tuple = ()


PREEMPTED = (Condition("DisruptionTarget", "True", "PreemptionByScheduler"),)


@pytest.mark.parametrize("preemptor,pods,nodes,nominated_status,expected", [
    pytest.param(mk_pod("p_with_nominated_node", uid="p", priority=HIGH, nominated_node_name="node1"),
                 [mk_pod("p1", priority=LOW, node_name="node1", deletion_timestamp="now")], ["node1"],
                 Status.new(UAU, "node(s) had untolerated taint(s)"), True, id="Pod with nominated node"),
    pytest.param(mk_pod("p_without_nominated_node", uid="p", priority=HIGH), [], [], None, True,
                 id="Pod without nominated node"),
    pytest.param(mk_pod("p_with_preempt_never_policy", uid="p", priority=HIGH, preemption_policy="Never"),
                 [], [], None, False, id="Pod with 'PreemptNever' preemption policy"),
    pytest.param(mk_pod("p_with_nominated_node", uid="p", priority=HIGH, nominated_node_name="node1"),
                 [PodWithConditions("p1", uid="p1", priority=LOW, node_name="node1", deletion_timestamp="now",
                                    conditions=PREEMPTED)], ["node1"], None, False,
                 id="preemption victim pod terminating, as indicated by the dedicated DisruptionTarget condition"),
    pytest.param(mk_pod("p_with_nominated_node", uid="p", priority=HIGH, nominated_node_name="node1"),
                 [mk_pod("p1", priority=LOW, node_name="node1", deletion_timestamp="now")], ["node1"], None, True,
                 id="non-victim Pods terminating"),
])
def test_pod_eligible_to_preempt_others(preemptor, pods, nodes, nominated_status, expected):
    fw = Framework("default", {}, {}, client=FakeClient())
    fw.set_snapshot(Snapshot([mk_node(n, {}) for n in nodes], pods))
    pl = DefaultPreemption.new(None, fw)
    assert pl.pod_eligible_to_preempt_others(preemptor, nominated_status)[0] is expected


def test_not_eligible_messages():
    pl, _, state, _ = build([mk_node("node1", ONE_POD)], [], mk_pod("p"))
    result, status = pl.post_filter(state, mk_pod("p", priority=HIGH, preemption_policy="Never"), statuses({}))
    assert result is None
    assert status == Status.new(U, "preemption: not eligible due to preemptionPolicy=Never.")


def test_pre_enqueue_never_gates():
    pl, _, _, _ = build([mk_node("node1", ONE_POD)], [], mk_pod("p"))
    assert pl.pre_enqueue(mk_pod("p")).is_success()


# --- args ---------------------------------------------------------------------------------------

def test_args_defaults():
    args = DefaultPreemptionArgs.from_config(None, "args")
    assert args == DefaultPreemptionArgs(10, 100)
    assert args.to_config() == {"minCandidateNodesPercentage": 10, "minCandidateNodesAbsolute": 100}


@pytest.mark.parametrize("raw,message", [
    pytest.param({"minCandidateNodesPercentage": 10, "minCandidateNodesAbsolute": 100}, None,
                 id="valid args (default)"),
    pytest.param({"minCandidateNodesPercentage": -1, "minCandidateNodesAbsolute": 100},
                 "a.minCandidateNodesPercentage: Invalid value: -1: not in valid range [0, 100]",
                 id="negative minCandidateNodesPercentage"),
    pytest.param({"minCandidateNodesPercentage": 900, "minCandidateNodesAbsolute": 100},
                 "a.minCandidateNodesPercentage: Invalid value: 900: not in valid range [0, 100]",
                 id="minCandidateNodesPercentage over 100"),
    pytest.param({"minCandidateNodesPercentage": 20, "minCandidateNodesAbsolute": -1},
                 "a.minCandidateNodesAbsolute: Invalid value: -1: not in valid range [0, inf)",
                 id="negative minCandidateNodesAbsolute"),
    pytest.param({"minCandidateNodesPercentage": 0, "minCandidateNodesAbsolute": 0},
                 "[a.minCandidateNodesPercentage: Invalid value: 0: cannot be zero at the same time as "
                 "minCandidateNodesAbsolute, a.minCandidateNodesAbsolute: Invalid value: 0: cannot be zero at the "
                 "same time as minCandidateNodesPercentage]", id="all zero"),
    pytest.param({"minCandidateNodesPercentage": -1, "minCandidateNodesAbsolute": -1},
                 "[a.minCandidateNodesPercentage: Invalid value: -1: not in valid range [0, 100], "
                 "a.minCandidateNodesAbsolute: Invalid value: -1: not in valid range [0, inf)]", id="both negative"),
])
def test_args_validation(raw, message):
    if message is None:
        DefaultPreemptionArgs.from_config(raw, "a")
        return
    with pytest.raises(ConfigError) as e:
        DefaultPreemptionArgs.from_config(raw, "a")
    assert str(e.value) == message


@pytest.mark.parametrize("pct,absolute,nodes,want", [
    (10, 100, 50, 50), (10, 100, 5000, 500), (10, 1, 5, 1), (0, 3, 10, 3), (50, 0, 10, 5),
])
def test_calculate_num_candidates(pct, absolute, nodes, want):
    assert calculate_num_candidates(DefaultPreemptionArgs(pct, absolute), nodes) == want
