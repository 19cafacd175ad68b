"""Event derivation and matching, against pkg/scheduler/framework/events.go and types.go (v1.37.2)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from reference.events import (ASSIGNED_POD, NODE, POD, TARGET_POD, UNSCHEDULED_POD, WILDCARD, ActionType,
                              ClusterEvent)
from reference.framework.cluster_events import (match_cluster_events, node_scheduling_properties_change,
                                                pod_scheduling_properties_change)
from reference.types import Taint, Toleration
from tests.builders import node, pod

A = ActionType
BASE_NODE = node("n", allocatable={"cpu": 1000}, labels={"a": "1"})
BASE_POD = pod("p", requests=[{"cpu": 500}], labels={"a": "1"}, scheduling_gates=("g",))


@pytest.mark.parametrize("change,want", [
    ({}, []),
    ({"labels": {"a": "2"}}, [A.UPDATE_NODE_LABEL]),
    ({"allocatable": {"cpu": 2000}}, [A.UPDATE_NODE_ALLOCATABLE]),
    ({"taints": (Taint("k", "NoSchedule"),)}, [A.UPDATE_NODE_TAINT]),
    ({"annotations": {"x": "y"}}, [A.UPDATE_NODE_ANNOTATION]),
    ({"unschedulable": True}, []),  # becoming unschedulable cannot help a pod
    ({"labels": {}, "allocatable": {}}, [A.UPDATE_NODE_ALLOCATABLE, A.UPDATE_NODE_LABEL]),
], ids=["nothing", "label", "allocatable", "taint", "annotation", "cordon", "two"])
def test_node_update_events(change, want) -> None:
    got = node_scheduling_properties_change(replace(BASE_NODE, **change), BASE_NODE)
    assert got == [ClusterEvent(NODE, a) for a in want]


def test_uncordon_is_a_taint_update() -> None:
    cordoned = replace(BASE_NODE, unschedulable=True)
    assert node_scheduling_properties_change(BASE_NODE, cordoned) == [ClusterEvent(NODE, A.UPDATE_NODE_TAINT)]


@pytest.mark.parametrize("change,want", [
    ({}, [A.UPDATE]),
    ({"labels": {}}, [A.UPDATE_POD_LABEL]),
    ({"containers": pod("p", requests=[{"cpu": 100}]).containers}, [A.UPDATE_POD_SCALE_DOWN]),
    ({"containers": pod("p", requests=[{"cpu": 900}]).containers}, [A.UPDATE_POD_SCALE_UP]),
    ({"scheduling_gates": ()}, [A.UPDATE_POD_SCHEDULING_GATES_ELIMINATED]),
    ({"tolerations": (Toleration("k", "Exists"),)}, [A.UPDATE_POD_TOLERATION]),
    ({"labels": {}, "tolerations": (Toleration("k", "Exists"),)}, [A.UPDATE_POD_LABEL, A.UPDATE_POD_TOLERATION]),
], ids=["generic", "label", "scale-down", "scale-up", "gates-eliminated", "toleration", "two"])
def test_pod_update_events(change, want) -> None:
    new = replace(BASE_POD, **change)
    assert pod_scheduling_properties_change(new, BASE_POD, True) == [ClusterEvent(TARGET_POD, a) for a in want]
    assert pod_scheduling_properties_change(new, BASE_POD, False)[0].resource == UNSCHEDULED_POD
    bound = replace(new, node_name="n")
    assert pod_scheduling_properties_change(bound, BASE_POD, True)[0].resource == ASSIGNED_POD


@pytest.mark.parametrize("registered,incoming,want", [
    (ClusterEvent(NODE, A.UPDATE), ClusterEvent(NODE, A.UPDATE_NODE_LABEL), True),
    (ClusterEvent(NODE, A.UPDATE_NODE_LABEL), ClusterEvent(NODE, A.UPDATE), False),
    (ClusterEvent(NODE, A.ADD | A.UPDATE_NODE_LABEL), ClusterEvent(NODE, A.ADD), True),
    (ClusterEvent(NODE, A.ADD), ClusterEvent(ASSIGNED_POD, A.ADD), False),
    (ClusterEvent(POD, A.DELETE), ClusterEvent(ASSIGNED_POD, A.DELETE), True),
    (ClusterEvent(WILDCARD, A.ALL), ClusterEvent(NODE, A.ADD), True),
    (ClusterEvent(NODE, A.ALL), ClusterEvent(WILDCARD, A.ALL), False),
    (ClusterEvent(TARGET_POD, A.ALL), ClusterEvent(TARGET_POD, A.UPDATE), True),
    (ClusterEvent(TARGET_POD, A.UPDATE_POD_SCALE_DOWN), ClusterEvent(TARGET_POD, A.UPDATE), False),
], ids=["update-matches-label", "label-not-update", "add-of-two", "other-resource", "pod-matches-assigned",
        "wildcard-registration", "wildcard-incoming", "all-matches-update", "specific-not-generic"])
def test_match_cluster_events(registered, incoming, want) -> None:
    assert match_cluster_events(registered, incoming) is want
