"""The local control plane applies a scenario's timeline through the API: the pods end as on the reference
(bound or pending, and the node), every event is recorded in order at its wall-clock offset, the event
invariants hold on the outcome; a change the API server refuses fails the scenario in one line and leaves
nothing behind."""

import time

import pytest

from conformance.backends.reference import ReferenceBackend
from conformance.cluster.backend import ClusterBackend
from conformance.cluster.cleanup import delete_namespace
from conformance.cluster.kube import KubeError, path
from conformance.cluster.naming import RUN_LABEL, new_run_id
from conformance.core.errors import BackendFailure
from conformance.differential import find_disagreement, timeline_scenarios_for
from conformance.invariants import Run, check_all
from reference.scenario import Scenario

from ..conformance.invariants.test_event_rules import never_ungates
from ..conformance.test_timeline_upstream import CASES
from ..conformance.test_timeline_reference import node, pod
from .test_live import kube  # noqa: F401 (a fixture)

# One of each way an event reaches the scheduler: a freed room, a node's labels and taints, a pending pod's
# toleration, resize and gate, an assigned pod's labels, pods the timeline creates.
LIVE = ("timed-delete-frees-room", "relabelled-node", "removed-taint", "added-toleration", "lowered-requests",
        "removed-gate", "relabelled-bound-pod", "created-pods")


@pytest.fixture(scope="module")
def backend(control_plane):
    b = ClusterBackend(control_plane=control_plane)
    yield b
    b.close()


def _scenario(case: str) -> Scenario:
    timeline, objects = CASES[case]
    data = {"nodes": [node()], "pods": [], "workload": [], **objects, "timeline": timeline}
    return Scenario.from_dict(data)


def fates(outcome) -> dict:
    return {k: (p.phase == "bound", p.node) for k, p in outcome.pods.items()}


@pytest.mark.parametrize("case", LIVE)
def test_the_cluster_ends_where_the_reference_ends(backend, case):
    scenario = _scenario(case)
    start = time.monotonic()
    got = backend.run(scenario)
    took = time.monotonic() - start
    want = ReferenceBackend().run(scenario)
    assert fates(got) == fates(want), got.pods
    assert [e["index"] for e in got.timeline] == list(range(len(scenario.timeline)))
    ats = [e["at"] for e in got.timeline]
    assert ats == sorted(ats)
    for event, applied in zip(scenario.timeline, got.timeline):
        if event["when"] != "idle":
            assert event["when"] <= applied["at"] < event["when"] + 1.0, (event, applied)
    assert got.deleted == ()
    check_all(Run(scenario, got, backend.capabilities))
    print(f"[timeline] {case}: {took:.2f} s")


def deaf(sched) -> None:
    """A reference that loses every wake-up: no event moves a pending pod, a removed gate frees none."""
    never_ungates(sched)
    sched.queue.move_all_to_active_or_backoff = lambda *args, **kwargs: None


def test_the_differential_under_idle_events_catches_a_scheduler_that_loses_wake_ups(backend):
    # The cluster differential's timeline search (conformance/suite/test_differential.py): one pod, idle
    # events only, on a wall clock. The unmutated reference agrees with the cluster there
    # (tests/cluster/test_suite_subset.py); one that never wakes a pod must not.
    strategy = timeline_scenarios_for(extenders=False, max_pods=1, idle_only=True)
    failure = find_disagreement(backend, ReferenceBackend(hook=deaf), strategy, max_examples=15, shrink=False)
    assert failure is not None, "a reference that loses every wake-up agreed with the cluster"
    assert failure.scenario.timeline and "bound" in str(failure.violation), failure.violation


def test_a_refused_change_fails_the_scenario_in_one_line_and_leaves_nothing(control_plane, kube):
    # Lowering a Guaranteed pod's request makes it Burstable: ValidatePodResize refuses that, the
    # reference's validation does not model QoS classes.
    guaranteed = {"requests": {"cpu": "1", "memory": "1Gi"}, "limits": {"cpu": "1", "memory": "1Gi"}}
    lowered = {"requests": {"cpu": "500m", "memory": "1Gi"}, "limits": {"cpu": "1", "memory": "1Gi"}}
    p = pod("p", cpu="2")
    p["spec"]["containers"][0]["resources"] = guaranteed
    scenario = Scenario.from_dict({"nodes": [node(cpu="4")], "workload": [p], "timeline": [
        {"when": 0.5, "op": "update", "kind": "Pod", "name": "p",
         "patch": {"spec": {"containers": [{"name": "c", "resources": lowered}]}}}]})
    b = ClusterBackend(control_plane=control_plane)
    try:
        with pytest.raises(BackendFailure) as failure:
            b.run(scenario)
        message = str(failure.value)
        print(f"[timeline] refused: {message}")
        assert "\n" not in message
        assert message.startswith("scenario.timeline[0] (update Pod default/p): the API server refused it: ")
        assert "QOS Class may not change" in message and "scc-" not in message
        assert _left(kube, b.run_id) == ([], [], [])
    finally:
        b.close()


def _left(kube, run_id: str) -> tuple:
    """The run's nodes, pods and namespaces (its classes of bare priorities live until close())."""
    selector = f"{RUN_LABEL}={run_id}"
    nodes, _ = kube.list(path("Node"), label_selector=selector)
    pods, _ = kube.list(path("Pod"), label_selector=selector)
    namespaces = [n["metadata"]["name"] for n in kube.list(path("Namespace"))[0]
                  if n["metadata"]["name"].startswith(f"scc-{run_id}-")]
    return nodes, pods, namespaces


