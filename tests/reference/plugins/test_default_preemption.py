"""DefaultPreemption, ported from pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go
(v1.37.2) and the DefaultPreemptionArgs cases of apis/config/validation/validation_pluginargs_test.go.

Left out:
- TestPostFilter "preemption result filtered out by extenders": extenders are not reachable from the handle.
- TestPostFilter "pod with SchedulingGroup ...", the PodGroup cases of TestPodEligibleToPreemptOthers and
  every TestDefaultPreemption_PodGroupPostFilter_*: GenericWorkload is off by default; PodGroups not modelled.
- TestPostFilter "deferred pod resize ..." (3 cases): they need InPlacePodVerticalScalingSchedulerPreemption
  (alpha, off in v1.37.2).
- TestCustomSelection / TestCustomOrdering: custom IsEligiblePod / MoreImportantVictim hooks are not offered.
- TestPreEnqueue: the reference runs the async preemption to completion inside PostFilter, so no pod is
  ever "running preemption" when PreEnqueue runs (tested below as always-Success).
- Async API-call variants: one run per case (the reference has no API dispatcher).
- TestDryRunPreemption, TestPreempt and TestSelectVictimsOnNode: see the notes above each table.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from reference.cycle_state import CycleState
from reference.errors import ConfigError
from reference.framework.runtime import Framework
from reference.interfaces import (FilterPlugin, NodeToStatus, NominatingInfo, NominatingMode, PostFilterResult,
                                  PreFilterPlugin)
from reference.nodeinfo import Snapshot
from reference.plugins.default_preemption import (DefaultPreemption, DefaultPreemptionArgs,
                                                  calculate_num_candidates)
from reference.plugins.node_resources_fit import NodeResourcesFit
from reference.plugins.preemption.evaluator import dry_run_preemption, select_candidate
from reference.scheduler.clock import VirtualClock
from reference.status import SUCCESS, Code, Status
from reference.plugins.inter_pod_affinity.plugin import InterPodAffinity
from reference.plugins.pod_topology_spread.plugin import PodTopologySpread
from reference.types import (Affinity, LabelSelector, LabelSelectorRequirement, PodAffinity, PodAffinityTerm,
                             PodCondition, PodDisruptionBudget, TopologySpreadConstraint)
from tests.builders import FakeClient, FakeNominator, node, pod

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


def test_post_filter_clears_lower_priority_nominations():
    """getLowerPriorityNominatedPods + clearNominatedNodeName on the chosen node only; a pod whose
    nominatedNodeName is already empty gets no patch."""
    preemptor = mk_pod("p", priority=HIGH, req=LARGE)
    nominations = FakeNominator({"node1": [mk_pod("low", priority=LOW, nominated_node_name="node1"),
                                           mk_pod("in-memory-only", priority=LOW),
                                           mk_pod("top", priority=VERY_HIGH, nominated_node_name="node1")],
                                 "node2": [mk_pod("other", priority=LOW, nominated_node_name="node2")]})
    pl, _, state, client = build([mk_node("node1", LARGE)], [mk_pod("v", node_name="node1", req=MEDIUM)], preemptor,
                                 nominator=nominations)
    _, status = pl.post_filter(state, preemptor, statuses({"node1": U}))
    assert status == found("node1", 1)
    assert client.cleared == ["default/low"] and client.deleted == ["default/v"]


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

PREEMPTED = (PodCondition("DisruptionTarget", "True", "PreemptionByScheduler"),)


@pytest.mark.parametrize("preemptor,pods,nodes,nominated_status,expected", [
    pytest.param(mk_pod("p_with_nominated_node", uid="p", priority=HIGH, nominated_node_name="node1"),
                 [mk_pod("p1", priority=LOW, node_name="node1", deletion_timestamp="now")], ["node1"],
                 Status.new(UAU, "node(s) had untolerated taint(s)"), True, id="Pod with nominated node"),
    pytest.param(mk_pod("p_without_nominated_node", uid="p", priority=HIGH), [], [], None, True,
                 id="Pod without nominated node"),
    pytest.param(mk_pod("p_with_preempt_never_policy", uid="p", priority=HIGH, preemption_policy="Never"),
                 [], [], None, False, id="Pod with 'PreemptNever' preemption policy"),
    pytest.param(mk_pod("p_with_nominated_node", uid="p", priority=HIGH, nominated_node_name="node1"),
                 [mk_pod("p1", priority=LOW, node_name="node1", deletion_timestamp="now", conditions=PREEMPTED)],
                 ["node1"], None, False,
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


# --- TestDryRunPreemption -----------------------------------------------------------------------
# The upstream offsets come from rand.New(rand.NewSource(4)); they are passed explicitly (4, 1, 3 as the
# test's comments state). Left out: the three DRA node-allocatable cases (claims not modelled).

class FakeFilter(FilterPlugin):
    """tf.FakeFilterPlugin: counts calls and returns the per-node code."""

    NAME = "FakeFilter"

    def __init__(self, code_by_node):
        self.code_by_node = code_by_node
        self.calls = 0

    def filter(self, state, p, node_info):
        self.calls += 1
        code = self.code_by_node.get(node_info.name, Code.SUCCESS)
        return Status.new(code, f"injecting failure for pod {p.name}") if code != Code.SUCCESS else SUCCESS


class FixedFilter(FilterPlugin):
    """tf's TrueFilter, FalseFilter and MatchFilter."""

    def __init__(self, name, decide):
        self._name, self.decide = name, decide

    @property
    def name(self):
        return self._name

    def filter(self, state, p, node_info):
        return SUCCESS if self.decide(p, node_info) else Status.new(U, "filter failed")


