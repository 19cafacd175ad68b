"""PodTopologySpread PreFilter / Filter / AddPod / RemovePod, ported from upstream
pkg/scheduler/framework/plugins/podtopologyspread/filtering_test.go (Kubernetes v1.37.2).

Expected values are upstream's literals. Left out:
- cases that run with NodeInclusionPolicyInPodTopologySpread off while the pod sets a policy
  (the gate is GA and locked on in v1.37.2); gate-off cases without explicit policies behave the
  same with the gate on and are kept;
- cases that run with MatchLabelKeysInPodTopologySpread off while the pod sets matchLabelKeys
  (the gate is on by default): TestPreFilterState: matchLabelKeys ignored when feature gate disabled; TestPreFilterState: no pod is matched when LabelSelector is nil when feature gate disabled;
- BenchmarkFilter (a benchmark), TestPodTopoSignatures (SignPlugin is not modelled) and
  TestPodTopologySpread_DeferredResizeSkipped (InPlacePodVerticalScalingSchedulerPreemption is
  off by default; pod resize conditions are not modelled).
"""

from __future__ import annotations

import pytest

from reference.cycle_state import CycleState
from reference.nodeinfo import PodInfo
from reference.plugins.pod_topology_spread import PodTopologySpread, PodTopologySpreadArgs
from reference.plugins.pod_topology_spread.common import (DO_NOT_SCHEDULE, HONOR, IGNORE, SCHEDULE_ANYWAY,
                                                          LABEL_HOSTNAME, LABEL_TOPOLOGY_ZONE)
from reference.plugins.pod_topology_spread.filtering import PRE_FILTER_STATE_KEY, PreFilterState
from reference.status import SUCCESS, Code, Status
from reference.types import Taint
from tests.reference.plugins._spread_builders import (MAX_INT32, SnapshotHandle, make_label_selector, make_node,
                                                      make_pod, v1_service, v1_topology_spread_constraint)
from tests.reference.plugins._spread_state import PFS, Tsc, new_critical_paths, pre_filter_state_view

foo_selector = make_label_selector().exists("foo").obj()
bar_selector = make_label_selector().exists("bar").obj()
taints = [Taint(key="node.kubernetes.io/unschedulable", value="", effect="NoSchedule")]
node_constraint = Tsc(max_skew=1, topology_key="node", selector=foo_selector, min_domains=1,
                      node_affinity_policy=HONOR, node_taints_policy=IGNORE)
zone_constraint = Tsc(max_skew=1, topology_key="zone", selector=foo_selector, min_domains=1,
                      node_affinity_policy=HONOR, node_taints_policy=IGNORE)

_ = (SCHEDULE_ANYWAY, LABEL_HOSTNAME, LABEL_TOPOLOGY_ZONE, MAX_INT32, new_critical_paths)


def _plugin(handle: SnapshotHandle, default_constraints=()) -> PodTopologySpread:
    args = PodTopologySpreadArgs(default_constraints=tuple(default_constraints), defaulting_type="List")
    return PodTopologySpread.new(args, handle)


def _pre_filter(p: PodTopologySpread, handle: SnapshotHandle, pod) -> tuple[CycleState, Status]:
    cs = CycleState()
    _, status = p.pre_filter(cs, pod, handle.node_infos())
    return cs, status


# --- TestPreFilterState ------------------------------------------------------------------------

