"""Ports noderesources/balanced_allocation_test.go (TestNodeResourcesBalancedAllocation),
TestValidateNodeResourcesBalancedAllocationArgs (apis/config/validation/validation_pluginargs_test.go)
and the NodeResourcesBalancedAllocationArgs rows of apis/config/v1/defaults_test.go.

Left out: the two "include DRA resource on a node for balanced resource allocation" rows
(DeviceClasses and ResourceSlices are not modelled) and TestBalancedAllocationSignPod (no pod
signatures in the reference).
"""

import pytest

from reference.cycle_state import CycleState
from reference.errors import ConfigError
from reference.nodeinfo import Snapshot
from reference.plugins.node_resources_balanced_allocation import (
    NodeResourcesBalancedAllocation,
    NodeResourcesBalancedAllocationArgs,
)
from reference.plugins.resource_args import ResourceSpec
from reference.plugins.resource_strategies import balanced_resource_score, balanced_resource_scorer
from reference.status import SUCCESS, Code
from tests.builders import make_node, st_pod


def cpu_only(cpu):
    return {"cpu": cpu}


def cpu_and_memory(cpu, mem):
    return {"cpu": cpu, "memory": mem}


def cpu_memory_gpu(cpu, mem, gpu):
    return {"cpu": cpu, "memory": mem, "nvidia.com/gpu": gpu}


GPU8 = {"nvidia.com/gpu": 8}
DEFAULT = (ResourceSpec("cpu", 1), ResourceSpec("memory", 1))
WITH_GPU = (*DEFAULT, ResourceSpec("nvidia.com/gpu", 1))
REQUESTED = st_pod(cpu_and_memory("1000m", "2000"), cpu_and_memory("2000m", "3000"))
NODE1_CPU = st_pod(cpu_only("1000m"), cpu_only("2000m"), name="e1", node="node1")
NODE2_BOTH = st_pod(cpu_and_memory("1000m", "2000"), cpu_and_memory("2000m", "3000"), name="e2", node="node2")

CASES = [
    ("nothing scheduled, nothing requested, skip in PreScore", st_pod(),
     [make_node("node1", 4000, 10000), make_node("node2", 4000, 10000)], [], DEFAULT, True, Code.SKIP, None),
    ("nothing scheduled, resources requested, differently sized nodes", REQUESTED,
     [make_node("node1", 4000, 10000), make_node("node2", 6000, 10000)], [], DEFAULT, True, Code.SUCCESS, [68, 75]),
    ("resources requested, pods scheduled with resources", REQUESTED,
     [make_node("node1", 10000, 20000), make_node("node2", 10000, 20000)], [NODE1_CPU, NODE2_BOTH], DEFAULT, True,
     Code.SUCCESS, [73, 74]),
    ("resources requested, pods scheduled with resources, differently sized nodes", REQUESTED,
     [make_node("node1", 10000, 20000), make_node("node2", 10000, 50000)], [NODE1_CPU, NODE2_BOTH], DEFAULT, True,
     Code.SUCCESS, [73, 70]),
    ("resources requested, pods scheduled with resources, nodes to reach min/max score",
     st_pod({"memory": "2000"}, {"memory": "3000"}), [make_node("node1", 3000, 5000), make_node("node2", 3000, 5000)],
     [NODE1_CPU], DEFAULT, True, Code.SUCCESS, [100, 50]),
    ("requested resources at node capacity", st_pod(cpu_only("1000m"), cpu_only("2000m")),
     [make_node("node1", 6000, 10000), make_node("node2", 6000, 10000)], [NODE1_CPU, NODE2_BOTH], DEFAULT, True,
     Code.SUCCESS, [62, 62]),
    ("scalar resource is included in the score computation if pod requests the scalar resource",
     st_pod(cpu_memory_gpu("0", "0", "1")), [make_node("node1", 3500, 40000, GPU8), make_node("node2", 3500, 40000, GPU8)],
     [st_pod(cpu_and_memory("1000m", "2000"), cpu_memory_gpu("2000m", "3000", "3"), name="e1", node="node1"),
      NODE2_BOTH], WITH_GPU, True, Code.SUCCESS, [75, 76]),
    ("scalar resource is not included in the score computation if pod doesn't request the scalar resource", REQUESTED,
     [make_node("node1", 3500, 40000, GPU8), make_node("node2", 3500, 40000)], [], WITH_GPU, True, Code.SUCCESS,
     [56, 56]),
    ("resources requested, pods scheduled with resources if PreScore not called", REQUESTED,
     [make_node("node1", 10000, 20000), make_node("node2", 10000, 20000)], [NODE1_CPU, NODE2_BOTH], DEFAULT, False,
     Code.SUCCESS, [73, 74]),
]