def true_filter(_):
    return FixedFilter("TrueFilter", lambda p, n: True)


def false_filter(_):
    return FixedFilter("FalseFilter", lambda p, n: False)


def match_filter(_):
    return FixedFilter("MatchFilter", lambda p, n: p.name == n.name)


def fit_plugin(_):
    return NodeResourcesFit.new(None, None)


def affinity_plugin(handle):
    return InterPodAffinity.new(None, handle)


def spread_plugin(handle):
    return PodTopologySpread.new(None, handle)


def dry_node(spec):
    """"name/zone" -> labels hostname, zone (upstream's labelKeys)."""
    parts = spec.split("/")
    return mk_node(parts[0], VERY_LARGE, labels=dict(zip(("hostname", "zone", "region"), parts)))


def dp(name, node_name, prio, req=None, start=None, **kw):
    return mk_pod(name, node_name=node_name, priority=prio, req=req,
                  start_time=None if start is None else start * 1e-9, **kw)


EXISTS_FOO = LabelSelector(match_expressions=(LabelSelectorRequirement("foo", "Exists"),))
ANTI_FOO = Affinity(pod_anti_affinity=PodAffinity(required=(PodAffinityTerm("hostname", EXISTS_FOO),)))
SPREAD = (TopologySpreadConstraint(1, "zone", "DoNotSchedule", EXISTS_FOO),
          TopologySpreadConstraint(1, "hostname", "DoNotSchedule", EXISTS_FOO))
PDB_FOO_1 = PodDisruptionBudget("pdb", selector=LabelSelector({"app": "foo"}), disruptions_allowed=1)
PDB_FOO_0 = PodDisruptionBudget("pdb", selector=LabelSelector({"app": "foo"}), disruptions_allowed=0)
NOW = "2026-01-01T00:00:00Z"  # upstream uses time.Now(); only the pod names are read
FIVE = ["node1", "node2", "node3", "node4", "node5"]
FIVE_PODS = [dp(f"p{i}", f"node{i}", MID, LARGE) for i in range(1, 6)]

