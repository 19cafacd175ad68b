"""`sched-conformance diff` between two real releases (v1.36.4 and the pin): classified, shrunk differences
and a report; with a baseline written from that run, the second run exits 0. Each release not yet built is
a cold build of 10-20 minutes, so this runs only with SCHED_CONFORMANCE_OTHER_RELEASES=1 and Go."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.builds.builder import pinned_version

ROOT = Path(__file__).resolve().parents[3]
OTHER = "v1.36.4"
pytestmark = [
    pytest.mark.skipif(shutil.which("go") is None, reason="needs a Go toolchain to build"),
    pytest.mark.skipif(os.environ.get("SCHED_CONFORMANCE_OTHER_RELEASES") != "1",
                       reason="cold-builds another Kubernetes release (10-20 minutes); set "
                              "SCHED_CONFORMANCE_OTHER_RELEASES=1 to run"),
]


def diff(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "conformance.cli", "diff", "--from", OTHER, "--to", pinned_version(),
                           *args], cwd=ROOT, capture_output=True, text=True, timeout=7200)


def test_two_releases_differ_in_classified_shrunk_groups_and_a_baseline_accepts_them(tmp_path):
    report, baseline = tmp_path / "report", tmp_path / "accepted.yaml"
    first = diff("--report", str(report), "--write-baseline", str(baseline))
    assert first.returncode == 0, first.stderr[-3000:]
    data = json.loads((report / "diff.json").read_text())
    kinds = {g["kind"] for g in data["groups"]}
    # 1.37 gave NodeName, NodeUnschedulable and TaintToleration a PreFilter (they now run at PreFilter) and moved
    # NodeName before NodeUnschedulable at Filter.
    keys = [g["key"] for g in data["groups"]]
    assert "plugin-list preFilter/NodeName (plugin added at preFilter)" in keys, keys
    assert "plugin-list filter/(order) (the order of the plugins at filter)" in keys, keys
    assert "plugin-calls" in kinds, kinds
    for g in data["groups"]:
        assert g["example"]["differences"], g["key"]
        assert Path(g["reproducer"], "scenario.json").is_file()
    second = diff("--baseline", str(baseline))
    assert second.returncode == 0, second.stdout[-3000:] + second.stderr[-3000:]
    assert "0 new" in second.stderr