@pytest.mark.parametrize("pod,nodes,existing,resources,run_pre_score,pre_score_code,want",
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_node_resources_balanced_allocation(pod, nodes, existing, resources, run_pre_score, pre_score_code, want):
    snapshot = Snapshot(nodes, existing)
    plugin = NodeResourcesBalancedAllocation.new(NodeResourcesBalancedAllocationArgs(resources), None)
    state = CycleState()
    if run_pre_score:
        status = plugin.pre_score(state, pod, snapshot.node_info_list)
        assert status.code is pre_score_code
        if status.is_skip():
            return
    got = []
    for n in nodes:
        score, status = plugin.score(state, pod, snapshot.get(n.name))
        assert status == SUCCESS
        got.append(score)
    assert got == want


def test_best_effort_pod_scores_zero_without_pre_score():
    """Score's fallback when PreScore was skipped: a best-effort pod gets 0 (balanced_allocation.go)."""
    snapshot = Snapshot([make_node("node1", 4000, 10000)], [])
    plugin = NodeResourcesBalancedAllocation.new(None, None)
    assert plugin.score(CycleState(), st_pod(), snapshot.get("node1")) == (0, SUCCESS)


def test_scorer_is_half_plus_half_the_balance_change():
    """balancedResourceScorer on the first scored row above (node1: 100 -> 87, so 50 + (50 + 87 - 100) / 2)."""
    assert balanced_resource_score([3000, 5000], [4000, 10000]) == 87
    assert balanced_resource_scorer([3000, 5000], [0, 0], [4000, 10000]) == 68


# --- args -----------------------------------------------------------------------------------------

VALIDATE = [
    ("valid config", (ResourceSpec("cpu", 1), ResourceSpec("memory", 1)), None),
    ("invalid config", (ResourceSpec("cpu", 2), ResourceSpec("memory", 1)),
     ("resources[0].weight", "Invalid value: 2: must be 1")),
    ("repeated resources", (ResourceSpec("cpu", 1), ResourceSpec("cpu", 1)),
     ("resources[1].name", 'Duplicate value: "cpu"')),
]


@pytest.mark.parametrize("resources,want", [c[1:] for c in VALIDATE], ids=[c[0] for c in VALIDATE])
def test_validate_node_resources_balanced_allocation_args(resources, want):
    args = NodeResourcesBalancedAllocationArgs(resources)
    if want is None:
        NodeResourcesBalancedAllocation.new(args, None)
        return
    with pytest.raises(ConfigError) as err:
        NodeResourcesBalancedAllocation.new(args, None)
    assert (err.value.field, err.value.message) == want


DEFAULTS = [
    ("NodeResourcesBalancedAllocationArgs resources empty", {}, DEFAULT),
    ("NodeResourcesBalancedAllocationArgs with scalar resource",
     {"resources": [{"name": "scalar.io/scalar1", "weight": 1}]}, (ResourceSpec("scalar.io/scalar1", 1),)),
    ("NodeResourcesBalancedAllocationArgs with mixed resources",
     {"resources": [{"name": "cpu", "weight": 1}, {"name": "scalar.io/scalar1", "weight": 1}]},
     (ResourceSpec("cpu", 1), ResourceSpec("scalar.io/scalar1", 1))),
    ("NodeResourcesBalancedAllocationArgs have resource no weight",
     {"resources": [{"name": "cpu"}, {"name": "scalar.io/scalar0"}, {"name": "scalar.io/scalar1", "weight": 1}]},
     (ResourceSpec("cpu", 1), ResourceSpec("scalar.io/scalar0", 1), ResourceSpec("scalar.io/scalar1", 1))),
]


@pytest.mark.parametrize("raw,want", [c[1:] for c in DEFAULTS], ids=[c[0] for c in DEFAULTS])
def test_v1_defaults(raw, want):
    args = NodeResourcesBalancedAllocationArgs.from_config(raw, "args")
    assert args.resources == want
    assert NodeResourcesBalancedAllocationArgs.from_config(args.to_config(), "args") == args


def test_from_config_errors_carry_the_callers_path():
    with pytest.raises(ConfigError) as err:
        NodeResourcesBalancedAllocationArgs.from_config({"resources": [{"name": "cpu"}, {"name": "cpu", "weight": 2}]},
                                                        "profiles[0].pluginConfig[0].args")
    assert str(err.value) == ('[profiles[0].pluginConfig[0].args.resources[1].name: Duplicate value: "cpu", '
                              "profiles[0].pluginConfig[0].args.resources[1].weight: Invalid value: 2: must be 1]")


def test_fraction_is_capped_at_one():
    """Derived from balancedResourceScore: an over-committed resource counts as fully used
    (fractions 1.0 and 0.5 -> std 0.25 -> 75; uncapped 1.25 would give 62)."""
    assert balanced_resource_score([5000, 5000], [4000, 10000]) == 75


def test_zero_weight_built_directly_is_rejected():
    """Only v1 defaulting turns weight 0 into 1; NewBalancedAllocation requires exactly 1."""
    with pytest.raises(ConfigError) as err:
        NodeResourcesBalancedAllocation.new(NodeResourcesBalancedAllocationArgs((ResourceSpec("cpu", 0),)), None)
    assert str(err.value) == "resources[0].weight: Invalid value: 0: must be 1"
