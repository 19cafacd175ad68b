"""Ports noderesources/most_allocated_test.go (TestMostAllocatedScoringStrategy, all 14 rows) and
TestValidateMostAllocatedScoringStrategy from apis/config/validation/validation_pluginargs_test.go."""

import pytest

from reference.errors import ConfigError
from reference.interfaces import MIN_NODE_SCORE
from reference.plugins.node_resources_fit import NodeResourcesFit
from reference.plugins.node_resources_fit_args import MOST_ALLOCATED, NodeResourcesFitArgs, ScoringStrategy
from reference.plugins.resource_args import ResourceSpec
from reference.plugins.resource_strategies import most_requested_score
from reference.status import Code
from reference.types import Container, Pod
from tests.builders import st_nodes, st_pod
from tests.reference.plugins._noderesources import run_scores

EXTENDED = "abc.com/xyz"
DEFAULT = (ResourceSpec("cpu", 1), ResourceSpec("memory", 1))
EXTENDED_SET = (*DEFAULT, ResourceSpec(EXTENDED, 1))
TWO = ({"cpu": "1000", "memory": "2000"}, {"cpu": "2000", "memory": "3000"})


def no_request_pod(name="p", node=""):
    """`st.MakePod().Container("container")`: one container without requests."""
    return Pod(name=name, uid=name, node_name=node, containers=(Container("con0", image="container"),))


N4_10 = {"cpu": "4000", "memory": "10000"}
N6_10 = {"cpu": "6000", "memory": "10000"}
N10_20 = {"cpu": "10000", "memory": "20000"}

CASES = [
    ("nothing scheduled, nothing requested", st_pod(), st_nodes(N4_10, N4_10), [], DEFAULT,
     [MIN_NODE_SCORE, MIN_NODE_SCORE], Code.SUCCESS),
    ("nothing scheduled, resources requested, differently sized nodes", st_pod(*TWO), st_nodes(N4_10, N6_10), [],
     DEFAULT, [62, 50], Code.SUCCESS),
    ("Resources not set, pods scheduled with error", st_pod(*TWO), st_nodes(N4_10, N6_10), [], (),
     [MIN_NODE_SCORE, MIN_NODE_SCORE], Code.ERROR),
    ("no resources requested, pods scheduled with resources", st_pod(), st_nodes(N10_20, N10_20),
     [st_pod({"cpu": "3000", "memory": "0"}, node="node1"), st_pod({"cpu": "3000", "memory": "0"}, node="node1"),
      st_pod({"cpu": "3000", "memory": "0"}, node="node2"), st_pod({"cpu": "3000", "memory": "5000"}, node="node2")],
     DEFAULT, [30, 42], Code.SUCCESS),
    ("resources requested, pods scheduled with resources", st_pod(*TWO), st_nodes(N10_20, N10_20),
     [st_pod({"cpu": "3000", "memory": "0"}, node="node1"), st_pod({"cpu": "3000", "memory": "5000"}, node="node2")],
     DEFAULT, [42, 55], Code.SUCCESS),
    ("resources requested equal node capacity",
     st_pod({"cpu": "2000", "memory": "4000"}, {"cpu": "3000", "memory": "5000"}),
     st_nodes({"cpu": "5000", "memory": "10000"}, {"cpu": "10000", "memory": "9000"}), [], DEFAULT, [95, 75],
     Code.SUCCESS),
    ("nothing scheduled, resources requested, differently sized nodes (memory weight 2)", st_pod(*TWO),
     st_nodes(N4_10, N6_10), [], (ResourceSpec("memory", 2), ResourceSpec("cpu", 1)), [58, 50], Code.SUCCESS),
    ("no resources requested, pods scheduled, nonzero request for resource", no_request_pod(),
     st_nodes({"cpu": "250m", "memory": "1000Mi"}, {"cpu": "250m", "memory": "1000Mi"}),
     [no_request_pod("e1", "node1"), no_request_pod("e2", "node1")], DEFAULT, [80, 30], Code.SUCCESS),
    ("bypass extended resource if the pod does not request", st_pod(*TWO),
     st_nodes({"cpu": "6000", "memory": "10000"}, {"cpu": "6000", "memory": "10000", EXTENDED: "4"}), [], EXTENDED_SET,
     [50, 50], Code.SUCCESS),
    ("honor extended resource if the pod request", st_pod({"cpu": "3000", "memory": "5000", EXTENDED: "2"}, node="node1"),
     st_nodes({"cpu": "6000", "memory": "10000", EXTENDED: "4"}, {"cpu": "6000", "memory": "10000", EXTENDED: "10"}), [],
     EXTENDED_SET, [50, 40], Code.SUCCESS),
    ("if the node doesn't have a resource", st_pod({"cpu": "3000", "memory": "4000"}, node="node1"),
     st_nodes({"cpu": "6000", "memory": "10000"}, {"cpu": "6000", "memory": "10000", EXTENDED: "4"}), [],
     (ResourceSpec(EXTENDED, 2), ResourceSpec("cpu", 1), ResourceSpec("memory", 1)), [45, 45], Code.SUCCESS),
]


