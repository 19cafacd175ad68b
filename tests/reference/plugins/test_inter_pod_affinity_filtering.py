"""InterPodAffinity PreFilter / Filter / AddPod / RemovePod, ported from upstream
pkg/scheduler/framework/plugins/interpodaffinity/filtering_test.go (Kubernetes v1.37.2).

Expected values are upstream's literals. Upstream runs each table with
InterPodAffinityHostnameFastPath on and off; only "off" (the v1.37.2 default) is ported. Left out:
- TestPreFilterStateClone (a Go-struct copy check; a clone-independence test stands in below);
- TestRemovePodHostScopedAffinityCount (only meaningful with the fast path's host-scoped counter)
  and TestInterPodAffinity_DeferredResizeSkipped (InPlacePodVerticalScalingSchedulerPreemption
  is off by default);
- not yet ported: TestMultipleAffinityTermsRequireSingleMatchingPod, TestFastTrackInterPodAffinity
  (hand-written scenarios outside the tables; their gate-off halves apply and should follow);
- TestPreFilterStateAddRemovePod compares whole states; here the three count maps are compared.
"""

from __future__ import annotations

import pytest

from reference.cycle_state import CycleState
from reference.nodeinfo import NodeInfo, PodInfo
from reference.plugins.inter_pod_affinity import (ERR_REASON_AFFINITY_RULES_NOT_MATCH,
                                                  ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
                                                  ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH, InterPodAffinity,
                                                  InterPodAffinityArgs)
from reference.plugins.inter_pod_affinity.filtering import (PRE_FILTER_STATE_KEY, PreFilterState,
                                                            incoming_affinity_anti_affinity_counts)
from reference.plugins.pod_topology_spread.common import LABEL_HOSTNAME
from reference.status import SUCCESS, Code, Status
from tests.reference.plugins._spread_builders import (PREFERRED, REQUIRED, SnapshotHandle, make_node, make_pod,
                                                      v1_namespace, v1_node, v1_pod)

default_namespace = ""
BAD_VALUE_PARSE_ERROR = (
        "parsing pod: requiredAffinityTerms: values[0][service]: Invalid value: \"{{.bad-value.}}\": a valid label "
        "must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with "
        "an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is "
        "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')")
_ = (PREFERRED, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH, ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH)


def create_pod_with_affinity_terms(namespace, node_name, labels, affinity, anti_affinity):
    """Upstream's `createPodWithAffinityTerms`: both kinds of pod affinity set, maybe empty."""
    return v1_pod({
        "metadata": {"labels": labels, "namespace": namespace},
        "spec": {"nodeName": node_name, "affinity": {
            "podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": affinity or []},
            "podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": anti_affinity or []}}},
    })


def _plugin(handle: SnapshotHandle) -> InterPodAffinity:
    return InterPodAffinity.new(InterPodAffinityArgs(), handle)


# --- TestRequiredAffinitySingleNode ------------------------------------------------------------

pod_label = {"service": "securityscan"}
pod = make_pod().labels(pod_label).node("node1").obj()
labels1 = {"region": "r1", "zone": "z11"}
pod_label2 = {"security": "S1"}
node1 = v1_node({'metadata': {'name': "node1", 'labels': labels1}})
namespaces = [
    v1_namespace({"metadata": {"name": "subteam1.team1", "labels": {"team": "team1"}}}),
    v1_namespace({"metadata": {"name": "subteam2.team1", "labels": {"team": "team1"}}}),
    v1_namespace({"metadata": {"name": "subteam1.team2", "labels": {"team": "team2"}}}),
    v1_namespace({"metadata": {"name": "subteam2.team2", "labels": {"team": "team2"}}}),
]