# (plugins, node specs, preemptors with offsets, init pods, pdbs, fake filter code, args,
#  expected per cycle: [(node, [victim names], pdb violations)], expected filter calls per cycle)
DRY_RUN_CASES = [
    pytest.param([false_filter], ["node1", "node2"], [(mk_pod("p", priority=HIGH), 0)],
                 [dp("p1", "node1", MID), dp("p2", "node2", MID)], (), Code.SUCCESS, None, [[]], [2],
                 id="a pod that does not fit on any node"),
    pytest.param([true_filter], ["node1", "node2"], [(mk_pod("p", priority=HIGH), 0)],
                 [dp("p1", "node1", MID), dp("p2", "node2", MID)], (), U, None, [[]], [2],
                 id="a pod that fits with no preemption"),
    pytest.param([match_filter], ["node1", "node2"], [(mk_pod("node1", priority=HIGH), 0)],
                 [dp("p1", "node1", MID), dp("p2", "node2", MID)], (), U, None, [[]], [2],
                 id="a pod that fits on one node with no preemption"),
    pytest.param([fit_plugin], ["node1", "node2"], [(mk_pod("p", priority=HIGH, req=LARGE), 0)],
                 [dp("p1", "node1", MID, LARGE), dp("p2", "node2", MID, LARGE)], (), Code.SUCCESS, None,
                 [[("node1", ["p1"], 0), ("node2", ["p2"], 0)]], [4],
                 id="a pod that fits on both nodes when lower priority pods are preempted"),
    pytest.param([fit_plugin], ["node1", "node2"], [(mk_pod("p", priority=LOW, req=LARGE), 0)],
                 [dp("p1", "node1", MID, LARGE), dp("p2", "node2", MID, LARGE)], (), Code.SUCCESS, None, [[]], [0],
                 id="a pod that would fit on the nodes, but other pods running are higher priority, "
                    "no preemption would happen"),
    pytest.param([fit_plugin], ["node1", "node2"], [(mk_pod("p", priority=HIGH, req=LARGE), 0)],
                 [dp("p1.1", "node1", LOW, SMALL), dp("p1.2", "node1", MID, LARGE), dp("p2", "node2", MID, LARGE)],
                 (), Code.SUCCESS, None, [[("node1", ["p1.2"], 0), ("node2", ["p2"], 0)]], [5],
                 id="medium priority pod is preempted, but lower priority one stays as it is small"),
    pytest.param([fit_plugin], ["node1", "node2"], [(mk_pod("p", priority=HIGH, req=LARGE), 0)],
                 [dp("p1.1", "node1", MID, SMALL), dp("p1.2", "node1", LOW, SMALL), dp("p1.3", "node1", MID, MEDIUM),
                  dp("p1.4", "node1", HIGH, SMALL), dp("p2", "node2", HIGH, LARGE)],
                 (), Code.SUCCESS, None, [[("node1", ["p1.2", "p1.3"], 0)]], [4],
                 id="mixed priority pods are preempted"),
    pytest.param([fit_plugin], ["node1", "node2"], [(mk_pod("p", priority=HIGH, req=LARGE), 0)],
                 [dp("p1.1", "node1", LOW, SMALL, 5), dp("p1.2", "node1", LOW, SMALL, 4),
                  dp("p1.3", "node1", MID, MEDIUM, 3), dp("p1.4", "node1", HIGH, SMALL, 2),
                  dp("p2", "node2", HIGH, LARGE, 1)],
                 (), Code.SUCCESS, None, [[("node1", ["p1.1", "p1.3"], 0)]], [4],
                 id="mixed priority pods are preempted, pick later StartTime one when priorities are equal"),
    pytest.param([fit_plugin, affinity_plugin], ["node1", "node2"],
                 [(mk_pod("p", labels={"foo": ""}, priority=HIGH, req=SMALL), 0)],
                 [dp("p1.1", "node1", LOW, SMALL, labels={"foo": ""}, affinity=ANTI_FOO),
                  dp("p1.2", "node1", MID, SMALL), dp("p1.3", "node1", HIGH, SMALL), dp("p2", "node2", HIGH, SMALL)],
                 (), Code.SUCCESS, None, [[("node1", ["p1.1"], 0)]], [3],
                 id="pod with anti-affinity is preempted"),
    pytest.param([spread_plugin], ["node-a/zone1", "node-b/zone1", "node-x/zone2"],
                 [(mk_pod("p", labels={"foo": ""}, priority=HIGH, topology_spread_constraints=SPREAD), 0)],
                 [dp("pod-a1", "node-a", MID, labels={"foo": ""}), dp("pod-a2", "node-a", LOW, labels={"foo": ""}),
                  dp("pod-b1", "node-b", LOW, labels={"foo": ""}), dp("pod-x1", "node-x", HIGH, labels={"foo": ""}),
                  dp("pod-x2", "node-x", HIGH, labels={"foo": ""})],
                 (), Code.SUCCESS, None, [[("node-a", ["pod-a2"], 0), ("node-b", ["pod-b1"], 0)]], [5],
                 id="preemption to resolve pod topology spread filter failure"),
    pytest.param([fit_plugin], ["node1", "node2"], [(mk_pod("p", priority=HIGH, req=LARGE), 0)],
                 [dp("p1", "node1", MID, LARGE), dp("p2", "node2", MID, LARGE)], (), U, None, [[]], [2],
                 id="get Unschedulable in the preemption phase when the filter plugins filtering the nodes"),
    pytest.param([fit_plugin], ["node1"], [(mk_pod("p", priority=HIGH, req=VERY_LARGE), 0)],
                 [dp("p1.1", "node1", MID, MEDIUM, labels={"app": "foo"}),
                  dp("p1.2", "node1", MID, MEDIUM, labels={"app": "foo"})],
                 (PDB_FOO_1,), Code.SUCCESS, None, [[("node1", ["p1.1", "p1.2"], 1)]], [3],
                 id="preemption with violation of same pdb"),
    pytest.param([fit_plugin], ["node1"], [(mk_pod("p", priority=HIGH, req=VERY_LARGE), 0)],
                 [dp("p1.1", "node1", MID, MEDIUM, labels={"app": "foo"}),
                  dp("p1.2", "node1", MID, MEDIUM, labels={"app": "foo"})],
                 (replace(PDB_FOO_1, disrupted_pods={"p2": NOW}),), Code.SUCCESS, None,
                 [[("node1", ["p1.1", "p1.2"], 1)]], [3],
                 id="preemption with violation of the pdb with pod whose eviction was processed, "
                    "the victim doesn't belong to DisruptedPods"),
    pytest.param([fit_plugin], ["node1"], [(mk_pod("p", priority=HIGH, req=VERY_LARGE), 0)],
                 [dp("p1.1", "node1", MID, MEDIUM, labels={"app": "foo"}),
                  dp("p1.2", "node1", MID, MEDIUM, labels={"app": "foo"})],
                 (replace(PDB_FOO_1, disrupted_pods={"p1.2": NOW}),), Code.SUCCESS, None,
                 [[("node1", ["p1.1", "p1.2"], 0)]], [3],
                 id="preemption with violation of the pdb with pod whose eviction was processed, "
                    "the victim belongs to DisruptedPods"),
    pytest.param([fit_plugin], ["node1"], [(mk_pod("p", priority=HIGH, req=VERY_LARGE), 0)],
                 [dp("p1.1", "node1", MID, MEDIUM, labels={"app": "foo"}),
                  dp("p1.2", "node1", MID, MEDIUM, labels={"app": "foo"}),
                  dp("p1.3", "node1", MID, MEDIUM, labels={"app": "foo"})],
                 (replace(PDB_FOO_1, disrupted_pods={"p1.3": NOW}),), Code.SUCCESS, None,
                 [[("node1", ["p1.1", "p1.2", "p1.3"], 1)]], [4],
                 id="preemption with violation of the pdb with pod whose eviction was processed, "
                    "the victim which belongs to DisruptedPods is treated as 'nonViolating'"),
    pytest.param([fit_plugin], FIVE, [(mk_pod("p", priority=HIGH, req=LARGE), 4)], FIVE_PODS, (), Code.SUCCESS,
                 DefaultPreemptionArgs(40, 1), [[("node1", ["p1"], 0), ("node5", ["p5"], 0)]], [4],
                 id="all nodes are possible candidates, but DefaultPreemptionArgs limits to 2"),
    pytest.param([fit_plugin], FIVE, [(mk_pod("p", priority=HIGH, req=LARGE), 4)],
                 [dp("p1", "node1", MID, LARGE), dp("p2", "node2", VERY_HIGH, LARGE), dp("p3", "node3", MID, LARGE),
                  dp("p4", "node4", MID, LARGE), dp("p5", "node5", VERY_HIGH, LARGE)], (), Code.SUCCESS,
                 DefaultPreemptionArgs(40, 1), [[("node1", ["p1"], 0), ("node3", ["p3"], 0)]], [4],
                 id="some nodes are not possible candidates, DefaultPreemptionArgs limits to 2"),
    pytest.param([fit_plugin], FIVE,
                 [(mk_pod("tp1", priority=HIGH, req=LARGE), 4), (mk_pod("tp2", priority=HIGH, req=LARGE), 1),
                  (mk_pod("tp3", priority=HIGH, req=LARGE), 3)], FIVE_PODS, (), Code.SUCCESS,
                 DefaultPreemptionArgs(40, 1),
                 [[("node1", ["p1"], 0), ("node5", ["p5"], 0)], [("node2", ["p2"], 0), ("node3", ["p3"], 0)],
                  [("node4", ["p4"], 0), ("node5", ["p5"], 0)]], [4, 4, 4],
                 id="preemption offset across multiple scheduling cycles and wrap around"),
    pytest.param([fit_plugin], FIVE, [(mk_pod("p", priority=HIGH, req=LARGE), 4)],
                 [dp("p1", "node1", MID, LARGE, labels={"app": "foo"}), dp("p2", "node2", MID, LARGE, labels={"app": "foo"}),
                  dp("p3", "node3", MID, LARGE), dp("p4", "node4", MID, LARGE),
                  dp("p5", "node5", MID, LARGE, labels={"app": "foo"})], (PDB_FOO_0,), Code.SUCCESS,
                 DefaultPreemptionArgs(40, 2), [[("node1", ["p1"], 1), ("node3", ["p3"], 0), ("node5", ["p5"], 1)]], [8],
                 id="preemption looks past numCandidates until a non-PDB violating node is found"),
]


