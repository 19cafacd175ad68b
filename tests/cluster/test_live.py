"""Against the real control plane (etcd + kube-apiserver + kube-scheduler from harness/bin)."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from conformance.cluster import apply, cleanup
from conformance.builds.builder import pinned_version
from conformance.cluster.adapt import Adapter, scenario_namespaces
from conformance.cluster.backend import ClusterBackend
from conformance.cluster.kube import Kube, path
from conformance.cluster.naming import RUN_LABEL, NamespaceMap

from .scenarios import FIXED, node, pod, scenario
from .test_kind_cli import _parser


@pytest.fixture(scope="module")
def kube(control_plane):
    k = Kube.connect(str(control_plane.kubeconfig))
    yield k
    k.close()


@pytest.fixture
def backend(control_plane):
    b = ClusterBackend(control_plane=control_plane)
    yield b
    b.close()


def _suite_objects(kube):
    """Everything with the run label, and every run namespace, whatever its labels."""
    found = cleanup.find(kube)
    pods, _ = kube.list(path("Pod"), label_selector=RUN_LABEL)
    namespaces = [n["metadata"]["name"] for n in kube.list(path("Namespace"))[0]
                  if n["metadata"]["name"].startswith("scc-")]
    return found, pods, namespaces


def test_up_again_finds_it_running(control_plane, capsys):
    server = control_plane.status().server
    start = time.monotonic()
    status = control_plane.up()
    assert time.monotonic() - start < 1.0 and status.server == server and status.ready
    assert all(c.running for c in status.components)
    with capsys.disabled():
        print(f"\n[cluster] control plane start: {control_plane.measured_start:.2f} s "
              f"(etcd + apiserver ready: {status.start_seconds} s)")


def test_fixed_scenarios_give_the_expected_outcomes(backend):
    bound, unsched, selected, preempt, gated = (backend.run(s) for s in FIXED)
    assert (bound.pods["default/pod-0"].phase, bound.pods["default/pod-0"].node) == ("bound", "node-1")
    assert bound.bindings[0]["pod"] == "default/pod-0" and bound.bindings[0]["node"] == "node-1"
    assert bound.events[-1] == {"pod": "default/pod-0", "type": "Normal", "reason": "Scheduled",
                                "message": "Successfully assigned default/pod-0 to node-1"}
    p = unsched.pods["default/pod-0"]
    assert p.phase == "unschedulable" and p.condition["reason"] == "Unschedulable"
    assert p.condition["message"].startswith("0/1 nodes are available: 1 Insufficient cpu.")
    assert unsched.events[0]["reason"] == "FailedScheduling"
    assert selected.pods["default/pod-0"].node == "node-1"
    assert preempt.deleted == ("default/low",)
    assert (preempt.pods["default/pod-0"].phase, preempt.pods["default/pod-0"].node) == ("bound", "node-0")
    assert gated.pods["default/pod-0"].phase == "gated" and gated.pods["default/pod-0"].condition is None
    assert all(o.backend == "cluster" and o.kubernetes_version == pinned_version() and o.plugins == {}
               for o in (bound, unsched, selected, preempt, gated))


def test_differential_against_the_reference(backend):
    from conformance.backends.reference import ReferenceBackend
    reference = ReferenceBackend()
    for i, s in enumerate(FIXED):
        ours, theirs = backend.run(s), reference.run(s)
        assert {k: (v.phase, v.node) for k, v in ours.pods.items()} == \
               {k: (v.phase, v.node) for k, v in theirs.pods.items()}, f"FIXED[{i}]"
        assert set(ours.deleted) == set(theirs.deleted), f"FIXED[{i}]"


def test_scenario_objects_are_valid_api_objects(backend):
    victim = pod("old", "1", node_name="node-0", namespace="team")
    victim["status"] = {"phase": "Running"}
    objects = [
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team", "labels": {"tier": "a"}}},
        {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "pdb", "namespace": "team"},
         "spec": {"selector": {"matchLabels": {"app": "a"}}, "maxUnavailable": 1}, "status": {"disruptionsAllowed": 1}},
        {"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "rs", "namespace": "team"},
         "spec": {"selector": {"matchLabels": {"app": "a"}}}},
        {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "ss"},
         "spec": {"selector": {"matchLabels": {"app": "s"}}}},
        {"apiVersion": "v1", "kind": "ReplicationController", "metadata": {"name": "rc"}, "spec": {"selector": {"app": "r"}}},
        {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "svc"}, "spec": {"selector": {"app": "a"}}},
    ]
    owned = pod("pod-0", priority=5, overhead={"cpu": "10m"},
                affinity={"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                    {"labelSelector": {}, "topologyKey": "kubernetes.io/hostname", "namespaces": ["team"]}]}})
    owned["metadata"]["ownerReferences"] = [{"kind": "ReplicaSet", "name": "rs", "controller": True}]
    out = backend.run(scenario(nodes=[node("node-0"), node("node-1")], pods=[victim], objects=objects,
                               workload=[owned]))
    assert (out.pods["default/pod-0"].phase, out.pods["default/pod-0"].node) == ("bound", "node-0")


def test_scenario_classes_are_applied_and_removed_with_the_scenario(backend, kube, monkeypatch):
    from conformance.cluster.naming import SCENARIO_LABEL
    classes = [{"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "high"},
                "value": 100, "preemptionPolicy": "Never"},
               {"apiVersion": "node.k8s.io/v1", "kind": "RuntimeClass", "metadata": {"name": "kata"},
                "handler": "kata", "overhead": {"podFixed": {"cpu": "500m"}}}]
    # Only with the class's overhead is pod-0 too big for what "low" leaves (1 + 0.5 > 1 CPU); only
    # with its preemption policy Never does it not preempt "low".
    s = scenario(nodes=[node("node-0", "2")], pods=[pod("low", "1", priority=1, node_name="node-0")], objects=classes,
                 workload=[pod("pod-0", "1", priority=100, priorityClassName="high", preemptionPolicy="Never",
                               runtimeClassName="kata", overhead={"cpu": "500m"})])
    seen = {}
    create = apply.setup

    def setup(k, plan):
        create(k, plan)
        for kind in ("PriorityClass", "RuntimeClass"):
            seen[kind] = [c["metadata"]["name"] for c in k.list(path(kind), label_selector=SCENARIO_LABEL)[0]]
    monkeypatch.setattr(apply, "setup", setup)
    out = backend.run(s)
    run, n = backend.run_id, backend._count
    assert seen == {"PriorityClass": [f"scc-{run}-{n}-high"], "RuntimeClass": [f"scc-{run}-{n}-kata"]}
    assert out.pods["default/pod-0"].phase == "unschedulable" and out.deleted == ()
    assert "Insufficient cpu" in out.pods["default/pod-0"].condition["message"]
    assert [f for f in cleanup.find(kube, run) if f.kind in ("PriorityClass", "RuntimeClass")
            and f.name.startswith(f"scc-{run}-{n}-")] == [], "the scenario's classes go with the scenario"


def test_the_not_ready_taint_the_api_server_adds_is_lifted(backend, kube):
    raw = kube.create(path("Node"), {"metadata": {"name": "probe-taint", "labels": {RUN_LABEL: backend.run_id}}})
    assert "node.kubernetes.io/not-ready" in [t["key"] for t in raw["spec"]["taints"]], "admission is on here"
    kube.delete(path("Node", name="probe-taint"))
    s = scenario(nodes=[node("node-0")])
    nsmap = NamespaceMap.of(backend.run_id, 99, scenario_namespaces(s))
    plan = Adapter(backend.run_id).plan(s, nsmap)
    apply.setup(kube, plan)
    try:
        assert kube.get(path("Node", name="node-0"))["spec"]["taints"] == plan.nodes[0]["spec"]["taints"]
    finally:
        cleanup.remove_scenario(kube, backend.run_id, 99, nsmap.forward.values(), finalize=True)


def test_scheduler_is_reused_while_the_config_is_unchanged(backend, control_plane):
    s = FIXED[0]
    pid = lambda: control_plane.state.read()["kube-scheduler"]["pid"]  # noqa: E731
    backend.run(s)
    first = pid()
    backend.run(s)
    assert pid() == first
    changed = scenario(config={"percentageOfNodesToScore": 50}, nodes=list(s.nodes), workload=list(s.workload))
    assert backend.run(changed).pods["default/pod-0"].node == "node-1"
    assert pid() != first
    second = pid()
    backend.run(s)
    assert pid() not in (first, second)


def test_fresh_scheduler_queues_the_workload_together(control_plane):
    s = scenario(nodes=[node("node-0", "2")], workload=[pod("low", "2", priority=1), pod("high", "2", priority=10)])
    b = ClusterBackend(control_plane=control_plane, fresh_scheduler=True)
    try:
        out = b.run(s)
    finally:
        b.close()
    assert out.pods["default/high"].phase == "bound" and out.pods["default/low"].phase == "unschedulable"
    assert out.deleted == ()


def test_probes_are_reported_as_the_binary_allows(backend):
    if "probes" in backend.capabilities:
        config = {"profiles": [{"schedulerName": "default-scheduler",
                                "plugins": {"preFilter": {"enabled": [{"name": "Probe0"}]}}}]}
        out = backend.run(scenario(config=config, nodes=[node("node-0")], workload=[pod("pod-0")]))
        assert [r["point"] for r in out.trace if r.get("plugin") == "Probe0"][:1] == ["PreFilter"]
    else:
        assert any("only outcome-level invariants apply" in n for n in backend.notes)
        assert "plugin-list" not in backend.capabilities and "queue-attempts" not in backend.capabilities


def test_nothing_is_left_after_a_run(control_plane, kube):
    b = ClusterBackend(control_plane=control_plane)
    b.run(FIXED[3])
    b.run(FIXED[1])
    assert cleanup.find(kube, b.run_id), "the run's priority classes live until close()"
    b.close()
    b.close()
    assert _suite_objects(kube) == ([], [], [])


def test_ctrl_c_in_a_scenario_removes_its_objects(control_plane, kube, monkeypatch):
    b = ClusterBackend(control_plane=control_plane)
    create = apply.create_workload

    def interrupted(k, plan):
        create(k, plan)
        raise KeyboardInterrupt
    monkeypatch.setattr(apply, "create_workload", interrupted)
    with pytest.raises(KeyboardInterrupt):
        b.run(FIXED[0])
    nodes, _ = kube.list(path("Node"), label_selector=RUN_LABEL)
    pods, _ = kube.list(path("Pod"), label_selector=RUN_LABEL)
    assert (nodes, pods) == ([], [])
    b.close()
    assert _suite_objects(kube) == ([], [], [])


_KILLED_RUN = textwrap.dedent("""
    import os, signal, sys
    from pathlib import Path
    from conformance.cluster import apply
    from conformance.cluster.backend import ClusterBackend
    from conformance.cluster.controlplane import ControlPlane
    from conformance.cluster.state import StateDir
    from tests.cluster.scenarios import FIXED

    def killed(kube, plan):
        print("RUN", backend.run_id, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
    apply.create_workload = killed
    backend = ClusterBackend(control_plane=ControlPlane(StateDir(Path(sys.argv[1]))))
    backend.run(FIXED[3])
""")


def _killed_run(control_plane) -> str:
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    proc = subprocess.run([sys.executable, "-c", _KILLED_RUN, str(control_plane.state.root)], cwd=root,
                          capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": root})
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    return proc.stdout.split()[1]


def test_a_killed_run_is_removed_by_cleanup(control_plane, kube, capsys):
    run = _killed_run(control_plane)
    kinds = {f.kind for f in cleanup.find(kube, run)}
    assert kinds == {"Namespace", "Node", "PriorityClass"}, "the killed run left its objects"
    args = _parser().parse_args(["cleanup", "--state", str(control_plane.state.root)])
    assert args.run(args) == 0
    assert "removed 4 object(s)" in capsys.readouterr().out  # namespace, node, classes p1 and p100
    assert _suite_objects(kube) == ([], [], [])


def test_a_killed_run_is_swept_at_the_next_start(control_plane, kube):
    run = _killed_run(control_plane)
    assert cleanup.find(kube, run)
    b = ClusterBackend(control_plane=control_plane)
    assert any("left by earlier interrupted runs" in n for n in b.notes)
    assert cleanup.find(kube, run) == []
    b.close()


def test_examples_per_second(backend, capsys):
    start = time.monotonic()
    rounds = 2
    for _ in range(rounds):
        for s in FIXED:
            backend.run(s)
    rate = rounds * len(FIXED) / (time.monotonic() - start)
    with capsys.disabled():
        print(f"\n[cluster] {rate:.2f} scenarios/s over {rounds * len(FIXED)} fixed scenarios (settle {backend.settle} s)")
    assert rate > 0.2


def test_crash_then_down_then_up(control_plane):
    data = control_plane.state.read()
    os.kill(data["kube-apiserver"]["pid"], signal.SIGKILL)
    os.kill(data["etcd"]["pid"], signal.SIGKILL)
    time.sleep(0.2)
    assert not control_plane.status().ready
    assert control_plane.down() == [f"stopped kube-scheduler (pid {data['kube-scheduler']['pid']})"]
    assert control_plane.down() == ["control plane not running"]
    assert control_plane.up().ready