SINGLE_NODE_CASES = [
    dict(
        name="A pod that has no required pod affinity scheduling rules can schedule onto a node with no existing pods",
        pod=v1_pod({}),
        node=node1,
        want_pre_filter_status=Status.new(Code.SKIP),
    ),
    dict(
        name="satisfies with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using In operator that matches the existing pod",
        pod=make_pod().namespace(default_namespace).labels(pod_label2).pod_affinity_in("service", "region", ["securityscan", "value2"], REQUIRED).obj(),
        pods=[pod],
        node=node1,
    ),
    dict(
        name="satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using not in operator in labelSelector that matches the existing pod",
        pod=make_pod().namespace(default_namespace).labels(pod_label2).pod_affinity_not_in("service", "region", ["securityscan3", "value3"], REQUIRED).obj(),
        pods=[pod],
        node=node1,
    ),
    dict(
        name="Does not satisfy the PodAffinity with labelSelector because of diff Namespace",
        pod=create_pod_with_affinity_terms(default_namespace, "", pod_label2, [
            {
                'labelSelector': {
                    'matchExpressions': [{'key': "service", 'operator': "In", 'values': ["securityscan", "value2"]}],
                },
                'namespaces': ["DiffNameSpace"],
            },
        ], None),
        pods=[make_pod().namespace("ns").label("service", "securityscan").node("node1").obj()],
        node=node1,
        want_filter_status=Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_AFFINITY_RULES_NOT_MATCH),
    ),
    dict(
        name="Doesn't satisfy the PodAffinity because of unmatching labelSelector with the existing pod",
        pod=make_pod().namespace(default_namespace).labels(pod_label).pod_affinity_in("service", "", ["antivirusscan", "value2"], REQUIRED).obj(),
        pods=[pod],
        node=node1,
        want_filter_status=Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_AFFINITY_RULES_NOT_MATCH),
    ),
    dict(
        name="satisfies the PodAffinity with different label Operators in multiple RequiredDuringSchedulingIgnoredDuringExecution ",
        pod=create_pod_with_affinity_terms(default_namespace, "", pod_label2, [
            {
                'labelSelector': {
                    'matchExpressions': [{'key': "service", 'operator': "Exists"}, {'key': "wrongkey", 'operator': "DoesNotExist"}],
                },
                'topologyKey': "region",
            },
            {
                'labelSelector': {
                    'matchExpressions': [
                        {'key': "service", 'operator': "In", 'values': ["securityscan"]},
                        {'key': "service", 'operator': "NotIn", 'values': ["WrongValue"]},
                    ],
                },
                'topologyKey': "region",
            },
        ], None),
        pods=[pod],
        node=node1,
    ),
    dict(
        name="The labelSelector requirements(items of matchExpressions) are ANDed, the pod cannot schedule onto the node because one of the matchExpression item don't match.",
        pod=create_pod_with_affinity_terms(default_namespace, "", pod_label2, [
            {
                'labelSelector': {
                    'matchExpressions': [{'key': "service", 'operator': "Exists"}, {'key': "wrongkey", 'operator': "DoesNotExist"}],
                },
                'topologyKey': "region",
            },
            {
                'labelSelector': {
                    'matchExpressions': [
                        {'key': "service", 'operator': "In", 'values': ["securityscan2"]},
                        {'key': "service", 'operator': "NotIn", 'values': ["WrongValue"]},
                    ],
                },
                'topologyKey': "region",
            },
        ], None),
        pods=[pod],
        node=node1,
        want_filter_status=Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_AFFINITY_RULES_NOT_MATCH),
    ),
    dict(
        name="satisfies the PodAffinity and PodAntiAffinity with the existing pod",
        pod=make_pod().namespace(default_namespace).labels(pod_label2).pod_affinity_in("service", "region", ["securityscan", "value2"], REQUIRED).pod_anti_affinity_in("service", "node", ["antivirusscan", "value2"], REQUIRED).obj(),
        pods=[pod],
        node=node1,
    ),
    dict(
        name="satisfies the PodAffinity and PodAntiAffinity and PodAntiAffinity symmetry with the existing pod",
        pod=make_pod().namespace(default_namespace).labels(pod_label2).pod_affinity_in("service", "region", ["securityscan", "value2"], REQUIRED).pod_anti_affinity_in("service", "node", ["antivirusscan", "value2"], REQUIRED).obj(),
        pods=[
            make_pod().namespace(default_namespace).node("node1").labels(pod_label).pod_anti_affinity_in("service", "node", ["antivirusscan", "value2"], REQUIRED).obj(),
        ],
        node=node1,
    ),
    dict(
        name="satisfies the PodAffinity but doesn't satisfy the PodAntiAffinity with the existing pod",
        pod=make_pod().namespace(default_namespace).labels(pod_label2).pod_affinity_in("service", "region", ["securityscan", "value2"], REQUIRED).pod_anti_affinity_in("service", "zone", ["securityscan", "value2"], REQUIRED).obj(),
        pods=[pod],
        node=node1,
        want_filter_status=Status.new(Code.UNSCHEDULABLE, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH),
    ),
    dict(
        name="satisfies the PodAffinity and PodAntiAffinity but doesn't satisfy PodAntiAffinity symmetry with the existing pod",
        pod=make_pod().namespace(default_namespace).labels(pod_label).pod_affinity_in("service", "region", ["securityscan", "value2"], REQUIRED).pod_anti_affinity_in("service", "node", ["antivirusscan", "value2"], REQUIRED).obj(),
        pods=[
            make_pod().namespace(default_namespace).labels(pod_label).node("node1").pod_anti_affinity_in("service", "zone", ["securityscan", "value2"], REQUIRED).obj(),
        ],
        node=node1,
        want_filter_status=Status.new(Code.UNSCHEDULABLE, ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH),
    ),
    dict(
        name="pod matches its own Label in PodAffinity and that matches the existing pod Labels",
        pod=make_pod().namespace(default_namespace).labels(pod_label).pod_affinity_not_in("service", "region", ["securityscan", "value2"], REQUIRED).obj(),
        pods=[make_pod().label("service", "securityscan").node("node2").obj()],
        node=node1,
        want_filter_status=Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_AFFINITY_RULES_NOT_MATCH),
    ),
    dict(
        name="verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. doesn't satisfy PodAntiAffinity symmetry with the existing pod",
        pod=make_pod().labels(pod_label).obj(),
        pods=[
            make_pod().namespace(default_namespace).node("node1").labels(pod_label).pod_anti_affinity_in("service", "zone", ["securityscan", "value2"], REQUIRED).obj(),
        ],
        node=node1,
        want_filter_status=Status.new(Code.UNSCHEDULABLE, ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH),
    ),
    dict(
        name="verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. satisfy PodAntiAffinity symmetry with the existing pod",
        pod=make_pod().labels(pod_label).obj(),
        pods=[
            make_pod().namespace(default_namespace).node("node1").labels(pod_label).pod_anti_affinity_not_in("service", "zone", ["securityscan", "value2"], REQUIRED).obj(),
        ],
        node=node1,
        want_pre_filter_status=Status.new(Code.SKIP),
    ),
    dict(
        name="satisfies the PodAntiAffinity with existing pod but doesn't satisfy PodAntiAffinity symmetry with incoming pod",
        pod=make_pod().namespace(default_namespace).labels(pod_label).pod_anti_affinity_exists("service", "region", REQUIRED).pod_anti_affinity_exists("security", "region", REQUIRED).obj(),
        pods=[
            make_pod().namespace(default_namespace).node("node1").labels(pod_label2).pod_anti_affinity_exists("security", "zone", REQUIRED).obj(),
        ],
        node=node1,
        want_filter_status=Status.new(Code.UNSCHEDULABLE, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH),
    ),
    dict(
        name="PodAntiAffinity symmetry check a1: incoming pod and existing pod partially match each other on AffinityTerms",
        pod=make_pod().namespace(default_namespace).labels(pod_label).pod_anti_affinity_exists("service", "zone", REQUIRED).pod_anti_affinity_exists("security", "zone", REQUIRED).obj(),
        pods=[
            make_pod().namespace(default_namespace).node("node1").labels(pod_label2).pod_anti_affinity_exists("security", "zone", REQUIRED).obj(),
        ],
        node=node1,
        want_filter_status=Status.new(Code.UNSCHEDULABLE, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH),
    ),
    dict(
        name="PodAntiAffinity symmetry check a2: incoming pod and existing pod partially match each other on AffinityTerms",
        pod=make_pod().namespace(default_namespace).labels(pod_label2).pod_anti_affinity_exists("security", "zone", REQUIRED).obj(),
        pods=[
            make_pod().namespace(default_namespace).node("node1").labels(pod_label).pod_anti_affinity_exists("service", "zone", REQUIRED).pod_anti_affinity_exists("security", "zone", REQUIRED).obj(),
        ],
        node=node1,
        want_filter_status=Status.new(Code.UNSCHEDULABLE, ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH),
    ),
    dict(
        name="PodAntiAffinity symmetry check b1: incoming pod and existing pod partially match each other on AffinityTerms",
        pod=make_pod().namespace(default_namespace).labels({"abc": "", "xyz": ""}).pod_anti_affinity_exists("abc", "zone", REQUIRED).pod_anti_affinity_exists("def", "zone", REQUIRED).obj(),
        pods=[
            make_pod().namespace(default_namespace).node("node1").labels({"def": "", "xyz": ""}).pod_anti_affinity_exists("abc", "zone", REQUIRED).pod_anti_affinity_exists("def", "zone", REQUIRED).obj(),
        ],
        node=node1,
        want_filter_status=Status.new(Code.UNSCHEDULABLE, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH),
    ),
    dict(
        name="PodAntiAffinity symmetry check b2: incoming pod and existing pod partially match each other on AffinityTerms",
        pod=make_pod().namespace(default_namespace).labels({"def": "", "xyz": ""}).pod_anti_affinity_exists("abc", "zone", REQUIRED).pod_anti_affinity_exists("def", "zone", REQUIRED).obj(),
        pods=[
            make_pod().namespace(default_namespace).node("node1").labels({"abc": "", "xyz": ""}).pod_anti_affinity_exists("abc", "zone", REQUIRED).pod_anti_affinity_exists("def", "zone", REQUIRED).obj(),
        ],
        node=node1,
        want_filter_status=Status.new(Code.UNSCHEDULABLE, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH),
    ),
    dict(
        name="PodAffinity fails PreFilter with an invalid affinity label syntax",
        pod=make_pod().namespace(default_namespace).labels(pod_label)
        .pod_affinity_in("service", "region", ["{{.bad-value.}}"], REQUIRED)
        .pod_affinity_in("service", "node", ["antivirusscan", "value2"], REQUIRED).obj(),
        node=node1,
        want_pre_filter_status=Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, BAD_VALUE_PARSE_ERROR),
    ),
    dict(
        name="PodAntiAffinity fails PreFilter with an invalid antiaffinity label syntax",
        pod=make_pod().namespace(default_namespace).labels(pod_label)
        .pod_affinity_in("service", "region", ["foo"], REQUIRED)
        .pod_affinity_in("service", "node", ["{{.bad-value.}}"], REQUIRED).obj(),
        node=node1,
        want_pre_filter_status=Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, BAD_VALUE_PARSE_ERROR),
    ),
    dict(
        name="affinity with NamespaceSelector",
        pod=create_pod_with_affinity_terms(default_namespace, "", pod_label2, [
            {
                'labelSelector': {
                    'matchExpressions': [{'key': "service", 'operator': "In", 'values': ["securityscan", "value2"]}],
                },
                'namespaceSelector': {'matchExpressions': [{'key': "team", 'operator': "In", 'values': ["team1"]}]},
                'topologyKey': "region",
            },
        ], None),
        pods=[
            v1_pod({
                'spec': {'nodeName': "node1"},
                'metadata': {'namespace': "subteam1.team1", 'labels': pod_label},
            }),
        ],
        node=node1,
    ),
    dict(
        name="affinity with non-matching NamespaceSelector",
        pod=create_pod_with_affinity_terms(default_namespace, "", pod_label2, [
            {
                'labelSelector': {
                    'matchExpressions': [{'key': "service", 'operator': "In", 'values': ["securityscan", "value2"]}],
                },
                'namespaceSelector': {'matchExpressions': [{'key': "team", 'operator': "In", 'values': ["team1"]}]},
                'topologyKey': "region",
            },
        ], None),
        pods=[
            v1_pod({
                'spec': {'nodeName': "node1"},
                'metadata': {'namespace': "subteam1.team2", 'labels': pod_label},
            }),
        ],
        node=node1,
        want_filter_status=Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_AFFINITY_RULES_NOT_MATCH),
    ),
    dict(
        name="anti-affinity with matching NamespaceSelector",
        pod=create_pod_with_affinity_terms("subteam1.team1", "", pod_label2, None, [
            {
                'labelSelector': {
                    'matchExpressions': [{'key': "service", 'operator': "In", 'values': ["securityscan", "value2"]}],
                },
                'namespaceSelector': {'matchExpressions': [{'key': "team", 'operator': "In", 'values': ["team1"]}]},
                'topologyKey': "zone",
            },
        ]),
        pods=[
            v1_pod({
                'spec': {'nodeName': "node1"},
                'metadata': {'namespace': "subteam2.team1", 'labels': pod_label},
            }),
        ],
        node=node1,
        want_filter_status=Status.new(Code.UNSCHEDULABLE, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH),
    ),
    dict(
        name="anti-affinity with matching all NamespaceSelector",
        pod=create_pod_with_affinity_terms("subteam1.team1", "", pod_label2, None, [
            {
                'labelSelector': {
                    'matchExpressions': [{'key': "service", 'operator': "In", 'values': ["securityscan", "value2"]}],
                },
                'namespaceSelector': {},
                'topologyKey': "zone",
            },
        ]),
        pods=[
            v1_pod({
                'spec': {'nodeName': "node1"},
                'metadata': {'namespace': "subteam2.team1", 'labels': pod_label},
            }),
        ],
        node=node1,
        want_filter_status=Status.new(Code.UNSCHEDULABLE, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH),
    ),
    dict(
        name="anti-affinity with non-matching NamespaceSelector",
        pod=create_pod_with_affinity_terms("subteam1.team1", "", pod_label2, None, [
            {
                'labelSelector': {
                    'matchExpressions': [{'key': "service", 'operator': "In", 'values': ["securityscan", "value2"]}],
                },
                'namespaceSelector': {'matchExpressions': [{'key': "team", 'operator': "In", 'values': ["team1"]}]},
                'topologyKey': "zone",
            },
        ]),
        pods=[
            v1_pod({
                'spec': {'nodeName': "node1"},
                'metadata': {'namespace': "subteam1.team2", 'labels': pod_label},
            }),
        ],
        node=node1,
    ),
]