@pytest.mark.parametrize("plugins,node_specs,preemptors,init_pods,pdbs,fake_code,args,expected,filter_calls",
                         DRY_RUN_CASES)
def test_dry_run_preemption(plugins, node_specs, preemptors, init_pods, pdbs, fake_code, args, expected,
                            filter_calls):
    nodes = sorted((dry_node(s) for s in node_specs), key=lambda n: n.name)
    fake = FakeFilter({n.name: fake_code for n in nodes})
    fw = Framework("default", {}, {}, client=FakeClient(pdbs=list(pdbs)), clock=VirtualClock())
    instances = [make(fw) for make in plugins]
    fw.set_plugins({"preFilter": [p for p in instances if isinstance(p, PreFilterPlugin)],
                    "filter": [fake, *instances]})
    fw.set_snapshot(Snapshot(nodes, init_pods))
    pl = DefaultPreemption.new(args, fw)
    infos = fw.snapshot().node_info_list
    for cycle, (preemptor, offset) in enumerate(preemptors):
        before = fake.calls
        state = CycleState()
        _, status, _ = fw.run_pre_filter_plugins(state, preemptor)
        assert status.is_success(), status
        _, num = pl.get_offset_and_num_candidates(len(infos))
        got, _, _ = dry_run_preemption(pl.select_victims_on_node, state, preemptor, infos, list(pdbs), offset, num)
        assert sorted((c.name, sorted(p.name for p in c.victims.pods), c.victims.num_pdb_violations)
                      for c in got) == expected[cycle]
        assert fake.calls - before == filter_calls[cycle]


