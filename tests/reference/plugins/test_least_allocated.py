"""Ports noderesources/least_allocated_test.go (TestLeastAllocatedScoringStrategy, all 16 rows) and
TestValidateLeastAllocatedScoringStrategy from apis/config/validation/validation_pluginargs_test.go."""

import pytest

from reference.errors import ConfigError
from reference.interfaces import MAX_NODE_SCORE, MIN_NODE_SCORE
from reference.plugins.node_resources_fit import NodeResourcesFit
from reference.plugins.node_resources_fit_args import LEAST_ALLOCATED, NodeResourcesFitArgs, ScoringStrategy
from reference.plugins.resource_args import ResourceSpec
from reference.plugins.resource_strategies import least_requested_score
from reference.status import Code
from tests.builders import st_nodes, st_pod
from tests.reference.plugins._noderesources import run_scores


EXTENDED = "abc.com/xyz"
DEFAULT = (ResourceSpec("cpu", 1), ResourceSpec("memory", 1))
EXTENDED_SET = (*DEFAULT, ResourceSpec(EXTENDED, 1))
TWO = ({"cpu": "1000", "memory": "2000"}, {"cpu": "2000", "memory": "3000"})


N4_10 = {"cpu": "4000", "memory": "10000"}
N6_10 = {"cpu": "6000", "memory": "10000"}
N10_20 = {"cpu": "10000", "memory": "20000"}

CASES = [
    ("nothing scheduled, nothing requested", st_pod(), st_nodes(N4_10, N4_10), [], DEFAULT,
     [MAX_NODE_SCORE, MAX_NODE_SCORE], Code.SUCCESS),
    ("nothing scheduled, resources requested, differently sized nodes", st_pod(*TWO), st_nodes(N4_10, N6_10), [],
     DEFAULT, [37, 50], Code.SUCCESS),
    ("Resources not set, pods scheduled with error", st_pod(*TWO), st_nodes(N4_10, N6_10), [], (),
     [MIN_NODE_SCORE, MIN_NODE_SCORE], Code.ERROR),
    ("no resources requested, pods scheduled", st_pod(), st_nodes(N4_10, N4_10),
     [st_pod(node="node1"), st_pod(node="node1"), st_pod(node="node2"), st_pod(node="node2")], DEFAULT,
     [MAX_NODE_SCORE, MAX_NODE_SCORE], Code.SUCCESS),
    ("no resources requested, pods scheduled with resources", st_pod(), st_nodes(N10_20, N10_20),
     [st_pod({"cpu": "3000", "memory": "0"}, node="node1"), st_pod({"cpu": "3000", "memory": "0"}, node="node1"),
      st_pod({"cpu": "3000", "memory": "0"}, node="node2"), st_pod({"cpu": "3000", "memory": "5000"}, node="node2")],
     DEFAULT, [70, 57], Code.SUCCESS),
    ("resources requested, pods scheduled with resources", st_pod(*TWO), st_nodes(N10_20, N10_20),
     [st_pod({"cpu": "3000", "memory": "0"}, node="node1"), st_pod({"cpu": "3000", "memory": "5000"}, node="node2")],
     DEFAULT, [57, 45], Code.SUCCESS),
    ("resources requested, pods scheduled with resources, differently sized nodes", st_pod(*TWO),
     st_nodes(N10_20, {"cpu": "10000", "memory": "50000"}),
     [st_pod({"cpu": "3000", "memory": "0"}, node="node1"), st_pod({"cpu": "3000", "memory": "5000"}, node="node2")],
     DEFAULT, [57, 60], Code.SUCCESS),
    ("requested resources exceed node capacity", st_pod({"cpu": "3000", "memory": "0"}), st_nodes(N4_10, N4_10),
     [st_pod({"cpu": "3000", "memory": "0"}, node="node1"), st_pod({"cpu": "3000", "memory": "5000"}, node="node2")],
     DEFAULT, [50, 25], Code.SUCCESS),
    ("zero node resources, pods scheduled with resources", st_pod(), st_nodes(None, None),
     [st_pod({"cpu": "3000", "memory": "0"}, node="node1"), st_pod({"cpu": "3000", "memory": "5000"}, node="node2")],
     DEFAULT, [MIN_NODE_SCORE, MIN_NODE_SCORE], Code.SUCCESS),
    ("nothing scheduled, resources requested with different weight on CPU and memory, differently sized nodes",
     st_pod(*TWO, node="node1"), st_nodes(N4_10, N6_10), [], (ResourceSpec("memory", 2), ResourceSpec("cpu", 1)),
     [41, 50], Code.SUCCESS),
    ("bypass extended resource if the pod does not request", st_pod(*TWO, node="node1"),
     st_nodes({"cpu": "6000", "memory": "10000"}, {"cpu": "6000", "memory": "10000", EXTENDED: "4"}), [], EXTENDED_SET,
     [50, 50], Code.SUCCESS),
    ("honor extended resource if the pod requests", st_pod({"cpu": "3000", "memory": "5000", EXTENDED: "2"}, node="node1"),
     st_nodes({"cpu": "6000", "memory": "10000", EXTENDED: "4"}, {"cpu": "6000", "memory": "10000", EXTENDED: "10"}), [],
     EXTENDED_SET, [50, 60], Code.SUCCESS),
    ("if the node doesn't have a resource", st_pod({"cpu": "3000", "memory": "4000"}, node="node1"),
     st_nodes({"cpu": "6000", "memory": "10000"}, {"cpu": "6000", "memory": "10000", EXTENDED: "4"}), [],
     (ResourceSpec(EXTENDED, 2), ResourceSpec("cpu", 1), ResourceSpec("memory", 1)), [55, 55], Code.SUCCESS),
]


