"""PodTopologySpread PreScore / Score / NormalizeScore, ported from upstream
pkg/scheduler/framework/plugins/podtopologyspread/scoring_test.go (Kubernetes v1.37.2).

Expected values are upstream's literals. Left out:
- cases that run with MatchLabelKeysInPodTopologySpread off while the pod sets matchLabelKeys
  (the gate is on by default): TestPodTopologySpreadScore: matchLabelKeys ignored when feature gate disabled;
- BenchmarkTestPodTopologySpreadScore (a benchmark).
"""

from __future__ import annotations

import pytest

from reference.cycle_state import CycleState
from reference.interfaces import NodeScore
from reference.nodeinfo import NodeInfo
from reference.plugins.pod_topology_spread import PodTopologySpread, PodTopologySpreadArgs
from reference.plugins.pod_topology_spread.common import (DO_NOT_SCHEDULE, HONOR, IGNORE, LABEL_HOSTNAME,
                                                          LABEL_TOPOLOGY_ZONE, SCHEDULE_ANYWAY)
from reference.plugins.pod_topology_spread.scoring import (PRE_SCORE_STATE_KEY, go_round,
                                                           topology_normalizing_weight)
from reference.status import Code
from reference.types import Taint
from tests.reference.plugins._spread_builders import (SnapshotHandle, make_label_selector, make_node, make_pod,
                                                      v1_replica_set, v1_service, v1_topology_spread_constraint)
from tests.reference.plugins._spread_state import PSS, Tsc, pre_score_state_view

foo_selector = make_label_selector().exists("foo").obj()
bar_selector = make_label_selector().exists("bar").obj()
taints = [Taint(key="node.kubernetes.io/unschedulable", value="", effect="NoSchedule")]

_ = (DO_NOT_SCHEDULE, HONOR, IGNORE, LABEL_TOPOLOGY_ZONE, SCHEDULE_ANYWAY, v1_service)


def Args(*, defaulting_type: str, default_constraints=()) -> PodTopologySpreadArgs:
    """`config.PodTopologySpreadArgs{...}`."""
    return PodTopologySpreadArgs(default_constraints=tuple(default_constraints), defaulting_type=defaulting_type)


def _build_node_infos(nodes) -> list[NodeInfo]:
    """`tf.BuildNodeInfos`: the filtered nodes, without their pods."""
    return [NodeInfo.of(n) for n in nodes]


# --- TestPreScoreSkip --------------------------------------------------------------------------

PRE_SCORE_SKIP_CASES = [
    dict(
        name="the pod doesn't have soft topology spread Constraints",
        pod=make_pod().name("p").namespace("default").obj(),
        config=Args(defaulting_type="List"),
        nodes=[
            make_node().name("node-a").label(LABEL_HOSTNAME, "node-a").obj(),
            make_node().name("node-b").label(LABEL_HOSTNAME, "node-b").obj(),
        ],
    ),
    dict(
        name="default constraints and a replicaset that doesn't match",
        pod=make_pod().name("p").namespace("default").label("foo", "bar").label("baz", "sup").owner_reference("rs2", ("apps/v1", "ReplicaSet")).obj(),
        config=Args(
            default_constraints=[
                v1_topology_spread_constraint({'maxSkew': 2, 'topologyKey': "planet", 'whenUnsatisfiable': SCHEDULE_ANYWAY}),
            ],
            defaulting_type="List",
        ),
        nodes=[make_node().name("node-a").label("planet", "mars").obj()],
        objs=[
            v1_replica_set({
                'metadata': {'namespace': "default", 'name': "rs1"},
                'spec': {'selector': make_label_selector().exists("tar").obj()},
            }),
        ],
    ),
]


@pytest.mark.parametrize("tt", PRE_SCORE_SKIP_CASES, ids=[c["name"] for c in PRE_SCORE_SKIP_CASES])
def test_pre_score_skip(tt):
    p = PodTopologySpread.new(tt["config"], SnapshotHandle((), tt["nodes"], tt.get("objs")))
    assert p.pre_score(CycleState(), tt["pod"], _build_node_infos(tt["nodes"])).code is Code.SKIP


# --- TestPreScoreStateEmptyNodes ---------------------------------------------------------------