PRE_FILTER_STATE_CASES = [
    dict(
        name="clean cluster with one spreadConstraint",
        pod=make_pod().name("p").label("foo", "").spread_constraint(5, "zone", DO_NOT_SCHEDULE, make_label_selector().label("foo", "bar").obj(), None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        want=PFS(
            constraints=[
                Tsc(
                    max_skew=5,
                    topology_key="zone",
                    selector=make_label_selector().label("foo", "bar").obj(),
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            critical_paths=[(("zone1", 0), ("zone2", 0))],
            tp_value_to_match_num=[{"zone1": 0, "zone2": 0}],
        ),
    ),
    dict(
        name="normal case with one spreadConstraint",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y2").node("node-y").label("foo", "").obj(),
        ],
        want=PFS(
            constraints=[
                Tsc(
                    max_skew=1,
                    topology_key="zone",
                    selector=foo_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            critical_paths=[(("zone2", 2), ("zone1", 3))],
            tp_value_to_match_num=[{"zone1": 3, "zone2": 2}],
        ),
    ),
    dict(
        name="normal case with null label selector",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, None, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y2").node("node-y").label("foo", "").obj(),
        ],
        want=PFS(
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
            critical_paths=[(("zone2", 0), ("zone1", 0))],
            tp_value_to_match_num=[{"zone1": 0, "zone2": 0}],
        ),
    ),
    dict(
        name="normal case with one spreadConstraint, on a 3-zone cluster",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
            make_node().name("node-o").label("zone", "zone3").label("node", "node-o").obj(),
            make_node().name("node-p").label("zone", "zone3").label("node", "node-p").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y2").node("node-y").label("foo", "").obj(),
        ],
        want=PFS(
            constraints=[
                Tsc(
                    max_skew=1,
                    topology_key="zone",
                    selector=foo_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            critical_paths=[(("zone3", 0), ("zone2", 2))],
            tp_value_to_match_num=[{"zone1": 3, "zone2": 2, "zone3": 0}],
        ),
    ),
    dict(
        name="namespace mismatch doesn't count",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").namespace("ns1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").namespace("ns2").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y2").node("node-y").label("foo", "").obj(),
        ],
        want=PFS(
            constraints=[
                Tsc(
                    max_skew=1,
                    topology_key="zone",
                    selector=foo_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            critical_paths=[(("zone2", 1), ("zone1", 2))],
            tp_value_to_match_num=[{"zone1": 2, "zone2": 1}],
        ),
    ),
    dict(
        name="normal case with two spreadConstraints",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y2").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y3").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y4").node("node-y").label("foo", "").obj(),
        ],
        want=PFS(
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
                    topology_key="node",
                    selector=foo_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            critical_paths=[(("zone1", 3), ("zone2", 4)), (("node-x", 0), ("node-b", 1))],
            tp_value_to_match_num=[{"zone1": 3, "zone2": 4}, {"node-a": 2, "node-b": 1, "node-x": 0, "node-y": 4}],
        ),
    ),
    dict(
        name="soft spreadConstraints should be bypassed",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", SCHEDULE_ANYWAY, foo_selector, None, None, None, None).spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).spread_constraint(1, "node", SCHEDULE_ANYWAY, foo_selector, None, None, None, None).spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y2").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y3").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y4").node("node-y").label("foo", "").obj(),
        ],
        want=PFS(
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
                    topology_key="node",
                    selector=foo_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            critical_paths=[(("zone1", 3), ("zone2", 4)), (("node-b", 1), ("node-a", 2))],
            tp_value_to_match_num=[{"zone1": 3, "zone2": 4}, {"node-a": 2, "node-b": 1, "node-y": 4}],
        ),
    ),
    dict(
        name="different labelSelectors - simple version",
        pod=make_pod().name("p").label("foo", "").label("bar", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).spread_constraint(1, "node", DO_NOT_SCHEDULE, bar_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b").node("node-b").label("bar", "").obj(),
        ],
        want=PFS(
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
                    topology_key="node",
                    selector=bar_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            critical_paths=[(("zone2", 0), ("zone1", 1)), (("node-a", 0), ("node-y", 0))],
            tp_value_to_match_num=[{"zone1": 1, "zone2": 0}, {"node-a": 0, "node-b": 1, "node-y": 0}],
        ),
    ),
    dict(
        name="different labelSelectors - complex pods",
        pod=make_pod().name("p").label("foo", "").label("bar", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).spread_constraint(1, "node", DO_NOT_SCHEDULE, bar_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").label("bar", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y2").node("node-y").label("foo", "").label("bar", "").obj(),
            make_pod().name("p-y3").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y4").node("node-y").label("foo", "").label("bar", "").obj(),
        ],
        want=PFS(
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
                    topology_key="node",
                    selector=bar_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            critical_paths=[(("zone1", 3), ("zone2", 4)), (("node-b", 0), ("node-a", 1))],
            tp_value_to_match_num=[{"zone1": 3, "zone2": 4}, {"node-a": 1, "node-b": 0, "node-y": 2}],
        ),
    ),
    dict(
        name="two spreadConstraints, and with podAffinity",
        pod=make_pod().name("p").label("foo", "").node_affinity_not_in("node", ["node-x"]).spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y2").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y3").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y4").node("node-y").label("foo", "").obj(),
        ],
        want=PFS(
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
                    topology_key="node",
                    selector=foo_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            critical_paths=[(("zone1", 3), ("zone2", 4)), (("node-b", 1), ("node-a", 2))],
            tp_value_to_match_num=[{"zone1": 3, "zone2": 4}, {"node-a": 2, "node-b": 1, "node-y": 4}],
        ),
    ),
    dict(
        name="default constraints and a service",
        pod=make_pod().name("p").label("foo", "bar").label("baz", "kar").obj(),
        default_constraints=[
            v1_topology_spread_constraint({'maxSkew': 3, 'topologyKey': "node", 'whenUnsatisfiable': DO_NOT_SCHEDULE}),
            v1_topology_spread_constraint({'maxSkew': 2, 'topologyKey': "node", 'whenUnsatisfiable': SCHEDULE_ANYWAY}),
            v1_topology_spread_constraint({'maxSkew': 5, 'topologyKey': "rack", 'whenUnsatisfiable': DO_NOT_SCHEDULE}),
        ],
        objs=[v1_service({'spec': {'selector': {"foo": "bar"}}})],
        want=PFS(
            constraints=[
                Tsc(
                    max_skew=3,
                    topology_key="node",
                    selector=make_label_selector().label("foo", "bar").obj(),
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
                Tsc(
                    max_skew=5,
                    topology_key="rack",
                    selector=make_label_selector().label("foo", "bar").obj(),
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            critical_paths=[new_critical_paths(), new_critical_paths()],
            tp_value_to_match_num=[{}, {}],
        ),
    ),
    dict(
        name="default constraints and a service that doesn't match",
        pod=make_pod().name("p").label("foo", "bar").obj(),
        default_constraints=[
            v1_topology_spread_constraint({'maxSkew': 3, 'topologyKey': "node", 'whenUnsatisfiable': DO_NOT_SCHEDULE}),
        ],
        objs=[v1_service({'spec': {'selector': {"baz": "kep"}}})],
        want_prefilter_status=Status.new(Code.SKIP),
    ),
    dict(
        name="default constraints and a service, but pod has constraints",
        pod=make_pod().name("p").label("foo", "bar").label("baz", "tar").spread_constraint(1, "zone", DO_NOT_SCHEDULE, make_label_selector().label("baz", "tar").obj(), None, None, None, None).spread_constraint(2, "planet", SCHEDULE_ANYWAY, make_label_selector().label("fot", "rok").obj(), None, None, None, None).obj(),
        default_constraints=[
            v1_topology_spread_constraint({'maxSkew': 2, 'topologyKey': "node", 'whenUnsatisfiable': DO_NOT_SCHEDULE}),
        ],
        objs=[v1_service({'spec': {'selector': {"foo": "bar"}}})],
        want=PFS(
            constraints=[
                Tsc(
                    max_skew=1,
                    topology_key="zone",
                    selector=make_label_selector().label("baz", "tar").obj(),
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            critical_paths=[new_critical_paths()],
            tp_value_to_match_num=[{}],
        ),
    ),
    dict(
        name="default soft constraints and a service",
        pod=make_pod().name("p").label("foo", "bar").obj(),
        default_constraints=[
            v1_topology_spread_constraint({'maxSkew': 2, 'topologyKey': "node", 'whenUnsatisfiable': SCHEDULE_ANYWAY}),
        ],
        objs=[v1_service({'spec': {'selector': {"foo": "bar"}}})],
        want_prefilter_status=Status.new(Code.SKIP),
    ),
    dict(
        name="TpKeyToDomainsNum is calculated when MinDomains is enabled",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y2").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y3").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y4").node("node-y").label("foo", "").obj(),
        ],
        want=PFS(
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
                    topology_key="node",
                    selector=foo_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            critical_paths=[(("zone1", 3), ("zone2", 4)), (("node-x", 0), ("node-b", 1))],
            tp_value_to_match_num=[{"zone1": 3, "zone2": 4}, {"node-a": 2, "node-b": 1, "node-x": 0, "node-y": 4}],
        ),
    ),
    dict(
        name="feature gate disabled with NodeAffinityPolicy",
        pod=make_pod().name("p").label("foo", "").node_selector({"foo": ""}).spread_constraint(1, "node", DO_NOT_SCHEDULE, bar_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("node", "node-a").label("foo", "").obj(),
            make_node().name("node-b").label("node", "node-b").label("foo", "").obj(),
            make_node().name("node-c").label("node", "node-c").label("bar", "").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a").node("node-a").label("bar", "").obj(),
            make_pod().name("p-b").node("node-b").label("bar", "").obj(),
            make_pod().name("p-c").node("node-b").label("bar", "").obj(),
            make_pod().name("p-d").node("node-c").obj(),
        ],
        want=PFS(
            constraints=[
                Tsc(
                    max_skew=1,
                    topology_key="node",
                    selector=bar_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            critical_paths=[(("node-a", 1), ("node-b", 2))],
            tp_value_to_match_num=[{"node-a": 1, "node-b": 2}],
        ),
    ),
    dict(
        name="NodeAffinityPolicy honored with labelSelectors",
        pod=make_pod().name("p").label("foo", "").node_selector({"foo": ""}).spread_constraint(1, "node", DO_NOT_SCHEDULE, bar_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("node", "node-a").label("foo", "").obj(),
            make_node().name("node-b").label("node", "node-b").label("foo", "").obj(),
            make_node().name("node-c").label("node", "node-c").label("bar", "").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a").node("node-a").label("bar", "").obj(),
            make_pod().name("p-b").node("node-b").label("bar", "").obj(),
            make_pod().name("p-c").node("node-b").label("bar", "").obj(),
            make_pod().name("p-d").node("node-c").obj(),
        ],
        want=PFS(
            constraints=[
                Tsc(
                    max_skew=1,
                    topology_key="node",
                    selector=bar_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            critical_paths=[(("node-a", 1), ("node-b", 2))],
            tp_value_to_match_num=[{"node-a": 1, "node-b": 2}],
        ),
    ),
    dict(
        name="NodeAffinityPolicy ignored with labelSelectors",
        pod=make_pod().name("p").label("foo", "").node_selector({"foo": ""}).spread_constraint(1, "node", DO_NOT_SCHEDULE, bar_selector, None, IGNORE, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("node", "node-a").label("foo", "").obj(),
            make_node().name("node-b").label("node", "node-b").label("foo", "").obj(),
            make_node().name("node-c").label("node", "node-c").label("bar", "").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a").node("node-a").label("bar", "").obj(),
            make_pod().name("p-b").node("node-b").label("bar", "").obj(),
            make_pod().name("p-c").node("node-b").label("bar", "").obj(),
            make_pod().name("p-d").node("node-c").obj(),
        ],
        want=PFS(
            constraints=[
                Tsc(
                    max_skew=1,
                    topology_key="node",
                    selector=bar_selector,
                    min_domains=1,
                    node_affinity_policy=IGNORE,
                    node_taints_policy=IGNORE,
                ),
            ],
            critical_paths=[(("node-c", 0), ("node-a", 1))],
            tp_value_to_match_num=[{"node-a": 1, "node-b": 2, "node-c": 0}],
        ),
    ),
    dict(
        name="NodeAffinityPolicy honored with nodeAffinity",
        pod=make_pod().name("p").label("foo", "").node_affinity_in("foo", [""], "MatchExpressions").spread_constraint(1, "node", DO_NOT_SCHEDULE, bar_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("node", "node-a").label("foo", "").obj(),
            make_node().name("node-b").label("node", "node-b").label("foo", "").obj(),
            make_node().name("node-c").label("node", "node-c").label("bar", "").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a").node("node-a").label("bar", "").obj(),
            make_pod().name("p-c").node("node-b").label("bar", "").obj(),
            make_pod().name("p-d").node("node-b").label("bar", "").obj(),
            make_pod().name("p-e").node("node-c").obj(),
        ],
        want=PFS(
            constraints=[
                Tsc(
                    max_skew=1,
                    topology_key="node",
                    selector=bar_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            critical_paths=[(("node-a", 1), ("node-b", 2))],
            tp_value_to_match_num=[{"node-a": 1, "node-b": 2}],
        ),
    ),
    dict(
        name="NodeAffinityPolicy ignored with nodeAffinity",
        pod=make_pod().name("p").label("foo", "").node_affinity_in("foo", [""], "MatchExpressions").spread_constraint(1, "node", DO_NOT_SCHEDULE, bar_selector, None, IGNORE, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("node", "node-a").label("foo", "").obj(),
            make_node().name("node-b").label("node", "node-b").label("foo", "").obj(),
            make_node().name("node-c").label("node", "node-c").label("bar", "").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a").node("node-a").label("bar", "").obj(),
            make_pod().name("p-b").node("node-b").label("bar", "").obj(),
            make_pod().name("p-c").node("node-b").label("bar", "").obj(),
            make_pod().name("p-d").node("node-c").obj(),
        ],
        want=PFS(
            constraints=[
                Tsc(
                    max_skew=1,
                    topology_key="node",
                    selector=bar_selector,
                    min_domains=1,
                    node_affinity_policy=IGNORE,
                    node_taints_policy=IGNORE,
                ),
            ],
            critical_paths=[(("node-c", 0), ("node-a", 1))],
            tp_value_to_match_num=[{"node-a": 1, "node-b": 2, "node-c": 0}],
        ),
    ),
    dict(
        name="feature gate disabled with NodeTaintsPolicy",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "node", DO_NOT_SCHEDULE, bar_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("node", "node-a").obj(),
            make_node().name("node-b").label("node", "node-b").obj(),
            make_node().name("node-c").label("node", "node-c").taints(taints).label("bar", "").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a").node("node-a").label("bar", "").obj(),
            make_pod().name("p-b").node("node-b").label("bar", "").obj(),
            make_pod().name("p-c").node("node-b").label("bar", "").obj(),
            make_pod().name("p-d").node("node-c").obj(),
        ],
        want=PFS(
            constraints=[
                Tsc(
                    max_skew=1,
                    topology_key="node",
                    selector=bar_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            critical_paths=[(("node-c", 0), ("node-a", 1))],
            tp_value_to_match_num=[{"node-a": 1, "node-b": 2, "node-c": 0}],
        ),
    ),
    dict(
        name="NodeTaintsPolicy ignored",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "node", DO_NOT_SCHEDULE, bar_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("node", "node-a").obj(),
            make_node().name("node-b").label("node", "node-b").obj(),
            make_node().name("node-c").label("node", "node-c").taints(taints).label("bar", "").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a").node("node-a").label("bar", "").obj(),
            make_pod().name("p-b").node("node-b").label("bar", "").obj(),
            make_pod().name("p-c").node("node-b").label("bar", "").obj(),
            make_pod().name("p-d").node("node-c").obj(),
        ],
        want=PFS(
            constraints=[
                Tsc(
                    max_skew=1,
                    topology_key="node",
                    selector=bar_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            critical_paths=[(("node-c", 0), ("node-a", 1))],
            tp_value_to_match_num=[{"node-a": 1, "node-b": 2, "node-c": 0}],
        ),
    ),
    dict(
        name="NodeTaintsPolicy honored",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "node", DO_NOT_SCHEDULE, bar_selector, None, None, HONOR, None).obj(),
        nodes=[
            make_node().name("node-a").label("node", "node-a").obj(),
            make_node().name("node-b").label("node", "node-b").obj(),
            make_node().name("node-c").label("node", "node-c").taints(taints).label("bar", "").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a").node("node-a").label("bar", "").obj(),
            make_pod().name("p-b").node("node-b").label("bar", "").obj(),
            make_pod().name("p-c").node("node-b").label("bar", "").obj(),
            make_pod().name("p-d").node("node-c").obj(),
        ],
        want=PFS(
            constraints=[
                Tsc(
                    max_skew=1,
                    topology_key="node",
                    selector=bar_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=HONOR,
                ),
            ],
            critical_paths=[(("node-a", 1), ("node-b", 2))],
            tp_value_to_match_num=[{"node-a": 1, "node-b": 2}],
        ),
    ),
    dict(
        name="NodeTaintsPolicy honored with tolerated taints",
        pod=make_pod().name("p").label("foo", "").toleration("node.kubernetes.io/unschedulable").spread_constraint(1, "node", DO_NOT_SCHEDULE, bar_selector, None, None, HONOR, None).obj(),
        nodes=[
            make_node().name("node-a").label("node", "node-a").obj(),
            make_node().name("node-b").label("node", "node-b").obj(),
            make_node().name("node-c").label("node", "node-c").taints(taints).label("bar", "").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a").node("node-a").label("bar", "").obj(),
            make_pod().name("p-b").node("node-b").label("bar", "").obj(),
            make_pod().name("p-c").node("node-b").label("bar", "").obj(),
            make_pod().name("p-d").node("node-c").obj(),
        ],
        want=PFS(
            constraints=[
                Tsc(
                    max_skew=1,
                    topology_key="node",
                    selector=bar_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=HONOR,
                ),
            ],
            critical_paths=[(("node-c", 0), ("node-a", 1))],
            tp_value_to_match_num=[{"node-a": 1, "node-b": 2, "node-c": 0}],
        ),
    ),
    dict(
        name="two node inclusion Constraints, zone: honor/ignore, node: ignore/ignore",
        pod=make_pod().name("p").label("foo", "").node_selector({"foo": ""}).spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, IGNORE, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").label("foo", "").obj(),
        ],
        existing_pods=[
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-b2").node("node-b").label("foo", "").obj(),
            make_pod().name("p-x1").node("node-x").label("foo", "").obj(),
        ],
        want=PFS(
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
                    topology_key="node",
                    selector=foo_selector,
                    min_domains=1,
                    node_affinity_policy=IGNORE,
                    node_taints_policy=IGNORE,
                ),
            ],
            critical_paths=[(("zone1", 0), ("zone2", 1)), (("node-a", 0), ("node-x", 1))],
            tp_value_to_match_num=[{"zone1": 0, "zone2": 1}, {"node-a": 0, "node-b": 2, "node-x": 1}],
        ),
    ),
    dict(
        name="two node inclusion Constraints, zone: honor/honor, node: honor/ignore",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, HONOR, None).spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").taints(taints).obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").label("foo", "").obj(),
        ],
        existing_pods=[
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-b2").node("node-b").label("foo", "").obj(),
            make_pod().name("p-x1").node("node-x").label("foo", "").obj(),
        ],
        want=PFS(
            constraints=[
                Tsc(
                    max_skew=1,
                    topology_key="zone",
                    selector=foo_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=HONOR,
                ),
                Tsc(
                    max_skew=1,
                    topology_key="node",
                    selector=foo_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            critical_paths=[(("zone1", 0), ("zone2", 1)), (("node-a", 0), ("node-x", 1))],
            tp_value_to_match_num=[{"zone1": 0, "zone2": 1}, {"node-a": 0, "node-b": 2, "node-x": 1}],
        ),
    ),
    dict(
        name="two node inclusion Constraints, zone: honor/ignore, node: honor/ignore",
        pod=make_pod().name("p").label("foo", "").node_selector({"foo": ""}).spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").label("foo", "").taints(taints).obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").label("foo", "").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-x1").node("node-x").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
        ],
        want=PFS(
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
                    topology_key="node",
                    selector=foo_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            critical_paths=[(("zone1", 0), ("zone2", 1)), (("node-b", 0), ("node-x", 1))],
            tp_value_to_match_num=[{"zone1": 0, "zone2": 1}, {"node-b": 0, "node-x": 1}],
        ),
    ),
    dict(
        name="two node inclusion Constraints, zone: ignore/ignore, node: honor/honor",
        pod=make_pod().name("p").label("foo", "").node_selector({"foo": ""}).spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, IGNORE, None, None).spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, None, HONOR, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").label("foo", "").taints(taints).obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").label("foo", "").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").label("foo", "").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-x1").node("node-x").label("foo", "").obj(),
            make_pod().name("p-x2").node("node-x").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
        ],
        want=PFS(
            constraints=[
                Tsc(
                    max_skew=1,
                    topology_key="zone",
                    selector=foo_selector,
                    min_domains=1,
                    node_affinity_policy=IGNORE,
                    node_taints_policy=IGNORE,
                ),
                Tsc(
                    max_skew=1,
                    topology_key="node",
                    selector=foo_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=HONOR,
                ),
            ],
            critical_paths=[(("zone1", 2), ("zone2", 3)), (("node-y", 1), ("node-x", 2))],
            tp_value_to_match_num=[{"zone1": 2, "zone2": 3}, {"node-x": 2, "node-y": 1}],
        ),
    ),
    dict(
        name="matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty",
        pod=make_pod().name("p").label("foo", "").label("bar", "a").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, ["bar"]).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").label("bar", "a").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").label("bar", "a").obj(),
            make_pod().name("p-y2").node("node-y").label("bar", "").obj(),
        ],
        want=PFS(
            constraints=[
                Tsc(
                    max_skew=1,
                    topology_key="zone",
                    selector=make_label_selector().exists("foo").label("bar", "a").obj(),
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            critical_paths=[(("zone2", 1), ("zone1", 1))],
            tp_value_to_match_num=[{"zone1": 1, "zone2": 1}],
        ),
    ),
    dict(
        name="matchLabelKeys ANDed with LabelSelector when LabelSelector is empty",
        pod=make_pod().name("p").label("foo", "a").spread_constraint(1, "zone", DO_NOT_SCHEDULE, make_label_selector().obj(), None, None, None, ["foo"]).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "a").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "a").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "a").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "a").obj(),
            make_pod().name("p-y2").node("node-y").label("foo", "a").obj(),
        ],
        want=PFS(
            constraints=[
                Tsc(
                    max_skew=1,
                    topology_key="zone",
                    selector=make_label_selector().label("foo", "a").obj(),
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            critical_paths=[(("zone2", 2), ("zone1", 3))],
            tp_value_to_match_num=[{"zone1": 3, "zone2": 2}],
        ),
    ),
    dict(
        name="key in matchLabelKeys is ignored when LabelSelector is nil when feature gate enabled",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, None, None, None, None, ["bar"]).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "a").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "a").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "a").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "a").obj(),
            make_pod().name("p-y2").node("node-y").label("foo", "a").obj(),
        ],
        want=PFS(
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
            critical_paths=[(("zone2", 0), ("zone1", 0))],
            tp_value_to_match_num=[{"zone1": 0, "zone2": 0}],
        ),
    ),
    dict(
        name="key in matchLabelKeys is ignored when it isn't exist in pod.labels",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, ["bar"]).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "a").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "a").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "a").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "a").obj(),
            make_pod().name("p-y2").node("node-y").label("foo", "a").obj(),
        ],
        want=PFS(
            constraints=[
                Tsc(
                    max_skew=1,
                    topology_key="zone",
                    selector=foo_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            critical_paths=[(("zone2", 2), ("zone1", 3))],
            tp_value_to_match_num=[{"zone1": 3, "zone2": 2}],
        ),
    ),
    dict(
        name="two spreadConstraints with the same topologyKey",
        pod=make_pod().name("p").label("foo", "").label("bar", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).spread_constraint(1, "zone", DO_NOT_SCHEDULE, bar_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").label("bar", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-x1").node("node-x").label("bar", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").label("bar", "").obj(),
            make_pod().name("p-y2").node("node-y").label("bar", "").obj(),
        ],
        want=PFS(
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
                    topology_key="zone",
                    selector=bar_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            critical_paths=[(("zone2", 1), ("zone1", 2)), (("zone1", 1), ("zone2", 3))],
            tp_value_to_match_num=[{"zone1": 2, "zone2": 1}, {"zone1": 1, "zone2": 3}],
        ),
    ),
    dict(
        name="skip if not specified",
        pod=make_pod().name("p").label("foo", "").obj(),
        nodes=[make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj()],
        want_prefilter_status=Status.new(Code.SKIP),
    ),
]


