"""The upstream backend: harness/bin/runner driven over its JSON-lines protocol, with concrete outcomes."""

from __future__ import annotations

import json
import signal
import threading
from pathlib import Path
from typing import Any

import pytest

from conformance.backends.upstream import UpstreamBackend, default_runner, merge_traces, same_minor
from conformance.builds.builder import pinned_version
from conformance.core.errors import BackendFailure, BackendUnavailable
from conformance.core.scenario_config import plugin_lists
from conformance.extender.server import ExtenderServer
from reference.probe.script import ScriptError, parse_script
from reference.scenario import EXTENDER_SCRIPT_ANNOTATION, PROBE_SCRIPT_ANNOTATION, Scenario

ROOT = Path(__file__).resolve().parents[2]
needs_runner = pytest.mark.skipif(not default_runner().is_file(),
                                  reason="harness/bin/runner is not built; run `harness/build.sh` (needs Go)")

CONFIG = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration"}
PROBES = {**CONFIG, "profiles": [{"schedulerName": "default-scheduler",
                                  "plugins": {"multiPoint": {"enabled": [{"name": "Probe0"}, {"name": "Probe1"}]}}}]}


def node(name: str, cpu: str = "4") -> dict[str, Any]:
    resources = {"cpu": cpu, "memory": "8Gi", "pods": "110"}
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name}},
            "status": {"capacity": resources, "allocatable": resources}}


def pod(name: str, cpu: str = "100m", probe: dict | None = None, extender: dict | None = None,
        **spec: Any) -> dict[str, Any]:
    annotations = {}
    if probe is not None:
        annotations[PROBE_SCRIPT_ANNOTATION] = json.dumps(probe)
    if extender is not None:
        annotations[EXTENDER_SCRIPT_ANNOTATION] = json.dumps(extender)
    meta: dict[str, Any] = {"name": name, "namespace": "default", **({"annotations": annotations} if annotations else {})}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta,
            "spec": {"containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": cpu}}}], **spec}}


def scenario(*workload: dict, nodes=("node-0",), config=None, pods=(), deadline: float = 10) -> Scenario:
    return Scenario.from_dict({"version": 1, "config": config, "nodes": [node(n) for n in nodes],
                               "pods": list(pods), "workload": list(workload), "deadline": deadline})


def calls(outcome, *points: str) -> list[tuple]:
    return [(r["point"], r.get("plugin"), r.get("code")) for r in outcome.trace if r["point"] in points]


@pytest.fixture(scope="module")
def backend():
    if not default_runner().is_file():
        pytest.skip("harness/bin/runner is not built; run `harness/build.sh` (needs Go)")
    b = UpstreamBackend()
    yield b
    b.close()


# --- without the runner ---------------------------------------------------------------------------

def test_missing_runner_is_unavailable_with_the_build_command(tmp_path):
    with pytest.raises(BackendUnavailable, match=r"needs the runner; build it with `harness/build\.sh`.*no executable at"):
        UpstreamBackend(runner=tmp_path / "runner")


def test_another_minor_release_is_not_the_references():
    """plugin-order-matches-expansion needs `reference-release`: a v1.34 build has other default plugins."""
    assert same_minor("v1.37.2", "v1.37.1") and not same_minor("v1.34.3", "v1.37.1")


def test_go_script_errors_are_the_references():
    """harness/probe/testdata/script_errors.json (the Go probes' table) still says what the Python probes say."""
    cases = json.loads((ROOT / "harness/probe/testdata/script_errors.json").read_text())
    assert len(cases) > 40
    for case in cases:
        try:
            parse_script(case["script"])
            error = None
        except ScriptError as exc:
            error = str(exc)
        assert error == case["error"], case["script"]


def test_merge_places_extender_records_at_their_calls_and_renumbers():
    probe = [{"seq": 0, "t": 0.0, "point": "Filter"}, {"seq": 1, "t": 0.0, "point": "Score"},
             {"seq": 2, "t": 1.5, "point": "Bind"}]
    calls = [{"extender": "ext-0", "verb": "filter", "pod": "default/p", "seq": 1, "t": 0.0},
             {"extender": "ext-0", "verb": "bind", "pod": "default/p", "seq": 2, "t": 1.5},
             {"extender": "ext-0", "verb": "filter", "pod": "default/p", "seq": 3, "t": 2.0}]
    extender = [{"seq": 0, "t": 9.0, "point": "extender.filter", "extender": "ext-0", "pod": "default/p"},
                {"seq": 1, "t": 9.1, "point": "extender.bind", "extender": "ext-0", "pod": "default/p"},
                {"seq": 2, "t": 9.2, "point": "extender.filter", "extender": "ext-0", "pod": "default/p"},
                {"seq": 3, "t": 9.3, "point": "extender.prioritize", "extender": "ext-0", "pod": "default/p"}]
    merged = merge_traces(probe, calls, extender)
    assert [(r["seq"], r["t"], r["point"]) for r in merged] == [
        (0, 0.0, "Filter"), (1, 0.0, "extender.filter"), (2, 0.0, "Score"), (3, 1.5, "extender.bind"),
        (4, 1.5, "Bind"), (5, 2.0, "extender.filter"), (6, 1.5, "extender.prioritize")]


