"""The user's build on the local control plane: `--backend cluster` with --go-module/--go-plugin runs
their kube-scheduler (their plugins beside the probes), not the stock one, and goes back to the stock
one after (needs Go and the control plane binaries)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conformance.builds import make_spec
from conformance.builds import build
from conformance.cluster.backend import ClusterBackend
from conformance.cluster.controlplane import ControlPlane
from reference.scenario import Scenario

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "plugins"
pytestmark = pytest.mark.skipif(shutil.which("go") is None, reason="needs a Go toolchain to build")
CONFIG = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
          "profiles": [{"schedulerName": "default-scheduler",
                        "plugins": {"multiPoint": {"enabled": [{"name": "PreferLabeled", "weight": 50}]}}}]}


def node(name: str, labels: dict) -> dict:
    resources = {"cpu": "4", "memory": "8Gi", "pods": "110"}
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": labels},
            "status": {"capacity": resources, "allocatable": resources}}


def scenario(config: dict | None) -> Scenario:
    pods = [{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": f"pod-{i}", "namespace": "default"},
             "spec": {"containers": [{"name": "c", "image": "x"}]}} for i in range(3)]
    return Scenario.from_dict({"version": 1, "config": config, "workload": pods, "nodes": [
        node("node-0", {}), node("node-1", {"example.com/preferred": "true"}), node("node-2", {})]})


def test_the_users_kube_scheduler_runs_their_plugin_on_the_control_plane(control_plane):
    own = build(make_spec(modules=[str(EXAMPLE)], plugins=["PreferLabeled=example.com/sched-plugins/prefer.New"]))
    cp = ControlPlane(control_plane.state, binaries=control_plane.bin_dir, tied=True,
                      scheduler_binary=own.kube_scheduler)
    backend = ClusterBackend(control_plane=cp)
    try:
        outcome = backend.run(scenario(CONFIG))
        assert {p.node for p in outcome.pods.values()} == {"node-1"}, outcome.pods
        assert control_plane.state.read()["kube-scheduler"]["binary"] == str(own.kube_scheduler)
        backend.run(scenario(None))
    finally:
        backend.close()
    stock = ClusterBackend(control_plane=control_plane)
    try:
        stock.run(scenario(None))  # the same config as the user's build just ran: only the binary differs
        assert control_plane.state.read()["kube-scheduler"]["binary"] == str(control_plane.bin_dir / "kube-scheduler")
    finally:
        stock.close()
