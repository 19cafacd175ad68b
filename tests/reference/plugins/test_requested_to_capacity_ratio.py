"""Ports noderesources/requested_to_capacity_ratio_test.go (TestRequestedToCapacityRatioScoringStrategy,
TestBrokenLinearFunction, TestResourceBinPackingSingleExtended, TestResourceBinPackingMultipleExtended:
every row) and TestValidateRequestedToCapacityRatioScoringStrategy from
apis/config/validation/validation_pluginargs_test.go."""

import pytest

from reference.errors import ConfigError
from reference.interfaces import MAX_NODE_SCORE
from reference.plugins.helper import FunctionShapePoint, build_broken_linear_function
from reference.plugins.node_resources_fit import NodeResourcesFit
from reference.plugins.node_resources_fit_args import (
    REQUESTED_TO_CAPACITY_RATIO,
    NodeResourcesFitArgs,
    ScoringStrategy,
)
from reference.plugins.resource_args import ResourceSpec, UtilizationShapePoint as P
from reference.plugins.resource_strategies import go_round, requested_to_capacity_ratio_scorer
from reference.status import SUCCESS
from tests.builders import make_node, st_node, st_pod
from tests.reference.plugins._noderesources import run_scores


DEFAULT = (ResourceSpec("cpu", 1), ResourceSpec("memory", 1))
SHAPE = (P(0, 10), P(100, 0))
MI = 1024 * 1024


def rtcr(resources, shape):
    return ScoringStrategy(REQUESTED_TO_CAPACITY_RATIO, resources, shape)


def scores(strategy, pod, nodes, existing=()):
    results = run_scores(strategy, pod, nodes, existing)
    assert all(status == SUCCESS for _, status in results)
    return [score for score, _ in results]


N4_10 = {"cpu": "4000", "memory": "10000"}
N6_10 = {"cpu": "6000", "memory": "10000"}

STRATEGY = [
    ("nothing scheduled, nothing requested (default - least requested nodes have priority)", st_pod(),
     [st_node("node1", N4_10), st_node("node2", N4_10)], [st_pod(node="node1"), st_pod(node="node1")],
     [MAX_NODE_SCORE, MAX_NODE_SCORE]),
    ("nothing scheduled, resources requested, differently sized nodes (default - least requested nodes have priority)",
     st_pod({"cpu": "1000", "memory": "2000"}, {"cpu": "2000", "memory": "3000"}),
     [st_node("node1", N4_10), st_node("node2", N6_10)], [st_pod(node="node1"), st_pod(node="node1")], [38, 50]),
    ("no resources requested, pods scheduled with resources (default - least requested nodes have priority)", st_pod(),
     [st_node("node1", N4_10), st_node("node2", N6_10)],
     [st_pod({"cpu": "3000", "memory": "5000"}, node="node1"), st_pod({"cpu": "3000", "memory": "5000"}, node="node2")],
     [38, 50]),
]


@pytest.mark.parametrize("pod,nodes,existing,want", [c[1:] for c in STRATEGY], ids=[c[0] for c in STRATEGY])
def test_requested_to_capacity_ratio_scoring_strategy(pod, nodes, existing, want):
    assert scores(rtcr(DEFAULT, SHAPE), pod, nodes, existing) == want


BROKEN_LINEAR = [
    ("case_0", [(10, 1), (90, 9)],
     [(-10, 1), (0, 1), (9, 1), (10, 1), (15, 1), (19, 1), (20, 2), (89, 8), (90, 9), (99, 9), (100, 9), (110, 9)]),
    ("case_1", [(0, 2), (40, 10), (100, 0)],
     [(-10, 2), (0, 2), (20, 6), (30, 8), (40, 10), (70, 5), (100, 0), (110, 0)]),
    ("case_2", [(0, 2), (40, 2), (100, 2)],
     [(-10, 2), (0, 2), (20, 2), (30, 2), (40, 2), (70, 2), (100, 2), (110, 2)]),
]


@pytest.mark.parametrize("points,assertions", [c[1:] for c in BROKEN_LINEAR], ids=[c[0] for c in BROKEN_LINEAR])
def test_broken_linear_function(points, assertions):
    function = build_broken_linear_function([FunctionShapePoint(u, s) for u, s in points])
    assert [(p, function(p)) for p, _ in assertions] == assertions


FOO4, FOO8 = {"intel.com/foo": 4}, {"intel.com/foo": 8}


def foo_nodes():
    return [make_node("node1", 4000, 10000 * MI, FOO8), make_node("node2", 4000, 10000 * MI, FOO4)]


SINGLE = [
    ("nothing scheduled, nothing requested", st_pod(), [], [0, 0]),
    ("resources requested, pods scheduled with less resources", st_pod({"intel.com/foo": "2"}), [st_pod(name="e")],
     [2, 5]),
    ("resources requested, pods scheduled with resources, on node with existing pod running ",
     st_pod({"intel.com/foo": "2"}), [st_pod({"intel.com/foo": "2"}, name="e", node="node2")], [2, 10]),
    ("resources requested, pods scheduled with more resources", st_pod({"intel.com/foo": "4"}), [st_pod(name="e")],
     [5, 10]),
]


@pytest.mark.parametrize("pod,existing,want", [c[1:] for c in SINGLE], ids=[c[0] for c in SINGLE])
def test_resource_bin_packing_single_extended(pod, existing, want):
    strategy = rtcr((ResourceSpec("intel.com/foo", 1),), (P(0, 0), P(100, 1)))
    assert scores(strategy, pod, foo_nodes(), existing) == want