@pytest.mark.parametrize("tt", PRE_FILTER_STATE_CASES, ids=[c["name"] for c in PRE_FILTER_STATE_CASES])
def test_pre_filter_state(tt):
    handle = SnapshotHandle(tt.get("existing_pods"), tt.get("nodes"), tt.get("objs"))
    p = _plugin(handle, tt.get("default_constraints") or ())
    cs, status = _pre_filter(p, handle, tt["pod"])
    assert status == tt.get("want_prefilter_status", SUCCESS)
    if status.is_success():
        assert pre_filter_state_view(cs.read(PRE_FILTER_STATE_KEY)) == tt["want"]


# --- TestPreFilterStateAddPod / TestPreFilterStateRemovePod --------------------------------------

ADD_POD_CASES = [
    dict(
        name="node a and b both impact current min match",
        preemptor=make_pod().name("p").label("foo", "").spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        added_pod=make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
        existing_pods=None,
        node_idx=0,
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
        ],
        want=PFS(
            constraints=[node_constraint],
            critical_paths=[(("node-b", 0), ("node-a", 1))],
            tp_value_to_match_num=[{"node-a": 1, "node-b": 0}],
        ),
    ),
    dict(
        name="only node a impacts current min match",
        preemptor=make_pod().name("p").label("foo", "").spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        added_pod=make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
        existing_pods=[make_pod().name("p-b1").node("node-b").label("foo", "").obj()],
        node_idx=0,
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
        ],
        want=PFS(
            constraints=[node_constraint],
            critical_paths=[(("node-a", 1), ("node-b", 1))],
            tp_value_to_match_num=[{"node-a": 1, "node-b": 1}],
        ),
    ),
    dict(
        name="add a pod in a different namespace doesn't change topologyKeyToMinPodsMap",
        preemptor=make_pod().name("p").label("foo", "").spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        added_pod=make_pod().name("p-a1").namespace("ns1").node("node-a").label("foo", "").obj(),
        existing_pods=[make_pod().name("p-b1").node("node-b").label("foo", "").obj()],
        node_idx=0,
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
        ],
        want=PFS(
            constraints=[node_constraint],
            critical_paths=[(("node-a", 0), ("node-b", 1))],
            tp_value_to_match_num=[{"node-a": 0, "node-b": 1}],
        ),
    ),
    dict(
        name="add pod on non-critical node won't trigger re-calculation",
        preemptor=make_pod().name("p").label("foo", "").spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        added_pod=make_pod().name("p-b2").node("node-b").label("foo", "").obj(),
        existing_pods=[make_pod().name("p-b1").node("node-b").label("foo", "").obj()],
        node_idx=1,
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
        ],
        want=PFS(
            constraints=[node_constraint],
            critical_paths=[(("node-a", 0), ("node-b", 2))],
            tp_value_to_match_num=[{"node-a": 0, "node-b": 2}],
        ),
    ),
    dict(
        name="node a and x both impact topologyKeyToMinPodsMap on zone and node",
        preemptor=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        added_pod=make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
        existing_pods=None,
        node_idx=0,
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
        ],
        want=PFS(
            constraints=[zone_constraint, node_constraint],
            critical_paths=[(("zone2", 0), ("zone1", 1)), (("node-x", 0), ("node-a", 1))],
            tp_value_to_match_num=[{"zone1": 1, "zone2": 0}, {"node-a": 1, "node-x": 0}],
        ),
    ),
    dict(
        name="only node a impacts topologyKeyToMinPodsMap on zone and node",
        preemptor=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        added_pod=make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
        existing_pods=[make_pod().name("p-x1").node("node-x").label("foo", "").obj()],
        node_idx=0,
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
        ],
        want=PFS(
            constraints=[zone_constraint, node_constraint],
            critical_paths=[(("zone1", 1), ("zone2", 1)), (("node-a", 1), ("node-x", 1))],
            tp_value_to_match_num=[{"zone1": 1, "zone2": 1}, {"node-a": 1, "node-x": 1}],
        ),
    ),
    dict(
        name="node a impacts topologyKeyToMinPodsMap on node, node x impacts topologyKeyToMinPodsMap on zone",
        preemptor=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        added_pod=make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
        existing_pods=[
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-b2").node("node-b").label("foo", "").obj(),
            make_pod().name("p-x1").node("node-x").label("foo", "").obj(),
        ],
        node_idx=0,
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
        ],
        want=PFS(
            constraints=[zone_constraint, node_constraint],
            critical_paths=[(("zone2", 1), ("zone1", 3)), (("node-a", 1), ("node-x", 1))],
            tp_value_to_match_num=[{"zone1": 3, "zone2": 1}, {"node-a": 1, "node-b": 2, "node-x": 1}],
        ),
    ),
    dict(
        name="Constraints hold different labelSelectors, node a impacts topologyKeyToMinPodsMap on zone",
        preemptor=make_pod().name("p").label("foo", "").label("bar", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).spread_constraint(1, "node", DO_NOT_SCHEDULE, bar_selector, None, None, None, None).obj(),
        added_pod=make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
        existing_pods=[
            make_pod().name("p-b1").node("node-b").label("foo", "").label("bar", "").obj(),
            make_pod().name("p-x1").node("node-x").label("foo", "").label("bar", "").obj(),
            make_pod().name("p-x2").node("node-x").label("bar", "").obj(),
        ],
        node_idx=0,
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
        ],
        want=PFS(
            constraints=[
                zone_constraint,
                Tsc(
                    max_skew=1,
                    topology_key="node",
                    selector=bar_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            critical_paths=[(("zone2", 1), ("zone1", 2)), (("node-a", 0), ("node-b", 1))],
            tp_value_to_match_num=[{"zone1": 2, "zone2": 1}, {"node-a": 0, "node-b": 1, "node-x": 2}],
        ),
    ),
    dict(
        name="Constraints hold different labelSelectors, node a impacts topologyKeyToMinPodsMap on both zone and node",
        preemptor=make_pod().name("p").label("foo", "").label("bar", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).spread_constraint(1, "node", DO_NOT_SCHEDULE, bar_selector, None, None, None, None).obj(),
        added_pod=make_pod().name("p-a1").node("node-a").label("foo", "").label("bar", "").obj(),
        existing_pods=[
            make_pod().name("p-b1").node("node-b").label("bar", "").obj(),
            make_pod().name("p-x1").node("node-x").label("foo", "").label("bar", "").obj(),
            make_pod().name("p-x2").node("node-x").label("bar", "").obj(),
        ],
        node_idx=0,
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
        ],
        want=PFS(
            constraints=[
                zone_constraint,
                Tsc(
                    max_skew=1,
                    topology_key="node",
                    selector=bar_selector,
                    min_domains=1,
                    node_affinity_policy=HONOR,
                    node_taints_policy=IGNORE,
                ),
            ],
            critical_paths=[(("zone1", 1), ("zone2", 1)), (("node-a", 1), ("node-b", 1))],
            tp_value_to_match_num=[{"zone1": 1, "zone2": 1}, {"node-a": 1, "node-b": 1, "node-x": 2}],
        ),
    ),
    dict(
        name="add a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy disabled",
        preemptor=make_pod().name("p").label("foo", "").node_affinity_not_in("foo", ["bar"]).spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        node_idx=0,
        added_pod=make_pod().name("p-a1").node("node-a").label("foo", "").label("zone", "zone1").obj(),
        existing_pods=[
            make_pod().name("p-a2").node("node-a").label("foo", "").label("zone", "zone1").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").label("zone", "zone2").obj(),
        ],
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "bar").obj(),
            make_node().name("node-b").label("zone", "zone2").label("node", "node-b").label("foo", "").obj(),
        ],
        want=PFS(
            constraints=[zone_constraint],
            critical_paths=[(("zone2", 1), ("", MAX_INT32))],
            tp_value_to_match_num=[{"zone2": 1}],
        ),
    ),
    dict(
        name="add a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy enabled",
        preemptor=make_pod().name("p").label("foo", "").node_affinity_not_in("foo", ["bar"]).spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        node_idx=0,
        added_pod=make_pod().name("p-a1").node("node-a").label("foo", "").label("zone", "zone1").obj(),
        existing_pods=[
            make_pod().name("p-a2").node("node-a").label("foo", "").label("zone", "zone1").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").label("zone", "zone2").obj(),
        ],
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "bar").obj(),
            make_node().name("node-b").label("zone", "zone2").label("node", "node-b").label("foo", "").obj(),
        ],
        want=PFS(
            constraints=[zone_constraint],
            critical_paths=[(("zone2", 1), ("", MAX_INT32))],
            tp_value_to_match_num=[{"zone2": 1}],
        ),
    ),
    dict(
        name="add a pod when scheduling node affinity matched pod with NodeInclusionPolicy disabled",
        preemptor=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        node_idx=1,
        added_pod=make_pod().name("p-b1").node("node-b").label("foo", "").label("zone", "zone2").obj(),
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").label("zone", "zone1").obj(),
            make_pod().name("p-b2").node("node-b").label("foo", "").label("zone", "zone2").obj(),
        ],
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "bar").obj(),
            make_node().name("node-b").label("zone", "zone2").label("node", "node-b").label("foo", "").obj(),
        ],
        want=PFS(
            constraints=[zone_constraint],
            critical_paths=[(("zone1", 1), ("zone2", 2))],
            tp_value_to_match_num=[{"zone1": 1, "zone2": 2}],
        ),
    ),
    dict(
        name="add a pod when scheduling node affinity matched pod with NodeInclusionPolicy enabled",
        preemptor=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        node_idx=1,
        added_pod=make_pod().name("p-b1").node("node-b").label("foo", "").label("zone", "zone2").obj(),
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").label("zone", "zone1").obj(),
            make_pod().name("p-b2").node("node-b").label("foo", "").label("zone", "zone2").obj(),
        ],
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "bar").obj(),
            make_node().name("node-b").label("zone", "zone2").label("node", "node-b").label("foo", "").obj(),
        ],
        want=PFS(
            constraints=[zone_constraint],
            critical_paths=[(("zone1", 1), ("zone2", 2))],
            tp_value_to_match_num=[{"zone1": 1, "zone2": 2}],
        ),
    ),
    dict(
        name="add a label selector not matched pod when with NodeInclusionPolicy enabled",
        preemptor=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        node_idx=1,
        added_pod=make_pod().name("p-b1").node("node-b").label("zone", "zone2").obj(),
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").label("zone", "zone1").obj(),
            make_pod().name("p-b2").node("node-b").label("foo", "").label("zone", "zone2").obj(),
        ],
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "bar").obj(),
            make_node().name("node-b").label("zone", "zone2").label("node", "node-b").label("foo", "").obj(),
        ],
        want=PFS(
            constraints=[zone_constraint],
            critical_paths=[(("zone1", 1), ("zone2", 1))],
            tp_value_to_match_num=[{"zone1": 1, "zone2": 1}],
        ),
    ),
    dict(
        name="add a pod when scheduling taint untolerated pod with NodeInclusionPolicy disabled",
        preemptor=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        node_idx=1,
        added_pod=make_pod().name("p-b1").node("node-b").label("foo", "").label("zone", "zone2").obj(),
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").label("zone", "zone1").obj(),
            make_pod().name("p-b2").node("node-b").label("foo", "").label("zone", "zone2").obj(),
        ],
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").taints(taints).obj(),
            make_node().name("node-b").label("zone", "zone2").label("node", "node-b").obj(),
        ],
        want=PFS(
            constraints=[zone_constraint],
            critical_paths=[(("zone1", 1), ("zone2", 2))],
            tp_value_to_match_num=[{"zone2": 2, "zone1": 1}],
        ),
    ),
    dict(
        name="add a pod when scheduling taint tolerated pod with NodeInclusionPolicy enabled",
        preemptor=make_pod().name("p").label("foo", "").toleration("node.kubernetes.io/unschedulable").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        node_idx=1,
        added_pod=make_pod().name("p-b1").node("node-b").label("foo", "").label("zone", "zone2").obj(),
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").label("zone", "zone1").obj(),
            make_pod().name("p-b2").node("node-b").label("foo", "").label("zone", "zone2").obj(),
        ],
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").taints(taints).obj(),
            make_node().name("node-b").label("zone", "zone2").label("node", "node-b").obj(),
        ],
        want=PFS(
            constraints=[zone_constraint],
            critical_paths=[(("zone1", 1), ("zone2", 2))],
            tp_value_to_match_num=[{"zone2": 2, "zone1": 1}],
        ),
    ),
]