PRE_SCORE_STATE_CASES = [
    dict(
        name="normal case",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", SCHEDULE_ANYWAY, foo_selector, None, None, None, None).spread_constraint(1, LABEL_HOSTNAME, SCHEDULE_ANYWAY, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label(LABEL_HOSTNAME, "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label(LABEL_HOSTNAME, "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label(LABEL_HOSTNAME, "node-x").obj(),
        ],
        config=Args(defaulting_type="List"),
        want=PSS(
            constraints=[
                Tsc(
                    max_skew=1,
                    topology_key="zone",
                    selector=foo_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
                Tsc(
                    max_skew=1,
                    topology_key=LABEL_HOSTNAME,
                    selector=foo_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            ignored_nodes=set(),
            topology_value_to_pod_counts=[{"zone1": 0, "zone2": 0}, {}],
            topology_normalizing_weight=[topology_normalizing_weight(2), topology_normalizing_weight(3)],
        ),
    ),
    dict(
        name="null selector",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", SCHEDULE_ANYWAY, None, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label(LABEL_HOSTNAME, "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label(LABEL_HOSTNAME, "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label(LABEL_HOSTNAME, "node-x").obj(),
        ],
        config=Args(defaulting_type="List"),
        want=PSS(
            constraints=[
                Tsc(
                    max_skew=1,
                    topology_key="zone",
                    selector=None,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            ignored_nodes=set(),
            topology_value_to_pod_counts=[{"zone1": 0, "zone2": 0}],
            topology_normalizing_weight=[topology_normalizing_weight(2)],
        ),
    ),
    dict(
        name="node-x doesn't have label zone",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", SCHEDULE_ANYWAY, foo_selector, None, None, None, None).spread_constraint(1, LABEL_HOSTNAME, SCHEDULE_ANYWAY, bar_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label(LABEL_HOSTNAME, "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label(LABEL_HOSTNAME, "node-b").obj(),
            make_node().name("node-x").label(LABEL_HOSTNAME, "node-x").obj(),
        ],
        config=Args(defaulting_type="List"),
        want=PSS(
            constraints=[
                Tsc(
                    max_skew=1,
                    topology_key="zone",
                    selector=foo_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
                Tsc(
                    max_skew=1,
                    topology_key=LABEL_HOSTNAME,
                    selector=bar_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            ignored_nodes={"node-x"},
            topology_value_to_pod_counts=[{"zone1": 0}, {}],
            topology_normalizing_weight=[topology_normalizing_weight(1), topology_normalizing_weight(2)],
        ),
    ),
    dict(
        name="system default constraints and a replicaset",
        pod=make_pod().name("p").namespace("default").label("foo", "tar").label("baz", "sup").owner_reference("rs1", ("apps/v1", "ReplicaSet")).obj(),
        config=Args(defaulting_type="System"),
        nodes=[
            make_node().name("node-a").label(LABEL_HOSTNAME, "node-a").label(LABEL_TOPOLOGY_ZONE, "mars").obj(),
            make_node().name("node-b").label(LABEL_HOSTNAME, "node-b").label(LABEL_TOPOLOGY_ZONE, "mars").obj(),
            make_node().name("node-c").label(LABEL_HOSTNAME, "node-c").obj(),
            make_node().name("node-d").label(LABEL_HOSTNAME, "node-d").obj(),
        ],
        objs=[
            v1_replica_set({'metadata': {'namespace': "default", 'name': "rs1"}, 'spec': {'selector': foo_selector}}),
        ],
        want=PSS(
            constraints=[
                Tsc(
                    max_skew=3,
                    topology_key=LABEL_HOSTNAME,
                    selector=foo_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
                Tsc(
                    max_skew=5,
                    topology_key=LABEL_TOPOLOGY_ZONE,
                    selector=foo_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            ignored_nodes=set(),
            topology_value_to_pod_counts=[{}, {"mars": 0, "": 0}],
            topology_normalizing_weight=[topology_normalizing_weight(4), topology_normalizing_weight(2)],
        ),
    ),
    dict(
        name="default constraints and a replicaset",
        pod=make_pod().name("p").namespace("default").label("foo", "tar").label("baz", "sup").owner_reference("rs1", ("apps/v1", "ReplicaSet")).obj(),
        config=Args(
            default_constraints=[
                v1_topology_spread_constraint({'maxSkew': 1, 'topologyKey': LABEL_HOSTNAME, 'whenUnsatisfiable': SCHEDULE_ANYWAY}),
                v1_topology_spread_constraint({'maxSkew': 2, 'topologyKey': "rack", 'whenUnsatisfiable': DO_NOT_SCHEDULE}),
                v1_topology_spread_constraint({'maxSkew': 2, 'topologyKey': "planet", 'whenUnsatisfiable': SCHEDULE_ANYWAY}),
            ],
            defaulting_type="List",
        ),
        nodes=[
            make_node().name("node-a").label("rack", "rack1").label(LABEL_HOSTNAME, "node-a").label("planet", "mars").obj(),
        ],
        objs=[
            v1_replica_set({'metadata': {'namespace': "default", 'name': "rs1"}, 'spec': {'selector': foo_selector}}),
        ],
        want=PSS(
            constraints=[
                Tsc(
                    max_skew=1,
                    topology_key=LABEL_HOSTNAME,
                    selector=foo_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
                Tsc(
                    max_skew=2,
                    topology_key="planet",
                    selector=foo_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            ignored_nodes=set(),
            topology_value_to_pod_counts=[{}, {"mars": 0}],
            topology_normalizing_weight=[topology_normalizing_weight(1), topology_normalizing_weight(1)],
        ),
    ),
    dict(
        name="default constraints and a replicaset, but pod has constraints",
        pod=make_pod().name("p").namespace("default").label("foo", "bar").label("baz", "sup").owner_reference("rs1", ("apps/v1", "ReplicaSet")).spread_constraint(1, "zone", DO_NOT_SCHEDULE, bar_selector, None, None, None, None).spread_constraint(2, "planet", SCHEDULE_ANYWAY, make_label_selector().label("baz", "sup").obj(), None, None, None, None).obj(),
        config=Args(
            default_constraints=[
                v1_topology_spread_constraint({'maxSkew': 2, 'topologyKey': "galaxy", 'whenUnsatisfiable': SCHEDULE_ANYWAY}),
            ],
            defaulting_type="List",
        ),
        nodes=[make_node().name("node-a").label("planet", "mars").label("galaxy", "andromeda").obj()],
        objs=[
            v1_replica_set({'metadata': {'namespace': "default", 'name': "rs1"}, 'spec': {'selector': foo_selector}}),
        ],
        want=PSS(
            constraints=[
                Tsc(
                    max_skew=2,
                    topology_key="planet",
                    selector=make_label_selector().label("baz", "sup").obj(),
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            ignored_nodes=set(),
            topology_value_to_pod_counts=[{"mars": 0}],
            topology_normalizing_weight=[topology_normalizing_weight(1)],
        ),
    ),
    dict(
        name="NodeAffinityPolicy honored with labelSelectors",
        pod=make_pod().name("p").label("foo", "").node_selector({"foo": ""}).spread_constraint(1, "zone", SCHEDULE_ANYWAY, bar_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("foo", "").label(LABEL_HOSTNAME, "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("foo", "").label(LABEL_HOSTNAME, "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label(LABEL_HOSTNAME, "node-x").obj(),
        ],
        config=Args(defaulting_type="List"),
        want=PSS(
            constraints=[
                Tsc(
                    max_skew=1,
                    topology_key="zone",
                    selector=bar_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            ignored_nodes=set(),
            topology_value_to_pod_counts=[{"zone1": 0, "zone2": 0}],
            topology_normalizing_weight=[topology_normalizing_weight(2)],
        ),
    ),
    dict(
        name="NodeAffinityPolicy ignored with labelSelectors",
        pod=make_pod().name("p").label("foo", "").node_selector({"foo": ""}).spread_constraint(1, "zone", SCHEDULE_ANYWAY, bar_selector, None, IGNORE, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("foo", "").label(LABEL_HOSTNAME, "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("foo", "").label(LABEL_HOSTNAME, "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label(LABEL_HOSTNAME, "node-x").obj(),
        ],
        config=Args(defaulting_type="List"),
        want=PSS(
            constraints=[
                Tsc(
                    max_skew=1,
                    topology_key="zone",
                    selector=bar_selector,
                    min_domains=1,
                    node_affinity_policy=IGNORE,
                    node_taints_policy=IGNORE,
                ),
            ],
            ignored_nodes=set(),
            topology_value_to_pod_counts=[{"zone1": 0, "zone2": 0}],
            topology_normalizing_weight=[topology_normalizing_weight(2)],
        ),
    ),
    dict(
        name="NodeAffinityPolicy honored with nodeAffinity",
        pod=make_pod().name("p").label("foo", "").node_affinity_in("foo", [""], "MatchExpressions").spread_constraint(1, "zone", SCHEDULE_ANYWAY, bar_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("foo", "").label(LABEL_HOSTNAME, "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("foo", "").label(LABEL_HOSTNAME, "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label(LABEL_HOSTNAME, "node-x").obj(),
        ],
        config=Args(defaulting_type="List"),
        want=PSS(
            constraints=[
                Tsc(
                    max_skew=1,
                    topology_key="zone",
                    selector=bar_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            ignored_nodes=set(),
            topology_value_to_pod_counts=[{"zone1": 0, "zone2": 0}],
            topology_normalizing_weight=[topology_normalizing_weight(2)],
        ),
    ),
    dict(
        name="NodeAffinityPolicy ignored with nodeAffinity",
        pod=make_pod().name("p").label("foo", "").node_affinity_in("foo", [""], "MatchExpressions").spread_constraint(1, "zone", SCHEDULE_ANYWAY, bar_selector, None, IGNORE, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("foo", "").label(LABEL_HOSTNAME, "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("foo", "").label(LABEL_HOSTNAME, "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label(LABEL_HOSTNAME, "node-x").obj(),
        ],
        config=Args(defaulting_type="List"),
        want=PSS(
            constraints=[
                Tsc(
                    max_skew=1,
                    topology_key="zone",
                    selector=bar_selector,
                    min_domains=1,
                    node_affinity_policy=IGNORE,
                    node_taints_policy=IGNORE,
                ),
            ],
            ignored_nodes=set(),
            topology_value_to_pod_counts=[{"zone1": 0, "zone2": 0}],
            topology_normalizing_weight=[topology_normalizing_weight(2)],
        ),
    ),
    dict(
        name="NodeTaintsPolicy honored",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", SCHEDULE_ANYWAY, bar_selector, None, None, HONOR, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("foo", "").label(LABEL_HOSTNAME, "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("foo", "").label(LABEL_HOSTNAME, "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label(LABEL_HOSTNAME, "node-x").taints(taints).obj(),
        ],
        config=Args(defaulting_type="List"),
        want=PSS(
            constraints=[
                Tsc(
                    max_skew=1,
                    topology_key="zone",
                    selector=bar_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=HONOR,
                ),
            ],
            ignored_nodes=set(),
            topology_value_to_pod_counts=[{"zone1": 0, "zone2": 0}],
            topology_normalizing_weight=[topology_normalizing_weight(2)],
        ),
    ),
    dict(
        name="NodeTaintsPolicy ignored",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", SCHEDULE_ANYWAY, bar_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("foo", "").label(LABEL_HOSTNAME, "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("foo", "").label(LABEL_HOSTNAME, "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label(LABEL_HOSTNAME, "node-x").taints(taints).obj(),
        ],
        config=Args(defaulting_type="List"),
        want=PSS(
            constraints=[
                Tsc(
                    max_skew=1,
                    topology_key="zone",
                    selector=bar_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            ignored_nodes=set(),
            topology_value_to_pod_counts=[{"zone1": 0, "zone2": 0}],
            topology_normalizing_weight=[topology_normalizing_weight(2)],
        ),
    ),
]


@pytest.mark.parametrize("tt", PRE_SCORE_STATE_CASES, ids=[c["name"] for c in PRE_SCORE_STATE_CASES])
def test_pre_score_state_empty_nodes(tt):
    p = PodTopologySpread.new(tt["config"], SnapshotHandle((), tt["nodes"], tt.get("objs")))
    cs = CycleState()
    assert p.pre_score(cs, tt["pod"], _build_node_infos(tt["nodes"])).is_success()
    assert pre_score_state_view(cs.read(PRE_SCORE_STATE_KEY)) == tt["want"]


# --- TestPodTopologySpreadScore ----------------------------------------------------------------

SCORE_CASES = [
    dict(
        name="one constraint on node, no existing pods",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, LABEL_HOSTNAME, SCHEDULE_ANYWAY, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label(LABEL_HOSTNAME, "node-a").obj(),
            make_node().name("node-b").label(LABEL_HOSTNAME, "node-b").obj(),
        ],
        want=[NodeScore(name="node-a", score=100), NodeScore(name="node-b", score=100)],
    ),
    dict(
        name="one constraint on node, only one node is candidate",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, LABEL_HOSTNAME, SCHEDULE_ANYWAY, foo_selector, None, None, None, None).obj(),
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
        ],
        nodes=[make_node().name("node-a").label(LABEL_HOSTNAME, "node-a").obj()],
        failed_nodes=[make_node().name("node-b").label(LABEL_HOSTNAME, "node-b").obj()],
        want=[NodeScore(name="node-a", score=100)],
    ),
    dict(
        name="one constraint on node, all nodes have the same number of matching pods",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, LABEL_HOSTNAME, SCHEDULE_ANYWAY, foo_selector, None, None, None, None).obj(),
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
        ],
        nodes=[
            make_node().name("node-a").label(LABEL_HOSTNAME, "node-a").obj(),
            make_node().name("node-b").label(LABEL_HOSTNAME, "node-b").obj(),
        ],
        want=[NodeScore(name="node-a", score=100), NodeScore(name="node-b", score=100)],
    ),
    dict(
        name="one constraint on node, all 4 nodes are candidates",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, LABEL_HOSTNAME, SCHEDULE_ANYWAY, foo_selector, None, None, None, None).obj(),
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-d1").node("node-d").label("foo", "").obj(),
            make_pod().name("p-d2").node("node-d").label("foo", "").obj(),
            make_pod().name("p-d3").node("node-d").label("foo", "").obj(),
        ],
        nodes=[
            make_node().name("node-a").label(LABEL_HOSTNAME, "node-a").obj(),
            make_node().name("node-b").label(LABEL_HOSTNAME, "node-b").obj(),
            make_node().name("node-c").label(LABEL_HOSTNAME, "node-c").obj(),
            make_node().name("node-d").label(LABEL_HOSTNAME, "node-d").obj(),
        ],
        failed_nodes=[],
        want=[
            NodeScore(name="node-a", score=20),
            NodeScore(name="node-b", score=60),
            NodeScore(name="node-c", score=100),
            NodeScore(name="node-d", score=0),
        ],
    ),
    dict(
        name="one constraint on node, null selector",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, LABEL_HOSTNAME, SCHEDULE_ANYWAY, None, None, None, None, None).obj(),
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-d1").node("node-d").label("foo", "").obj(),
            make_pod().name("p-d2").node("node-d").label("foo", "").obj(),
            make_pod().name("p-d3").node("node-d").label("foo", "").obj(),
        ],
        nodes=[
            make_node().name("node-a").label(LABEL_HOSTNAME, "node-a").obj(),
            make_node().name("node-b").label(LABEL_HOSTNAME, "node-b").obj(),
            make_node().name("node-c").label(LABEL_HOSTNAME, "node-c").obj(),
            make_node().name("node-d").label(LABEL_HOSTNAME, "node-d").obj(),
        ],
        want=[
            NodeScore(name="node-a", score=100),
            NodeScore(name="node-b", score=100),
            NodeScore(name="node-c", score=100),
            NodeScore(name="node-d", score=100),
        ],
    ),
    dict(
        name="one constraint on node, all 4 nodes are candidates, maxSkew=2",
        pod=make_pod().name("p").label("foo", "").spread_constraint(2, LABEL_HOSTNAME, SCHEDULE_ANYWAY, foo_selector, None, None, None, None).obj(),
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-d1").node("node-d").label("foo", "").obj(),
            make_pod().name("p-d2").node("node-d").label("foo", "").obj(),
            make_pod().name("p-d3").node("node-d").label("foo", "").obj(),
        ],
        nodes=[
            make_node().name("node-a").label(LABEL_HOSTNAME, "node-a").obj(),
            make_node().name("node-b").label(LABEL_HOSTNAME, "node-b").obj(),
            make_node().name("node-c").label(LABEL_HOSTNAME, "node-c").obj(),
            make_node().name("node-d").label(LABEL_HOSTNAME, "node-d").obj(),
        ],
        failed_nodes=[],
        want=[
            NodeScore(name="node-a", score=33),
            NodeScore(name="node-b", score=66),
            NodeScore(name="node-c", score=100),
            NodeScore(name="node-d", score=16),
        ],
    ),
    dict(
        name="one constraint on node, all 4 nodes are candidates, maxSkew=3",
        pod=make_pod().name("p").label("foo", "").spread_constraint(3, LABEL_HOSTNAME, SCHEDULE_ANYWAY, foo_selector, None, None, None, None).obj(),
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a3").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a4").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-b2").node("node-b").label("foo", "").obj(),
            make_pod().name("p-b3").node("node-b").label("foo", "").obj(),
            make_pod().name("p-c1").node("node-c").label("foo", "").obj(),
            make_pod().name("p-c2").node("node-c").label("foo", "").obj(),
            make_pod().name("p-d1").node("node-d").label("foo", "").obj(),
        ],
        nodes=[
            make_node().name("node-a").label(LABEL_HOSTNAME, "node-a").obj(),
            make_node().name("node-b").label(LABEL_HOSTNAME, "node-b").obj(),
            make_node().name("node-c").label(LABEL_HOSTNAME, "node-c").obj(),
            make_node().name("node-d").label(LABEL_HOSTNAME, "node-d").obj(),
        ],
        failed_nodes=[],
        want=[
            NodeScore(name="node-a", score=44),
            NodeScore(name="node-b", score=66),
            NodeScore(name="node-c", score=77),
            NodeScore(name="node-d", score=100),
        ],
    ),
    dict(
        name="system defaulting, nodes don't have zone, pods match service",
        pod=make_pod().name("p").label("foo", "").obj(),
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a3").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a4").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-b2").node("node-b").label("foo", "").obj(),
            make_pod().name("p-b3").node("node-b").label("foo", "").obj(),
            make_pod().name("p-c1").node("node-c").label("foo", "").obj(),
            make_pod().name("p-c2").node("node-c").label("foo", "").obj(),
            make_pod().name("p-d1").node("node-d").label("foo", "").obj(),
        ],
        nodes=[
            make_node().name("node-a").label(LABEL_HOSTNAME, "node-a").obj(),
            make_node().name("node-b").label(LABEL_HOSTNAME, "node-b").obj(),
            make_node().name("node-c").label(LABEL_HOSTNAME, "node-c").obj(),
            make_node().name("node-d").label(LABEL_HOSTNAME, "node-d").obj(),
        ],
        failed_nodes=[],
        objs=[v1_service({'spec': {'selector': {"foo": ""}}})],
        want=[
            NodeScore(name="node-a", score=44),
            NodeScore(name="node-b", score=66),
            NodeScore(name="node-c", score=77),
            NodeScore(name="node-d", score=100),
        ],
    ),
    dict(
        name="one constraint on node, 3 out of 4 nodes are candidates",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, LABEL_HOSTNAME, SCHEDULE_ANYWAY, foo_selector, None, None, None, None).obj(),
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a3").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a4").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-b2").node("node-b").label("foo", "").obj(),
            make_pod().name("p-x1").node("node-x").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y2").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y3").node("node-y").label("foo", "").obj(),
        ],
        nodes=[
            make_node().name("node-a").label(LABEL_HOSTNAME, "node-a").obj(),
            make_node().name("node-b").label(LABEL_HOSTNAME, "node-b").obj(),
            make_node().name("node-x").label(LABEL_HOSTNAME, "node-x").obj(),
        ],
        failed_nodes=[make_node().name("node-y").label(LABEL_HOSTNAME, "node-y").obj()],
        want=[
            NodeScore(name="node-a", score=33),
            NodeScore(name="node-b", score=83),
            NodeScore(name="node-x", score=100),
        ],
    ),
    dict(
        name="one constraint on node, 3 out of 4 nodes are candidates, one node doesn't match topology key",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, LABEL_HOSTNAME, SCHEDULE_ANYWAY, foo_selector, None, None, None, None).obj(),
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a3").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a4").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-b2").node("node-b").label("foo", "").obj(),
            make_pod().name("p-x1").node("node-x").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y2").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y3").node("node-y").label("foo", "").obj(),
        ],
        nodes=[
            make_node().name("node-a").label(LABEL_HOSTNAME, "node-a").obj(),
            make_node().name("node-b").label("n", "node-b").obj(),
            make_node().name("node-x").label(LABEL_HOSTNAME, "node-x").obj(),
        ],
        failed_nodes=[make_node().name("node-y").label(LABEL_HOSTNAME, "node-y").obj()],
        want=[
            NodeScore(name="node-a", score=16),
            NodeScore(name="node-b", score=0),
            NodeScore(name="node-x", score=100),
        ],
    ),
    dict(
        name="one constraint on zone, 3 out of 4 nodes are candidates",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", SCHEDULE_ANYWAY, foo_selector, None, None, None, None).obj(),
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a3").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a4").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-b2").node("node-b").label("foo", "").obj(),
            make_pod().name("p-x1").node("node-x").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y2").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y3").node("node-y").label("foo", "").obj(),
        ],
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label(LABEL_HOSTNAME, "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label(LABEL_HOSTNAME, "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label(LABEL_HOSTNAME, "node-x").obj(),
        ],
        failed_nodes=[make_node().name("node-y").label("zone", "zone2").label(LABEL_HOSTNAME, "node-y").obj()],
        want=[
            NodeScore(name="node-a", score=75),
            NodeScore(name="node-b", score=75),
            NodeScore(name="node-x", score=100),
        ],
    ),
    dict(
        name="two Constraints on zone and node, 2 out of 4 nodes are candidates",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", SCHEDULE_ANYWAY, foo_selector, None, None, None, None).spread_constraint(1, LABEL_HOSTNAME, SCHEDULE_ANYWAY, foo_selector, None, None, None, None).obj(),
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-x1").node("node-x").label("foo", "").obj(),
            make_pod().name("p-x2").node("node-x").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y2").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y3").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y4").node("node-y").label("foo", "").obj(),
        ],
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label(LABEL_HOSTNAME, "node-a").obj(),
            make_node().name("node-x").label("zone", "zone2").label(LABEL_HOSTNAME, "node-x").obj(),
        ],
        failed_nodes=[
            make_node().name("node-b").label("zone", "zone1").label(LABEL_HOSTNAME, "node-b").obj(),
            make_node().name("node-y").label("zone", "zone2").label(LABEL_HOSTNAME, "node-y").obj(),
        ],
        want=[NodeScore(name="node-a", score=100), NodeScore(name="node-x", score=63)],
    ),
    dict(
        name="two Constraints on zone, 2 out of 4 nodes are candidates",
        pod=make_pod().name("p").label("foo", "").label("bar", "").spread_constraint(1, "zone", SCHEDULE_ANYWAY, foo_selector, None, None, None, None).spread_constraint(1, "zone", SCHEDULE_ANYWAY, bar_selector, None, None, None, None).obj(),
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").label("bar", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").label("bar", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y2").node("node-y").label("foo", "").label("bar", "").obj(),
            make_pod().name("p-y3").node("node-y").label("foo", "").obj(),
        ],
        nodes=[
            make_node().name("node-a").label("zone", "zone1").obj(),
            make_node().name("node-x").label("zone", "zone2").obj(),
        ],
        failed_nodes=[
            make_node().name("node-b").label("zone", "zone1").obj(),
            make_node().name("node-y").label("zone", "zone2").obj(),
        ],
        want=[NodeScore(name="node-a", score=85), NodeScore(name="node-x", score=100)],
    ),
    dict(
        name="two Constraints on zone and node, with different labelSelectors",
        pod=make_pod().name("p").label("foo", "").label("bar", "").spread_constraint(1, "zone", SCHEDULE_ANYWAY, foo_selector, None, None, None, None).spread_constraint(1, LABEL_HOSTNAME, SCHEDULE_ANYWAY, bar_selector, None, None, None, None).obj(),
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").label("bar", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y2").node("node-y").label("bar", "").obj(),
        ],
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label(LABEL_HOSTNAME, "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label(LABEL_HOSTNAME, "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label(LABEL_HOSTNAME, "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label(LABEL_HOSTNAME, "node-y").obj(),
        ],
        failed_nodes=[],
        want=[
            NodeScore(name="node-a", score=60),
            NodeScore(name="node-b", score=20),
            NodeScore(name="node-x", score=100),
            NodeScore(name="node-y", score=60),
        ],
    ),
    dict(
        name="two Constraints on zone and node, with different labelSelectors, some nodes have 0 pods",
        pod=make_pod().name("p").label("foo", "").label("bar", "").spread_constraint(1, "zone", SCHEDULE_ANYWAY, foo_selector, None, None, None, None).spread_constraint(1, LABEL_HOSTNAME, SCHEDULE_ANYWAY, bar_selector, None, None, None, None).obj(),
        existing_pods=[
            make_pod().name("p-b1").node("node-b").label("bar", "").obj(),
            make_pod().name("p-x1").node("node-x").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").label("bar", "").obj(),
        ],
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label(LABEL_HOSTNAME, "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label(LABEL_HOSTNAME, "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label(LABEL_HOSTNAME, "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label(LABEL_HOSTNAME, "node-y").obj(),
        ],
        failed_nodes=[],
        want=[
            NodeScore(name="node-a", score=100),
            NodeScore(name="node-b", score=60),
            NodeScore(name="node-x", score=40),
            NodeScore(name="node-y", score=0),
        ],
    ),
    dict(
        name="two Constraints on zone and node, with different labelSelectors, 3 out of 4 nodes are candidates",
        pod=make_pod().name("p").label("foo", "").label("bar", "").spread_constraint(1, "zone", SCHEDULE_ANYWAY, foo_selector, None, None, None, None).spread_constraint(1, LABEL_HOSTNAME, SCHEDULE_ANYWAY, bar_selector, None, None, None, None).obj(),
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").label("bar", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y2").node("node-y").label("bar", "").obj(),
        ],
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label(LABEL_HOSTNAME, "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label(LABEL_HOSTNAME, "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label(LABEL_HOSTNAME, "node-x").obj(),
        ],
        failed_nodes=[make_node().name("node-y").label("zone", "zone2").label(LABEL_HOSTNAME, "node-y").obj()],
        want=[
            NodeScore(name="node-a", score=50),
            NodeScore(name="node-b", score=25),
            NodeScore(name="node-x", score=100),
        ],
    ),
    dict(
        name="existing pods in a different namespace do not count",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, LABEL_HOSTNAME, SCHEDULE_ANYWAY, foo_selector, None, None, None, None).obj(),
        existing_pods=[
            make_pod().name("p-a1").namespace("ns1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-b2").node("node-b").label("foo", "").obj(),
        ],
        nodes=[
            make_node().name("node-a").label(LABEL_HOSTNAME, "node-a").obj(),
            make_node().name("node-b").label(LABEL_HOSTNAME, "node-b").obj(),
        ],
        want=[NodeScore(name="node-a", score=100), NodeScore(name="node-b", score=33)],
    ),
    dict(
        name="terminating Pods should be excluded",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, LABEL_HOSTNAME, SCHEDULE_ANYWAY, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label(LABEL_HOSTNAME, "node-a").obj(),
            make_node().name("node-b").label(LABEL_HOSTNAME, "node-b").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a").node("node-a").label("foo", "").terminating().obj(),
            make_pod().name("p-b").node("node-b").label("foo", "").obj(),
        ],
        want=[NodeScore(name="node-a", score=100), NodeScore(name="node-b", score=0)],
    ),
    dict(
        name="minDomains has no effect when ScheduleAnyway",
        pod=make_pod().name("p").label("foo", "").spread_constraint(2, "node", SCHEDULE_ANYWAY, foo_selector, 10, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("node", "node-a").obj(),
            make_node().name("node-b").label("node", "node-b").obj(),
            make_node().name("node-c").label("node", "node-c").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-b2").node("node-b").label("foo", "").obj(),
            make_pod().name("p-c1").node("node-c").label("foo", "").obj(),
        ],
        want=[
            NodeScore(name="node-a", score=75),
            NodeScore(name="node-b", score=75),
            NodeScore(name="node-c", score=100),
        ],
    ),
    dict(
        name="NodeAffinityPolicy honoed with labelSelectors",
        pod=make_pod().name("p").label("foo", "").node_selector({"foo": ""}).spread_constraint(1, "node", SCHEDULE_ANYWAY, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("node", "node-a").label("foo", "").obj(),
            make_node().name("node-b").label("node", "node-b").label("foo", "").obj(),
            make_node().name("node-c").label("node", "node-c").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-c1").node("node-c").label("foo", "").obj(),
        ],
        want=[
            NodeScore(name="node-a", score=0),
            NodeScore(name="node-b", score=33),
            NodeScore(name="node-c", score=100),
        ],
    ),
    dict(
        name="NodeAffinityPolicy ignored with labelSelectors",
        pod=make_pod().name("p").label("foo", "").node_selector({"foo": ""}).spread_constraint(1, "node", SCHEDULE_ANYWAY, foo_selector, None, IGNORE, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("node", "node-a").label("foo", "").obj(),
            make_node().name("node-b").label("node", "node-b").label("foo", "").obj(),
            make_node().name("node-c").label("node", "node-c").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-c1").node("node-c").label("foo", "").obj(),
        ],
        want=[
            NodeScore(name="node-a", score=66),
            NodeScore(name="node-b", score=100),
            NodeScore(name="node-c", score=100),
        ],
    ),
    dict(
        name="NodeAffinityPolicy honoed with nodeAffinity",
        pod=make_pod().name("p").label("foo", "").node_affinity_in("foo", [""], "MatchExpressions").spread_constraint(1, "node", SCHEDULE_ANYWAY, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("node", "node-a").label("foo", "").obj(),
            make_node().name("node-b").label("node", "node-b").label("foo", "").obj(),
            make_node().name("node-c").label("node", "node-c").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-c1").node("node-c").label("foo", "").obj(),
        ],
        want=[
            NodeScore(name="node-a", score=0),
            NodeScore(name="node-b", score=33),
            NodeScore(name="node-c", score=100),
        ],
    ),
    dict(
        name="NodeAffinityPolicy ignored with nodeAffinity",
        pod=make_pod().name("p").label("foo", "").node_affinity_in("foo", [""], "MatchExpressions").spread_constraint(1, "node", SCHEDULE_ANYWAY, foo_selector, None, IGNORE, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("node", "node-a").label("foo", "").obj(),
            make_node().name("node-b").label("node", "node-b").label("foo", "").obj(),
            make_node().name("node-c").label("node", "node-c").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-c1").node("node-c").label("foo", "").obj(),
        ],
        want=[
            NodeScore(name="node-a", score=66),
            NodeScore(name="node-b", score=100),
            NodeScore(name="node-c", score=100),
        ],
    ),
    dict(
        name="NodeTaintsPolicy honored",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "node", SCHEDULE_ANYWAY, foo_selector, None, None, HONOR, None).obj(),
        nodes=[
            make_node().name("node-a").label("node", "node-a").obj(),
            make_node().name("node-b").label("node", "node-b").obj(),
            make_node().name("node-c").label("node", "node-c").taints(taints).obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-c1").node("node-c").label("foo", "").obj(),
        ],
        want=[
            NodeScore(name="node-a", score=0),
            NodeScore(name="node-b", score=33),
            NodeScore(name="node-c", score=100),
        ],
    ),
    dict(
        name="NodeTaintsPolicy ignored",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "node", SCHEDULE_ANYWAY, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("node", "node-a").obj(),
            make_node().name("node-b").label("node", "node-b").obj(),
            make_node().name("node-c").label("node", "node-c").taints(taints).obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-c1").node("node-c").label("foo", "").obj(),
        ],
        want=[
            NodeScore(name="node-a", score=66),
            NodeScore(name="node-b", score=100),
            NodeScore(name="node-c", score=100),
        ],
    ),
    dict(
        name="matchLabelKeys ANDed with LabelSelector when LabelSelector is empty",
        pod=make_pod().name("p").label("foo", "").label("bar", "").spread_constraint(1, "zone", SCHEDULE_ANYWAY, make_label_selector().obj(), None, None, None, ["foo"]).spread_constraint(1, LABEL_HOSTNAME, SCHEDULE_ANYWAY, make_label_selector().obj(), None, None, None, ["bar"]).obj(),
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").label("bar", "").obj(),
            make_pod().name("p-y1").node("node-c").label("foo", "").obj(),
            make_pod().name("p-y2").node("node-c").label("bar", "").obj(),
        ],
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label(LABEL_HOSTNAME, "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label(LABEL_HOSTNAME, "node-b").obj(),
            make_node().name("node-c").label("zone", "zone2").label(LABEL_HOSTNAME, "node-c").obj(),
            make_node().name("node-d").label("zone", "zone2").label(LABEL_HOSTNAME, "node-d").obj(),
        ],
        want=[
            NodeScore(name="node-a", score=60),
            NodeScore(name="node-b", score=20),
            NodeScore(name="node-c", score=60),
            NodeScore(name="node-d", score=100),
        ],
    ),
    dict(
        name="matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty",
        pod=make_pod().name("p").label("foo", "").label("bar", "").label("baz", "").spread_constraint(1, "zone", SCHEDULE_ANYWAY, foo_selector, None, None, None, None).spread_constraint(1, LABEL_HOSTNAME, SCHEDULE_ANYWAY, bar_selector, None, None, None, ["baz"]).obj(),
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").label("bar", "").label("baz", "").obj(),
            make_pod().name("p-c1").node("node-c").label("foo", "").obj(),
            make_pod().name("p-c2").node("node-c").label("bar", "").obj(),
            make_pod().name("p-d3").node("node-c").label("bar", "").label("baz", "").obj(),
        ],
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label(LABEL_HOSTNAME, "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label(LABEL_HOSTNAME, "node-b").obj(),
            make_node().name("node-c").label("zone", "zone2").label(LABEL_HOSTNAME, "node-c").obj(),
            make_node().name("node-d").label("zone", "zone2").label(LABEL_HOSTNAME, "node-d").obj(),
        ],
        want=[
            NodeScore(name="node-a", score=60),
            NodeScore(name="node-b", score=20),
            NodeScore(name="node-c", score=60),
            NodeScore(name="node-d", score=100),
        ],
    ),
]


