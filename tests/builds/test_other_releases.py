"""The harness on the releases besides the pin: `K8S_VERSION=1.34.3`, `1.35.4` and `1.36.4 harness/build.sh`
build the runner there (build tags k8s134, k8s135, k8s136: harness/fwk), and it binds, runs the probes' scripts and records the
plugins it observes as on v1.37.

Each release is a cold build of several minutes (about 8 on 2 cores with the GOCACHE warm for the pin), so
these run only with SCHED_CONFORMANCE_OTHER_RELEASES=1 and Go; otherwise they are skipped.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conformance.backends.upstream import UpstreamBackend
from tests.conformance.test_upstream_backend import PROBES, calls, pod, scenario

HARNESS = Path(__file__).resolve().parents[2] / "harness"
pytestmark = [
    pytest.mark.skipif(shutil.which("go") is None, reason="needs a Go toolchain to build"),
    pytest.mark.skipif(os.environ.get("SCHED_CONFORMANCE_OTHER_RELEASES") != "1",
                       reason="cold-builds other Kubernetes releases (minutes each); set "
                              "SCHED_CONFORMANCE_OTHER_RELEASES=1 to run"),
]


@pytest.fixture(scope="module", params=["1.34.3", "1.35.4", "1.36.4"])
def backend(request):
    version = request.param
    proc = subprocess.run([str(HARNESS / "build.sh")], env={**os.environ, "K8S_VERSION": version},
                          capture_output=True, text=True)
    assert proc.returncode == 0, f"K8S_VERSION={version} harness/build.sh failed:\n{proc.stderr[-4000:]}"
    b = UpstreamBackend(runner=HARNESS / "bin" / f"v{version}" / "runner")
    b.version = f"v{version}"
    yield b
    b.close()


def test_binds_and_observes_the_in_tree_plugins(backend):
    out = backend.run(scenario(pod("pod-0"), nodes=("node-0", "node-1")))
    assert out.kubernetes_version == backend.version
    assert "reference-release" not in backend.capabilities  # other default plugins than the reference's
    p = out.pods["default/pod-0"]
    assert (p.phase, p.attempts) == ("bound", 1)
    backend.run(scenario(pod("pod-0"), nodes=("node-0",)))
    # v1.34-v1.36's metrics recorders outlive the scenario by a flush interval (runner: awaitBackgroundStop);
    # a runner that restarted after every scenario took 0.3 s per scenario instead of milliseconds.
    assert backend.restarts == 0
    assert [(b["pod"], b["node"]) for b in out.bindings] == [("default/pod-0", p.node)]
    observed = {(r["point"], r["plugin"], r.get("code")) for r in out.observed}
    assert {("Filter", "NodeResourcesFit", "Success"), ("Score", "NodeResourcesBalancedAllocation", "Success"),
            ("Reserve", "VolumeBinding", "Success"), ("Bind", "DefaultBinder", "Success")} <= observed


def test_a_probe_filter_steers_the_pod_and_the_binding_cycle_is_traced(backend):
    script = {"Probe0": {"Filter": {"byNode": {"node-0": {"code": "Unschedulable", "reasons": ["full"]}}}}}
    out = backend.run(scenario(pod("pod-0", probe=script), nodes=("node-0", "node-1"), config=PROBES))
    assert out.pods["default/pod-0"].node == "node-1"
    assert ("Filter", "Probe0", "Unschedulable") in calls(out, "Filter")
    # PreBindPreFlight has its own signature per release (probe/preflight*.go). v1.34 calls it only with the
    # NominatedNodeNameForExpectation gate (alpha, off); from v1.35 on it runs before PreBind.
    preflight = [] if backend.version.startswith("v1.34.") else [
        ("PreBindPreFlight", "Probe0", "Success"), ("PreBindPreFlight", "Probe1", "Success")]
    assert calls(out, "PreBindPreFlight", "PreBind", "PostBind") == [
        *preflight, ("PreBind", "Probe0", "Success"), ("PreBind", "Probe1", "Success"),
        ("PostBind", "Probe0", None), ("PostBind", "Probe1", None)]


def test_permit_wait_and_reserve_failure(backend):
    script = {"Probe0": {"Permit": {"code": "Wait", "timeout": "10s", "then": {"signal": "allow", "after": "200ms"}}},
              "Probe1": {"Reserve": [{"code": "Error", "reasons": ["boom"]}, {}]}}
    out = backend.run(scenario(pod("pod-0", probe=script), config=PROBES))
    p = out.pods["default/pod-0"]
    assert (p.phase, p.attempts) == ("bound", 2)
    first = [(r["point"], r["plugin"], r.get("code")) for r in out.trace
             if r["attempt"] == 1 and r["point"] in ("Reserve", "Unreserve", "Permit")]
    assert first == [("Reserve", "Probe0", "Success"), ("Reserve", "Probe1", "Error"),
                     ("Unreserve", "Probe1", None), ("Unreserve", "Probe0", None)]
    assert [c for c in calls(out, "Permit", "Allow") if c[1] == "Probe0"] == [("Permit", "Probe0", "Wait"),
                                                                             ("Allow", "Probe0", None)]
    assert [e["reason"] for e in out.events] == ["FailedScheduling", "Scheduled"]
