"""InterPodAffinity PreScore / Score / NormalizeScore, ported from upstream
pkg/scheduler/framework/plugins/interpodaffinity/scoring_test.go (Kubernetes v1.37.2).

Expected values are upstream's literals.
"""

from __future__ import annotations

import pytest

from reference.cycle_state import CycleState
from reference.interfaces import MAX_NODE_SCORE, NodeScore
from reference.nodeinfo import NodeInfo
from reference.plugins.inter_pod_affinity import InterPodAffinity, InterPodAffinityArgs
from reference.plugins.inter_pod_affinity.scoring import PRE_SCORE_STATE_KEY
from reference.status import SUCCESS, Code, Status
from tests.reference.plugins._spread_builders import SnapshotHandle, make_node, make_pod, v1_namespace, v1_node, v1_pod

ns_label_t1 = {"team": "team1"}
ns_label_t2 = {"team": "team2"}
namespaces = [
    v1_namespace({"metadata": {"name": "subteam1.team1", "labels": ns_label_t1}}),
    v1_namespace({"metadata": {"name": "subteam2.team1", "labels": ns_label_t1}}),
    v1_namespace({"metadata": {"name": "subteam1.team2", "labels": ns_label_t2}}),
    v1_namespace({"metadata": {"name": "subteam2.team2", "labels": ns_label_t2}}),
]


def _scores(p: InterPodAffinity, state: CycleState, pod, infos: list[NodeInfo]) -> list[NodeScore]:
    got = []
    for info in infos:
        score, status = p.score(state, pod, info)
        assert status.is_success()
        got.append(NodeScore(info.name, score))
    assert p.normalize_score(state, pod, got).is_success()
    return got


# --- TestPreferredAffinity ---------------------------------------------------------------------

label_rg_china = {"region": "China"}
_BAD_SECURITY = {'matchExpressions': [{'key': "security", 'operator': "In", 'values': ["{{.bad-value.}}"]}]}
invalid_affinity_labels = {'podAffinity': {'preferredDuringSchedulingIgnoredDuringExecution': [
    {'weight': 8, 'podAffinityTerm': {'labelSelector': _BAD_SECURITY, 'topologyKey': "region"}}]}}
invalid_anti_affinity_labels = {'podAntiAffinity': {'preferredDuringSchedulingIgnoredDuringExecution': [
    {'weight': 5, 'podAffinityTerm': {'labelSelector': _BAD_SECURITY, 'topologyKey': "az"}}]}}