@pytest.mark.parametrize("test", SINGLE_NODE_CASES, ids=[c["name"] for c in SINGLE_NODE_CASES])
def test_required_affinity_single_node(test):
    handle = SnapshotHandle(test.get("pods"), [test["node"]], namespaces=namespaces)
    p = _plugin(handle)
    state = CycleState()
    _, pre_filter_status = p.pre_filter(state, test["pod"], handle.node_infos())
    assert pre_filter_status == (test.get("want_pre_filter_status") or SUCCESS)
    if not pre_filter_status.is_success():
        return
    got = p.filter(state, test["pod"], handle.get(test["node"].name))
    assert got == (test.get("want_filter_status") or SUCCESS)


# --- TestRequiredAffinityMultipleNodes ---------------------------------------------------------

pod_label_a = {"foo": "bar"}
label_rg_china = {"region": "China"}
label_rg_china_az_az1 = {"region": "China", "az": "az1"}
label_rg_india = {"region": "India"}

MULTIPLE_NODES_CASES = [
    dict(
        pod=make_pod().namespace(default_namespace).pod_affinity_in("foo", "region", ["bar"], REQUIRED).obj(),
        pods=[make_pod().name("p1").node("node1").labels(pod_label_a).obj()],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_china_az_az1}}),
            v1_node({'metadata': {'name': "node3", 'labels': label_rg_india}}),
        ],
        want_filter_statuses=[
            None,
            None,
            Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_AFFINITY_RULES_NOT_MATCH),
        ],
        name="A pod can be scheduled onto all the nodes that have the same topology key & label value with one of them has an existing pod that matches the affinity rules",
    ),
    dict(
        pod=make_pod().namespace(default_namespace).labels({"foo": "bar", "service": "securityscan"}).pod_affinity_in("foo", "zone", ["bar"], REQUIRED).pod_affinity_in("service", "zone", ["securityscan"], REQUIRED).obj(),
        pods=[make_pod().name("p1").node("nodeA").labels({"foo": "bar"}).obj()],
        nodes=[
            v1_node({'metadata': {'name': "nodeA", 'labels': {"zone": "az1", "hostname": "h1"}}}),
            v1_node({'metadata': {'name': "nodeB", 'labels': {"zone": "az2", "hostname": "h2"}}}),
        ],
        want_filter_statuses=[None, None],
        name="The affinity rule is to schedule all of the pods of this collection to the same zone. The first pod of the collection " + "should not be blocked from being scheduled onto any node, even there's no existing pod that matches the rule anywhere.",
    ),
    dict(
        pod=make_pod().namespace(default_namespace).labels({"foo": "bar", "service": "securityscan"}).pod_affinity_in("foo", "zone", ["bar"], REQUIRED).pod_affinity_in("service", "zone", ["securityscan"], REQUIRED).obj(),
        pods=[make_pod().name("p1").node("nodeA").labels({"foo": "bar"}).obj()],
        nodes=[
            v1_node({'metadata': {'name': "nodeA", 'labels': {"zoneLabel": "az1", "hostname": "h1"}}}),
            v1_node({'metadata': {'name': "nodeB", 'labels': {"zoneLabel": "az2", "hostname": "h2"}}}),
        ],
        want_filter_statuses=[
            Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_AFFINITY_RULES_NOT_MATCH),
            Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_AFFINITY_RULES_NOT_MATCH),
        ],
        name="The first pod of the collection can only be scheduled on nodes labelled with the requested topology keys",
    ),
    dict(
        pod=make_pod().namespace(default_namespace).pod_anti_affinity_in("foo", "region", ["abc"], REQUIRED).obj(),
        pods=[make_pod().node("nodeA").labels({"foo": "abc"}).obj()],
        nodes=[
            v1_node({'metadata': {'name': "nodeA", 'labels': {"region": "r1", "hostname": "nodeA"}}}),
            v1_node({'metadata': {'name': "nodeB", 'labels': {"region": "r1", "hostname": "nodeB"}}}),
        ],
        want_filter_statuses=[
            Status.new(Code.UNSCHEDULABLE, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH),
            Status.new(Code.UNSCHEDULABLE, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH),
        ],
        name="NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB.",
    ),
    dict(
        pod=make_pod().namespace(default_namespace).pod_anti_affinity_in("foo", "region", ["abc"], REQUIRED).pod_anti_affinity_in("service", "zone", ["securityscan"], REQUIRED).obj(),
        pods=[make_pod().node("nodeA").labels({"foo": "abc", "service": "securityscan"}).obj()],
        nodes=[
            v1_node({
                'metadata': {'name': "nodeA", 'labels': {"region": "r1", "zone": "z1", "hostname": "nodeA"}},
            }),
            v1_node({
                'metadata': {'name': "nodeB", 'labels': {"region": "r1", "zone": "z2", "hostname": "nodeB"}},
            }),
        ],
        want_filter_statuses=[
            Status.new(Code.UNSCHEDULABLE, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH),
            Status.new(Code.UNSCHEDULABLE, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH),
        ],
        name="This test ensures that anti-affinity matches a pod when any term of the anti-affinity rule matches a pod.",
    ),
    dict(
        pod=make_pod().namespace(default_namespace).pod_anti_affinity_in("foo", "region", ["abc"], REQUIRED).obj(),
        pods=[make_pod().node("nodeA").labels({"foo": "abc"}).obj()],
        nodes=[
            v1_node({'metadata': {'name': "nodeA", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "nodeB", 'labels': label_rg_china_az_az1}}),
            v1_node({'metadata': {'name': "nodeC", 'labels': label_rg_india}}),
        ],
        want_filter_statuses=[
            Status.new(Code.UNSCHEDULABLE, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH),
            Status.new(Code.UNSCHEDULABLE, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH),
            None,
        ],
        name="NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB but can be scheduled onto nodeC",
    ),
    dict(
        pod=make_pod().namespace("NS1").labels({"foo": "123"}).pod_anti_affinity_in("foo", "region", ["bar"], REQUIRED).obj(),
        pods=[
            make_pod().node("nodeA").namespace("NS1").labels({"foo": "bar"}).obj(),
            make_pod().node("nodeC").namespace("NS2").pod_anti_affinity_in("foo", "region", ["123"], REQUIRED).obj(),
        ],
        nodes=[
            v1_node({'metadata': {'name': "nodeA", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "nodeB", 'labels': label_rg_china_az_az1}}),
            v1_node({'metadata': {'name': "nodeC", 'labels': label_rg_india}}),
        ],
        want_filter_statuses=[
            Status.new(Code.UNSCHEDULABLE, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH),
            Status.new(Code.UNSCHEDULABLE, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH),
            None,
        ],
        name="NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA, nodeB, but can be scheduled onto nodeC (NodeC has an existing pod that match the inter pod affinity rule but in different namespace)",
    ),
    dict(
        pod=make_pod().label("foo", "").obj(),
        pods=[
            make_pod().node("nodeA").namespace(default_namespace).pod_anti_affinity_exists("foo", "invalid-node-label", REQUIRED).obj(),
        ],
        nodes=[
            v1_node({
                'metadata': {'name': "nodeA", 'labels': {"region": "r1", "zone": "z1", "hostname": "nodeA"}},
            }),
            v1_node({
                'metadata': {'name': "nodeB", 'labels': {"region": "r1", "zone": "z1", "hostname": "nodeB"}},
            }),
        ],
        want_pre_filter_status=Status.new(Code.SKIP),
        want_filter_statuses=[None, None],
        name="Test existing pod's anti-affinity: if an existing pod has a term with invalid topologyKey, labelSelector of the term is firstly checked, and then topologyKey of the term is also checked",
    ),
    dict(
        pod=make_pod().node("nodeA").namespace(default_namespace).pod_anti_affinity_exists("foo", "invalid-node-label", REQUIRED).obj(),
        pods=[make_pod().node("nodeA").labels({"foo": ""}).obj()],
        nodes=[
            v1_node({
                'metadata': {'name': "nodeA", 'labels': {"region": "r1", "zone": "z1", "hostname": "nodeA"}},
            }),
            v1_node({
                'metadata': {'name': "nodeB", 'labels': {"region": "r1", "zone": "z1", "hostname": "nodeB"}},
            }),
        ],
        want_filter_statuses=[None, None],
        name="Test incoming pod's anti-affinity: even if labelSelector matches, we still check if topologyKey matches",
    ),
    dict(
        pod=make_pod().label("foo", "").label("bar", "").obj(),
        pods=[
            make_pod().node("nodeA").namespace(default_namespace).pod_anti_affinity_exists("foo", "zone", REQUIRED).obj(),
            make_pod().node("nodeA").namespace(default_namespace).pod_anti_affinity_exists("bar", "region", REQUIRED).obj(),
        ],
        nodes=[
            v1_node({
                'metadata': {'name': "nodeA", 'labels': {"region": "r1", "zone": "z1", "hostname": "nodeA"}},
            }),
            v1_node({
                'metadata': {'name': "nodeB", 'labels': {"region": "r1", "zone": "z2", "hostname": "nodeB"}},
            }),
        ],
        want_filter_statuses=[
            Status.new(Code.UNSCHEDULABLE, ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH),
            Status.new(Code.UNSCHEDULABLE, ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH),
        ],
        name="Test existing pod's anti-affinity: incoming pod wouldn't considered as a fit as it violates each existingPod's terms on all nodes",
    ),
    dict(
        pod=make_pod().namespace(default_namespace).pod_anti_affinity_exists("foo", "zone", REQUIRED).pod_anti_affinity_exists("bar", "region", REQUIRED).obj(),
        pods=[
            make_pod().node("nodeA").labels({"foo": ""}).obj(),
            make_pod().node("nodeB").labels({"bar": ""}).obj(),
        ],
        nodes=[
            v1_node({
                'metadata': {'name': "nodeA", 'labels': {"region": "r1", "zone": "z1", "hostname": "nodeA"}},
            }),
            v1_node({
                'metadata': {'name': "nodeB", 'labels': {"region": "r1", "zone": "z2", "hostname": "nodeB"}},
            }),
        ],
        want_filter_statuses=[
            Status.new(Code.UNSCHEDULABLE, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH),
            Status.new(Code.UNSCHEDULABLE, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH),
        ],
        name="Test incoming pod's anti-affinity: incoming pod wouldn't considered as a fit as it at least violates one anti-affinity rule of existingPod",
    ),
    dict(
        pod=make_pod().label("foo", "").label("bar", "").obj(),
        pods=[
            make_pod().node("nodeA").namespace(default_namespace).pod_anti_affinity_exists("foo", "invalid-node-label", REQUIRED).pod_anti_affinity_exists("bar", "zone", REQUIRED).obj(),
        ],
        nodes=[
            v1_node({
                'metadata': {'name': "nodeA", 'labels': {"region": "r1", "zone": "z1", "hostname": "nodeA"}},
            }),
            v1_node({
                'metadata': {'name': "nodeB", 'labels': {"region": "r1", "zone": "z2", "hostname": "nodeB"}},
            }),
        ],
        want_filter_statuses=[Status.new(Code.UNSCHEDULABLE, ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH), None],
        name="Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when one term has invalid topologyKey",
    ),
    dict(
        pod=make_pod().namespace(default_namespace).pod_anti_affinity_exists("foo", "invalid-node-label", REQUIRED).pod_anti_affinity_exists("bar", "zone", REQUIRED).obj(),
        pods=[make_pod().name("podA").node("nodeA").labels({"foo": "", "bar": ""}).obj()],
        nodes=[
            v1_node({
                'metadata': {'name': "nodeA", 'labels': {"region": "r1", "zone": "z1", "hostname": "nodeA"}},
            }),
            v1_node({
                'metadata': {'name': "nodeB", 'labels': {"region": "r1", "zone": "z2", "hostname": "nodeB"}},
            }),
        ],
        want_filter_statuses=[Status.new(Code.UNSCHEDULABLE, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH), None],
        name="Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when one term has invalid topologyKey",
    ),
    dict(
        pod=make_pod().label("foo", "").label("bar", "").obj(),
        pods=[
            make_pod().namespace(default_namespace).node("nodeA").pod_anti_affinity_exists("foo", "region", REQUIRED).pod_anti_affinity_exists("bar", "zone", REQUIRED).obj(),
        ],
        nodes=[
            v1_node({
                'metadata': {'name': "nodeA", 'labels': {"region": "r1", "zone": "z1", "hostname": "nodeA"}},
            }),
            v1_node({
                'metadata': {'name': "nodeB", 'labels': {"region": "r1", "zone": "z2", "hostname": "nodeB"}},
            }),
        ],
        want_filter_statuses=[
            Status.new(Code.UNSCHEDULABLE, ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH),
            Status.new(Code.UNSCHEDULABLE, ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH),
        ],
        name="Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when all terms have valid topologyKey",
    ),
    dict(
        pod=make_pod().namespace(default_namespace).pod_anti_affinity_exists("foo", "region", REQUIRED).pod_anti_affinity_exists("bar", "zone", REQUIRED).obj(),
        pods=[make_pod().node("nodeA").labels({"foo": "", "bar": ""}).obj()],
        nodes=[
            v1_node({
                'metadata': {'name': "nodeA", 'labels': {"region": "r1", "zone": "z1", "hostname": "nodeA"}},
            }),
            v1_node({
                'metadata': {'name': "nodeB", 'labels': {"region": "r1", "zone": "z2", "hostname": "nodeB"}},
            }),
        ],
        want_filter_statuses=[
            Status.new(Code.UNSCHEDULABLE, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH),
            Status.new(Code.UNSCHEDULABLE, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH),
        ],
        name="Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when all terms have valid topologyKey",
    ),
    dict(
        pod=make_pod().label("foo", "").label("bar", "").obj(),
        pods=[
            make_pod().node("nodeA").namespace(default_namespace).pod_anti_affinity_exists("foo", "zone", REQUIRED).pod_anti_affinity_exists("labelA", "zone", REQUIRED).obj(),
            make_pod().node("nodeB").namespace(default_namespace).pod_anti_affinity_exists("bar", "zone", REQUIRED).pod_anti_affinity_exists("labelB", "zone", REQUIRED).obj(),
        ],
        nodes=[
            v1_node({
                'metadata': {'name': "nodeA", 'labels': {"region": "r1", "zone": "z1", "hostname": "nodeA"}},
            }),
            v1_node({
                'metadata': {'name': "nodeB", 'labels': {"region": "r1", "zone": "z2", "hostname": "nodeB"}},
            }),
            v1_node({
                'metadata': {'name': "nodeC", 'labels': {"region": "r1", "zone": "z3", "hostname": "nodeC"}},
            }),
        ],
        want_filter_statuses=[
            Status.new(Code.UNSCHEDULABLE, ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH),
            Status.new(Code.UNSCHEDULABLE, ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH),
            None,
        ],
        name="Test existing pod's anti-affinity: existingPod on nodeA and nodeB has at least one anti-affinity term matches incoming pod, so incoming pod can only be scheduled to nodeC",
    ),
    dict(
        pod=make_pod().namespace(default_namespace).pod_affinity_exists("foo", "region", REQUIRED).pod_affinity_exists("bar", "zone", REQUIRED).obj(),
        pods=[make_pod().name("pod1").labels({"foo": "", "bar": ""}).node("nodeA").obj()],
        nodes=[
            v1_node({
                'metadata': {'name': "nodeA", 'labels': {"region": "r1", "zone": "z1", "hostname": "nodeA"}},
            }),
            v1_node({
                'metadata': {'name': "nodeB", 'labels': {"region": "r1", "zone": "z1", "hostname": "nodeB"}},
            }),
        ],
        want_filter_statuses=[None, None],
        name="Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all topologyKeys match",
    ),
    dict(
        pod=make_pod().namespace(default_namespace).pod_affinity_exists("foo", "region", REQUIRED).pod_affinity_exists("bar", "zone", REQUIRED).obj(),
        pods=[
            make_pod().node("nodeA").name("pod1").namespace(default_namespace).labels({"foo": ""}).obj(),
            make_pod().node("nodeB").name("pod2").namespace(default_namespace).labels({"bar": ""}).obj(),
        ],
        nodes=[
            v1_node({
                'metadata': {'name': "nodeA", 'labels': {"region": "r1", "zone": "z1", "hostname": "nodeA"}},
            }),
            v1_node({
                'metadata': {'name': "nodeB", 'labels': {"region": "r1", "zone": "z2", "hostname": "nodeB"}},
            }),
        ],
        want_filter_statuses=[
            Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_AFFINITY_RULES_NOT_MATCH),
            Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_AFFINITY_RULES_NOT_MATCH),
        ],
        name="Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all topologyKeys match, and the match logic should be satisfied on the same pod",
    ),
    dict(
        pod=make_pod().namespace(default_namespace).pod_affinity_exists("foo", LABEL_HOSTNAME, REQUIRED).obj(),
        pods=[make_pod().name("pod1").labels({"foo": ""}).node("nodeA").obj()],
        nodes=[
            v1_node({'metadata': {'name': "nodeA", 'labels': {LABEL_HOSTNAME: "nodeA"}}}),
            v1_node({'metadata': {'name': "nodeB", 'labels': {LABEL_HOSTNAME: "nodeB"}}}),
        ],
        want_filter_statuses=[
            None,
            Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_AFFINITY_RULES_NOT_MATCH),
        ],
        name="Test incoming pod's host-scoped affinity (fast path)",
    ),
    dict(
        pod=make_pod().namespace(default_namespace).pod_anti_affinity_exists("foo", LABEL_HOSTNAME, REQUIRED).obj(),
        pods=[make_pod().name("pod1").labels({"foo": ""}).node("nodeA").obj()],
        nodes=[
            v1_node({'metadata': {'name': "nodeA", 'labels': {LABEL_HOSTNAME: "nodeA"}}}),
            v1_node({'metadata': {'name': "nodeB", 'labels': {LABEL_HOSTNAME: "nodeB"}}}),
        ],
        want_filter_statuses=[Status.new(Code.UNSCHEDULABLE, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH), None],
        name="Test incoming pod's host-scoped anti-affinity (fast path)",
    ),
]