# --- with the runner ------------------------------------------------------------------------------

@needs_runner
def test_binds_one_pod_and_reports_upstream_plugins(backend):
    out = backend.run(scenario(pod("pod-0"), nodes=("node-0", "node-1")))
    assert out.backend == "upstream" and out.kubernetes_version == pinned_version()
    p = out.pods["default/pod-0"]
    assert (p.phase, p.attempts, p.condition, p.nominated_node_name) == ("bound", 1, None, "")
    assert [(b["pod"], b["node"]) for b in out.bindings] == [("default/pod-0", p.node)]
    assert out.events == ({"pod": "default/pod-0", "type": "Normal", "reason": "Scheduled",
                           "message": f"Successfully assigned default/pod-0 to {p.node}"},)
    assert out.plugins == plugin_lists(None)


@needs_runner
def test_pod_that_fits_nowhere_gets_upstreams_fit_error(backend):
    out = backend.run(scenario(pod("pod-0", cpu="100"), nodes=("node-0", "node-1")))
    message = ("0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: "
               "2 Preemption is not helpful for scheduling.")
    p = out.pods["default/pod-0"]
    assert (p.phase, p.node, p.attempts) == ("unschedulable", "", 1)
    assert p.condition == {"status": "False", "reason": "Unschedulable", "message": message}
    assert out.events == ({"pod": "default/pod-0", "type": "Warning", "reason": "FailedScheduling",
                           "message": message},)
    assert out.bindings == ()


@needs_runner
def test_permit_wait_is_allowed_by_the_probe_signal(backend):
    script = {"Probe0": {"Permit": {"code": "Wait", "timeout": "10s", "then": {"signal": "allow", "after": "200ms"}}}}
    out = backend.run(scenario(pod("pod-0", probe=script), config=PROBES))
    assert out.pods["default/pod-0"].phase == "bound"
    assert calls(out, "Permit", "Allow", "PreBind", "Bind") == [
        ("Permit", "Probe0", "Wait"), ("Permit", "Probe1", "Success"), ("Allow", "Probe0", None),
        ("PreBind", "Probe0", "Success"), ("PreBind", "Probe1", "Success")]
    permit = next(r for r in out.trace if r["point"] == "Permit")
    allow = next(r for r in out.trace if r["point"] == "Allow")
    assert permit["timeout"] == 10 and allow["delivered"] is True
    assert allow["t"] - permit["t"] >= 0.2
    assert out.bindings[0]["t"] >= allow["t"]


@needs_runner
def test_reserve_failure_unreserves_in_reverse_order_then_retries(backend):
    script = {"Probe1": {"Reserve": [{"code": "Error", "reasons": ["boom"]}, {}]}}
    out = backend.run(scenario(pod("pod-0", probe=script), config=PROBES))
    first = [(r["point"], r["plugin"], r.get("code")) for r in out.trace
             if r["attempt"] == 1 and r["point"] in ("Reserve", "Unreserve", "Permit")]
    assert first == [("Reserve", "Probe0", "Success"), ("Reserve", "Probe1", "Error"),
                     ("Unreserve", "Probe1", None), ("Unreserve", "Probe0", None)]
    p = out.pods["default/pod-0"]
    assert (p.phase, p.attempts) == ("bound", 2)
    assert [(e["reason"], e["message"]) for e in out.events] == [
        ("FailedScheduling", 'running Reserve plugin "Probe1": boom'),
        ("Scheduled", "Successfully assigned default/pod-0 to node-0")]


@needs_runner
def test_bad_config_is_a_backend_failure_with_upstreams_message(backend):
    bad = {**CONFIG, "percentageOfNodesToScore": 300}
    with pytest.raises(BackendFailure, match=r"percentageOfNodesToScore: Invalid value: 300: "
                                             r"not in valid range \[0-100\]"):
        backend.run(scenario(pod("pod-0"), config=bad))
    assert backend.run(scenario(pod("pod-0"))).pods["default/pod-0"].phase == "bound"


@needs_runner
def test_all_workload_pods_are_queued_before_the_first_pop(backend):
    """The later, higher-priority pod is tried first: both were in activeQ together."""
    out = backend.run(scenario(pod("low"), pod("high", priority=10), config=PROBES))
    prefilters = [r["pod"] for r in out.trace if r["point"] == "PreFilter" and r["plugin"] == "Probe0"]
    assert prefilters == ["default/high", "default/low"]


@needs_runner
def test_preemption_deletes_the_victim_and_binds_the_preemptor(backend):
    victim = pod("victim", cpu="3", nodeName="node-0")
    out = backend.run(scenario(pod("preemptor", cpu="3", priority=100), pods=[victim]))
    p = out.pods["default/preemptor"]
    assert out.deleted == ("default/victim",)
    assert (p.phase, p.node, p.attempts) == ("bound", "node-0", 2)
    assert [e["reason"] for e in out.events] == ["FailedScheduling", "Scheduled"]


