"""Timeline faults on the local control plane, through its fault proxy (issue 31): each kind it injects ends
where the reference ends, fires as the reference fires, and keeps the fault invariants; a restart is a new
kube-scheduler process; a fault the proxy cannot see is refused in one line before anything starts; nothing
(process, port, file) is left behind."""

import errno
import socket

import pytest

from conformance.backends.reference import ReferenceBackend
from conformance.cluster import processes
from conformance.cluster.backend import ClusterBackend
from conformance.core.errors import BackendFailure
from conformance.invariants import REGISTRY, Run, check_all
from reference.scenario import Scenario

from ..conformance.test_timeline_reference import node, pod
from .test_live import kube  # noqa: F401 (a fixture)
from .test_timeline_live import _left

P = "default/p"
CASES = {
    "bind-conflict": {"op": "fail", "call": "bind", "error": "conflict", "pod": P},
    "bind-timeout": {"op": "fail", "call": "bind", "error": "timeout", "pod": P},
    # DefaultBinder retries an internal error (util.BindPod): 4 in a row fail the binding.
    "bind-internal-4": {"op": "fail", "call": "bind", "error": "internal", "pod": P, "times": 4},
    "event-conflict": {"op": "fail", "call": "event", "error": "conflict", "pod": P},
    "restart-at-bind": {"op": "restart", "pod": P, "point": "bind"},
    "node-vanishes-at-prebind": {"op": "vanish", "pod": P, "point": "prebind", "object": "node"},
    "pod-vanishes-at-prebind": {"op": "vanish", "pod": P, "point": "prebind", "object": "pod"},
}
FAULT_RULES = ("unreserve-after-failed-binding", "bound-at-most-once", "deleted-node-unused")
# Other ends a wall clock allows: q's scheduling cycle may run while p's binding cycle runs, before the scheduler
# sees the node deleted at p's binding, so q is assumed on n1 and bound there too (the API server binds a pod to a
# node that no longer exists); the reference runs q's cycle after p's binding.
ALSO = {"node-vanishes-at-prebind": {"default/q": ("bound", "n1")}}


@pytest.fixture(scope="module")
def backend(control_plane):
    b = ClusterBackend(control_plane=control_plane)
    yield b
    b.close()


def _scenario(fault: dict, config: dict | None = None) -> Scenario:
    if config is not None:
        config = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
                  **config}
    return Scenario.from_dict({"config": config, "nodes": [node()], "workload": [pod("p", cpu="500m"),
                                                                                  pod("q", cpu="500m")],
                               "timeline": [fault], "deadline": 8})


def _firings(outcome) -> list[tuple]:
    return [(f["index"], f["pod"], f["fault"], f["detail"], f.get("object")) for f in outcome.faults]


def test_the_backend_injects_faults_through_its_proxy(backend):
    assert {"fault-fail", "fault-vanish", "fault-restart"} <= backend.capabilities, backend.notes
    assert backend.proxy is not None and backend.proxy.running()
    backend.run(_scenario(CASES["bind-conflict"]))
    assert backend._scheduler.uses(str(backend.proxy.kubeconfig))
    plain = Scenario.from_dict({"nodes": [node()], "workload": [pod("p")]})
    assert backend.run(plain).pods[P].phase == "bound"
    assert not backend._scheduler.uses(str(backend.proxy.kubeconfig)), "a scenario without faults goes direct"


@pytest.mark.parametrize("case", CASES)
def test_a_fault_ends_where_the_reference_ends(backend, case):
    scenario = _scenario(CASES[case])
    got, want = backend.run(scenario), ReferenceBackend().run(scenario)
    ends = {k: (p.phase, p.node) for k, p in got.pods.items()}
    ends.update({k: (want.pods[k].phase, want.pods[k].node) for k, end in ALSO.get(case, {}).items()
                 if ends.get(k) == end})
    assert ends == {k: (p.phase, p.node) for k, p in want.pods.items()}, (got.pods, got.faults)
    assert _firings(got) == _firings(want)
    assert [e["index"] for e in got.timeline] == [0] and got.deleted == ()
    assert all(0 <= f["at"] < scenario.deadline for f in got.faults)
    check_all(Run(scenario, got, backend.capabilities), [REGISTRY[i] for i in FAULT_RULES])