@pytest.mark.parametrize("test", MULTIPLE_NODES_CASES, ids=[c["name"] for c in MULTIPLE_NODES_CASES])
def test_required_affinity_multiple_nodes(test):
    handle = SnapshotHandle(test.get("pods"), test["nodes"], namespaces=[v1_namespace({"metadata": {"name": "NS1"}})])
    p = _plugin(handle)
    state = CycleState()
    _, pre_filter_status = p.pre_filter(state, test["pod"], handle.node_infos())
    assert pre_filter_status == (test.get("want_pre_filter_status") or SUCCESS)
    if pre_filter_status.is_skip():
        return
    got = [p.filter(state, test["pod"], handle.get(n.name)) for n in test["nodes"]]
    assert got == [w or SUCCESS for w in test["want_filter_statuses"]]


# --- TestPreFilterDisabled ---------------------------------------------------------------------

def test_pre_filter_disabled():
    p = _plugin(SnapshotHandle())
    status = p.filter(CycleState(), v1_pod({}), NodeInfo.of(v1_node({})))
    assert status.code is Code.ERROR
    assert status.message() == f'error reading "{PRE_FILTER_STATE_KEY}" from cycleState: not found'


# --- TestPreFilterStateAddRemovePod ------------------------------------------------------------

label1 = {"region": "r1", "zone": "z11"}
label2 = {"region": "r1", "zone": "z12"}
label3 = {"region": "r2", "zone": "z21"}
selector1 = {"foo": "bar"}
anti_affinity_foo_bar = {
    'requiredDuringSchedulingIgnoredDuringExecution': [
        {
            'labelSelector': {'matchExpressions': [{'key': "foo", 'operator': "In", 'values': ["bar"]}]},
            'topologyKey': "region",
        },
    ],
}
anti_affinity_complex = {
    'requiredDuringSchedulingIgnoredDuringExecution': [
        {
            'labelSelector': {'matchExpressions': [{'key': "foo", 'operator': "In", 'values': ["bar", "buzz"]}]},
            'topologyKey': "region",
        },
        {
            'labelSelector': {
                'matchExpressions': [{'key': "service", 'operator': "NotIn", 'values': ["bar", "security", "test"]}],
            },
            'topologyKey': "zone",
        },
    ],
}
affinity_complex = {
    'requiredDuringSchedulingIgnoredDuringExecution': [
        {
            'labelSelector': {'matchExpressions': [{'key': "foo", 'operator': "In", 'values': ["bar", "buzz"]}]},
            'topologyKey': "region",
        },
        {
            'labelSelector': {
                'matchExpressions': [{'key': "service", 'operator': "NotIn", 'values': ["bar", "security", "test"]}],
            },
            'topologyKey': "zone",
        },
    ],
}