# --- TestPreempt ----------------------------------------------------------------------------------
# Left out: the four extender cases (extenders are not reachable from the handle) and the check of the
# DisruptionTarget condition patch (the reference deletes a victim at once, without that status patch).
# One run per case: the reference always behaves like async preemption run to completion.

BASIC_PODS = [dp("p1.1", "node1", LOW, SMALL), dp("p1.2", "node1", LOW, SMALL), dp("p2.1", "node2", HIGH, LARGE),
              dp("p3.1", "node3", MID, MEDIUM)]


@pytest.mark.parametrize("preemptor,pods,node_specs,plugin,want,expected_deleted", [
    pytest.param(mk_pod("p", priority=HIGH, req=VERY_LARGE, preemption_policy="PreemptLowerPriority"), BASIC_PODS,
                 ["node1", "node2", "node3"], fit_plugin, nominated("node1"), ["p1.1", "p1.2"],
                 id="basic preemption logic"),
    pytest.param(mk_pod("p", labels={"foo": ""}, priority=HIGH, topology_spread_constraints=SPREAD),
                 [dp("p-a1", "node-a", HIGH, labels={"foo": ""}), dp("p-a2", "node-a", HIGH, labels={"foo": ""}),
                  dp("p-b1", "node-b", LOW, labels={"foo": ""}), dp("p-x1", "node-x", HIGH, labels={"foo": ""}),
                  dp("p-x2", "node-x", HIGH, labels={"foo": ""})],
                 ["node-a/zone1", "node-b/zone1", "node-x/zone2"], spread_plugin, nominated("node-b"), ["p-b1"],
                 id="preemption for topology spread constraints"),
    pytest.param(mk_pod("p", priority=HIGH, req=VERY_LARGE, preemption_policy="Never"), BASIC_PODS,
                 ["node1", "node2", "node3"], fit_plugin, None, [], id="no preempting in pod"),
    pytest.param(mk_pod("p", priority=HIGH, req=VERY_LARGE), BASIC_PODS,
                 ["node1", "node2", "node3"], fit_plugin, nominated("node1"), ["p1.1", "p1.2"],
                 id="PreemptionPolicy is nil"),
])
def test_preempt(preemptor, pods, node_specs, plugin, want, expected_deleted):
    nodes = [dry_node(s) for s in node_specs]
    client = FakeClient()
    fw = Framework("default", {}, {}, client=client, clock=VirtualClock())
    instance = plugin(fw)
    fw.set_plugins({"preFilter": [instance], "filter": [instance]})
    fw.set_snapshot(Snapshot(nodes, pods))
    state = CycleState()
    _, status, _ = fw.run_pre_filter_plugins(state, preemptor)
    assert status.is_success(), status
    pl = DefaultPreemption.new(None, fw)
    res, status = pl.preempt(state, preemptor, statuses({n.name: U for n in nodes}))
    assert status.is_success() or status.is_rejected()
    assert res == want
    assert sorted(client.deleted) == [f"default/{name}" for name in expected_deleted]