label_rg_india = {"region": "India"}
label_az_az1 = {"az": "az1"}
label_az_az2 = {"az": "az2"}
label_rg_china_az_az1 = {"region": "China", "az": "az1"}
pod_label_security_s1 = {"security": "S1"}
pod_label_security_s2 = {"security": "S2"}
stay_with_s1_in_region = {
    'podAffinity': {
        'preferredDuringSchedulingIgnoredDuringExecution': [
            {
                'weight': 5,
                'podAffinityTerm': {
                    'labelSelector': {'matchExpressions': [{'key': "security", 'operator': "In", 'values': ["S1"]}]},
                    'topologyKey': "region",
                },
            },
        ],
    },
}
stay_with_s2_in_region = {
    'podAffinity': {
        'preferredDuringSchedulingIgnoredDuringExecution': [
            {
                'weight': 6,
                'podAffinityTerm': {
                    'labelSelector': {'matchExpressions': [{'key': "security", 'operator': "In", 'values': ["S2"]}]},
                    'topologyKey': "region",
                },
            },
        ],
    },
}
affinity3 = {
    'podAffinity': {
        'preferredDuringSchedulingIgnoredDuringExecution': [
            {
                'weight': 8,
                'podAffinityTerm': {
                    'labelSelector': {
                        'matchExpressions': [
                            {'key': "security", 'operator': "NotIn", 'values': ["S1"]},
                            {'key': "security", 'operator': "In", 'values': ["S2"]},
                        ],
                    },
                    'topologyKey': "region",
                },
            },
            {
                'weight': 2,
                'podAffinityTerm': {
                    'labelSelector': {
                        'matchExpressions': [
                            {'key': "security", 'operator': "Exists"},
                            {'key': "wrongkey", 'operator': "DoesNotExist"},
                        ],
                    },
                    'topologyKey': "region",
                },
            },
        ],
    },
}
hard_affinity = {
    'podAffinity': {
        'requiredDuringSchedulingIgnoredDuringExecution': [
            {
                'labelSelector': {'matchExpressions': [{'key': "security", 'operator': "In", 'values': ["S1", "value2"]}]},
                'topologyKey': "region",
            },
            {
                'labelSelector': {
                    'matchExpressions': [
                        {'key': "security", 'operator': "Exists"},
                        {'key': "wrongkey", 'operator': "DoesNotExist"},
                    ],
                },
                'topologyKey': "region",
            },
        ],
    },
}
away_from_s1_in_az = {
    'podAntiAffinity': {
        'preferredDuringSchedulingIgnoredDuringExecution': [
            {
                'weight': 5,
                'podAffinityTerm': {
                    'labelSelector': {'matchExpressions': [{'key': "security", 'operator': "In", 'values': ["S1"]}]},
                    'topologyKey': "az",
                },
            },
        ],
    },
}
away_from_s2_in_az = {
    'podAntiAffinity': {
        'preferredDuringSchedulingIgnoredDuringExecution': [
            {
                'weight': 5,
                'podAffinityTerm': {
                    'labelSelector': {'matchExpressions': [{'key': "security", 'operator': "In", 'values': ["S2"]}]},
                    'topologyKey': "az",
                },
            },
        ],
    },
}
stay_with_s1_in_region_away_from_s2_in_az = {
    'podAffinity': {
        'preferredDuringSchedulingIgnoredDuringExecution': [
            {
                'weight': 8,
                'podAffinityTerm': {
                    'labelSelector': {'matchExpressions': [{'key': "security", 'operator': "In", 'values': ["S1"]}]},
                    'topologyKey': "region",
                },
            },
        ],
    },
    'podAntiAffinity': {
        'preferredDuringSchedulingIgnoredDuringExecution': [
            {
                'weight': 5,
                'podAffinityTerm': {
                    'labelSelector': {'matchExpressions': [{'key': "security", 'operator': "In", 'values': ["S2"]}]},
                    'topologyKey': "az",
                },
            },
        ],
    },
}
affinity_namespace_selector = {
    'podAffinity': {
        'preferredDuringSchedulingIgnoredDuringExecution': [
            {
                'weight': 5,
                'podAffinityTerm': {
                    'labelSelector': {'matchExpressions': [{'key': "security", 'operator': "In", 'values': ["S1"]}]},
                    'topologyKey': "region",
                    'namespaces': ["subteam2.team2"],
                    'namespaceSelector': {'matchExpressions': [{'key': "team", 'operator': "In", 'values': ["team1"]}]},
                },
            },
        ],
    },
}
anti_affinity_namespace_selector = {
    'podAntiAffinity': {
        'preferredDuringSchedulingIgnoredDuringExecution': [
            {
                'weight': 5,
                'podAffinityTerm': {
                    'labelSelector': {'matchExpressions': [{'key': "security", 'operator': "In", 'values': ["S1"]}]},
                    'topologyKey': "region",
                    'namespaces': ["subteam2.team2"],
                    'namespaceSelector': {'matchExpressions': [{'key': "team", 'operator': "In", 'values': ["team1"]}]},
                },
            },
        ],
    },
}
affinity_negative_namespace_selector = {
    'podAffinity': {
        'preferredDuringSchedulingIgnoredDuringExecution': [
            {
                'weight': 5,
                'podAffinityTerm': {
                    'labelSelector': {'matchExpressions': [{'key': "security", 'operator': "In", 'values': ["S1"]}]},
                    'topologyKey': "region",
                    'namespaceSelector': {'matchExpressions': [{'key': "team", 'operator': "NotIn", 'values': ["team1"]}]},
                },
            },
        ],
    },
}
anti_affinity_negative_namespace_selector = {
    'podAntiAffinity': {
        'preferredDuringSchedulingIgnoredDuringExecution': [
            {
                'weight': 5,
                'podAffinityTerm': {
                    'labelSelector': {'matchExpressions': [{'key': "security", 'operator': "In", 'values': ["S1"]}]},
                    'topologyKey': "region",
                    'namespaceSelector': {'matchExpressions': [{'key': "team", 'operator': "NotIn", 'values': ["team1"]}]},
                },
            },
        ],
    },
}
invalid_affinity_labels = {
    'podAffinity': {
        'preferredDuringSchedulingIgnoredDuringExecution': [
            {
                'weight': 8,
                'podAffinityTerm': {
                    'labelSelector': {
                        'matchExpressions': [{'key': "security", 'operator': "In", 'values': ["{{.bad-value.}}"]}],
                    },
                    'topologyKey': "region",
                },
            },
        ],
    },
}
invalid_anti_affinity_labels = {
    'podAntiAffinity': {
        'preferredDuringSchedulingIgnoredDuringExecution': [
            {
                'weight': 5,
                'podAffinityTerm': {
                    'labelSelector': {
                        'matchExpressions': [{'key': "security", 'operator': "In", 'values': ["{{.bad-value.}}"]}],
                    },
                    'topologyKey': "az",
                },
            },
        ],
    },
}