ADD_REMOVE_CASES = [
    dict(
        name="preFilterState anti-affinity terms are updated correctly after adding and removing a pod",
        pending_pod=v1_pod({
            'metadata': {'name': "pending", 'labels': selector1},
            'spec': {'affinity': {'podAntiAffinity': anti_affinity_foo_bar}},
        }),
        existing_pods=[
            v1_pod({'metadata': {'name': "p1", 'labels': selector1}, 'spec': {'nodeName': "nodeA"}}),
            v1_pod({
                'metadata': {'name': "p2"},
                'spec': {'nodeName': "nodeC", 'affinity': {'podAntiAffinity': anti_affinity_foo_bar}},
            }),
        ],
        added_pod=v1_pod({
            'metadata': {'name': "addedPod", 'labels': selector1},
            'spec': {'nodeName': "nodeB", 'affinity': {'podAntiAffinity': anti_affinity_foo_bar}},
        }),
        nodes=[
            v1_node({'metadata': {'name': "nodeA", 'labels': label1}}),
            v1_node({'metadata': {'name': "nodeB", 'labels': label2}}),
            v1_node({'metadata': {'name': "nodeC", 'labels': label3}}),
        ],
        expected_anti_affinity={("region", "r1"): 2},
        expected_affinity={},
    ),
    dict(
        name="preFilterState anti-affinity terms are updated correctly after adding and removing a pod",
        pending_pod=v1_pod({
            'metadata': {'name': "pending", 'labels': selector1},
            'spec': {'affinity': {'podAntiAffinity': anti_affinity_complex}},
        }),
        existing_pods=[
            v1_pod({'metadata': {'name': "p1", 'labels': selector1}, 'spec': {'nodeName': "nodeA"}}),
            v1_pod({
                'metadata': {'name': "p2"},
                'spec': {'nodeName': "nodeC", 'affinity': {'podAntiAffinity': anti_affinity_foo_bar}},
            }),
        ],
        added_pod=v1_pod({
            'metadata': {'name': "addedPod", 'labels': selector1},
            'spec': {'nodeName': "nodeA", 'affinity': {'podAntiAffinity': anti_affinity_complex}},
        }),
        nodes=[
            v1_node({'metadata': {'name': "nodeA", 'labels': label1}}),
            v1_node({'metadata': {'name': "nodeB", 'labels': label2}}),
            v1_node({'metadata': {'name': "nodeC", 'labels': label3}}),
        ],
        expected_anti_affinity={("region", "r1"): 2, ("zone", "z11"): 2, ("zone", "z21"): 1},
        expected_affinity={},
    ),
    dict(
        name="preFilterState matching pod affinity and anti-affinity are updated correctly after adding and removing a pod",
        pending_pod=v1_pod({
            'metadata': {'name': "pending", 'labels': selector1},
            'spec': {'affinity': {'podAffinity': affinity_complex}},
        }),
        existing_pods=[
            v1_pod({'metadata': {'name': "p1", 'labels': selector1}, 'spec': {'nodeName': "nodeA"}}),
            v1_pod({
                'metadata': {'name': "p2"},
                'spec': {
                    'nodeName': "nodeC",
                    'affinity': {'podAntiAffinity': anti_affinity_foo_bar, 'podAffinity': affinity_complex},
                },
            }),
        ],
        added_pod=v1_pod({
            'metadata': {'name': "addedPod", 'labels': selector1},
            'spec': {'nodeName': "nodeA", 'affinity': {'podAntiAffinity': anti_affinity_complex}},
        }),
        nodes=[
            v1_node({'metadata': {'name': "nodeA", 'labels': label1}}),
            v1_node({'metadata': {'name': "nodeB", 'labels': label2}}),
            v1_node({'metadata': {'name': "nodeC", 'labels': label3}}),
        ],
        expected_anti_affinity={},
        expected_affinity={("region", "r1"): 2, ("zone", "z11"): 2},
    ),
    dict(
        name="preFilterState anti-affinity terms with both hostname and non-hostname are updated correctly after adding and removing a pod",
        pending_pod=v1_pod({
            'metadata': {'name': "pending", 'labels': selector1},
            'spec': {'affinity': {'podAntiAffinity': anti_affinity_foo_bar}},
        }),
        existing_pods=[v1_pod({'metadata': {'name': "p1", 'labels': selector1}, 'spec': {'nodeName': "nodeA"}})],
        added_pod=v1_pod({
            'metadata': {'name': "addedPod", 'labels': selector1},
            'spec': {
                'nodeName': "nodeA",
                'affinity': {
                    'podAntiAffinity': {
                        'requiredDuringSchedulingIgnoredDuringExecution': [
                            {
                                'labelSelector': {'matchExpressions': [{'key': "foo", 'operator': "In", 'values': ["bar"]}]},
                                'topologyKey': "region",
                            },
                            {
                                'labelSelector': {'matchExpressions': [{'key': "foo", 'operator': "In", 'values': ["bar"]}]},
                                'topologyKey': LABEL_HOSTNAME,
                            },
                        ],
                    },
                },
            },
        }),
        nodes=[
            v1_node({
                'metadata': {'name': "nodeA", 'labels': {"region": "r1", "zone": "z11", LABEL_HOSTNAME: "nodeA"}},
            }),
            v1_node({
                'metadata': {'name': "nodeB", 'labels': {"region": "r1", "zone": "z12", LABEL_HOSTNAME: "nodeB"}},
            }),
        ],
        expected_anti_affinity={("region", "r1"): 2},
        expected_affinity={},
    ),
]


