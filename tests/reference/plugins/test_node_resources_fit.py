"""Ports noderesources/fit_test.go, plus TestValidateFitArgs from
apis/config/validation/validation_pluginargs_test.go and the NodeResourcesFitArgs rows of
apis/config/v1/defaults_test.go.

Left out, with the reason:
- TestEnoughRequests: the 7 pod-level-resources rows (pod `spec.resources` is not modelled) and
  "extended resource backed by DRA" / "extended resource was backed by Device Plugin
  (Allocatable: 0)" (they need a DeviceClass; DRA is not modelled).
- TestFitScore: the two "LeastAllocated with Extended resources" rows (DRA ResourceSlices).
- TestEventsToRegister: its rows pin gate combinations other than the v1.37.2 defaults; one
  derived test checks the default list instead.
- Test_isSchedulableAfterAssignedPodDelete / ...AssignedPodScaleDown: the deferred-resize rows
  (pod resize conditions are not modelled and InPlacePodVerticalScalingSchedulerPreemption is
  off); ...TargetPodScaleDown and ...AssignedPodScaleDown: the pod-level-resources rows.
- TestIsFit: the 4 pod-level-resources rows.
- TestHaveAnyRequestedResourcesIncreased: "requested-resources-dra-not-in-node" and
  "requested-resources-dra-zero-capacity" (true only through a DeviceClass).
- Test_isSchedulableAfterTargetPodScaleUp, Test_isSchedulableAfterAssignedPodScaleUp,
  TestDeferredResizeFit (gate InPlacePodVerticalScalingSchedulerPreemption is off),
  TestFitSignPod (no pod signatures), TestScorePlacement_Resources (gate
  TopologyAwareWorkloadScheduling is off), TestComputePodResourceRequestWithNodeAllocatableDRA
  (DRA), BenchmarkTestFitScore.
"""

from dataclasses import replace

import pytest

from reference.cycle_state import CycleState
from reference.errors import ConfigError
from reference.nodeinfo import NodeInfo, Snapshot
from reference.events import ActionType, QueueingHint
from reference.plugins.node_resources_fit import PRE_FILTER_STATE_KEY, NodeResourcesFit
from reference.plugins.node_resources_fit_args import (
    LEAST_ALLOCATED,
    MOST_ALLOCATED,
    REQUESTED_TO_CAPACITY_RATIO,
    NodeResourcesFitArgs,
    ScoringStrategy,
)
from reference.plugins.node_resources_fit_hints import (
    DeviceClass,
    after_assigned_pod_delete,
    after_assigned_pod_scale_down,
    after_device_class_event,
    after_node_change,
    after_target_pod_scale_down,
    have_any_requested_resources_increased,
    is_fit,
)
from reference.plugins.node_resources_fit_request import InsufficientResource, compute_pod_resource_request, fits_request
from reference.plugins.resource_args import DEFAULT_RESOURCES, ResourceSpec, UtilizationShapePoint
from reference.status import SUCCESS, Code, Status
from reference.types import Container, Node, Pod
from tests.builders import st_node, st_pod

EXT_A = "example.com/aaa"
EXT_B = "example.com/bbb"
K8S_IO_A = "kubernetes.io/something"
K8S_IO_B = "subdomain.kubernetes.io/something"
HUGE_A = "hugepages-2Mi"
EXT_DRA = "extended.resource.dra.io/something"
UAU = Code.UNSCHEDULABLE_AND_UNRESOLVABLE
QUEUE, SKIP = QueueingHint.QUEUE, QueueingHint.QUEUE_SKIP


# --- builders after fit_test.go / st.MakePod / st.MakeNode -----------------------------------

def use(cpu=0, mem=0, storage=0, **scalars):
    """`framework.Resource` for `newResourcePod`: every container lists cpu, memory, pods and
    ephemeral-storage, zeros included. Scalars are passed as name=value via a dict."""
    return {"cpu": cpu, "memory": mem, "pods": 0, "ephemeral-storage": storage, **scalars.get("s", {})}


def resource_pod(*usages, name="p"):
    return Pod(name=name, uid=name, containers=tuple(Container(f"c{i}", requests=u) for i, u in enumerate(usages)))


def init_pod(pod, *usages):
    return replace(pod, init_containers=tuple(Container(f"i{i}", requests=u) for i, u in enumerate(usages)))


def overhead_pod(pod, **overhead):
    return replace(pod, overhead={k.replace("_", "-"): v for k, v in overhead.items()})


def make_resources(cpu, mem, pods, ext_a, storage, huge_a):
    return {"cpu": cpu, "memory": mem, "pods": pods, EXT_A: ext_a, "ephemeral-storage": storage, HUGE_A: huge_a}


def ir(name, requested, used, capacity, unresolvable=False, reason=None):
    return InsufficientResource(name, reason or f"Insufficient {name}", requested, used, capacity, unresolvable)


