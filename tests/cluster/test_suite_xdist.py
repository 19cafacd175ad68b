"""`pytest -n 2 --conformance-backend cluster` with no control plane running: the xdist controller starts one,
both workers use it under their own run ids, one scenario at a time, and it stops after the last.

A subprocess with its own $SCHED_CONFORMANCE_STATE, so the session's control plane
(tests/cluster/conftest.py) is not the one found running. A plugin loaded with `-p` records, in
every worker, when each scenario held the cluster.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.cluster.state import BUILD_HINT, StateDir, bin_dir

from .conftest import _missing

pytest.importorskip("xdist", reason="pytest-xdist is not installed (the dev extra has it)")
ROOT = Path(__file__).resolve().parents[2]
INVARIANTS = ("capacity-respected", "preemptor-nominated")

_PLUGIN = '''
import json, os, time
from conformance.cluster.backend import ClusterBackend

_run = ClusterBackend._run  # called with the cluster held

def _recorded(self, scenario, nsmap):
    start = time.time()
    try:
        return _run(self, scenario, nsmap)
    finally:
        with open(os.environ["SCC_HELD"], "a") as out:
            out.write(json.dumps({"pid": os.getpid(), "run": self.run_id, "start": start, "end": time.time()}) + "\\n")

ClusterBackend._run = _recorded
'''


def test_workers_share_the_control_plane_the_controller_starts(tmp_path):
    missing = _missing()
    if missing:
        pytest.skip(f"{', '.join(missing)} not built in {bin_dir()}; run `{BUILD_HINT}`")
    (tmp_path / "scc_held_plugin.py").write_text(_PLUGIN)
    held, state = tmp_path / "held.jsonl", StateDir(tmp_path / "state")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(tmp_path)]),
           "SCHED_CONFORMANCE_STATE": str(state.root), "SCC_HELD": str(held)}
    argv = [sys.executable, "-m", "pytest", "--pyargs", "conformance.suite", "-p", "scc_held_plugin",
            "-p", "no:cacheprovider", "--conformance-backend", "cluster", "--conformance-profile", "ci",
            "--conformance-max-examples", "4", "-k", "invariant", "-n", "2",
            *[a for inv in INVARIANTS for a in ("--conformance-invariant", inv)]]
    proc = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0 and f"{len(INVARIANTS)} passed" in output, output[-3000:]
    assert output.count("started the local control plane for this session") == 1, output[-3000:]
    assert state.read() == {}, "the control plane the controller started is stopped at the end"

    scenarios = sorted((json.loads(line) for line in held.read_text().splitlines()), key=lambda r: r["start"])
    assert len({r["pid"] for r in scenarios}) == len({r["run"] for r in scenarios}) == 2, scenarios
    assert all(a["end"] <= b["start"] for a, b in zip(scenarios, scenarios[1:])), "two scenarios held the cluster at once"