@pytest.mark.parametrize("tt", ADD_POD_CASES, ids=[c["name"] for c in ADD_POD_CASES])
def test_pre_filter_state_add_pod(tt):
    handle = SnapshotHandle(tt.get("existing_pods"), tt["nodes"])
    p = _plugin(handle)
    cs, status = _pre_filter(p, handle, tt["preemptor"])
    assert status.is_success()
    node_info = handle.get(tt["nodes"][tt["node_idx"]].name)
    assert p.add_pod(cs, tt["preemptor"], PodInfo.of(tt["added_pod"]), node_info).is_success()
    assert pre_filter_state_view(cs.read(PRE_FILTER_STATE_KEY)) == tt["want"]


REMOVE_POD_CASES = [
    dict(
        name="one spreadConstraint on zone, topologyKeyToMinPodsMap unchanged",
        preemptor=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-x1").node("node-x").label("foo", "").obj(),
        ],
        deleted_pod_idx=0,
        node_idx=0,
        want=PFS(
            constraints=[zone_constraint],
            critical_paths=[(("zone1", 1), ("zone2", 1))],
            tp_value_to_match_num=[{"zone1": 1, "zone2": 1}],
        ),
    ),
    dict(
        name="one spreadConstraint on node, topologyKeyToMinPodsMap changed",
        preemptor=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-x1").node("node-x").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
        ],
        deleted_pod_idx=0,
        node_idx=0,
        want=PFS(
            constraints=[zone_constraint],
            critical_paths=[(("zone1", 1), ("zone2", 2))],
            tp_value_to_match_num=[{"zone1": 1, "zone2": 2}],
        ),
    ),
    dict(
        name="delete an irrelevant pod won't help",
        preemptor=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a0").node("node-a").label("bar", "").obj(),
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-x1").node("node-x").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
        ],
        deleted_pod_idx=0,
        node_idx=0,
        want=PFS(
            constraints=[zone_constraint],
            critical_paths=[(("zone1", 2), ("zone2", 2))],
            tp_value_to_match_num=[{"zone1": 2, "zone2": 2}],
        ),
    ),
    dict(
        name="delete a non-existing pod won't help",
        preemptor=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-x1").node("node-x").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
        ],
        deleted_pod_idx=-1,
        deleted_pod=make_pod().name("p-a0").node("node-a").label("bar", "").obj(),
        node_idx=0,
        want=PFS(
            constraints=[zone_constraint],
            critical_paths=[(("zone1", 2), ("zone2", 2))],
            tp_value_to_match_num=[{"zone1": 2, "zone2": 2}],
        ),
    ),
    dict(
        name="two spreadConstraints",
        preemptor=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-x1").node("node-x").label("foo", "").obj(),
            make_pod().name("p-x2").node("node-x").label("foo", "").obj(),
        ],
        deleted_pod_idx=3,
        node_idx=2,
        want=PFS(
            constraints=[zone_constraint, node_constraint],
            critical_paths=[(("zone2", 1), ("zone1", 3)), (("node-b", 1), ("node-x", 1))],
            tp_value_to_match_num=[{"zone1": 3, "zone2": 1}, {"node-a": 2, "node-b": 1, "node-x": 1}],
        ),
    ),
    dict(
        name="remove a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy disabled",
        preemptor=make_pod().name("p").label("foo", "").node_affinity_not_in("foo", ["bar"]).spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        node_idx=0,
        deleted_pod=make_pod().name("p-a1").node("node-a").label("foo", "").label("zone", "zone1").obj(),
        existing_pods=[
            make_pod().name("p-a2").node("node-a").label("foo", "").label("zone", "zone1").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").label("zone", "zone2").obj(),
        ],
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "bar").obj(),
            make_node().name("node-b").label("zone", "zone2").label("node", "node-b").label("foo", "").obj(),
        ],
        want=PFS(
            constraints=[zone_constraint],
            critical_paths=[(("zone2", 1), ("", MAX_INT32))],
            tp_value_to_match_num=[{"zone2": 1}],
        ),
    ),
    dict(
        name="remove a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy enabled",
        preemptor=make_pod().name("p").label("foo", "").node_affinity_not_in("foo", ["bar"]).spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        node_idx=0,
        deleted_pod=make_pod().name("p-a1").node("node-a").label("foo", "").label("zone", "zone1").obj(),
        existing_pods=[
            make_pod().name("p-a2").node("node-a").label("foo", "").label("zone", "zone1").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").label("zone", "zone2").obj(),
        ],
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "bar").obj(),
            make_node().name("node-b").label("zone", "zone2").label("node", "node-b").label("foo", "").obj(),
        ],
        want=PFS(
            constraints=[zone_constraint],
            critical_paths=[(("zone2", 1), ("", MAX_INT32))],
            tp_value_to_match_num=[{"zone2": 1}],
        ),
    ),
    dict(
        name="remove a pod when scheduling node affinity matched pod with NodeInclusionPolicy disabled",
        preemptor=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        node_idx=1,
        deleted_pod=make_pod().name("p-b1").node("node-b").label("foo", "").label("zone", "zone2").obj(),
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").label("zone", "zone1").obj(),
            make_pod().name("p-b2").node("node-b").label("foo", "").label("zone", "zone2").obj(),
        ],
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "bar").obj(),
            make_node().name("node-b").label("zone", "zone2").label("node", "node-b").label("foo", "").obj(),
        ],
        want=PFS(
            constraints=[zone_constraint],
            critical_paths=[(("zone2", 0), ("zone1", 1))],
            tp_value_to_match_num=[{"zone2": 0, "zone1": 1}],
        ),
    ),
    dict(
        name="remove a pod when scheduling node affinity matched pod with NodeInclusionPolicy enabled",
        preemptor=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        node_idx=1,
        deleted_pod=make_pod().name("p-b1").node("node-b").label("foo", "").label("zone", "zone2").obj(),
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").label("zone", "zone1").obj(),
            make_pod().name("p-b2").node("node-b").label("foo", "").label("zone", "zone2").obj(),
        ],
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "bar").obj(),
            make_node().name("node-b").label("zone", "zone2").label("node", "node-b").label("foo", "").obj(),
        ],
        want=PFS(
            constraints=[zone_constraint],
            critical_paths=[(("zone2", 0), ("zone1", 1))],
            tp_value_to_match_num=[{"zone2": 0, "zone1": 1}],
        ),
    ),
]