def _counts(s: PreFilterState) -> tuple[dict, dict, dict]:
    return dict(s.existing_anti_affinity_counts), dict(s.affinity_counts), dict(s.anti_affinity_counts)


def _state(test, pods) -> tuple[InterPodAffinity, CycleState, SnapshotHandle]:
    handle = SnapshotHandle(pods, test["nodes"])
    p = _plugin(handle)
    cs = CycleState()
    _, status = p.pre_filter(cs, test["pending_pod"], handle.node_infos())
    assert status.is_success()
    return p, cs, handle


@pytest.mark.parametrize("test", ADD_REMOVE_CASES, ids=[c["name"] for c in ADD_REMOVE_CASES])
def test_pre_filter_state_add_remove_pod(test):
    added = test["added_pod"]
    _, all_cs, _ = _state(test, [*test["existing_pods"], added])
    all_pods_state = _counts(all_cs.read(PRE_FILTER_STATE_KEY))
    ipa, cs, handle = _state(test, test["existing_pods"])
    original = _counts(cs.read(PRE_FILTER_STATE_KEY))
    node_info = handle.get(added.node_name)
    assert ipa.add_pod(cs, test["pending_pod"], PodInfo.of(added), node_info).is_success()
    state = cs.read(PRE_FILTER_STATE_KEY)
    assert dict(state.anti_affinity_counts) == test["expected_anti_affinity"]
    assert dict(state.affinity_counts) == test["expected_affinity"]
    assert _counts(state) == all_pods_state
    assert ipa.remove_pod(cs, test["pending_pod"], PodInfo.of(added), node_info).is_success()
    assert _counts(state) == original
    ipa2, cs2, handle2 = _state(test, [*test["existing_pods"], added])
    assert ipa2.remove_pod(cs2, test["pending_pod"], PodInfo.of(added), handle2.get(added.node_name)).is_success()
    assert _counts(cs2.read(PRE_FILTER_STATE_KEY)) == original