# --- TestSelectVictimsOnNode ----------------------------------------------------------------------
# Left out: every "Workload Aware" and "Cross-node PodGroup" case (GenericWorkload off; PodGroups not modelled).

@pytest.mark.parametrize("init_pods,preemptor,pdbs,want_code,want_pods,want_violating", [
    pytest.param([dp("victim", "node1", LOW, LARGE)], mk_pod("p", priority=HIGH, req=LARGE), (),
                 Code.SUCCESS, {"victim"}, 0, id="Basic: Preempt single lower priority pod"),
    pytest.param([dp("high-prio", "node1", HIGH, SMALL), dp("mid-prio", "node1", MID, SMALL),
                  dp("low-prio", "node1", LOW, SMALL)], mk_pod("p", priority=HIGH, req=LARGE), (),
                 Code.SUCCESS, {"low-prio"}, 0, id="Priority: Prefer lower priority victim"),
    pytest.param([dp("victim-pdb", "node1", LOW, MEDIUM, labels={"app": "foo"}),
                  dp("victim-no-pdb", "node1", MID, MEDIUM)], mk_pod("p", priority=HIGH, req=LARGE), (PDB_FOO_0,),
                 Code.SUCCESS, {"victim-no-pdb"}, 0,
                 id="PDB: Prefer non-violating victim with higher priority over violating victim with lower priority"),
    pytest.param([dp("v1", "node1", LOW, MEDIUM, labels={"app": "foo"}), dp("v2", "node1", MID, MEDIUM, labels={"app": "foo"})],
                 mk_pod("p", priority=HIGH, req=LARGE), (PDB_FOO_0,), Code.SUCCESS, {"v1"}, 1,
                 id="PDB: Prefer lower prioirity pod for preemption, when preemption without pdb violation is not possible"),
    pytest.param([dp("victim", "node1", HIGH)], mk_pod("p", priority=MID), (), UAU, None, 0,
                 id="Failure: Cannot preempt the victim with higher priority"),
    pytest.param([], mk_pod("p", priority=MID), (), UAU, None, 0, id="Failure: Cannot preempt if node is empty"),
])
def test_select_victims_on_node(init_pods, preemptor, pdbs, want_code, want_pods, want_violating):
    fake = FakeFilter({})
    fw = Framework("default", {}, {}, client=FakeClient(), clock=VirtualClock())
    fit = NodeResourcesFit.new(None, None)
    fw.set_plugins({"preFilter": [fit], "filter": [fake, fit]})
    fw.set_snapshot(Snapshot([dry_node("node1")], init_pods))
    state = CycleState()
    _, status, _ = fw.run_pre_filter_plugins(state, preemptor)
    assert status.is_success(), status
    pl = DefaultPreemption.new(None, fw)
    info = fw.snapshot().get("node1")
    pods, violating, status = pl.select_victims_on_node(state.clone(), preemptor, info.clone(),
                                                        [pi.pod for pi in info.pods], list(pdbs))
    assert status.code == want_code
    if want_code == Code.SUCCESS:
        assert violating == want_violating
        assert {p.name for p in pods} == want_pods
