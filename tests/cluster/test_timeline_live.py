"""The local control plane applies a scenario's timeline through the API: the pods end as on the reference
(bound or pending, and the node), every event is recorded in order at its wall-clock offset, the event
invariants hold on the outcome; a change the API server refuses fails the scenario in one line and leaves
nothing behind."""

import time

import pytest

from conformance.backends.reference import ReferenceBackend
from conformance.cluster.backend import ClusterBackend
from conformance.cluster.kube import path
from conformance.cluster.naming import RUN_LABEL
from conformance.core.errors import BackendFailure
from conformance.invariants import Run, check_all
from reference.scenario import Scenario

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
    return Scenario.from_dict({"nodes": [node()], "pods": [], "workload": [], **objects, "timeline": timeline})


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