def test_pre_filter_state_clone_is_independent():
    node = v1_node({"metadata": {"name": "n", "labels": {"region": "r1"}}})
    pending = make_pod().name("p").label("foo", "bar").pod_anti_affinity_exists("foo", "region", REQUIRED).obj()
    handle = SnapshotHandle([], [node])
    p = _plugin(handle)
    cs = CycleState()
    p.pre_filter(cs, pending, handle.node_infos())
    clone = cs.clone()
    p.add_pod(clone, pending, PodInfo.of(make_pod().name("x").label("foo", "").node("n").obj()), handle.get("n"))
    assert dict(clone.read(PRE_FILTER_STATE_KEY).anti_affinity_counts) == {("region", "r1"): 1}
    assert dict(cs.read(PRE_FILTER_STATE_KEY).anti_affinity_counts) == {}


# --- TestGetTPMapMatchingIncomingAffinityAntiAffinity -----------------------------------------

def new_pod(*labels: str):
    pod = make_pod().name("normal").node("nodeA")
    for label in labels:
        pod.label(label, "")
    return pod.obj()


normal_pod_a = new_pod("aaa")
normal_pod_b = new_pod("bbb")
normal_pod_ab = new_pod("aaa", "bbb")
node_a = v1_node({"metadata": {"name": "nodeA", "labels": {LABEL_HOSTNAME: "nodeA"}}})