PREFERRED_CASES = [
    dict(
        name="all nodes are same priority as Affinity is nil",
        pod=v1_pod({'spec': {'nodeName': ""}, 'metadata': {'labels': pod_label_security_s1}}),
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_india}}),
            v1_node({'metadata': {'name': "node3", 'labels': label_az_az1}}),
        ],
        want_status=Status.new(Code.SKIP),
    ),
    dict(
        name="Affinity: pod that matches topology key & pods in nodes will get high score comparing to others" + "which doesn't match either pods in nodes or in topology key",
        pod=v1_pod({
            'spec': {'nodeName': "", 'affinity': stay_with_s1_in_region},
            'metadata': {'labels': pod_label_security_s1},
        }),
        pods=[
            v1_pod({'spec': {'nodeName': "node1"}, 'metadata': {'labels': pod_label_security_s1}}),
            v1_pod({'spec': {'nodeName': "node2"}, 'metadata': {'labels': pod_label_security_s2}}),
            v1_pod({'spec': {'nodeName': "node3"}, 'metadata': {'labels': pod_label_security_s1}}),
        ],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_india}}),
            v1_node({'metadata': {'name': "node3", 'labels': label_az_az1}}),
        ],
        expected_list=[
            NodeScore(name="node1", score=MAX_NODE_SCORE),
            NodeScore(name="node2", score=0),
            NodeScore(name="node3", score=0),
        ],
    ),
    dict(
        name="All the nodes that have the same topology key & label value with one of them has an existing pod that match the affinity rules, have the same score",
        pod=v1_pod({'spec': {'nodeName': "", 'affinity': stay_with_s1_in_region}}),
        pods=[v1_pod({'spec': {'nodeName': "node1"}, 'metadata': {'labels': pod_label_security_s1}})],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_china_az_az1}}),
            v1_node({'metadata': {'name': "node3", 'labels': label_rg_india}}),
        ],
        expected_list=[
            NodeScore(name="node1", score=MAX_NODE_SCORE),
            NodeScore(name="node2", score=MAX_NODE_SCORE),
            NodeScore(name="node3", score=0),
        ],
    ),
    dict(
        name="Affinity: nodes in one region has more matching pods comparing to other region, so the region which has more matches will get high score",
        pod=v1_pod({
            'spec': {'nodeName': "", 'affinity': stay_with_s2_in_region},
            'metadata': {'labels': pod_label_security_s1},
        }),
        pods=[
            v1_pod({'spec': {'nodeName': "node1"}, 'metadata': {'labels': pod_label_security_s2}}),
            v1_pod({'spec': {'nodeName': "node1"}, 'metadata': {'labels': pod_label_security_s2}}),
            v1_pod({'spec': {'nodeName': "node2"}, 'metadata': {'labels': pod_label_security_s2}}),
            v1_pod({'spec': {'nodeName': "node3"}, 'metadata': {'labels': pod_label_security_s2}}),
            v1_pod({'spec': {'nodeName': "node4"}, 'metadata': {'labels': pod_label_security_s2}}),
            v1_pod({'spec': {'nodeName': "node5"}, 'metadata': {'labels': pod_label_security_s2}}),
        ],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_india}}),
            v1_node({'metadata': {'name': "node3", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node4", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node5", 'labels': label_rg_india}}),
        ],
        expected_list=[
            NodeScore(name="node1", score=MAX_NODE_SCORE),
            NodeScore(name="node2", score=0),
            NodeScore(name="node3", score=MAX_NODE_SCORE),
            NodeScore(name="node4", score=MAX_NODE_SCORE),
            NodeScore(name="node5", score=0),
        ],
    ),
    dict(
        name="Affinity: different Label operators and values for pod affinity scheduling preference, including some match failures ",
        pod=v1_pod({
            'spec': {'nodeName': "", 'affinity': affinity3},
            'metadata': {'labels': pod_label_security_s1},
        }),
        pods=[
            v1_pod({'spec': {'nodeName': "node1"}, 'metadata': {'labels': pod_label_security_s1}}),
            v1_pod({'spec': {'nodeName': "node2"}, 'metadata': {'labels': pod_label_security_s2}}),
            v1_pod({'spec': {'nodeName': "node3"}, 'metadata': {'labels': pod_label_security_s1}}),
        ],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_india}}),
            v1_node({'metadata': {'name': "node3", 'labels': label_az_az1}}),
        ],
        expected_list=[
            NodeScore(name="node1", score=20),
            NodeScore(name="node2", score=MAX_NODE_SCORE),
            NodeScore(name="node3", score=0),
        ],
    ),
    dict(
        name="Affinity symmetry: considered only the preferredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry",
        pod=v1_pod({'spec': {'nodeName': ""}, 'metadata': {'labels': pod_label_security_s2}}),
        pods=[
            v1_pod({
                'spec': {'nodeName': "node1", 'affinity': stay_with_s1_in_region},
                'metadata': {'labels': pod_label_security_s1},
            }),
            v1_pod({
                'spec': {'nodeName': "node2", 'affinity': stay_with_s2_in_region},
                'metadata': {'labels': pod_label_security_s2},
            }),
        ],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_india}}),
            v1_node({'metadata': {'name': "node3", 'labels': label_az_az1}}),
        ],
        expected_list=[
            NodeScore(name="node1", score=0),
            NodeScore(name="node2", score=MAX_NODE_SCORE),
            NodeScore(name="node3", score=0),
        ],
    ),
    dict(
        name="Affinity symmetry with namespace selector",
        pod=v1_pod({
            'spec': {'nodeName': ""},
            'metadata': {'namespace': "subteam1.team1", 'labels': pod_label_security_s1},
        }),
        pods=[
            v1_pod({
                'spec': {'nodeName': "node1", 'affinity': affinity_namespace_selector},
                'metadata': {'labels': pod_label_security_s1},
            }),
            v1_pod({
                'spec': {'nodeName': "node2", 'affinity': stay_with_s2_in_region},
                'metadata': {'labels': pod_label_security_s2},
            }),
        ],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_india}}),
            v1_node({'metadata': {'name': "node3", 'labels': label_az_az1}}),
        ],
        expected_list=[
            NodeScore(name="node1", score=MAX_NODE_SCORE),
            NodeScore(name="node2", score=0),
            NodeScore(name="node3", score=0),
        ],
    ),
    dict(
        name="AntiAffinity symmetry with namespace selector",
        pod=v1_pod({
            'spec': {'nodeName': ""},
            'metadata': {'namespace': "subteam1.team1", 'labels': pod_label_security_s1},
        }),
        pods=[
            v1_pod({
                'spec': {'nodeName': "node1", 'affinity': anti_affinity_namespace_selector},
                'metadata': {'labels': pod_label_security_s1},
            }),
            v1_pod({
                'spec': {'nodeName': "node2", 'affinity': stay_with_s2_in_region},
                'metadata': {'labels': pod_label_security_s2},
            }),
        ],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_india}}),
            v1_node({'metadata': {'name': "node3", 'labels': label_az_az1}}),
        ],
        expected_list=[
            NodeScore(name="node1", score=0),
            NodeScore(name="node2", score=MAX_NODE_SCORE),
            NodeScore(name="node3", score=MAX_NODE_SCORE),
        ],
    ),
    dict(
        name="Affinity symmetry: considered RequiredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry",
        pod=v1_pod({'spec': {'nodeName': ""}, 'metadata': {'labels': pod_label_security_s1}}),
        pods=[
            v1_pod({
                'spec': {'nodeName': "node1", 'affinity': hard_affinity},
                'metadata': {'labels': pod_label_security_s1},
            }),
            v1_pod({
                'spec': {'nodeName': "node2", 'affinity': hard_affinity},
                'metadata': {'labels': pod_label_security_s2},
            }),
        ],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_india}}),
            v1_node({'metadata': {'name': "node3", 'labels': label_az_az1}}),
        ],
        expected_list=[
            NodeScore(name="node1", score=MAX_NODE_SCORE),
            NodeScore(name="node2", score=MAX_NODE_SCORE),
            NodeScore(name="node3", score=0),
        ],
    ),
    dict(
        name="Anti Affinity: pod that does not match existing pods in node will get high score ",
        pod=v1_pod({
            'spec': {'nodeName': "", 'affinity': away_from_s1_in_az},
            'metadata': {'labels': pod_label_security_s1},
        }),
        pods=[
            v1_pod({'spec': {'nodeName': "node1"}, 'metadata': {'labels': pod_label_security_s1}}),
            v1_pod({'spec': {'nodeName': "node2"}, 'metadata': {'labels': pod_label_security_s2}}),
        ],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_az_az1}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_china}}),
        ],
        expected_list=[NodeScore(name="node1", score=0), NodeScore(name="node2", score=MAX_NODE_SCORE)],
    ),
    dict(
        name="Anti Affinity: pod that does not match topology key & match the pods in nodes will get higher score comparing to others ",
        pod=v1_pod({
            'spec': {'nodeName': "", 'affinity': away_from_s1_in_az},
            'metadata': {'labels': pod_label_security_s1},
        }),
        pods=[
            v1_pod({'spec': {'nodeName': "node1"}, 'metadata': {'labels': pod_label_security_s1}}),
            v1_pod({'spec': {'nodeName': "node2"}, 'metadata': {'labels': pod_label_security_s1}}),
        ],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_az_az1}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_china}}),
        ],
        expected_list=[NodeScore(name="node1", score=0), NodeScore(name="node2", score=MAX_NODE_SCORE)],
    ),
    dict(
        name="Anti Affinity: one node has more matching pods comparing to other node, so the node which has more unmatches will get high score",
        pod=v1_pod({
            'spec': {'nodeName': "", 'affinity': away_from_s1_in_az},
            'metadata': {'labels': pod_label_security_s1},
        }),
        pods=[
            v1_pod({'spec': {'nodeName': "node1"}, 'metadata': {'labels': pod_label_security_s1}}),
            v1_pod({'spec': {'nodeName': "node1"}, 'metadata': {'labels': pod_label_security_s1}}),
            v1_pod({'spec': {'nodeName': "node2"}, 'metadata': {'labels': pod_label_security_s2}}),
        ],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_az_az1}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_india}}),
        ],
        expected_list=[NodeScore(name="node1", score=0), NodeScore(name="node2", score=MAX_NODE_SCORE)],
    ),
    dict(
        name="Anti Affinity symmetry: the existing pods in node which has anti affinity match will get high score",
        pod=v1_pod({'spec': {'nodeName': ""}, 'metadata': {'labels': pod_label_security_s2}}),
        pods=[
            v1_pod({
                'spec': {'nodeName': "node1", 'affinity': away_from_s2_in_az},
                'metadata': {'labels': pod_label_security_s1},
            }),
            v1_pod({
                'spec': {'nodeName': "node2", 'affinity': away_from_s1_in_az},
                'metadata': {'labels': pod_label_security_s2},
            }),
        ],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_az_az1}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_az_az2}}),
        ],
        expected_list=[NodeScore(name="node1", score=0), NodeScore(name="node2", score=MAX_NODE_SCORE)],
    ),
    dict(
        name="Affinity and Anti Affinity: considered only preferredDuringSchedulingIgnoredDuringExecution in both pod affinity & anti affinity",
        pod=v1_pod({
            'spec': {'nodeName': "", 'affinity': stay_with_s1_in_region_away_from_s2_in_az},
            'metadata': {'labels': pod_label_security_s1},
        }),
        pods=[
            v1_pod({'spec': {'nodeName': "node1"}, 'metadata': {'labels': pod_label_security_s1}}),
            v1_pod({'spec': {'nodeName': "node2"}, 'metadata': {'labels': pod_label_security_s1}}),
        ],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_az_az1}}),
        ],
        expected_list=[NodeScore(name="node1", score=MAX_NODE_SCORE), NodeScore(name="node2", score=0)],
    ),
    dict(
        name="Affinity and Anti Affinity: considering both affinity and anti-affinity, the pod to schedule and existing pods have the same labels",
        pod=v1_pod({
            'spec': {'nodeName': "", 'affinity': stay_with_s1_in_region_away_from_s2_in_az},
            'metadata': {'labels': pod_label_security_s1},
        }),
        pods=[
            v1_pod({'spec': {'nodeName': "node1"}, 'metadata': {'labels': pod_label_security_s1}}),
            v1_pod({'spec': {'nodeName': "node1"}, 'metadata': {'labels': pod_label_security_s1}}),
            v1_pod({'spec': {'nodeName': "node2"}, 'metadata': {'labels': pod_label_security_s1}}),
            v1_pod({'spec': {'nodeName': "node3"}, 'metadata': {'labels': pod_label_security_s1}}),
            v1_pod({'spec': {'nodeName': "node3"}, 'metadata': {'labels': pod_label_security_s1}}),
            v1_pod({'spec': {'nodeName': "node4"}, 'metadata': {'labels': pod_label_security_s1}}),
            v1_pod({'spec': {'nodeName': "node5"}, 'metadata': {'labels': pod_label_security_s1}}),
        ],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_rg_china_az_az1}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_india}}),
            v1_node({'metadata': {'name': "node3", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node4", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node5", 'labels': label_rg_india}}),
        ],
        expected_list=[
            NodeScore(name="node1", score=MAX_NODE_SCORE),
            NodeScore(name="node2", score=0),
            NodeScore(name="node3", score=MAX_NODE_SCORE),
            NodeScore(name="node4", score=MAX_NODE_SCORE),
            NodeScore(name="node5", score=0),
        ],
    ),
    dict(
        name="Affinity and Anti Affinity and symmetry: considered only preferredDuringSchedulingIgnoredDuringExecution in both pod affinity & anti affinity & symmetry",
        pod=v1_pod({
            'spec': {'nodeName': "", 'affinity': stay_with_s1_in_region_away_from_s2_in_az},
            'metadata': {'labels': pod_label_security_s1},
        }),
        pods=[
            v1_pod({'spec': {'nodeName': "node1"}, 'metadata': {'labels': pod_label_security_s1}}),
            v1_pod({'spec': {'nodeName': "node2"}, 'metadata': {'labels': pod_label_security_s2}}),
            v1_pod({'spec': {'nodeName': "node3", 'affinity': stay_with_s1_in_region_away_from_s2_in_az}}),
            v1_pod({'spec': {'nodeName': "node4", 'affinity': away_from_s1_in_az}}),
        ],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_az_az1}}),
            v1_node({'metadata': {'name': "node3", 'labels': label_rg_india}}),
            v1_node({'metadata': {'name': "node4", 'labels': label_az_az2}}),
        ],
        expected_list=[
            NodeScore(name="node1", score=MAX_NODE_SCORE),
            NodeScore(name="node2", score=0),
            NodeScore(name="node3", score=MAX_NODE_SCORE),
            NodeScore(name="node4", score=0),
        ],
    ),
    dict(
        name="Avoid panic when partial nodes in a topology don't have pods with affinity",
        pod=v1_pod({'spec': {'nodeName': ""}, 'metadata': {'labels': pod_label_security_s1}}),
        pods=[
            v1_pod({'spec': {'nodeName': "node1"}, 'metadata': {'labels': pod_label_security_s1}}),
            v1_pod({'spec': {'nodeName': "node2", 'affinity': stay_with_s1_in_region_away_from_s2_in_az}}),
        ],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_china}}),
        ],
        expected_list=[NodeScore(name="node1", score=0), NodeScore(name="node2", score=0)],
    ),
    dict(
        name="invalid Affinity fails PreScore",
        pod=v1_pod({'spec': {'affinity': invalid_affinity_labels}}),
        want_status=Status.new(Code.ERROR, 'Invalid value: "{{.bad-value.}}"'),
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_china}}),
        ],
    ),
    dict(
        name="invalid AntiAffinity fails PreScore",
        pod=v1_pod({'spec': {'affinity': invalid_anti_affinity_labels}}),
        want_status=Status.new(Code.ERROR, 'Invalid value: "{{.bad-value.}}"'),
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_china}}),
        ],
    ),
    dict(
        name="Affinity with pods matching NamespaceSelector",
        pod=v1_pod({
            'spec': {'affinity': affinity_namespace_selector},
            'metadata': {'namespace': "subteam1.team1", 'labels': pod_label_security_s1},
        }),
        pods=[
            v1_pod({
                'spec': {'nodeName': "node1"},
                'metadata': {'namespace': "subteam1.team1", 'labels': pod_label_security_s1},
            }),
            v1_pod({
                'spec': {'nodeName': "node1"},
                'metadata': {'namespace': "subteam1.team1", 'labels': pod_label_security_s1},
            }),
            v1_pod({
                'spec': {'nodeName': "node1"},
                'metadata': {'namespace': "subteam1.team2", 'labels': pod_label_security_s1},
            }),
            v1_pod({
                'spec': {'nodeName': "node2"},
                'metadata': {'namespace': "subteam2.team1", 'labels': pod_label_security_s1},
            }),
        ],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_india}}),
        ],
        expected_list=[NodeScore(name="node1", score=MAX_NODE_SCORE), NodeScore(name="node2", score=0)],
    ),
    dict(
        name="Affinity with pods matching both NamespaceSelector and Namespaces fields",
        pod=v1_pod({
            'spec': {'affinity': affinity_namespace_selector},
            'metadata': {'namespace': "subteam1.team1", 'labels': pod_label_security_s1},
        }),
        pods=[
            v1_pod({
                'spec': {'nodeName': "node1"},
                'metadata': {'namespace': "subteam1.team1", 'labels': pod_label_security_s1},
            }),
            v1_pod({
                'spec': {'nodeName': "node1"},
                'metadata': {'namespace': "subteam1.team1", 'labels': pod_label_security_s1},
            }),
            v1_pod({
                'spec': {'nodeName': "node1"},
                'metadata': {'namespace': "subteam2.team2", 'labels': pod_label_security_s1},
            }),
            v1_pod({
                'spec': {'nodeName': "node2"},
                'metadata': {'namespace': "subteam2.team1", 'labels': pod_label_security_s1},
            }),
        ],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_india}}),
        ],
        expected_list=[NodeScore(name="node1", score=MAX_NODE_SCORE), NodeScore(name="node2", score=0)],
    ),
    dict(
        name="Affinity with pods matching NamespaceSelector",
        pod=v1_pod({
            'spec': {'affinity': anti_affinity_namespace_selector},
            'metadata': {'namespace': "subteam1.team1", 'labels': pod_label_security_s1},
        }),
        pods=[
            v1_pod({
                'spec': {'nodeName': "node1"},
                'metadata': {'namespace': "subteam1.team1", 'labels': pod_label_security_s1},
            }),
            v1_pod({
                'spec': {'nodeName': "node1"},
                'metadata': {'namespace': "subteam1.team1", 'labels': pod_label_security_s1},
            }),
            v1_pod({
                'spec': {'nodeName': "node1"},
                'metadata': {'namespace': "subteam1.team2", 'labels': pod_label_security_s1},
            }),
            v1_pod({
                'spec': {'nodeName': "node2"},
                'metadata': {'namespace': "subteam2.team1", 'labels': pod_label_security_s1},
            }),
        ],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_india}}),
        ],
        expected_list=[NodeScore(name="node1", score=0), NodeScore(name="node2", score=MAX_NODE_SCORE)],
    ),
    dict(
        name="Affinity with pods matching both NamespaceSelector and Namespaces fields",
        pod=v1_pod({
            'spec': {'affinity': anti_affinity_namespace_selector},
            'metadata': {'namespace': "subteam1.team1", 'labels': pod_label_security_s1},
        }),
        pods=[
            v1_pod({
                'spec': {'nodeName': "node1"},
                'metadata': {'namespace': "subteam1.team1", 'labels': pod_label_security_s1},
            }),
            v1_pod({
                'spec': {'nodeName': "node1"},
                'metadata': {'namespace': "subteam1.team1", 'labels': pod_label_security_s1},
            }),
            v1_pod({
                'spec': {'nodeName': "node1"},
                'metadata': {'namespace': "subteam2.team2", 'labels': pod_label_security_s1},
            }),
            v1_pod({
                'spec': {'nodeName': "node2"},
                'metadata': {'namespace': "subteam2.team1", 'labels': pod_label_security_s1},
            }),
        ],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_india}}),
        ],
        expected_list=[NodeScore(name="node1", score=0), NodeScore(name="node2", score=MAX_NODE_SCORE)],
    ),
    dict(
        name="Affinity with pods correctly enforcing negative NamespaceSelector",
        pod=v1_pod({
            'spec': {'affinity': affinity_negative_namespace_selector},
            'metadata': {'namespace': "subteam1.team1", 'labels': pod_label_security_s1},
        }),
        pods=[
            v1_pod({
                'spec': {'nodeName': "node1"},
                'metadata': {'namespace': "subteam1.team1", 'labels': pod_label_security_s1},
            }),
            v1_pod({
                'spec': {'nodeName': "node1"},
                'metadata': {'namespace': "subteam1.team1", 'labels': pod_label_security_s1},
            }),
            v1_pod({
                'spec': {'nodeName': "node2"},
                'metadata': {'namespace': "subteam1.team2", 'labels': pod_label_security_s1},
            }),
        ],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_india}}),
        ],
        expected_list=[NodeScore(name="node1", score=0), NodeScore(name="node2", score=MAX_NODE_SCORE)],
    ),
    dict(
        name="AntiAffinity with pods correctly enforcing negative NamespaceSelector",
        pod=v1_pod({
            'spec': {'affinity': anti_affinity_negative_namespace_selector},
            'metadata': {'namespace': "subteam1.team1", 'labels': pod_label_security_s1},
        }),
        pods=[
            v1_pod({
                'spec': {'nodeName': "node1"},
                'metadata': {'namespace': "subteam1.team1", 'labels': pod_label_security_s1},
            }),
            v1_pod({
                'spec': {'nodeName': "node1"},
                'metadata': {'namespace': "subteam1.team1", 'labels': pod_label_security_s1},
            }),
            v1_pod({
                'spec': {'nodeName': "node2"},
                'metadata': {'namespace': "subteam1.team2", 'labels': pod_label_security_s1},
            }),
        ],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_india}}),
        ],
        expected_list=[NodeScore(name="node1", score=MAX_NODE_SCORE), NodeScore(name="node2", score=0)],
    ),
    dict(
        name="Ignore preferred terms of existing pods",
        pod=v1_pod({'spec': {'nodeName': ""}, 'metadata': {'labels': pod_label_security_s2}}),
        pods=[
            v1_pod({
                'spec': {'nodeName': "node1", 'affinity': stay_with_s1_in_region_away_from_s2_in_az},
                'metadata': {'labels': pod_label_security_s1},
            }),
            v1_pod({
                'spec': {'nodeName': "node2", 'affinity': stay_with_s2_in_region},
                'metadata': {'labels': pod_label_security_s2},
            }),
        ],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_india}}),
        ],
        expected_list=[NodeScore(name="node1", score=0), NodeScore(name="node2", score=0)],
        want_status=Status.new(Code.SKIP),
        ignore_preferred_terms_of_existing_pods=True,
    ),
    dict(
        name="Do not ignore preferred terms of existing pods",
        pod=v1_pod({'spec': {'nodeName': ""}, 'metadata': {'labels': pod_label_security_s2}}),
        pods=[
            v1_pod({
                'spec': {'nodeName': "node1", 'affinity': stay_with_s1_in_region_away_from_s2_in_az},
                'metadata': {'labels': pod_label_security_s1},
            }),
            v1_pod({
                'spec': {'nodeName': "node2", 'affinity': stay_with_s2_in_region},
                'metadata': {'labels': pod_label_security_s2},
            }),
        ],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_india}}),
        ],
        expected_list=[NodeScore(name="node1", score=0), NodeScore(name="node2", score=MAX_NODE_SCORE)],
        ignore_preferred_terms_of_existing_pods=False,
    ),
    dict(
        name="No nodes to score",
        pod=v1_pod({'spec': {'nodeName': ""}, 'metadata': {'labels': pod_label_security_s2}}),
        pods=[],
        nodes=[],
        want_status=Status.new(Code.SKIP),
    ),
]