def run_filter(args, pod, node_info):
    plugin = NodeResourcesFit.new(args, None)
    state = CycleState()
    assert plugin.pre_filter(state, pod, []) == (None, SUCCESS)
    return plugin, plugin.filter(state, pod, node_info)


# --- TestEnoughRequests -------------------------------------------------------------------------

ENOUGH = [
    ("no resources requested always fits", Pod(name="p"), use(10, 20), (), (), None, []),
    ("too many resources fails", resource_pod(use(1, 1)), use(10, 20), (), (),
     (Code.UNSCHEDULABLE, "Insufficient cpu", "Insufficient memory"), [ir("cpu", 1, 10, 10), ir("memory", 1, 20, 20)]),
    ("too many resources fails due to init container cpu", init_pod(resource_pod(use(1, 1)), use(3, 1)), use(8, 19),
     (), (), (Code.UNSCHEDULABLE, "Insufficient cpu"), [ir("cpu", 3, 8, 10)]),
    ("too many resources fails due to highest init container cpu",
     init_pod(resource_pod(use(1, 1)), use(3, 1), use(2, 1)), use(8, 19), (), (),
     (Code.UNSCHEDULABLE, "Insufficient cpu"), [ir("cpu", 3, 8, 10)]),
    ("too many resources fails due to init container memory", init_pod(resource_pod(use(1, 1)), use(1, 3)),
     use(9, 19), (), (), (Code.UNSCHEDULABLE, "Insufficient memory"), [ir("memory", 3, 19, 20)]),
    ("too many resources fails due to highest init container memory",
     init_pod(resource_pod(use(1, 1)), use(1, 3), use(1, 2)), use(9, 19), (), (),
     (Code.UNSCHEDULABLE, "Insufficient memory"), [ir("memory", 3, 19, 20)]),
    ("init container fits because it's the max, not sum, of containers and init containers",
     init_pod(resource_pod(use(1, 1)), use(1, 1)), use(9, 19), (), (), None, []),
    ("multiple init containers fit because it's the max, not sum, of containers and init containers",
     init_pod(resource_pod(use(1, 1)), use(1, 1), use(1, 1)), use(9, 19), (), (), None, []),
    ("both resources fit", resource_pod(use(1, 1)), use(5, 5), (), (), None, []),
    ("one resource memory fits", resource_pod(use(2, 1)), use(9, 5), (), (),
     (Code.UNSCHEDULABLE, "Insufficient cpu"), [ir("cpu", 2, 9, 10)]),
    ("one resource cpu fits", resource_pod(use(1, 2)), use(5, 19), (), (),
     (Code.UNSCHEDULABLE, "Insufficient memory"), [ir("memory", 2, 19, 20)]),
    ("equal edge case", resource_pod(use(5, 1)), use(5, 19), (), (), None, []),
    ("equal edge case for init container", init_pod(resource_pod(use(4, 1)), use(5, 1)), use(5, 19), (), (),
     None, []),
    ("extended resource fits", resource_pod(use(s={EXT_A: 1})), use(), (), (), None, []),
    ("extended resource fits for init container", init_pod(resource_pod(use()), use(s={EXT_A: 1})), use(), (), (),
     None, []),
    ("extended resource capacity enforced", resource_pod(use(1, 1, s={EXT_A: 10})), use(0, 0, s={EXT_A: 0}), (), (),
     (UAU, f"Insufficient {EXT_A}"), [ir(EXT_A, 10, 0, 5, True)]),
    ("extended resource capacity enforced for init container",
     init_pod(resource_pod(use()), use(1, 1, s={EXT_A: 10})), use(0, 0, s={EXT_A: 0}), (), (),
     (UAU, f"Insufficient {EXT_A}"), [ir(EXT_A, 10, 0, 5, True)]),
    ("extended resource allocatable enforced", resource_pod(use(1, 1, s={EXT_A: 1})), use(0, 0, s={EXT_A: 5}), (), (),
     (Code.UNSCHEDULABLE, f"Insufficient {EXT_A}"), [ir(EXT_A, 1, 5, 5)]),
    ("extended resource allocatable enforced for init container",
     init_pod(resource_pod(use()), use(1, 1, s={EXT_A: 1})), use(0, 0, s={EXT_A: 5}), (), (),
     (Code.UNSCHEDULABLE, f"Insufficient {EXT_A}"), [ir(EXT_A, 1, 5, 5)]),
    ("extended resource allocatable enforced for multiple containers",
     resource_pod(use(1, 1, s={EXT_A: 3}), use(1, 1, s={EXT_A: 3})), use(0, 0, s={EXT_A: 2}), (), (),
     (UAU, f"Insufficient {EXT_A}"), [ir(EXT_A, 6, 2, 5, True)]),
    ("extended resource allocatable admits multiple init containers",
     init_pod(resource_pod(use()), use(1, 1, s={EXT_A: 3}), use(1, 1, s={EXT_A: 3})), use(0, 0, s={EXT_A: 2}),
     (), (), None, []),
    ("extended resource allocatable enforced for multiple init containers",
     init_pod(resource_pod(use()), use(1, 1, s={EXT_A: 6}), use(1, 1, s={EXT_A: 3})), use(0, 0, s={EXT_A: 2}),
     (), (), (UAU, f"Insufficient {EXT_A}"), [ir(EXT_A, 6, 2, 5, True)]),
    ("extended resource allocatable enforced for unknown resource", resource_pod(use(1, 1, s={EXT_B: 1})), use(),
     (), (), (UAU, f"Insufficient {EXT_B}"), [ir(EXT_B, 1, 0, 0, True)]),
    ("extended resource allocatable enforced for unknown resource for init container",
     init_pod(resource_pod(use()), use(1, 1, s={EXT_B: 1})), use(), (), (),
     (UAU, f"Insufficient {EXT_B}"), [ir(EXT_B, 1, 0, 0, True)]),
    ("kubernetes.io resource capacity enforced", resource_pod(use(1, 1, s={K8S_IO_A: 10})), use(), (), (),
     (UAU, f"Insufficient {K8S_IO_A}"), [ir(K8S_IO_A, 10, 0, 0, True)]),
    ("kubernetes.io resource capacity enforced for init container",
     init_pod(resource_pod(use()), use(1, 1, s={K8S_IO_B: 10})), use(), (), (),
     (UAU, f"Insufficient {K8S_IO_B}"), [ir(K8S_IO_B, 10, 0, 0, True)]),
    ("hugepages resource capacity enforced", resource_pod(use(1, 1, s={HUGE_A: 10})), use(0, 0, s={HUGE_A: 0}),
     (), (), (UAU, f"Insufficient {HUGE_A}"), [ir(HUGE_A, 10, 0, 5, True)]),
    ("hugepages resource capacity enforced for init container",
     init_pod(resource_pod(use()), use(1, 1, s={HUGE_A: 10})), use(0, 0, s={HUGE_A: 0}), (), (),
     (UAU, f"Insufficient {HUGE_A}"), [ir(HUGE_A, 10, 0, 5, True)]),
    ("hugepages resource allocatable enforced for multiple containers",
     resource_pod(use(1, 1, s={HUGE_A: 3}), use(1, 1, s={HUGE_A: 3})), use(0, 0, s={HUGE_A: 2}), (), (),
     (UAU, f"Insufficient {HUGE_A}"), [ir(HUGE_A, 6, 2, 5, True)]),
    ("skip checking ignored extended resource", resource_pod(use(1, 1, s={EXT_B: 1})), use(), ("example.com/bbb",),
     (), None, []),
    ("resources + pod overhead fits", overhead_pod(resource_pod(use(1, 1)), cpu=3, memory=13), use(5, 5), (), (),
     None, []),
    ("requests + overhead does not fit for memory", overhead_pod(resource_pod(use(1, 1)), cpu=1, memory=15),
     use(5, 5), (), (), (Code.UNSCHEDULABLE, "Insufficient memory"), [ir("memory", 16, 5, 20)]),
    ("skip checking ignored extended resource via resource groups",
     resource_pod(use(1, 1, s={EXT_B: 1, K8S_IO_A: 1})), use(), (), ("example.com",),
     (UAU, f"Insufficient {K8S_IO_A}"), [ir(K8S_IO_A, 1, 0, 0, True)]),
    ("skip checking extended resource request with quantity zero via resource groups",
     resource_pod(use(1, 1, s={EXT_A: 0})), use(0, 0, s={EXT_A: 6}), (), (), None, []),
    ("skip checking resource request with quantity zero", resource_pod(use(s={EXT_A: 1})),
     use(20, 30, s={EXT_A: 1}), (), (), None, []),
    ("extended resource backed by device plugin", resource_pod(use(s={EXT_A: 1})), use(), (), (), None, []),
    ("extended resource backed by DRA, nil draManager", resource_pod(use(1, 1, s={EXT_A: 1})), use(), (), (),
     None, []),
    ("extended resource backed by DRA not enabled", resource_pod(use(1, 1, s={EXT_DRA: 1})), use(), (), (),
     (UAU, f"Insufficient {EXT_DRA}"), [ir(EXT_DRA, 1, 0, 0, True)]),
    ("extended resource NOT backed by DRA", resource_pod(use(1, 1, s={EXT_B: 1})), use(), (), (),
     (UAU, f"Insufficient {EXT_B}"), [ir(EXT_B, 1, 0, 0, True)]),
    ("extended resource was backed by Device Plugin (Allocatable: 0), global cache",
     resource_pod(use(s={EXT_A: 1})), use(s={EXT_A: 0}), (), (), None, []),
]