@needs_runner
def test_extender_binds_through_the_runner_and_its_calls_join_the_trace():
    ext = {**CONFIG, "extenders": [{"urlPrefix": "${EXTENDER_URL}/ext-0", "filterVerb": "filter",
                                    "bindVerb": "bind", "weight": 1}]}
    ok = pod("pod-0", extender={"ext-0": {"filter": {"fail": {"node-0": "no"}}}})
    refused = pod("pod-1", extender={"ext-0": {"bind": {"error": "bind refused"}}})
    with ExtenderServer() as server:
        backend = UpstreamBackend(extender_server=server)
        try:
            out = backend.run(scenario(ok, refused, nodes=("node-0", "node-1"), config=ext, deadline=0.5))
        finally:
            backend.close()
    assert "extenders" in backend.capabilities
    assert [(b["pod"], b["node"]) for b in out.bindings] == [("default/pod-0", "node-1")]
    assert out.pods["default/pod-1"].phase == "error"
    assert out.pods["default/pod-1"].condition["message"] == "bind refused"
    # Binding cycles run in goroutines: the two pods' bind calls may come in either order.
    first = {}
    for r in out.trace:
        if r["point"] == "extender.bind":
            first.setdefault(r["pod"], r["code"])
    assert first == {"default/pod-0": "Success", "default/pod-1": "Error"}
    assert [r["seq"] for r in out.trace] == list(range(len(out.trace)))


@needs_runner
def test_runner_killed_mid_scenario_fails_then_restarts(backend):
    # 1,000 pods on 100 nodes take seconds of real time even on a virtual clock.
    big = Scenario.from_dict({"version": 1, "nodes": [node(f"node-{i}") for i in range(100)],
                              "workload": [pod(f"pod-{i}") for i in range(1000)]})
    victim = backend._runner()
    threading.Timer(0.3, victim._proc.send_signal, args=(signal.SIGKILL,)).start()
    with pytest.raises(BackendFailure, match=r"runner exited with status -9 .*restarts for the next scenario"):
        backend.run(big)
    assert backend.run(scenario(pod("pod-0"))).pods["default/pod-0"].phase == "bound"


FAKE_RUNNER = """#!/usr/bin/env python3
import json, sys
for line in sys.stdin:
    req = json.loads(line)
    if req.get("hello"):
        print(json.dumps({"id": req["id"], "kubernetesVersion": "v1.37.1", "goVersion": "go", "virtualTime": True}))
    else:
        print(json.dumps({"id": req["id"], "error": "the scenario did not finish: deadlock", "restart": "deadlock"}))
        sys.stdout.flush()
        sys.exit(3)
    sys.stdout.flush()
"""


def test_a_restart_answer_gets_a_fresh_runner_for_the_next_scenario(tmp_path):
    fake = tmp_path / "runner"
    fake.write_text(FAKE_RUNNER)
    fake.chmod(0o755)
    backend = UpstreamBackend(runner=fake)
    try:
        pids = []
        for _ in range(2):
            pids.append(backend._runner().pid)
            with pytest.raises(BackendFailure, match="refuses the scenario: the scenario did not finish: deadlock"):
                backend.run(scenario(pod("pod-0")))
        assert pids[0] != pids[1]
    finally:
        backend.close()


def test_a_wall_time_runner_is_unavailable(tmp_path):
    old = tmp_path / "runner"
    old.write_text(FAKE_RUNNER.replace(', "virtualTime": True', ""))
    old.chmod(0o755)
    with pytest.raises(BackendUnavailable, match=r"runs scenarios in wall time .*rebuild it with `harness/build\.sh`"):
        UpstreamBackend(runner=old)


def test_runner_that_does_not_start_is_unavailable(tmp_path):
    broken = tmp_path / "runner"
    broken.write_text("#!/bin/sh\necho 'runner: cannot load' >&2\nexit 3\n")
    broken.chmod(0o755)
    with pytest.raises(BackendUnavailable, match=r"build it with `harness/build\.sh`.*exited with status 3.*"
                                                 r"runner: cannot load"):
        UpstreamBackend(runner=broken)


@needs_runner
def test_node_cache_capable_preemption_names_victims_by_key():
    """The runner's UIDs (uid-pod-<namespace>-<name>) are registered with the extender server."""
    ext = {**CONFIG, "extenders": [{"urlPrefix": "${EXTENDER_URL}/ext-0", "filterVerb": "filter",
                                    "preemptVerb": "preempt", "nodeCacheCapable": True, "weight": 1}]}
    victim = pod("victim", cpu="3", nodeName="node-0")
    with ExtenderServer() as server:
        backend = UpstreamBackend(extender_server=server)
        try:
            out = backend.run(scenario(pod("preemptor", cpu="3", priority=100), pods=[victim], config=ext))
        finally:
            backend.close()
    preempt = [r for r in out.trace if r["point"] == "extender.preempt"]
    assert [(r["pod"], r["victims"]) for r in preempt] == [("default/preemptor", {"node-0": ["default/victim"]})]
    assert out.deleted == ("default/victim",)