@pytest.mark.parametrize("pod,node_list,existing,resources,want,want_code", [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_least_allocated_scoring_strategy(pod, node_list, existing, resources, want, want_code):
    results = run_scores(ScoringStrategy(LEAST_ALLOCATED, resources), pod, node_list, existing)
    assert [status.code for _, status in results] == [want_code] * len(node_list)
    assert [score for score, _ in results] == want


WEIGHT_ERRORS = [
    ("resource with negative weight", (ResourceSpec("memory", -1), ResourceSpec("cpu", 1)),
     "scoringStrategy.resources[0].weight",
     "Invalid value: -1: resource weight of memory not in valid range (0, 100]"),
    ("resource with zero weight", (ResourceSpec("memory", 1), ResourceSpec("cpu", 0)),
     "scoringStrategy.resources[1].weight", "Invalid value: 0: resource weight of cpu not in valid range (0, 100]"),
    ("resource weight larger than MaxNodeScore", (ResourceSpec("memory", 1), ResourceSpec("cpu", 101)),
     "scoringStrategy.resources[1].weight", "Invalid value: 101: resource weight of cpu not in valid range (0, 100]"),
]


@pytest.mark.parametrize("resources,field,body", [c[1:] for c in WEIGHT_ERRORS], ids=[c[0] for c in WEIGHT_ERRORS])
def test_least_allocated_new_fit_rejects_weight(resources, field, body):
    with pytest.raises(ConfigError) as err:
        NodeResourcesFit.new(NodeResourcesFitArgs(scoring_strategy=ScoringStrategy(LEAST_ALLOCATED, resources)), None)
    assert (err.value.field, err.value.message) == (field, body)


VALIDATE = [
    ("default config", (), None),
    ("multi valid resources", (ResourceSpec("cpu", 1), ResourceSpec("memory", 10)), None),
    ("weight less than min", (ResourceSpec("cpu", 0),), ["scoringStrategy.resources[0].weight"]),
    ("weight greater than max", (ResourceSpec("cpu", 101),), ["scoringStrategy.resources[0].weight"]),
    ("multi invalid resources", (ResourceSpec("cpu", 0), ResourceSpec("memory", 101)),
     ["scoringStrategy.resources[0].weight", "scoringStrategy.resources[1].weight"]),
]


@pytest.mark.parametrize("resources,want_fields", [c[1:] for c in VALIDATE], ids=[c[0] for c in VALIDATE])
def test_validate_least_allocated_scoring_strategy(resources, want_fields):
    args = NodeResourcesFitArgs(scoring_strategy=ScoringStrategy(LEAST_ALLOCATED, resources))
    if want_fields is None:
        NodeResourcesFit.new(args, None)
        return
    with pytest.raises(ConfigError) as err:
        NodeResourcesFit.new(args, None)
    text = str(err.value)
    assert [f for f in want_fields if f"{f}: Invalid value" in text] == want_fields
    assert text.startswith("[") == (len(want_fields) > 1)


@pytest.mark.parametrize("requested,capacity,want", [(0, 0, 0), (5, 4, 0), (3000, 4000, 25), (1, 3, 66)])
def test_least_requested_score_edges(requested, capacity, want):
    """leastRequestedScore: zero capacity and over-commit score 0; integer division truncates."""
    assert least_requested_score(requested, capacity) == want