def test_a_restart_is_a_new_scheduler_process_and_the_trace_goes_on(backend):
    config = {"profiles": [{"schedulerName": "default-scheduler", "plugins": {
        "preFilter": {"enabled": [{"name": "Probe0"}]}, "reserve": {"enabled": [{"name": "Probe0"}]}}}]}
    scenario = _scenario(CASES["restart-at-bind"], config)
    backend.run(_scenario(CASES["bind-conflict"], config))  # the scheduler of this config runs
    before = backend._scheduler._record().get("pid")
    got = backend.run(scenario)
    after = backend._scheduler._record().get("pid")
    assert [f["fault"] for f in got.faults] == ["restart"]
    assert before and after and after != before
    assert not processes.alive(before) and processes.alive(after)
    assert [b["pod"] for b in got.bindings].count(P) == 1
    # The new process counts from scratch; the trace continues the old one's seq and attempts.
    assert [r["seq"] for r in got.trace] == list(range(len(got.trace)))
    assert sorted({r["attempt"] for r in got.trace if r["pod"] == P and r["point"] == "PreFilter"}) == [1, 2]
    check_all(Run(scenario, got, backend.capabilities))


def test_unreserve_runs_after_a_failed_binding(backend):
    config = {"profiles": [{"schedulerName": "default-scheduler", "plugins": {
        "reserve": {"enabled": [{"name": "Probe0"}, {"name": "Probe1"}]}}}]}
    scenario = _scenario(CASES["bind-conflict"], config)
    got = backend.run(scenario)
    run = Run(scenario, got, backend.capabilities)
    run.invariant = "unreserve-after-failed-binding"
    REGISTRY["unreserve-after-failed-binding"].check(run)
    assert run.exercised, got.trace
    unreserve = [r["plugin"] for r in got.trace if r.get("pod") == P and r.get("point") == "Unreserve"]
    assert unreserve == ["Probe1", "Probe0"]
    assert got.pods[P].phase == "bound"


@pytest.mark.parametrize("fault, config, field", [
    ({"op": "vanish", "pod": P, "point": "permit", "object": "node"}, None, "timeline[0].point"),
    ({"op": "vanish", "pod": P, "point": "preempt", "object": "victim"}, None, "timeline[0].point"),
    ({"op": "restart", "pod": P, "point": "reserve"}, None, "timeline[0].point"),
    ({"op": "restart", "pod": P, "point": "bind"},
     {"extenders": [{"urlPrefix": "${EXTENDER_URL}/ext-0", "bindVerb": "bind"}]}, "timeline[0]: the local"),
    ({"op": "vanish", "pod": P, "point": "prebind", "object": "pod"},
     {"profiles": [{"schedulerName": "default-scheduler",
                    "plugins": {"preBind": {"enabled": [{"name": "Probe0"}]}}}]}, "timeline[0]: the local"),
], ids=["vanish-permit", "vanish-victim", "restart-reserve", "restart-extender-binder",
        "vanish-acting-prebind"])
def test_a_fault_the_proxy_cannot_see_is_refused_before_anything_starts(backend, kube, fault, config, field):
    with pytest.raises(BackendFailure) as failure:
        backend.run(_scenario(fault, config))
    message = str(failure.value)
    print(f"[faults] refused: {message}")
    assert "\n" not in message and message.startswith(f"scenario.{field}")
    assert _left(kube, backend.run_id) == ([], [], [])


def test_nothing_is_left_after_close(control_plane, kube):
    b = ClusterBackend(control_plane=control_plane)
    b.run(_scenario(CASES["restart-at-bind"]))
    proxy = b.proxy
    assert proxy is not None
    pid, port, kubeconfig = proxy.pid, proxy.port, proxy.kubeconfig
    b.close()
    assert not processes.alive(pid) and not kubeconfig.exists()
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", port)) == errno.ECONNREFUSED, "the proxy's port still listens"
    assert b._scheduler.running() and not b._scheduler.uses(str(kubeconfig)), "connected directly again"
    assert _left(kube, b.run_id) == ([], [], [])
    assert not list(control_plane.state.pki.glob("proxy-*.token"))