def _every_kind() -> Scenario:
    """One event of each op on each kind a timeline names, in an order the reference validates."""
    ns = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team", "labels": {"tier": "a"}}}
    pdb = {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
           "metadata": {"name": "b", "namespace": "team"},
           "spec": {"minAvailable": 1, "selector": {"matchLabels": {"app": "x"}}}}
    svc = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"},
           "spec": {"selector": {"app": "x"}}}
    rs = {"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "r"},
          "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "x"}}}}
    rc = {"apiVersion": "v1", "kind": "ReplicationController", "metadata": {"name": "c"},
          "spec": {"replicas": 1, "selector": {"app": "x"}}}
    ss = {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "t"},
          "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "x"}}, "serviceName": "s"}}
    pc = {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "high"},
          "value": 1000}
    rtc = {"apiVersion": "node.k8s.io/v1", "kind": "RuntimeClass", "metadata": {"name": "rt"}, "handler": "h",
           "overhead": {"podFixed": {"cpu": "100m"}}}
    late = pod("late", cpu="100m", priorityClassName="high", priority=1000)
    late["metadata"]["namespace"] = "team"
    timeline = [
        *({"when": 0, "op": "create", "object": m} for m in (ns, pdb, svc, rs, rc, ss, pc, rtc, node("n2"))),
        {"when": 0.5, "op": "create", "object": late},
        {"when": 0.5, "op": "create", "object": pod("bound", cpu="100m", node_name="n2")},
        {"when": 1, "op": "update", "kind": "Namespace", "name": "team",
         "patch": {"metadata": {"labels": {"tier": "b"}}}},
        {"when": 1, "op": "update", "kind": "PodDisruptionBudget", "namespace": "team", "name": "b",
         "patch": {"spec": {"minAvailable": None, "maxUnavailable": 1}}},
        {"when": 1, "op": "update", "kind": "Service", "name": "s",
         "patch": {"spec": {"selector": {"app": "y"}}}},
        {"when": 1, "op": "update", "kind": "ReplicaSet", "name": "r", "patch": {"spec": {"replicas": 2}}},
        {"when": 1, "op": "update", "kind": "ReplicationController", "name": "c",
         "patch": {"spec": {"selector": {"app": "y"}}}},
        {"when": 1, "op": "update", "kind": "PriorityClass", "name": "high",
         "patch": {"metadata": {"labels": {"l": "1"}}}},
        {"when": 1, "op": "update", "kind": "Node", "name": "n2",
         "patch": {"spec": {"unschedulable": True},
                   "status": {"conditions": [{"type": "Ready", "status": "True"}]}}},
        {"when": 1, "op": "update", "kind": "Pod", "name": "bound",
         "patch": {"metadata": {"labels": {"app": "x"}}}},
        *({"when": "idle", "op": "delete", "kind": k, "name": n,
           **({"namespace": "team"} if k in ("Pod", "PodDisruptionBudget") else {})} for k, n in (
            ("Pod", "late"), ("PodDisruptionBudget", "b"), ("Namespace", "team"), ("Service", "s"),
            ("ReplicaSet", "r"), ("ReplicationController", "c"), ("StatefulSet", "t"),
            ("PriorityClass", "high"), ("RuntimeClass", "rt"), ("Node", "n2"))),
    ]
    # p fits only n1: the reference may bind it after n2 joins at 0, the cluster before.
    only_n1 = pod("p", cpu="100m", nodeSelector={"zone": "a"})
    return Scenario.from_dict({"nodes": [node(labels={"zone": "a"})], "workload": [only_n1],
                               "timeline": timeline})


def test_every_kind_and_op_a_timeline_names_is_accepted(backend, kube):
    scenario = _every_kind()
    got = backend.run(scenario)
    assert [e["index"] for e in got.timeline] == list(range(len(scenario.timeline)))
    assert fates(got) == fates(ReferenceBackend().run(scenario)) == {"default/p": (True, "n1")}
    check_all(Run(scenario, got, backend.capabilities))
    assert _left(kube, backend.run_id) == ([], [], [])


def test_the_local_api_server_lowers_a_pending_pods_requests_only_through_resize(kube):
    ns = f"scc-{new_run_id()}-resize"
    kube.create(path("Namespace"), {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}})
    try:
        kube.create(path("ServiceAccount", ns), {"apiVersion": "v1", "kind": "ServiceAccount",
                                                 "metadata": {"name": "default"}})
        kube.create(path("Pod", ns), {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {
            "schedulerName": "nobody", "containers": [{"name": "c", "image": "x", "resources": {
                "requests": {"cpu": "1"}}}]}})
        lowered = {"spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "500m"}}}]}}
        with pytest.raises(KubeError) as refused:
            kube.merge_patch(path("Pod", ns, "p"), lowered)
        assert refused.value.status == 422 and "pod updates may not change fields" in refused.value.message
        live = kube.get(path("Pod", ns, "p"))
        body = {"spec": {"containers": [{**live["spec"]["containers"][0], **lowered["spec"]["containers"][0]}]}}
        resized = kube.merge_patch(path("Pod", ns, "p", "resize"), body)
        assert resized["spec"]["containers"][0]["resources"]["requests"] == {"cpu": "500m"}
    finally:
        delete_namespace(kube, ns, finalize=True)