@pytest.mark.parametrize("test", PREFERRED_CASES, ids=[c["name"] for c in PREFERRED_CASES])
def test_preferred_affinity(test):
    args = InterPodAffinityArgs(hard_pod_affinity_weight=1, ignore_preferred_terms_of_existing_pods=test.get(
        "ignore_preferred_terms_of_existing_pods", False))
    nodes = test.get("nodes") or []
    p = InterPodAffinity.new(args, SnapshotHandle(test.get("pods"), nodes, namespaces=namespaces))
    state = CycleState()
    infos = [NodeInfo.of(n) for n in nodes]
    status = p.pre_score(state, test["pod"], infos)
    if not status.is_success():
        want = test["want_status"]
        assert status.code is want.code and want.message() in status.message()
        return
    assert _scores(p, state, test["pod"], infos) == test["expected_list"]


# --- TestPreferredAffinityWithHardPodAffinitySymmetricWeight -----------------------------------

pod_label_service_s1 = {"service": "S1"}
label_rg_china = {"region": "China"}
_BAD_SECURITY = {'matchExpressions': [{'key': "security", 'operator': "In", 'values': ["{{.bad-value.}}"]}]}
invalid_affinity_labels = {'podAffinity': {'preferredDuringSchedulingIgnoredDuringExecution': [
    {'weight': 8, 'podAffinityTerm': {'labelSelector': _BAD_SECURITY, 'topologyKey': "region"}}]}}