@pytest.mark.parametrize("pod,existing,ignored,groups,want_status,want_insufficient",
                         [row[1:] for row in ENOUGH], ids=[row[0] for row in ENOUGH])
def test_enough_requests(pod, existing, ignored, groups, want_status, want_insufficient):
    node = Node(name="", capacity=make_resources(10, 20, 32, 5, 20, 5), allocatable=make_resources(10, 20, 32, 5, 20, 5))
    node_info = NodeInfo.of(node, [resource_pod(existing, name="existing")])
    args = NodeResourcesFitArgs(ignored_resources=ignored, ignored_resource_groups=groups)
    plugin, status = run_filter(args, pod, node_info)
    assert status == (Status.new(*want_status) if want_status else SUCCESS)
    got = fits_request(compute_pod_resource_request(pod), node_info, plugin.ignored_resources,
                       plugin.ignored_resource_groups)
    assert got == want_insufficient


def test_pre_filter_disabled():
    plugin = NodeResourcesFit.new(NodeResourcesFitArgs(), None)
    status = plugin.filter(CycleState(), Pod(name="p"), NodeInfo.of(Node(name="")))
    # fwk.AsStatus(err): Error code carrying the wrapped ErrNotFound ("not found").
    assert status == Status.as_status(f'error reading "{PRE_FILTER_STATE_KEY}" from cycleState: not found')