TP_MAP_CASES = [
    dict(
        name="nil test",
        nodes=[node_a],
        pod=make_pod().name("aaa-normal").obj(),
        want_affinity_pods_map={},
        want_anti_affinity_pods_map={},
    ),
    dict(
        name="incoming pod without affinity/anti-affinity causes a no-op",
        existing_pods=[normal_pod_a],
        nodes=[node_a],
        pod=make_pod().name("aaa-normal").obj(),
        want_affinity_pods_map={},
        want_anti_affinity_pods_map={},
    ),
    dict(
        name="no pod has label that violates incoming pod's affinity and anti-affinity",
        existing_pods=[normal_pod_b],
        nodes=[node_a],
        pod=make_pod().name("aaa-anti").pod_affinity_exists("aaa", LABEL_HOSTNAME, REQUIRED).pod_anti_affinity_exists("aaa", LABEL_HOSTNAME, REQUIRED).obj(),
        want_affinity_pods_map={},
        want_anti_affinity_pods_map={},
    ),
    dict(
        name="existing pod matches incoming pod's affinity and anti-affinity - single term case",
        existing_pods=[normal_pod_a],
        nodes=[node_a],
        pod=make_pod().name("affi-antiaffi").pod_affinity_exists("aaa", LABEL_HOSTNAME, REQUIRED).pod_anti_affinity_exists("aaa", LABEL_HOSTNAME, REQUIRED).obj(),
        want_affinity_pods_map={(LABEL_HOSTNAME, "nodeA"): 1},
        want_anti_affinity_pods_map={(LABEL_HOSTNAME, "nodeA"): 1},
    ),
    dict(
        name="existing pod matches incoming pod's affinity and anti-affinity - multiple terms case",
        existing_pods=[normal_pod_ab],
        nodes=[node_a],
        pod=make_pod().name("affi-antiaffi").pod_affinity_exists("aaa", LABEL_HOSTNAME, REQUIRED).pod_affinity_exists("bbb", LABEL_HOSTNAME, REQUIRED).pod_anti_affinity_exists("aaa", LABEL_HOSTNAME, REQUIRED).obj(),
        want_affinity_pods_map={(LABEL_HOSTNAME, "nodeA"): 2},
        want_anti_affinity_pods_map={(LABEL_HOSTNAME, "nodeA"): 1},
    ),
    dict(
        name="existing pod not match incoming pod's affinity but matches anti-affinity",
        existing_pods=[normal_pod_a],
        nodes=[node_a],
        pod=make_pod().name("affi-antiaffi").pod_affinity_exists("aaa", LABEL_HOSTNAME, REQUIRED).pod_affinity_exists("bbb", LABEL_HOSTNAME, REQUIRED).pod_anti_affinity_exists("aaa", LABEL_HOSTNAME, REQUIRED).pod_anti_affinity_exists("bbb", LABEL_HOSTNAME, REQUIRED).obj(),
        want_affinity_pods_map={},
        want_anti_affinity_pods_map={(LABEL_HOSTNAME, "nodeA"): 1},
    ),
    dict(
        name="incoming pod's anti-affinity has more than one term - existing pod violates partial term - case 1",
        existing_pods=[normal_pod_ab],
        nodes=[node_a],
        pod=make_pod().name("anaffi-antiaffiti").pod_affinity_exists("aaa", LABEL_HOSTNAME, REQUIRED).pod_affinity_exists("ccc", LABEL_HOSTNAME, REQUIRED).pod_anti_affinity_exists("aaa", LABEL_HOSTNAME, REQUIRED).pod_anti_affinity_exists("ccc", LABEL_HOSTNAME, REQUIRED).obj(),
        want_affinity_pods_map={},
        want_anti_affinity_pods_map={(LABEL_HOSTNAME, "nodeA"): 1},
    ),
    dict(
        name="incoming pod's anti-affinity has more than one term - existing pod violates partial term - case 2",
        existing_pods=[normal_pod_b],
        nodes=[node_a],
        pod=make_pod().name("affi-antiaffi").pod_affinity_exists("aaa", LABEL_HOSTNAME, REQUIRED).pod_affinity_exists("bbb", LABEL_HOSTNAME, REQUIRED).pod_anti_affinity_exists("aaa", LABEL_HOSTNAME, REQUIRED).pod_anti_affinity_exists("bbb", LABEL_HOSTNAME, REQUIRED).obj(),
        want_affinity_pods_map={},
        want_anti_affinity_pods_map={(LABEL_HOSTNAME, "nodeA"): 1},
    ),
]


@pytest.mark.parametrize("tt", TP_MAP_CASES, ids=[c["name"] for c in TP_MAP_CASES])
def test_get_tp_map_matching_incoming_affinity_anti_affinity(tt):
    handle = SnapshotHandle(tt.get("existing_pods"), tt["nodes"])
    affinity, anti = incoming_affinity_anti_affinity_counts(PodInfo.of(tt["pod"]), handle.node_infos())
    assert dict(affinity) == tt["want_affinity_pods_map"]
    assert dict(anti) == tt["want_anti_affinity_pods_map"]


def test_filter_reasons_for_anti_affinity():
    """The two Unschedulable reasons, which the ported tables only reach through their constants."""
    node = v1_node({"metadata": {"name": "n", "labels": {"region": "r1"}}})
    hostile = make_pod().name("e").label("app", "db").node("n").pod_anti_affinity_exists(
        "app", "region", REQUIRED).obj()
    handle = SnapshotHandle([hostile], [node])
    p = _plugin(handle)
    pod = make_pod().name("p").label("app", "web").pod_anti_affinity_exists("app", "region", REQUIRED).obj()
    cs = CycleState()
    p.pre_filter(cs, pod, handle.node_infos())
    assert p.filter(cs, pod, handle.get("n")) == Status.new(
        Code.UNSCHEDULABLE, "node(s) didn't match pod anti-affinity rules")
    quiet = make_pod().name("q").label("app", "web").obj()
    cs = CycleState()
    p.pre_filter(cs, quiet, handle.node_infos())
    assert p.filter(cs, quiet, handle.get("n")) == Status.new(
        Code.UNSCHEDULABLE, "node(s) didn't satisfy existing pods anti-affinity rules")
    _ = (make_node, ERR_REASON_AFFINITY_RULES_NOT_MATCH)