@pytest.mark.parametrize("pod,node_list,existing,resources,want,want_code", [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_most_allocated_scoring_strategy(pod, node_list, existing, resources, want, want_code):
    results = run_scores(ScoringStrategy(MOST_ALLOCATED, resources), pod, node_list, existing)
    assert [status.code for _, status in results] == [want_code] * len(node_list)
    assert [score for score, _ in results] == want


WEIGHT_ERRORS = [
    ("resource with negative weight", (ResourceSpec("memory", -1), ResourceSpec("cpu", 1)),
     "scoringStrategy.resources[0].weight"),
    ("resource with zero weight", (ResourceSpec("memory", 1), ResourceSpec("cpu", 0)),
     "scoringStrategy.resources[1].weight"),
    ("resource weight larger than MaxNodeScore", (ResourceSpec("memory", 101),),
     "scoringStrategy.resources[0].weight"),
]


@pytest.mark.parametrize("resources,field", [c[1:] for c in WEIGHT_ERRORS], ids=[c[0] for c in WEIGHT_ERRORS])
def test_most_allocated_new_fit_rejects_weight(resources, field):
    with pytest.raises(ConfigError) as err:
        NodeResourcesFit.new(NodeResourcesFitArgs(scoring_strategy=ScoringStrategy(MOST_ALLOCATED, resources)), None)
    assert err.value.field == field
    assert err.value.message.startswith("Invalid value: ")


VALIDATE = [
    ("default config", (), None),
    ("multi valid resources", (ResourceSpec("cpu", 1), ResourceSpec("memory", 10)), None),
    ("weight less than min", (ResourceSpec("cpu", 0),), ["scoringStrategy.resources[0].weight"]),
    ("weight greater than max", (ResourceSpec("cpu", 101),), ["scoringStrategy.resources[0].weight"]),
    ("multi invalid resources", (ResourceSpec("cpu", 0), ResourceSpec("memory", 101)),
     ["scoringStrategy.resources[0].weight", "scoringStrategy.resources[1].weight"]),
]


@pytest.mark.parametrize("resources,want_fields", [c[1:] for c in VALIDATE], ids=[c[0] for c in VALIDATE])
def test_validate_most_allocated_scoring_strategy(resources, want_fields):
    args = NodeResourcesFitArgs(scoring_strategy=ScoringStrategy(MOST_ALLOCATED, resources))
    if want_fields is None:
        NodeResourcesFit.new(args, None)
        return
    with pytest.raises(ConfigError) as err:
        NodeResourcesFit.new(args, None)
    text = str(err.value)
    assert [f for f in want_fields if f"{f}: Invalid value" in text] == want_fields
    assert text.startswith("[") == (len(want_fields) > 1)


@pytest.mark.parametrize("requested,capacity,want", [(0, 0, 0), (5, 4, 100), (3000, 4000, 75), (1, 3, 33)])
def test_most_requested_score_edges(requested, capacity, want):
    """mostRequestedScore: zero capacity scores 0, requests above capacity count as full."""
    assert most_requested_score(requested, capacity) == want