invalid_anti_affinity_labels = {'podAntiAffinity': {'preferredDuringSchedulingIgnoredDuringExecution': [
    {'weight': 5, 'podAffinityTerm': {'labelSelector': _BAD_SECURITY, 'topologyKey': "az"}}]}}
label_rg_india = {"region": "India"}
label_az_az1 = {"az": "az1"}
hard_pod_affinity = {
    'podAffinity': {
        'requiredDuringSchedulingIgnoredDuringExecution': [
            {
                'labelSelector': {'matchExpressions': [{'key': "service", 'operator': "In", 'values': ["S1"]}]},
                'namespaces': ["", "subteam2.team2"],
                'namespaceSelector': {'matchExpressions': [{'key': "team", 'operator': "In", 'values': ["team1"]}]},
                'topologyKey': "region",
            },
        ],
    },
}

HARD_WEIGHT_CASES = [
    dict(
        name="with default weight",
        pod=v1_pod({'metadata': {'labels': pod_label_service_s1}}),
        pods=[
            v1_pod({'spec': {'nodeName': "node1", 'affinity': hard_pod_affinity}}),
            v1_pod({'spec': {'nodeName': "node2", 'affinity': hard_pod_affinity}}),
        ],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_india}}),
            v1_node({'metadata': {'name': "node3", 'labels': label_az_az1}}),
        ],
        hard_pod_affinity_weight=1,
        expected_list=[
            NodeScore(name="node1", score=MAX_NODE_SCORE),
            NodeScore(name="node2", score=MAX_NODE_SCORE),
            NodeScore(name="node3", score=0),
        ],
    ),
    dict(
        name="with zero weight",
        pod=v1_pod({'metadata': {'labels': pod_label_service_s1}}),
        pods=[
            v1_pod({'spec': {'nodeName': "node1", 'affinity': hard_pod_affinity}}),
            v1_pod({'spec': {'nodeName': "node2", 'affinity': hard_pod_affinity}}),
        ],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_india}}),
            v1_node({'metadata': {'name': "node3", 'labels': label_az_az1}}),
        ],
        hard_pod_affinity_weight=0,
        want_status=Status.new(Code.SKIP),
    ),
    dict(
        name="with no matching namespace",
        pod=v1_pod({'metadata': {'namespace': "subteam1.team2", 'labels': pod_label_service_s1}}),
        pods=[
            v1_pod({'spec': {'nodeName': "node1", 'affinity': hard_pod_affinity}}),
            v1_pod({'spec': {'nodeName': "node2", 'affinity': hard_pod_affinity}}),
        ],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_india}}),
            v1_node({'metadata': {'name': "node3", 'labels': label_az_az1}}),
        ],
        hard_pod_affinity_weight=1,
        want_status=Status.new(Code.SKIP),
    ),
    dict(
        name="with matching NamespaceSelector",
        pod=v1_pod({'metadata': {'namespace': "subteam1.team1", 'labels': pod_label_service_s1}}),
        pods=[
            v1_pod({'spec': {'nodeName': "node1", 'affinity': hard_pod_affinity}}),
            v1_pod({'spec': {'nodeName': "node2", 'affinity': hard_pod_affinity}}),
        ],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_india}}),
            v1_node({'metadata': {'name': "node3", 'labels': label_az_az1}}),
        ],
        hard_pod_affinity_weight=1,
        expected_list=[
            NodeScore(name="node1", score=MAX_NODE_SCORE),
            NodeScore(name="node2", score=MAX_NODE_SCORE),
            NodeScore(name="node3", score=0),
        ],
    ),
    dict(
        name="with matching Namespaces",
        pod=v1_pod({'metadata': {'namespace': "subteam2.team2", 'labels': pod_label_service_s1}}),
        pods=[
            v1_pod({'spec': {'nodeName': "node1", 'affinity': hard_pod_affinity}}),
            v1_pod({'spec': {'nodeName': "node2", 'affinity': hard_pod_affinity}}),
        ],
        nodes=[
            v1_node({'metadata': {'name': "node1", 'labels': label_rg_china}}),
            v1_node({'metadata': {'name': "node2", 'labels': label_rg_india}}),
            v1_node({'metadata': {'name': "node3", 'labels': label_az_az1}}),
        ],
        hard_pod_affinity_weight=1,
        expected_list=[
            NodeScore(name="node1", score=MAX_NODE_SCORE),
            NodeScore(name="node2", score=MAX_NODE_SCORE),
            NodeScore(name="node3", score=0),
        ],
    ),
]


