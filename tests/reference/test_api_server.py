"""ClusterStore.bind is the API server's pods/binding (pkg/registry/core/pod/storage/storage.go,
BindingREST.setPodNodeAndMetadata and assignPod in v1.37.2): what it refuses, in its words."""

from __future__ import annotations

import pytest

from reference.scheduler.api_server import ClusterStore
from tests.builders import node, pod


def store_with(*pods) -> ClusterStore:
    store = ClusterStore(nodes={"node-0": node("node-0")})
    for p in pods:
        store.pods[p.effective_uid] = p
    return store


def test_binding_sets_the_node_and_clears_the_nomination():
    """ClearingNominatedNodeNameAfterBinding is beta and on by default since 1.35 (kube_features.go)."""
    store = store_with(pod("p", nominated_node_name="node-1"))
    bound = []
    store.on_pod_bound = bound.append
    assert store.bind(pod("p"), "node-0") is None
    assert (store.pods["p"].node_name, store.pods["p"].nominated_node_name) == ("node-0", "")
    assert bound == [store.pods["p"]] and store.bind_count == {"p": 1}


def test_the_api_server_does_not_look_the_node_up():
    store = store_with(pod("p"))
    assert store.bind(pod("p"), "no-such-node") is None
    assert store.pods["p"].node_name == "no-such-node"


@pytest.mark.parametrize("stored, error", [
    (pod("p", node_name="node-1"), 'Operation cannot be fulfilled on pods/binding "p": '
                                   'pod p is already assigned to node "node-1"'),
    (pod("p", deletion_timestamp="2026-01-01T00:00:00Z"),
     'Operation cannot be fulfilled on pods/binding "p": pod p is being deleted, cannot be assigned to a host'),
    (pod("p", scheduling_gates=("g",)), 'Operation cannot be fulfilled on pods/binding "p": '
                                         'pod p has non-empty .spec.schedulingGates'),
], ids=["already-assigned", "being-deleted", "gated"])
def test_refusals_are_conflicts_in_upstream_words(stored, error):
    store = store_with(stored)
    assert store.bind(pod("p", namespace="team"), "node-0") == error
    assert store.bind_count == {}


def test_a_missing_pod_is_not_found():
    assert store_with().bind(pod("p"), "node-0") == 'pods "p" not found'