@pytest.mark.parametrize("tt", REMOVE_POD_CASES, ids=[c["name"] for c in REMOVE_POD_CASES])
def test_pre_filter_state_remove_pod(tt):
    existing = tt.get("existing_pods") or []
    handle = SnapshotHandle(existing, tt["nodes"])
    p = _plugin(handle)
    cs, status = _pre_filter(p, handle, tt["preemptor"])
    assert status.is_success()
    idx = tt.get("deleted_pod_idx", 0)
    deleted = existing[idx] if 0 <= idx < len(existing) else tt["deleted_pod"]
    node_info = handle.get(tt["nodes"][tt["node_idx"]].name)
    assert p.remove_pod(cs, tt["preemptor"], PodInfo.of(deleted), node_info).is_success()
    assert pre_filter_state_view(cs.read(PRE_FILTER_STATE_KEY)) == tt["want"]


# --- TestSingleConstraint / TestMultipleConstraints ------------------------------------------

SINGLE_CONSTRAINT_CASES = [
    dict(
        name="no existing pods",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        want_status_code={
            "node-a": Code.SUCCESS,
            "node-b": Code.SUCCESS,
            "node-x": Code.SUCCESS,
            "node-y": Code.SUCCESS,
        },
    ),
    dict(
        name="no existing pods, incoming pod doesn't match itself",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, bar_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        want_status_code={
            "node-a": Code.SUCCESS,
            "node-b": Code.SUCCESS,
            "node-x": Code.SUCCESS,
            "node-y": Code.SUCCESS,
        },
    ),
    dict(
        name="existing pods in a different namespace do not count",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").namespace("ns1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").namespace("ns2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-x1").node("node-x").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
        ],
        want_status_code={
            "node-a": Code.SUCCESS,
            "node-b": Code.SUCCESS,
            "node-x": Code.UNSCHEDULABLE,
            "node-y": Code.UNSCHEDULABLE,
        },
    ),
    dict(
        name="existing pods do not match null selector",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, None, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-x1").node("node-x").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
        ],
        want_status_code={
            "node-a": Code.SUCCESS,
            "node-b": Code.SUCCESS,
            "node-x": Code.SUCCESS,
            "node-y": Code.SUCCESS,
        },
    ),
    dict(
        name="pods spread across zones as 3/3, all nodes fit",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y2").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y3").node("node-y").label("foo", "").obj(),
        ],
        want_status_code={
            "node-a": Code.SUCCESS,
            "node-b": Code.SUCCESS,
            "node-x": Code.SUCCESS,
            "node-y": Code.SUCCESS,
        },
    ),
    dict(
        name="pods spread across zones as 1/2 due to absence of label 'zone' on node-b",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zon", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-x1").node("node-x").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
        ],
        want_status_code={
            "node-a": Code.SUCCESS,
            "node-b": Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
            "node-x": Code.UNSCHEDULABLE,
            "node-y": Code.UNSCHEDULABLE,
        },
    ),
    dict(
        name="pod cannot be scheduled as all nodes don't have label 'rack'",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "rack", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
        ],
        want_status_code={
            "node-a": Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
            "node-x": Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        },
    ),
    dict(
        name="pods spread across nodes as 2/1/0/3, only node-x fits",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y2").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y3").node("node-y").label("foo", "").obj(),
        ],
        want_status_code={
            "node-a": Code.UNSCHEDULABLE,
            "node-b": Code.UNSCHEDULABLE,
            "node-x": Code.SUCCESS,
            "node-y": Code.UNSCHEDULABLE,
        },
    ),
    dict(
        name="pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit",
        pod=make_pod().name("p").label("foo", "").spread_constraint(2, "node", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y2").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y3").node("node-y").label("foo", "").obj(),
        ],
        want_status_code={
            "node-a": Code.UNSCHEDULABLE,
            "node-b": Code.SUCCESS,
            "node-x": Code.SUCCESS,
            "node-y": Code.UNSCHEDULABLE,
        },
    ),
    dict(
        name="pods spread across nodes as 2/1/0/3, but pod doesn't match itself",
        pod=make_pod().name("p").label("bar", "").spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y2").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y3").node("node-y").label("foo", "").obj(),
        ],
        want_status_code={
            "node-a": Code.UNSCHEDULABLE,
            "node-b": Code.SUCCESS,
            "node-x": Code.SUCCESS,
            "node-y": Code.UNSCHEDULABLE,
        },
    ),
    dict(
        name="incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits",
        pod=make_pod().name("p").label("foo", "").node_affinity_in("node", ["node-a", "node-y"], "MatchExpressions").spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y2").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y3").node("node-y").label("foo", "").obj(),
        ],
        want_status_code={
            "node-a": Code.SUCCESS,
            "node-b": Code.SUCCESS,
            "node-x": Code.SUCCESS,
            "node-y": Code.UNSCHEDULABLE,
        },
    ),
    dict(
        name="terminating Pods should be excluded",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("node", "node-a").obj(),
            make_node().name("node-b").label("node", "node-b").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a").node("node-a").label("foo", "").terminating().obj(),
            make_pod().name("p-b").node("node-b").label("foo", "").obj(),
        ],
        want_status_code={"node-a": Code.SUCCESS, "node-b": Code.UNSCHEDULABLE},
    ),
    dict(
        name="incoming pod has nodeAffinity, pods spread as 0/~2~/0/1, hence node-a fits",
        pod=make_pod().name("p").label("foo", "").node_affinity_not_in("node", ["node-b"]).spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-b2").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
        ],
        want_status_code={
            "node-a": Code.SUCCESS,
            "node-b": Code.SUCCESS,
            "node-x": Code.UNSCHEDULABLE,
            "node-y": Code.UNSCHEDULABLE,
        },
    ),
    dict(
        name="pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains < minDomains, then the third node fits",
        pod=make_pod().name("p").label("foo", "").spread_constraint(2, "node", DO_NOT_SCHEDULE, foo_selector, 4, None, None, None).obj(),
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
        want_status_code={"node-a": Code.UNSCHEDULABLE, "node-b": Code.UNSCHEDULABLE, "node-c": Code.SUCCESS},
    ),
    dict(
        name="pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains > minDomains, then the all nodes fit",
        pod=make_pod().name("p").label("foo", "").spread_constraint(2, "node", DO_NOT_SCHEDULE, foo_selector, 2, None, None, None).obj(),
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
        want_status_code={"node-a": Code.SUCCESS, "node-b": Code.SUCCESS, "node-c": Code.SUCCESS},
    ),
    dict(
        name="pods spread across zone as 2/1, maxSkew is 2 and the number of domains < minDomains, then the third and fourth nodes fit",
        pod=make_pod().name("p").label("foo", "").spread_constraint(2, "zone", DO_NOT_SCHEDULE, foo_selector, 3, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-b1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b2").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
        ],
        want_status_code={
            "node-a": Code.UNSCHEDULABLE,
            "node-b": Code.UNSCHEDULABLE,
            "node-x": Code.SUCCESS,
            "node-y": Code.SUCCESS,
        },
    ),
    dict(
        name="pods spread across zone as 2/1, maxSkew is 2 and the number of domains > minDomains, then the all nodes fit",
        pod=make_pod().name("p").label("foo", "").spread_constraint(2, "zone", DO_NOT_SCHEDULE, foo_selector, 1, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-b1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b2").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
        ],
        want_status_code={
            "node-a": Code.SUCCESS,
            "node-b": Code.SUCCESS,
            "node-x": Code.SUCCESS,
            "node-y": Code.SUCCESS,
        },
    ),
    dict(
        name="NodeAffinityPolicy honored with labelSelectors",
        pod=make_pod().name("p").label("foo", "").node_selector({"foo": ""}).spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("node", "node-a").label("foo", "").obj(),
            make_node().name("node-b").label("node", "node-b").label("foo", "").obj(),
            make_node().name("node-x").label("node", "node-x").label("foo", "").obj(),
            make_node().name("node-y").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-b1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b2").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
        ],
        want_status_code={
            "node-a": Code.UNSCHEDULABLE,
            "node-b": Code.UNSCHEDULABLE,
            "node-x": Code.SUCCESS,
            "node-y": Code.SUCCESS,
        },
    ),
    dict(
        name="NodeAffinityPolicy ignored with labelSelectors",
        pod=make_pod().name("p").label("foo", "").node_selector({"foo": ""}).spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, IGNORE, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("node", "node-a").label("foo", "").obj(),
            make_node().name("node-b").label("node", "node-b").label("foo", "").obj(),
            make_node().name("node-x").label("node", "node-x").label("foo", "").obj(),
            make_node().name("node-y").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-b1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b2").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
        ],
        want_status_code={
            "node-a": Code.UNSCHEDULABLE,
            "node-b": Code.UNSCHEDULABLE,
            "node-x": Code.SUCCESS,
            "node-y": Code.UNSCHEDULABLE,
        },
    ),
    dict(
        name="NodeAffinityPolicy honored with nodeAffinity",
        pod=make_pod().name("p").label("foo", "").node_affinity_in("foo", [""], "MatchExpressions").spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("node", "node-a").label("foo", "").obj(),
            make_node().name("node-b").label("node", "node-b").label("foo", "").obj(),
            make_node().name("node-x").label("node", "node-x").label("foo", "").obj(),
            make_node().name("node-y").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-b1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b2").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
        ],
        want_status_code={
            "node-a": Code.UNSCHEDULABLE,
            "node-b": Code.UNSCHEDULABLE,
            "node-x": Code.SUCCESS,
            "node-y": Code.SUCCESS,
        },
    ),
    dict(
        name="NodeAffinityPolicy ignored with labelSelectors",
        pod=make_pod().name("p").label("foo", "").node_affinity_in("foo", [""], "MatchExpressions").spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, IGNORE, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("node", "node-a").label("foo", "").obj(),
            make_node().name("node-b").label("node", "node-b").label("foo", "").obj(),
            make_node().name("node-x").label("node", "node-x").label("foo", "").obj(),
            make_node().name("node-y").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-b1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b2").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
        ],
        want_status_code={
            "node-a": Code.UNSCHEDULABLE,
            "node-b": Code.UNSCHEDULABLE,
            "node-x": Code.SUCCESS,
            "node-y": Code.UNSCHEDULABLE,
        },
    ),
    dict(
        name="NodeTaintsPolicy honored",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, None, HONOR, None).obj(),
        nodes=[
            make_node().name("node-a").label("node", "node-a").label("foo", "").obj(),
            make_node().name("node-b").label("node", "node-b").label("foo", "").obj(),
            make_node().name("node-x").label("node", "node-x").label("foo", "").obj(),
            make_node().name("node-y").label("node", "node-y").taints(taints).obj(),
        ],
        existing_pods=[
            make_pod().name("p-b1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b2").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
        ],
        want_status_code={
            "node-a": Code.UNSCHEDULABLE,
            "node-b": Code.UNSCHEDULABLE,
            "node-x": Code.SUCCESS,
            "node-y": Code.SUCCESS,
        },
    ),
    dict(
        name="NodeTaintsPolicy ignored",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("node", "node-a").label("foo", "").obj(),
            make_node().name("node-b").label("node", "node-b").label("foo", "").obj(),
            make_node().name("node-x").label("node", "node-x").label("foo", "").obj(),
            make_node().name("node-y").label("node", "node-y").taints(taints).obj(),
        ],
        existing_pods=[
            make_pod().name("p-b1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b2").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
        ],
        want_status_code={
            "node-a": Code.UNSCHEDULABLE,
            "node-b": Code.UNSCHEDULABLE,
            "node-x": Code.SUCCESS,
            "node-y": Code.UNSCHEDULABLE,
        },
    ),
]