@pytest.mark.parametrize("test", HARD_WEIGHT_CASES, ids=[c["name"] for c in HARD_WEIGHT_CASES])
def test_preferred_affinity_with_hard_pod_affinity_symmetric_weight(test):
    args = InterPodAffinityArgs(hard_pod_affinity_weight=test["hard_pod_affinity_weight"])
    handle = SnapshotHandle(test.get("pods"), test["nodes"], namespaces=namespaces)
    p = InterPodAffinity.new(args, handle)
    state = CycleState()
    status = p.pre_score(state, test["pod"], [NodeInfo.of(n) for n in test["nodes"]])
    assert status == (test.get("want_status") or SUCCESS)
    if not status.is_success():
        return
    assert _scores(p, state, test["pod"], [handle.get(n.name) for n in test["nodes"]]) == test["expected_list"]


# --- beyond the upstream tables ----------------------------------------------------------------

def test_score_without_pre_score_is_an_error():
    p = InterPodAffinity.new(InterPodAffinityArgs(), SnapshotHandle())
    _, status = p.score(CycleState(), v1_pod({}), NodeInfo.of(make_node().name("a").obj()))
    assert status.code is Code.ERROR
    assert status.message() == f'failed to read "{PRE_SCORE_STATE_KEY}" from cycleState: not found'


def test_normalize_spreads_negative_scores_over_the_full_range():
    """min/max start at the int64 extremes: all-negative scores still span 0..100."""
    nodes = [make_node().name(n).label("zone", n).obj() for n in ("a", "b", "c")]
    pods = [make_pod().name("x").node("a").label("app", "db").obj(),
            make_pod().name("y").node("a").label("app", "db").obj(),
            make_pod().name("z").node("b").label("app", "db").obj()]
    handle = SnapshotHandle(pods, nodes)
    pod = make_pod().name("p").pod_anti_affinity_exists("app", "zone", "preferred").obj()
    p = InterPodAffinity.new(InterPodAffinityArgs(), handle)
    state = CycleState()
    assert p.pre_score(state, pod, handle.node_infos()).is_success()
    assert _scores(p, state, pod, handle.node_infos()) == [
        NodeScore("a", 0), NodeScore("b", 50), NodeScore("c", MAX_NODE_SCORE)]
    _ = (Status, v1_node)