@pytest.mark.parametrize("tt", SCORE_CASES, ids=[c["name"] for c in SCORE_CASES])
def test_pod_topology_spread_score(tt):
    all_nodes = list(tt["nodes"]) + list(tt.get("failed_nodes") or [])
    handle = SnapshotHandle(tt.get("existing_pods"), all_nodes, tt.get("objs"))
    p = PodTopologySpread.new(Args(defaulting_type="System"), handle)
    state = CycleState()
    assert p.pre_score(state, tt["pod"], _build_node_infos(tt["nodes"])).is_success()
    got = []
    for n in tt["nodes"]:
        score, status = p.score(state, tt["pod"], handle.get(n.name))
        assert status.is_success()
        got.append(NodeScore(n.name, score))
    assert p.normalize_score(state, tt["pod"], got).is_success()
    assert got == tt["want"]


# --- beyond the upstream tables ----------------------------------------------------------------

def test_pre_score_skips_without_nodes():
    pod = make_pod().name("p").spread_constraint(1, "zone", SCHEDULE_ANYWAY, foo_selector, None, None, None,
                                                 None).obj()
    p = PodTopologySpread.new(Args(defaulting_type="List"), SnapshotHandle())
    assert p.pre_score(CycleState(), pod, []).code is Code.SKIP