FOO4_BAR8 = {"intel.com/foo": 4, "intel.com/bar": 8}
FOO8_BAR4 = {"intel.com/foo": 8, "intel.com/bar": 4}
POD1 = {"intel.com/foo": "2", "intel.com/bar": "2"}
POD2 = {"intel.com/foo": "4", "intel.com/bar": "2"}

MULTIPLE = [
    ("nothing scheduled, nothing requested", st_pod(), [], [0, 0]),
    ("resources requested, pods scheduled with less resources", st_pod(POD1), [st_pod(name="e")], [4, 3]),
    ("resources requested, pods scheduled with resources, on node with existing pod running ", st_pod(POD1),
     [st_pod(POD2, name="e", node="node2")], [4, 7]),
    ("resources requested, pods scheduled with more resources", st_pod(POD2), [st_pod(name="e")], [5, 5]),
]


@pytest.mark.parametrize("pod,existing,want", [c[1:] for c in MULTIPLE], ids=[c[0] for c in MULTIPLE])
def test_resource_bin_packing_multiple_extended(pod, existing, want):
    strategy = rtcr((ResourceSpec("intel.com/foo", 3), ResourceSpec("intel.com/bar", 5)), (P(0, 0), P(100, 1)))
    nodes = [make_node("node1", 4000, 10000 * MI, FOO8_BAR4), make_node("node2", 4000, 10000 * MI, FOO4_BAR8)]
    assert scores(strategy, pod, nodes, existing) == want


DEFAULT_SHAPE = (P(30, 3),)
VALIDATE = [
    ("no shapes", (), (), "scoringStrategy.requestedToCapacityRatio.shape", "Required value"),
    ("weight greater than max", (ResourceSpec("cpu", 101),), DEFAULT_SHAPE, "scoringStrategy.resources[0].weight",
     "Invalid value"),
    ("weight less than min", (ResourceSpec("cpu", 0),), DEFAULT_SHAPE, "scoringStrategy.resources[0].weight",
     "Invalid value"),
    ("valid shapes", (), DEFAULT_SHAPE, None, None),
    ("utilization less than min", (), (P(-1, 3),), "scoringStrategy.requestedToCapacityRatio.shape[0].utilization",
     "Invalid value"),
    ("utilization greater than max", (), (P(101, 3),),
     "scoringStrategy.requestedToCapacityRatio.shape[0].utilization", "Invalid value"),
    ("duplicated utilization values", (), (P(10, 3), P(10, 3)),
     "scoringStrategy.requestedToCapacityRatio.shape[1].utilization", "Invalid value"),
    ("increasing utilization values", (), (P(10, 3), P(20, 3), P(30, 3)), None, None),
    ("non-increasing utilization values", (), (P(10, 3), P(20, 3), P(15, 3)),
     "scoringStrategy.requestedToCapacityRatio.shape[2].utilization", "Invalid value"),
    ("score less than min", (), (P(10, -1),), "scoringStrategy.requestedToCapacityRatio.shape[0].score",
     "Invalid value"),
    ("score greater than max", (), (P(10, 11),), "scoringStrategy.requestedToCapacityRatio.shape[0].score",
     "Invalid value"),
]


@pytest.mark.parametrize("resources,shape,field,kind", [c[1:] for c in VALIDATE], ids=[c[0] for c in VALIDATE])
def test_validate_requested_to_capacity_ratio_scoring_strategy(resources, shape, field, kind):
    args = NodeResourcesFitArgs(scoring_strategy=rtcr(resources, shape))
    if field is None:
        NodeResourcesFit.new(args, None)
        return
    with pytest.raises(ConfigError) as err:
        NodeResourcesFit.new(args, None)
    assert err.value.field == field
    assert err.value.message.startswith(kind)


def test_validation_message_text():
    """Full messages, as validateFunctionShape formats them."""
    with pytest.raises(ConfigError) as err:
        NodeResourcesFit.new(NodeResourcesFitArgs(scoring_strategy=rtcr((), (P(20, 3), P(10, 11)))), None)
    assert str(err.value) == (
        "[scoringStrategy.requestedToCapacityRatio.shape[1].utilization: Invalid value: 10: values must be sorted "
        "in increasing order, scoringStrategy.requestedToCapacityRatio.shape[1].score: Invalid value: 11: not in "
        "valid range [0, 10]]")
    with pytest.raises(ConfigError) as err:
        NodeResourcesFit.new(NodeResourcesFitArgs(scoring_strategy=rtcr((), ())), None)
    assert str(err.value) == ("scoringStrategy.requestedToCapacityRatio.shape: Required value: at least one point "
                              "must be specified")


@pytest.mark.parametrize("x,want", [(0.5, 1), (1.5, 2), (2.5, 3), (2.4999, 2), (37.5, 38), (-0.5, -1)])
def test_go_round_rounds_half_away_from_zero(x, want):
    """math.Round semantics (Python's round() would give 0, 2, 2 for the first three)."""
    assert go_round(x) == want


def test_node_score_rounds_a_half_up():
    """Derived from buildRequestedToCapacityRatioScorerFunction: scores 2 and 3 average 2.5, and
    math.Round gives 3 where Python's round() would give 2."""
    scorer = requested_to_capacity_ratio_scorer(DEFAULT, (P(0, 0), P(100, 10)))
    assert scorer([2, 3], [0, 0], [100, 100]) == 3


def test_only_the_first_unsorted_point_is_reported():
    """validateFunctionShape stops at the first out-of-order utilization."""
    with pytest.raises(ConfigError) as err:
        NodeResourcesFit.new(NodeResourcesFitArgs(scoring_strategy=rtcr((), (P(30, 1), P(20, 1), P(10, 1)))), None)
    assert err.value.field == "scoringStrategy.requestedToCapacityRatio.shape[1].utilization"