MULTIPLE_CONSTRAINTS_CASES = [
    dict(
        name="two Constraints on zone and node, spreads = [3/3, 2/1/0/3]",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y2").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y3").node("node-y").label("foo", "").obj(),
        ],
        want_status_code={
            "node-a": Code.UNSCHEDULABLE,
            "node-b": Code.UNSCHEDULABLE,
            "node-x": Code.SUCCESS,
            "node-y": Code.UNSCHEDULABLE,
        },
    ),
    dict(
        name="two Constraints on zone and node, spreads = [3/4, 2/1/0/4]",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y2").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y3").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y4").node("node-y").label("foo", "").obj(),
        ],
        want_status_code={
            "node-a": Code.UNSCHEDULABLE,
            "node-b": Code.UNSCHEDULABLE,
            "node-x": Code.UNSCHEDULABLE,
            "node-y": Code.UNSCHEDULABLE,
        },
    ),
    dict(
        name="Constraints hold different labelSelectors, spreads = [1/0, 1/0/0/1]",
        pod=make_pod().name("p").label("foo", "").label("bar", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).spread_constraint(1, "node", DO_NOT_SCHEDULE, bar_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("bar", "").obj(),
        ],
        want_status_code={
            "node-a": Code.UNSCHEDULABLE,
            "node-b": Code.UNSCHEDULABLE,
            "node-x": Code.SUCCESS,
            "node-y": Code.UNSCHEDULABLE,
        },
    ),
    dict(
        name="Constraints hold different labelSelectors, spreads = [1/0, 0/0/1/1]",
        pod=make_pod().name("p").label("foo", "").label("bar", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).spread_constraint(1, "node", DO_NOT_SCHEDULE, bar_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-x1").node("node-x").label("bar", "").obj(),
            make_pod().name("p-y1").node("node-y").label("bar", "").obj(),
        ],
        want_status_code={
            "node-a": Code.UNSCHEDULABLE,
            "node-b": Code.UNSCHEDULABLE,
            "node-x": Code.UNSCHEDULABLE,
            "node-y": Code.UNSCHEDULABLE,
        },
    ),
    dict(
        name="Constraints hold different labelSelectors, spreads = [2/3, 1/0/0/1]",
        pod=make_pod().name("p").label("foo", "").label("bar", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).spread_constraint(1, "node", DO_NOT_SCHEDULE, bar_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").label("bar", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y2").node("node-y").label("foo", "").label("bar", "").obj(),
            make_pod().name("p-y3").node("node-y").label("foo", "").obj(),
        ],
        want_status_code={
            "node-a": Code.UNSCHEDULABLE,
            "node-b": Code.SUCCESS,
            "node-x": Code.UNSCHEDULABLE,
            "node-y": Code.UNSCHEDULABLE,
        },
    ),
    dict(
        name="Constraints hold different labelSelectors but pod doesn't match itself on 'zone' constraint",
        pod=make_pod().name("p").label("bar", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).spread_constraint(1, "node", DO_NOT_SCHEDULE, bar_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-x1").node("node-x").label("bar", "").obj(),
            make_pod().name("p-y1").node("node-y").label("bar", "").obj(),
        ],
        want_status_code={
            "node-a": Code.SUCCESS,
            "node-b": Code.SUCCESS,
            "node-x": Code.UNSCHEDULABLE,
            "node-y": Code.UNSCHEDULABLE,
        },
    ),
    dict(
        name="two Constraints on zone and node, absence of label 'node' on node-x, spreads = [1/1, 1/0/0/1]",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-y3").node("node-y").label("foo", "").obj(),
        ],
        want_status_code={
            "node-a": Code.UNSCHEDULABLE,
            "node-b": Code.SUCCESS,
            "node-x": Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
            "node-y": Code.UNSCHEDULABLE,
        },
    ),
    dict(
        name="two node inclusion Constraints, zone: honor/ignore, node: ignore/ignore",
        pod=make_pod().name("p").label("foo", "").node_selector({"foo": ""}).spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, IGNORE, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").label("foo", "").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").label("foo", "").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
        ],
        want_status_code={
            "node-a": Code.UNSCHEDULABLE,
            "node-b": Code.UNSCHEDULABLE,
            "node-x": Code.SUCCESS,
            "node-y": Code.UNSCHEDULABLE,
        },
    ),
    dict(
        name="two node inclusion Constraints, zone: honor/honor, node: honor/ignore",
        pod=make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, HONOR, None).spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").label("foo", "").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").label("foo", "").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").taints(taints).obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
        ],
        want_status_code={
            "node-a": Code.UNSCHEDULABLE,
            "node-b": Code.UNSCHEDULABLE,
            "node-x": Code.SUCCESS,
            "node-y": Code.UNSCHEDULABLE,
        },
    ),
    dict(
        name="two node inclusion Constraints, zone: honor/ignore, node: honor/ignore",
        pod=make_pod().name("p").label("foo", "").node_selector({"foo": ""}).spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").label("foo", "").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").label("foo", "").taints(taints).obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
        ],
        want_status_code={
            "node-a": Code.UNSCHEDULABLE,
            "node-b": Code.SUCCESS,
            "node-x": Code.SUCCESS,
            "node-y": Code.UNSCHEDULABLE,
        },
    ),
    dict(
        name="two node inclusion Constraints, zone: honor/honor, node: ignore/ignore",
        pod=make_pod().name("p").label("foo", "").node_selector({"foo": ""}).spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, HONOR, None).spread_constraint(1, "node", DO_NOT_SCHEDULE, foo_selector, None, IGNORE, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").label("foo", "").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").label("foo", "").taints(taints).obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
        ],
        want_status_code={
            "node-a": Code.UNSCHEDULABLE,
            "node-b": Code.UNSCHEDULABLE,
            "node-x": Code.SUCCESS,
            "node-y": Code.UNSCHEDULABLE,
        },
    ),
    dict(
        name="two Constraints on zone, spreads = [3/3, 2/1]",
        pod=make_pod().name("p").label("foo", "").label("bar", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, bar_selector, None, None, None, None).spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").label("bar", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").label("bar", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y2").node("node-y").label("foo", "").label("bar", "").obj(),
            make_pod().name("p-y3").node("node-y").label("foo", "").obj(),
        ],
        want_status_code={
            "node-a": Code.UNSCHEDULABLE,
            "node-b": Code.UNSCHEDULABLE,
            "node-x": Code.SUCCESS,
            "node-y": Code.SUCCESS,
        },
    ),
    dict(
        name="two Constraints on zone, spreads = [3/4, 2/1]",
        pod=make_pod().name("p").label("foo", "").label("bar", "").spread_constraint(1, "zone", DO_NOT_SCHEDULE, bar_selector, None, None, None, None).spread_constraint(1, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj(),
        nodes=[
            make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            make_node().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            make_node().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            make_node().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
        ],
        existing_pods=[
            make_pod().name("p-a1").node("node-a").label("foo", "").label("bar", "").obj(),
            make_pod().name("p-a2").node("node-a").label("foo", "").obj(),
            make_pod().name("p-b1").node("node-b").label("foo", "").label("bar", "").obj(),
            make_pod().name("p-y1").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y2").node("node-y").label("foo", "").label("bar", "").obj(),
            make_pod().name("p-y3").node("node-y").label("foo", "").obj(),
            make_pod().name("p-y4").node("node-y").label("foo", "").obj(),
        ],
        want_status_code={
            "node-a": Code.UNSCHEDULABLE,
            "node-b": Code.UNSCHEDULABLE,
            "node-x": Code.UNSCHEDULABLE,
            "node-y": Code.UNSCHEDULABLE,
        },
    ),
]


