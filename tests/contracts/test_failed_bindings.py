"""A plugin that frees what it reserved only in PostBind (tests/contracts/brokenplugins/bindingleak.go:
PreBind commits the hold, Unreserve frees only an uncommitted one) leaks on every failed binding. check-plugin
catches it with failed-binding-restores (test_broken_plugins.py); here a whole-scheduler run with drawn faults
catches it and names it, shrunk to one failed binding, and the same scenario without its fault passes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conformance.backends.upstream import UpstreamBackend
from conformance.builds.own_scheduler import resolve
from conformance.invariants import REGISTRY, Run
from reference.scenario import Scenario

from .conftest import BROKEN_OWN, needs_go

pytestmark = needs_go

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = "BrokenBindingLeak"
INVARIANT = "observed-reserve-released"


def test_a_whole_scheduler_run_with_failed_bindings_names_the_plugin(tmp_path):
    config = tmp_path / "config.yaml"
    config.write_text("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
                      "profiles:\n- schedulerName: default-scheduler\n  plugins:\n    multiPoint:\n"
                      f"      enabled:\n      - {{name: {PLUGIN}}}\n")
    reproducers = tmp_path / "reproducers"
    argv = [sys.executable, "-m", "conformance.cli", "run", "--backend", "upstream", "--own-scheduler",
            str(BROKEN_OWN), "--scheduler-config", str(config), "--invariant", INVARIANT,
            "--reproducers", str(reproducers), "--plugin-coverage", str(tmp_path / "coverage")]
    result = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-2000:]
    named = f"[{INVARIANT}] {PLUGIN} answered Filter for default/pod-0 on node-0 with Unschedulable"
    assert named in result.stdout, result.stdout[-3000:]
    shrunk = Scenario.from_dict(json.loads((reproducers / INVARIANT / "scenario.json").read_text()))
    assert len(shrunk.nodes) <= 2 and len(shrunk.workload) <= 2, shrunk
    assert [(e["op"], e.get("call")) for e in shrunk.timeline] == [("fail", "bind")], shrunk.timeline

    # Without its fault the binding goes through, PostBind frees the hold, and the plugin passes.
    own = resolve(own_file=str(BROKEN_OWN))
    backend = UpstreamBackend(runner=own.runner())
    try:
        scenario = Scenario.from_dict({**shrunk.to_dict(), "timeline": []})
        run = Run(scenario, backend.run(scenario), frozenset(backend.capabilities))
    finally:
        backend.close()
    with run.checking(INVARIANT):
        REGISTRY[INVARIANT].check(run)
    assert all(p.phase == "bound" for p in run.outcome.pods.values()), run.outcome.pods
