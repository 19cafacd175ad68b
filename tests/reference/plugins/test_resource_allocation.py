"""Ports noderesources/resource_allocation_test.go: TestResourceAllocationScorerCalculateRequests (all
8 rows) and the two device-plugin rows of TestCalculateResourceAllocatableRequest.

Left out: the 7 DRA-backed rows of TestCalculateResourceAllocatableRequest, TestDeviceMatchCaching,
TestNodeMatchCaching, TestNodeMatchesCacheHit and the benchmarks (DeviceClasses, ResourceSlices,
ResourceClaims and the CEL caches are not modelled).
"""

import pytest

from reference.nodeinfo import NodeInfo
from reference.plugins.resource_allocation import ResourceAllocationScorer, is_best_effort
from reference.plugins.resource_args import ResourceSpec
from reference.resources import DEFAULT_MEMORY_REQUEST, DEFAULT_MILLI_CPU_REQUEST
from reference.types import Container, Node, Pod

ONE_MI = 1048576
CPU1_MI1 = {"cpu": 1000, "memory": ONE_MI}

CALCULATE_REQUESTS = [
    ("overhead only", Pod(name="p", overhead=CPU1_MI1), {"cpu": 1000, "memory": ONE_MI}),
    ("1x requestless container", Pod(name="p", containers=(Container(""),)),
     {"cpu": DEFAULT_MILLI_CPU_REQUEST, "memory": DEFAULT_MEMORY_REQUEST}),
    ("2x requestless container", Pod(name="p", containers=(Container(""), Container(""))),
     {"cpu": 2 * DEFAULT_MILLI_CPU_REQUEST, "memory": 2 * DEFAULT_MEMORY_REQUEST}),
    ("request container + requestless container",
     Pod(name="p", containers=(Container("", requests=CPU1_MI1), Container(""))),
     {"cpu": 1000 + DEFAULT_MILLI_CPU_REQUEST, "memory": ONE_MI + DEFAULT_MEMORY_REQUEST}),
    ("container + requestless container + overhead",
     Pod(name="p", overhead=CPU1_MI1, containers=(Container("", requests=CPU1_MI1), Container(""))),
     {"cpu": 2000 + DEFAULT_MILLI_CPU_REQUEST, "memory": 2 * ONE_MI + DEFAULT_MEMORY_REQUEST}),
    ("init container + container + requestless container + overhead",
     Pod(name="p", overhead=CPU1_MI1, init_containers=(Container("", requests={"cpu": 3000}),),
         containers=(Container("", requests=CPU1_MI1), Container(""))),
     {"cpu": 4000, "memory": 2 * ONE_MI + DEFAULT_MEMORY_REQUEST}),
    ("requestless init container + small init container + small container ",
     Pod(name="p", init_containers=(Container(""), Container("", requests={"cpu": 1, "memory": 1})),
         containers=(Container("", requests={"cpu": 3, "memory": 3}),)),
     {"cpu": DEFAULT_MILLI_CPU_REQUEST, "memory": DEFAULT_MEMORY_REQUEST}),
    ("requestless init container + small init container + small container + requestless container ",
     Pod(name="p", init_containers=(Container(""), Container("", requests={"cpu": 1, "memory": 1})),
         containers=(Container("", requests={"cpu": 3, "memory": 3}), Container(""))),
     {"cpu": 3 + DEFAULT_MILLI_CPU_REQUEST, "memory": 3 + DEFAULT_MEMORY_REQUEST}),
]


@pytest.mark.parametrize("pod,expected", [c[1:] for c in CALCULATE_REQUESTS], ids=[c[0] for c in CALCULATE_REQUESTS])
def test_resource_allocation_scorer_calculate_requests(pod, expected):
    scorer = ResourceAllocationScorer("", lambda *_: 0, ())
    assert {name: scorer.pod_resource_request(pod, name) for name in expected} == expected


EXPLICIT = "extended.resource.dra.io/something"
ALLOCATABLE_REQUEST = [
    ("device-plugin-resource-feature-disabled", EXPLICIT, (4, 0)),
    ("device-plugin-resource-feature-enabled", EXPLICIT, (4, 0)),
]


@pytest.mark.parametrize("resource,expected", [c[1:] for c in ALLOCATABLE_REQUEST],
                         ids=[c[0] for c in ALLOCATABLE_REQUEST])
def test_calculate_resource_allocatable_request(resource, expected):
    alloc = {"pods": 32, EXPLICIT: 4}
    node_info = NodeInfo.of(Node(name="resource-node", capacity=alloc, allocatable=alloc))
    scorer = ResourceAllocationScorer("", lambda *_: 0, ())
    assert scorer.resource_allocatable_request(node_info, resource) == expected


def test_pods_and_unlisted_resources_are_left_out():
    """The default branch only reads scalar resources: "pods" (though allocatable) and a scalar
    the node does not list both give (0, 0), so node_allocatable_request drops them."""
    alloc = {"pods": 32, "cpu": 4000, "memory": 1000}
    node_info = NodeInfo.of(Node(name="n", capacity=alloc, allocatable=alloc),
                            [Pod(name="e", node_name="n", containers=(Container("c", requests={"cpu": 1000}),))])
    scorer = ResourceAllocationScorer(
        "", lambda *_: 0, (ResourceSpec("pods"), ResourceSpec("example.com/x"), ResourceSpec("cpu")))
    assert scorer.resource_allocatable_request(node_info, "pods") == (0, 0)
    assert scorer.resource_allocatable_request(node_info, "example.com/x") == (0, 0)
    assert scorer.node_allocatable_request(node_info, [1, 1, 500]) == ([0, 0, 1500], [0, 0, 1000], [0, 0, 4000])


def test_non_zero_vs_requested_node_totals():
    """useRequested picks NodeInfo.Requested; otherwise NonZeroRequested (100m for a requestless pod)."""
    alloc = {"cpu": 4000, "memory": 10 * ONE_MI * 1024}
    node_info = NodeInfo.of(Node(name="n", capacity=alloc, allocatable=alloc),
                            [Pod(name="e", node_name="n", containers=(Container("c"),))])
    assert ResourceAllocationScorer("", lambda *_: 0, ()).resource_allocatable_request(node_info, "cpu") == (4000, 100)
    assert ResourceAllocationScorer("", lambda *_: 0, (), use_requested=True).resource_allocatable_request(
        node_info, "cpu") == (4000, 0)


@pytest.mark.parametrize("requests,want", [([0, 0], True), ([0, 1], False), ([], True)])
def test_is_best_effort(requests, want):
    assert is_best_effort(requests) is want


def test_ephemeral_storage_uses_actual_requests_even_for_non_zero_scoring():
    """calculateResourceAllocatableRequest reads Requested for ephemeral-storage whatever
    useRequested says (NonZeroRequested only tracks cpu and memory)."""
    alloc = {"ephemeral-storage": 1000}
    node_info = NodeInfo.of(Node(name="n", capacity=alloc, allocatable=alloc),
                            [Pod(name="e", node_name="n", containers=(Container("c", requests={"ephemeral-storage": 300}),))])
    scorer = ResourceAllocationScorer("", lambda *_: 0, ())
    assert scorer.resource_allocatable_request(node_info, "ephemeral-storage") == (1000, 300)
