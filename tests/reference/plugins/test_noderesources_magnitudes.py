"""NodeResourcesFit and NodeResourcesBalancedAllocation on the largest real machines: 192 cores, TiB of
memory, 250 pods, 16 GPUs, byte-granular requests. Every expected value is worked out below from
upstream's formulas (noderesources/least_allocated.go, most_allocated.go, requested_to_capacity_ratio.go,
balanced_allocation.go, fit.go fitsRequest) in int64 arithmetic, `/` truncating as Go does."""

from __future__ import annotations

import math

import pytest

from reference.cycle_state import CycleState
from reference.nodeinfo import NodeInfo, Snapshot
from reference.plugins.node_resources_balanced_allocation import (
    NodeResourcesBalancedAllocation,
    NodeResourcesBalancedAllocationArgs,
)
from reference.plugins.node_resources_fit import NodeResourcesFit
from reference.plugins.node_resources_fit_args import (
    LEAST_ALLOCATED,
    MOST_ALLOCATED,
    REQUESTED_TO_CAPACITY_RATIO,
    NodeResourcesFitArgs,
    ScoringStrategy,
)
from reference.plugins.node_resources_fit_request import compute_pod_resource_request
from reference.plugins.resource_args import ResourceSpec, UtilizationShapePoint
from reference.resources import pod_requests
from reference.status import SUCCESS, Code
from reference.types import Container, Pod
from tests.builders import st_node, st_pod
from tests.reference.plugins._noderesources import run_scores

GI = 1024 ** 3
TI = 1024 ** 4
GPU = "nvidia.com/gpu"
DEFAULT = (ResourceSpec("cpu", 1), ResourceSpec("memory", 1))
WITH_GPU = (*DEFAULT, ResourceSpec(GPU, 1))

# node1: 192 cores, 2 TiB, 16 GPUs, already 100 cores and 1 TiB requested; node2: 96 cores, 768 GiB, empty.
NODES = [st_node("node1", {"cpu": "192", "memory": "2Ti", "pods": "250", GPU: "16"}),
         st_node("node2", {"cpu": "96", "memory": "768Gi", "pods": "250", GPU: "16"})]
EXISTING = [st_pod({"cpu": "100", "memory": "1Ti"}, name="e1", node="node1")]
POD = st_pod({"cpu": "1.5", "memory": "1.5Gi"})
GPU_POD = st_pod({"cpu": "1.5", "memory": "1.5Gi", GPU: "8"})

# Requested with the pod: node1 cpu 100000+1500 = 101500 of 192000 milli, memory 1Ti+1.5Gi = 1101122240512 of
# 2199023255552 bytes; node2 cpu 1500 of 96000, memory 1610612736 of 824633720832.
FIT_SCORES = [
    # least: ((cap-req)*100)/cap per resource, then (sum of score*weight)/(sum of weights).
    # node1: 9050000/192000 = 47, 109790101504000/2199023255552 = 49 -> 96/2 = 48.
    # node2: 9450000/96000 = 98, 82302310809600/824633720832 = 99 -> 197/2 = 98.
    ("least allocated", ScoringStrategy(LEAST_ALLOCATED, DEFAULT), [48, 98]),
    # most: (req*100)/cap. node1: 10150000/192000 = 52, 110112224051200/2199023255552 = 50 -> 102/2 = 51.
    # node2: 150000/96000 = 1, 161061273600/824633720832 = 0 -> 1/2 = 0.
    ("most allocated", ScoringStrategy(MOST_ALLOCATED, DEFAULT), [51, 0]),
    # ratio, shape (0,10) (100,0) scaled by 10 to (0,100) (100,0): utilization req*100/cap, then
    # 100 + (0-100)*(u-0)/(100-0). node1: u 52 -> 48, u 50 -> 50 -> Round(98/2) = 49.
    # node2: u 1 -> 99, u 0 -> 100 -> Round(199/2 = 99.5) = 100 (half away from zero).
    ("requested to capacity ratio", ScoringStrategy(
        REQUESTED_TO_CAPACITY_RATIO, DEFAULT, (UtilizationShapePoint(0, 10), UtilizationShapePoint(100, 0))),
     [49, 100]),
]


@pytest.mark.parametrize("strategy,want", [c[1:] for c in FIT_SCORES], ids=[c[0] for c in FIT_SCORES])
def test_fit_scores_on_the_largest_machines(strategy, want):
    results = run_scores(strategy, POD, NODES, EXISTING)
    assert [status for _, status in results] == [SUCCESS, SUCCESS]
    assert [score for score, _ in results] == want


def _balanced(pod: Pod, resources) -> list[int]:
    snapshot = Snapshot(NODES, EXISTING)
    plugin = NodeResourcesBalancedAllocation.new(NodeResourcesBalancedAllocationArgs(resources), None)
    state = CycleState()
    assert plugin.pre_score(state, pod, snapshot.node_info_list) == SUCCESS
    return [plugin.score(state, pod, snapshot.get(n.name))[0] for n in NODES]