def _filter_codes(tt) -> dict[str, Code]:
    handle = SnapshotHandle(tt.get("existing_pods"), tt["nodes"])
    p = _plugin(handle)
    cs, status = _pre_filter(p, handle, tt["pod"])
    assert status.is_success()
    return {n.name: p.filter(cs, tt["pod"], handle.get(n.name)).code for n in tt["nodes"]}


@pytest.mark.parametrize("tt", SINGLE_CONSTRAINT_CASES, ids=[c["name"] for c in SINGLE_CONSTRAINT_CASES])
def test_single_constraint(tt):
    assert _filter_codes(tt) == tt["want_status_code"]


@pytest.mark.parametrize("tt", MULTIPLE_CONSTRAINTS_CASES, ids=[c["name"] for c in MULTIPLE_CONSTRAINTS_CASES])
def test_multiple_constraints(tt):
    assert _filter_codes(tt) == tt["want_status_code"]


# --- TestPreFilterDisabled -------------------------------------------------------------------

def test_pre_filter_disabled():
    p = _plugin(SnapshotHandle())
    from reference.nodeinfo import NodeInfo
    status = p.filter(CycleState(), make_pod().obj(), NodeInfo.of(make_node().obj()))
    assert status.code is Code.ERROR
    assert status.message() == f'reading "{PRE_FILTER_STATE_KEY}" from cycleState: not found'