NOT_ENOUGH = [
    ("even without specified resources, predicate fails when there's no space for additional pod",
     Pod(name="p"), use(10, 20)),
    ("even if both resources fit, predicate fails when there's no space for additional pod",
     resource_pod(use(1, 1)), use(5, 5)),
    ("even for equal edge case, predicate fails when there's no space for additional pod",
     resource_pod(use(5, 1)), use(5, 19)),
    ("even for equal edge case, predicate fails when there's no space for additional pod due to init container",
     init_pod(resource_pod(use(5, 1)), use(5, 1)), use(5, 19)),
]


@pytest.mark.parametrize("pod,existing", [r[1:] for r in NOT_ENOUGH], ids=[r[0] for r in NOT_ENOUGH])
def test_not_enough_requests(pod, existing):
    node = Node(name="", allocatable=make_resources(10, 20, 1, 0, 0, 0))
    _, status = run_filter(NodeResourcesFitArgs(), pod, NodeInfo.of(node, [resource_pod(existing, name="e")]))
    assert status == Status.new(Code.UNSCHEDULABLE, "Too many pods")


STORAGE = [
    ("empty storage requested, and pod fits", resource_pod(use(1, 1)), use(2, 10), None),
    ("storage ephemeral local storage request exceeds allocatable", resource_pod(use(storage=25)), use(2, 2),
     (UAU, "Insufficient ephemeral-storage")),
    ("ephemeral local storage is sufficient", init_pod(resource_pod(use(storage=5))), use(2, 2, 10), None),
    ("pod fits", resource_pod(use(storage=10)), use(2, 2), None),
]


@pytest.mark.parametrize("pod,existing,want", [r[1:] for r in STORAGE], ids=[r[0] for r in STORAGE])
def test_storage_requests(pod, existing, want):
    res = make_resources(10, 20, 32, 5, 20, 5)
    node_info = NodeInfo.of(Node(name="", capacity=res, allocatable=res), [resource_pod(existing, name="e")])
    _, status = run_filter(NodeResourcesFitArgs(), pod, node_info)
    assert status == (Status.new(*want) if want else SUCCESS)


def _sidecar_pod(request=None, sidecar_request=None):
    return Pod(name="p", containers=(Container("regular", requests=request or {}),),
               init_containers=(Container("restartable-init", requests=sidecar_request or {}, restart_policy="Always"),))


RESTARTABLE = [
    ("allow pod without restartable init containers", Pod(name="p", containers=(Container("regular"),)), None),
    ("allow pod with restartable init containers", _sidecar_pod(), None),
    ("allow pod if the total requested resources do not exceed the node's allocatable resources",
     _sidecar_pod({"cpu": 1}, {"cpu": 1}), None),
    ("not allow pod if the total requested resources do exceed the node's allocatable resources",
     _sidecar_pod({"cpu": 1}, {"cpu": 2}), (UAU, "Insufficient cpu")),
]


@pytest.mark.parametrize("pod,want", [r[1:] for r in RESTARTABLE], ids=[r[0] for r in RESTARTABLE])
def test_restartable_init_containers(pod, want):
    node = Node(name="", allocatable=make_resources(2, 0, 1, 0, 0, 0))
    _, status = run_filter(NodeResourcesFitArgs(), pod, NodeInfo.of(node))
    assert status == (Status.new(*want) if want else SUCCESS)


# --- TestFitScore -------------------------------------------------------------------------------

def _two_nodes(cpu2="6000"):
    return [st_node("node1", {"cpu": "4000", "memory": "10000"}), st_node("node2", {"cpu": cpu2, "memory": "10000"})]


def _existing():
    return [st_pod({"cpu": "2000", "memory": "4000"}, name="e1", node="node1"),
            st_pod({"cpu": "1000", "memory": "2000"}, name="e2", node="node2")]