def test_balanced_allocation_on_the_largest_machines():
    # Fractions req/cap as float64, std of two = |f0-f1|/2, score = int64((1-std)*100), then
    # 50 + (50 + with - without)/2.
    # node1 with the pod: 101500/192000 = 0.5286458..., 1101122240512/2199023255552 = 0.500732421875,
    # std 0.0139567... -> 98; without: 0.5208333..., 0.5, std 0.0104166... -> 98; 50 + 50/2 = 75.
    # node2 with: 0.015625, 0.001953125, std 0.0068359375 -> 99; without: 0, 0 -> 100; 50 + 49/2 = 74.
    assert _balanced(POD, DEFAULT) == [75, 74]


def test_balanced_allocation_with_sixteen_gpus():
    # Three fractions: std = sqrt(sum((f-mean)^2)/3).
    # node1 with: 0.5286458, 0.5007324, 8/16 = 0.5; mean 0.5097928; std 0.0133346 -> 98.
    #   without: 0.5208333, 0.5, 0; mean 0.3402778; std 0.2407631 -> 75. 50 + (50+98-75)/2 = 50 + 36 = 86.
    # node2 with: 0.015625, 0.0019531, 0.5; mean 0.1725260; std 0.2316616 -> 76.
    #   without: 0, 0, 0 -> 100. 50 + (50+76-100)/2 = 50 + 13 = 63.
    assert _balanced(GPU_POD, WITH_GPU) == [86, 63]


def test_balanced_allocation_std_is_computed_as_upstream():
    # The same three-fraction std as balancedResourceScore, in its order of float operations.
    fractions = [101500 / 192000, 1101122240512 / 2199023255552, 8 / 16]
    mean = sum(fractions) / 3
    std = math.sqrt(sum((f - mean) * (f - mean) for f in fractions) / 3)
    assert int((1 - std) * 100) == 98


def _filter(pod: Pod, node_info: NodeInfo):
    plugin = NodeResourcesFit.new(NodeResourcesFitArgs(), None)
    state = CycleState()
    assert plugin.pre_filter(state, pod, [])[1] == SUCCESS
    return plugin.filter(state, pod, node_info)


def _node1(*pods: Pod) -> NodeInfo:
    return NodeInfo.of(NODES[0], [*EXISTING, *pods])


FITS = [
    # 192000 - 100000 = 92000 milli left; 2Ti - 1Ti = 1099511627776 bytes left; 16 GPUs.
    ("the rest of the cpu, exactly", st_pod({"cpu": "92"}), None),
    ("one millicore more than is left", st_pod({"cpu": "92001m"}), (Code.UNSCHEDULABLE, "Insufficient cpu")),
    ("more cores than the node has", st_pod({"cpu": "256"}),
     (Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "Insufficient cpu")),
    ("the rest of the memory, to the byte", st_pod({"memory": "1099511627776"}), None),
    ("one byte more than is left", st_pod({"memory": "1099511627777"}), (Code.UNSCHEDULABLE, "Insufficient memory")),
    ("more memory than the node has", st_pod({"memory": "8Ti"}),
     (Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "Insufficient memory")),
    ("every GPU", st_pod({GPU: "16"}), None),
    ("more GPUs than the node has", st_pod({GPU: "17"}), (Code.UNSCHEDULABLE_AND_UNRESOLVABLE, f"Insufficient {GPU}")),
]


@pytest.mark.parametrize("pod,want", [c[1:] for c in FITS], ids=[c[0] for c in FITS])
def test_fit_filter_on_the_largest_machines(pod, want):
    status = _filter(pod, _node1())
    if want is None:
        assert status.is_success(), status
    else:
        assert (status.code, *status.reasons) == want


def test_the_250th_pod_fits_and_the_251st_does_not():
    others = [st_pod(name=f"o{i}", node="node1") for i in range(248)]
    assert len(_node1(*others).pods) == 249
    assert _filter(st_pod(), _node1(*others)).is_success()
    full = _node1(*others, st_pod(name="o248", node="node1"))
    assert (_filter(st_pod(), full).code, *_filter(st_pod(), full).reasons) == (Code.UNSCHEDULABLE, "Too many pods")


def test_requests_with_sidecars_init_containers_and_overhead_at_scale():
    # PodRequests: containers + sidecars = 64 + 2 cores; the init container runs beside the sidecar
    # started before it: 100 + 2; max(66, 102) = 102 cores, plus 1.5 cores overhead = 103500 milli.
    # Memory: 512Gi + 1Gi vs 1Ti + 1Gi -> 1Ti + 1Gi, plus 1.5Gi overhead.
    pod = Pod(name="p", uid="p",
              containers=(Container("c", requests={"cpu": 64000, "memory": 512 * GI}),),
              init_containers=(Container("sidecar", requests={"cpu": 2000, "memory": GI}, restart_policy="Always"),
                               Container("init", requests={"cpu": 100000, "memory": TI})),
              overhead={"cpu": 1500, "memory": 1536 * 1024 ** 2})
    assert pod_requests(pod) == {"cpu": 103500, "memory": TI + GI + 1536 * 1024 ** 2}
    request = compute_pod_resource_request(pod)
    assert (request.milli_cpu, request.memory) == (103500, 1102195982336)