def test_score_without_pre_score_is_an_error():
    p = PodTopologySpread.new(Args(defaulting_type="List"), SnapshotHandle())
    _, status = p.score(CycleState(), make_pod().obj(), NodeInfo.of(make_node().name("a").obj()))
    assert status.code is Code.ERROR
    assert status.message() == f'error reading "{PRE_SCORE_STATE_KEY}" from cycleState: not found'


@pytest.mark.parametrize("x, want", [(0.5, 1), (1.5, 2), (2.5, 3), (2.4999, 2), (-0.5, -1)])
def test_go_round_is_half_away_from_zero(x, want):
    assert go_round(x) == want


def test_system_defaults_need_a_workload_selector():
    nodes = [make_node().name("a").label(LABEL_HOSTNAME, "a").obj()]
    pod = make_pod().name("p").namespace("default").label("app", "x").obj()
    bare = PodTopologySpread.new(Args(defaulting_type="System"), SnapshotHandle((), nodes))
    assert bare.pre_score(CycleState(), pod, _build_node_infos(nodes)).code is Code.SKIP
    svc = v1_service({"metadata": {"name": "s", "namespace": "default"}, "spec": {"selector": {"app": "x"}}})
    served = PodTopologySpread.new(Args(defaulting_type="System"), SnapshotHandle((), nodes, [svc]))
    assert served.pre_score(CycleState(), pod, _build_node_infos(nodes)).is_success()
    _ = (topology_normalizing_weight, v1_replica_set, Tsc, PSS, v1_topology_spread_constraint)