def _sidecar_existing():
    return [st_pod({"cpu": "1000", "memory": "2000"}, name="e1", node="node1",
                   sidecars=[{"cpu": "1000", "memory": "2000"}]),
            st_pod({"cpu": "1000", "memory": "2000"}, name="e2", node="node2")]


RTCR_DOWN = ScoringStrategy(REQUESTED_TO_CAPACITY_RATIO, DEFAULT_RESOURCES,
                            (UtilizationShapePoint(0, 10), UtilizationShapePoint(100, 0)))
RTCR_UP = ScoringStrategy(REQUESTED_TO_CAPACITY_RATIO, DEFAULT_RESOURCES,
                          (UtilizationShapePoint(0, 0), UtilizationShapePoint(100, 10)))
BIG = {"cpu": "3000", "memory": "5000"}
SMALL = {"cpu": "1000", "memory": "2000"}

FIT_SCORE = [
    ("test case for ScoringStrategy RequestedToCapacityRatio case1", BIG, _two_nodes(), _existing(), RTCR_DOWN,
     True, [10, 32]),
    ("test case for ScoringStrategy RequestedToCapacityRatio case2", BIG, _two_nodes(), _existing(), RTCR_UP,
     True, [95, 68]),
    ("test case for ScoringStrategy MostAllocated", SMALL, _two_nodes(), _existing(),
     ScoringStrategy(MOST_ALLOCATED), True, [67, 36]),
    ("test case for ScoringStrategy LeastAllocated", SMALL, _two_nodes(), _existing(),
     ScoringStrategy(LEAST_ALLOCATED), True, [32, 63]),
    ("test case for ScoringStrategy RequestedToCapacityRatio case1 if PreScore is not called", BIG, _two_nodes(),
     _existing(), RTCR_DOWN, False, [10, 32]),
    ("test case for ScoringStrategy MostAllocated if PreScore is not called", SMALL, _two_nodes(), _existing(),
     ScoringStrategy(MOST_ALLOCATED), False, [67, 36]),
    ("test case for ScoringStrategy LeastAllocated if PreScore is not called", SMALL, _two_nodes(), _existing(),
     ScoringStrategy(LEAST_ALLOCATED), False, [32, 63]),
    ("test case for ScoringStrategy MostAllocated with sidecar container", SMALL, _two_nodes("4000"),
     _sidecar_existing(), ScoringStrategy(MOST_ALLOCATED), True, [67, 45]),
    ("test case for ScoringStrategy LeastAllocated with sidecar container", SMALL, _two_nodes("4000"),
     _sidecar_existing(), ScoringStrategy(LEAST_ALLOCATED), True, [32, 55]),
]


@pytest.mark.parametrize("request_,nodes,existing,strategy,run_pre_score,want",
                         [r[1:] for r in FIT_SCORE], ids=[r[0] for r in FIT_SCORE])
def test_fit_score(request_, nodes, existing, strategy, run_pre_score, want):
    pod = st_pod(request_)
    snapshot = Snapshot(nodes, existing)
    plugin = NodeResourcesFit.new(NodeResourcesFitArgs(scoring_strategy=strategy), None)
    state = CycleState()
    got = []
    for n in nodes:
        if run_pre_score:
            assert plugin.pre_score(state, pod, snapshot.node_info_list) == SUCCESS
        score, status = plugin.score(state, pod, snapshot.get(n.name))
        assert status == SUCCESS
        got.append(score)
    assert got == want


def test_events_to_register_at_v1_37_1_defaults():
    """Derived from EventsToRegister with DRAExtendedResource and InPlacePodVerticalScaling on
    (both GA in v1.37.2), InPlacePodVerticalScalingSchedulerPreemption off."""
    events = [(e.event.resource, e.event.action_type) for e in NodeResourcesFit.new(None, None).events_to_register()]
    assert events == [
        ("AssignedPod", ActionType.DELETE),
        ("Node", ActionType.ADD | ActionType.UPDATE_NODE_ALLOCATABLE),
        ("resource.k8s.io/DeviceClass", ActionType.ADD | ActionType.UPDATE),
        ("AssignedPod", ActionType.UPDATE_POD_SCALE_DOWN),
        ("TargetPod", ActionType.UPDATE_POD_SCALE_DOWN),
    ]


# --- queueing hints -----------------------------------------------------------------------------

CPU1 = {"cpu": "1"}

ASSIGNED_POD_DELETE = [
    ("backoff-wrong-old-object", Pod(name=""), "not-a-pod", QUEUE, True),
    ("queue-on-other-pod-deleted", st_pod(CPU1, name="pod1"), st_pod(CPU1, name="pod2", node="fake"), QUEUE, False),
    ("skip-queue-on-unscheduled-pod-deleted", Pod(name=""), Pod(name=""), SKIP, False),
    ("queue-on-nominated-pod-deleted", st_pod(CPU1, name="pod1"), st_pod({"cpu": "2"}, name="pod2", nominated="fake"),
     QUEUE, False),
]