def test_filter_reasons():
    """Upstream's reason strings, on a node missing the key and on a too-skewed node."""
    nodes = [make_node().name("a").label("zone", "z1").obj(), make_node().name("b").obj()]
    pods = [make_pod().name("e").node("a").label("foo", "").obj()]
    pod = make_pod().name("p").label("foo", "").spread_constraint(
        0, "zone", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj()
    handle = SnapshotHandle(pods, nodes)
    p = _plugin(handle)
    cs, _ = _pre_filter(p, handle, pod)
    assert p.filter(cs, pod, handle.get("a")) == Status.new(
        Code.UNSCHEDULABLE, "node(s) didn't match pod topology spread constraints")
    assert p.filter(cs, pod, handle.get("b")) == Status.new(
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "node(s) didn't match pod topology spread constraints (missing required label)")


def test_state_clone_is_independent():
    nodes = [make_node().name("a").label("node", "a").obj()]
    pod = make_pod().name("p").label("foo", "").spread_constraint(
        1, "node", DO_NOT_SCHEDULE, foo_selector, None, None, None, None).obj()
    handle = SnapshotHandle((), nodes)
    p = _plugin(handle)
    cs, _ = _pre_filter(p, handle, pod)
    clone = cs.clone()
    p.add_pod(clone, pod, PodInfo.of(make_pod().name("x").node("a").label("foo", "").obj()), handle.get("a"))
    original: PreFilterState = cs.read(PRE_FILTER_STATE_KEY)
    assert original.tp_value_to_match_num == [{"a": 0}]
    assert clone.read(PRE_FILTER_STATE_KEY).tp_value_to_match_num == [{"a": 1}]