@pytest.mark.parametrize("pod,old,want,want_err", [r[1:] for r in ASSIGNED_POD_DELETE],
                         ids=[r[0] for r in ASSIGNED_POD_DELETE])
def test_is_schedulable_after_assigned_pod_delete(pod, old, want, want_err):
    hint, err = after_assigned_pod_delete(pod, old, None)
    assert (err is not None) == want_err
    assert hint is want


def test_is_schedulable_after_target_pod_scale_down():
    assert after_target_pod_scale_down(st_pod(CPU1, name="pod1"), None, None) == (QUEUE, None)


ASSIGNED_SCALE_DOWN = [
    ("backoff-wrong-old-object", Pod(name=""), "not-a-pod", None, QUEUE, True),
    ("backoff-wrong-new-object", Pod(name=""), None, "not-a-pod", QUEUE, True),
    ("skip-queue-on-other-unscheduled-pod", st_pod(CPU1, name="pod1"), st_pod({"cpu": "2"}, name="pod2"),
     st_pod(CPU1, name="pod2"), SKIP, False),
    ("skip-queue-on-other-pod-unrelated-resource-scaled-down", st_pod(CPU1, name="pod1"),
     st_pod({"memory": "2"}, name="pod2", node="fake"), st_pod({"memory": "1"}, name="pod2", node="fake"), SKIP, False),
    ("queue-on-other-pod-some-resource-scale-down", st_pod(CPU1, name="pod1"),
     st_pod({"cpu": "2"}, name="pod2", node="fake"), st_pod(CPU1, name="pod2", node="fake"), QUEUE, False),
]


@pytest.mark.parametrize("pod,old,new,want,want_err", [r[1:] for r in ASSIGNED_SCALE_DOWN],
                         ids=[r[0] for r in ASSIGNED_SCALE_DOWN])
def test_is_schedulable_after_assigned_pod_scale_down(pod, old, new, want, want_err):
    hint, err = after_assigned_pod_scale_down(pod, old, new)
    assert (err is not None) == want_err
    assert hint is want


MEM2_A1 = resource_pod(use(mem=2, s={EXT_A: 1}))

NODE_CHANGE = [
    ("backoff-wrong-new-object", Pod(name=""), None, "not-a-node", QUEUE, True),
    ("backoff-wrong-old-object", Pod(name=""), "not-a-node", Node(name=""), QUEUE, True),
    ("skip-queue-on-node-add-without-sufficient-resources", resource_pod(use(mem=2)), None,
     st_node(capacity={"memory": "1"}), SKIP, False),
    ("skip-queue-on-node-add-without-required-resource-type", resource_pod(use(s={EXT_A: 1})), None,
     st_node(capacity={EXT_B: "1"}), SKIP, False),
    ("queue-on-node-add-with-sufficient-resources", MEM2_A1, None, st_node(capacity={"memory": "4", EXT_A: "2"}),
     QUEUE, False),
    ("skip-queue-on-node-unrelated-changes", MEM2_A1, st_node(capacity={"memory": "2", EXT_A: "2"}),
     st_node(capacity={"memory": "2", EXT_A: "1", EXT_B: "2"}), SKIP, False),
    ("queue-on-pod-requested-resources-increase", MEM2_A1, st_node(capacity={"memory": "2", EXT_A: "1"}),
     st_node(capacity={"memory": "2", EXT_A: "2"}), QUEUE, False),
    ("skip-queue-on-node-changes-from-suitable-to-unsuitable", MEM2_A1, st_node(capacity={"memory": "4", EXT_A: "2"}),
     st_node(capacity={"memory": "1", EXT_A: "2"}), SKIP, False),
    ("queue-on-node-changes-from-unsuitable-to-suitable", MEM2_A1, st_node(capacity={"memory": "1", EXT_A: "2"}),
     st_node(capacity={"memory": "4", EXT_A: "2"}), QUEUE, False),
]


@pytest.mark.parametrize("pod,old,new,want,want_err", [r[1:] for r in NODE_CHANGE], ids=[r[0] for r in NODE_CHANGE])
def test_is_schedulable_after_node_change(pod, old, new, want, want_err):
    hint, err = after_node_change(pod, old, new)
    assert (err is not None) == want_err
    assert hint is want


GPU = "example.com/gpu"
IMPLICIT = "deviceclass.resource.kubernetes.io/gpuclass"

DEVICE_CLASS = [
    ("backoff-wrong-new-object", Pod(name=""), None, "not-a-class", QUEUE, True),
    ("backoff-wrong-old-object", Pod(name=""), "not-a-class", DeviceClass(""), QUEUE, True),
    ("skip-queue-on-class-nil-extended-resource-name-pointer", resource_pod(use(mem=2)), DeviceClass(""),
     DeviceClass(""), SKIP, False),
    ("skip-queue-on-class-same-extended-resource-name-pointer", resource_pod(use(mem=2)), DeviceClass("", GPU),
     DeviceClass("", GPU), SKIP, False),
    ("skip-queue-on-class-same-extended-resource-name", resource_pod(use(mem=2)), DeviceClass("", GPU),
     DeviceClass("", GPU), SKIP, False),
    ("queue-on-class-add-with-implicit-extended-resource-name", resource_pod(use(s={IMPLICIT: 1})), None,
     DeviceClass("gpuclass", GPU), QUEUE, False),
    ("skip-on-class-add-with-implicit-extended-resource-name-not-matching", resource_pod(use(s={IMPLICIT: 1})), None,
     DeviceClass("myclass", GPU), SKIP, False),
    ("skip-on-class-add-with-explicit-extended-resource-name-not-matching",
     resource_pod(use(s={"example.com/othergpu": 1})), None, DeviceClass("myclass", GPU), SKIP, False),
    ("skip-on-class-update-with-implicit-extended-resource-name", resource_pod(use(s={IMPLICIT: 1})),
     DeviceClass("gpuclass"), DeviceClass("gpuclass", GPU), SKIP, False),
    ("queue-on-class-add-with-extended-resource-name", resource_pod(use(s={GPU: 1})), None, DeviceClass("", GPU),
     QUEUE, False),
    ("queue-on-class-update-with-extended-resource-name", resource_pod(use(s={GPU: 1})), DeviceClass("", GPU + "1"),
     DeviceClass("", GPU), QUEUE, False),
]


@pytest.mark.parametrize("pod,old,new,want,want_err", [r[1:] for r in DEVICE_CLASS], ids=[r[0] for r in DEVICE_CLASS])
def test_is_schedulable_after_device_class_change(pod, old, new, want, want_err):
    hint, err = after_device_class_event(pod, old, new)
    assert (err is not None) == want_err
    assert hint is want


IS_FIT = [
    ("nil node", Pod(name=""), None, False),
    ("insufficient resource", st_pod({"cpu": "2"}), st_node(capacity={"cpu": "1"}), False),
    ("sufficient resource", st_pod({"cpu": "1"}), st_node(capacity={"cpu": "2"}), True),
]


@pytest.mark.parametrize("pod,node,want", [r[1:] for r in IS_FIT], ids=[r[0] for r in IS_FIT])
def test_is_fit(pod, node, want):
    assert is_fit(pod, node) is want


def _caps(**kv):
    names = {"pods": "pods", "cpu": "cpu", "mem": "memory", "storage": "ephemeral-storage", "a": EXT_A, "dra": EXT_DRA}
    return st_node(capacity={names[k]: v for k, v in kv.items()})


FULL_REQUEST = resource_pod(use(2, 2, 2, s={EXT_A: 2}))
INCREASED = [
    ("no-requested-resources", resource_pod(use()), _caps(pods="1", cpu="1", mem="1", storage="1", a="1"),
     _caps(pods="1", cpu="2", mem="2", storage="2", a="2"), False),
    ("no-requested-resources-pods-increased", resource_pod(use()),
     _caps(pods="1", cpu="1", mem="1", storage="1", a="1"), _caps(pods="2", cpu="1", mem="1", storage="1", a="1"), True),
    ("requested-resources-dra-in-node", resource_pod(use(2, 2, 2, s={EXT_DRA: 2})),
     _caps(cpu="1", mem="2", storage="3", dra="4"), _caps(cpu="1", mem="2", storage="1", dra="1"), False),
    ("scalar-resources-not-in-node", FULL_REQUEST, _caps(cpu="1", mem="2", storage="3"),
     _caps(cpu="1", mem="2", storage="1"), False),
    ("requested-resources-decreased", FULL_REQUEST, _caps(cpu="1", mem="2", storage="3", a="4"),
     _caps(cpu="1", mem="2", storage="1", a="1"), False),
    ("requested-resources-increased", FULL_REQUEST, _caps(cpu="1", mem="2", storage="3", a="4"),
     _caps(cpu="3", mem="4", storage="3", a="4"), True),
    ("non-requested-resources-decreased", resource_pod(use(2, 2)), _caps(cpu="1", mem="2", storage="3", a="4"),
     _caps(cpu="1", mem="2", storage="1", a="1"), False),
    ("non-requested-resources-increased", resource_pod(use(2, 2)), _caps(cpu="1", mem="2", storage="3", a="4"),
     _caps(cpu="1", mem="2", storage="5", a="6"), False),
]


@pytest.mark.parametrize("pod,original,modified,want", [r[1:] for r in INCREASED], ids=[r[0] for r in INCREASED])
def test_have_any_requested_resources_increased(pod, original, modified, want):
    assert have_any_requested_resources_increased(pod, original, modified) is want


# --- args: v1 defaults and TestValidateFitArgs ----------------------------------------------

def test_defaults_not_set():
    assert NodeResourcesFitArgs.from_config({}, "args") == NodeResourcesFitArgs(
        scoring_strategy=ScoringStrategy(LEAST_ALLOCATED, (ResourceSpec("cpu", 1), ResourceSpec("memory", 1))))


def test_defaults_resources_empty():
    args = NodeResourcesFitArgs.from_config({"scoringStrategy": {"type": "MostAllocated"}}, "args")
    assert args.scoring_strategy == ScoringStrategy(MOST_ALLOCATED, DEFAULT_RESOURCES)


def test_defaults_zero_weight_becomes_one_and_round_trip():
    raw = {"ignoredResources": ["example.com/foo"],
           "scoringStrategy": {"type": "RequestedToCapacityRatio", "resources": [{"name": "cpu"}],
                               "requestedToCapacityRatio": {"shape": [{"utilization": 0, "score": 10}]}}}
    args = NodeResourcesFitArgs.from_config(raw, "args")
    assert args.scoring_strategy.resources == (ResourceSpec("cpu", 1),)
    assert NodeResourcesFitArgs.from_config(args.to_config(), "args") == args


DEFAULT_STRATEGY = ScoringStrategy(LEAST_ALLOCATED, DEFAULT_RESOURCES)
VALIDATE_FIT = [
    ("IgnoredResources: too long value", NodeResourcesFitArgs(ignored_resources=("longvalue" + "a" * 64,)),
     "name part must be no more than 63 bytes"),
    ("IgnoredResources: name is empty", NodeResourcesFitArgs(ignored_resources=("example.com/",)),
     "name part must be non-empty"),
    ("IgnoredResources: name has too many slash", NodeResourcesFitArgs(ignored_resources=("example.com/aaa/bbb",)),
     "a valid label key must consist of"),
    ("IgnoredResources: valid args", NodeResourcesFitArgs(ignored_resources=("example.com",)), None),
    ("IgnoredResourceGroups: valid args ", NodeResourcesFitArgs(ignored_resource_groups=("example.com",)), None),
    ("IgnoredResourceGroups: illegal args", NodeResourcesFitArgs(ignored_resource_groups=("example.com/",)),
     "name part must be non-empty"),
    ("IgnoredResourceGroups: name is too long", NodeResourcesFitArgs(ignored_resource_groups=("a" * 64,)),
     "name part must be no more than 63 bytes"),
    ("IgnoredResourceGroups: name cannot be contain slash",
     NodeResourcesFitArgs(ignored_resource_groups=("example.com/aa",)), "resource group name can't contain '/'"),
    ("ScoringStrategy: field is required", NodeResourcesFitArgs(scoring_strategy=None),
     "ScoringStrategy field is required"),
    ("ScoringStrategy: type is unsupported", NodeResourcesFitArgs(scoring_strategy=ScoringStrategy("Invalid", ())),
     'Unsupported value: "Invalid"'),
    ("ScoringStrategy: requestedToCapacityRatio field is missing",
     NodeResourcesFitArgs(scoring_strategy=ScoringStrategy(REQUESTED_TO_CAPACITY_RATIO, ())),
     "must be specified when type is RequestedToCapacityRatio"),
]


@pytest.mark.parametrize("args,expect", [r[1:] for r in VALIDATE_FIT], ids=[r[0] for r in VALIDATE_FIT])
def test_validate_fit_args(args, expect):
    if expect is None:
        assert NodeResourcesFit.new(args, None) is not None
        return
    with pytest.raises(ConfigError) as err:
        NodeResourcesFit.new(args, None)
    assert expect in str(err.value)


def test_validation_messages_are_upstream_text_under_the_given_path():
    path = "profiles[0].pluginConfig[1].args"
    with pytest.raises(ConfigError) as err:
        NodeResourcesFitArgs.from_config({"scoringStrategy": {"type": "Foo"}}, path)
    assert err.value.field == f"{path}.scoringStrategy.type"
    assert str(err.value) == (f'{path}.scoringStrategy.type: Unsupported value: "Foo": supported values: '
                              '"LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"')
    with pytest.raises(ConfigError) as err:
        NodeResourcesFitArgs.from_config(
            {"scoringStrategy": {"type": "LeastAllocated", "requestedToCapacityRatio": {"shape": []}}}, path)
    assert str(err.value) == (f"{path}.scoringStrategy.requestedToCapacityRatio: Forbidden: "
                              "must be nil when type is not RequestedToCapacityRatio")
    with pytest.raises(ConfigError) as err:
        NodeResourcesFitArgs.from_config({"ignoredResourceGroups": ["a/b"]}, "")
    assert str(err.value) == ("ignoredResourceGroups[0]: Invalid value: \"a/b\": resource group name can't "
                              "contain '/'")


def test_unknown_field_is_rejected():
    with pytest.raises(ConfigError, match="unknown field 'scoringStrategyy'"):
        NodeResourcesFitArgs.from_config({"scoringStrategyy": {}}, "args")
