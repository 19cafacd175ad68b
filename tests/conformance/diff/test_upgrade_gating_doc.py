"""docs/upgrade-gating.md, run as written: the command that writes the baseline, then the CI job's diff step
against it (exit 0, the report and JUnit uploaded from where the job says). Both sides are the pinned
release (FROM_K8S and TO_K8S come from the environment in the doc): a real two-release diff needs two
cold builds of 10-20 minutes, beyond the CI budget; tests/conformance/diff/test_diff_builds.py and the
SCHED_CONFORMANCE_OTHER_RELEASES test cover the rest."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conformance.builds.builder import pinned_version

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "upgrade-gating.md"
pytestmark = pytest.mark.skipif(shutil.which("go") is None, reason="needs a Go toolchain to build")


def baseline_command() -> str:
    blocks = [b for b in re.findall(r"```sh\n(.*?)```", DOC.read_text(), re.DOTALL) if "--write-baseline" in b]
    assert len(blocks) == 1, "docs/upgrade-gating.md shows one command that writes the baseline"
    return blocks[0]


def job() -> dict:
    blocks = [yaml.safe_load(b) for b in re.findall(r"```yaml\n(.*?)```", DOC.read_text(), re.DOTALL)]
    jobs = [b for b in blocks if isinstance(b, dict) and "jobs" in b]
    assert len(jobs) == 1, "docs/upgrade-gating.md shows one GitHub Actions workflow"
    return jobs[0]


def sh(script: str, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    # `sched-conformance` is this checkout's CLI, as `pip install` would provide it.
    prelude = f'sched-conformance() {{ "{sys.executable}" -m conformance.cli "$@"; }}\n'
    return subprocess.run(["bash", "-euo", "pipefail", "-c", prelude + script], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=1800)


def test_the_documented_job_runs_and_passes_on_its_baseline(tmp_path):
    workflow = job()
    steps = workflow["jobs"]["diff"]["steps"]
    diff_steps = [s["run"] for s in steps if "sched-conformance diff" in str(s.get("run", ""))]
    assert len(diff_steps) == 1
    cache = next(s for s in steps if str(s.get("uses", "")).startswith("actions/cache"))
    assert "~/.cache/sched-conformance/builds" in cache["with"]["path"]
    upload = next(s for s in steps if str(s.get("uses", "")).startswith("actions/upload-artifact"))
    assert upload.get("if") == "always()"

    # The user's checkout: the example module (same path, so its builds come from the cache) and .github/.
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    (tmp_path / ".github").mkdir()
    env = {**os.environ, **{k: pinned_version() for k in workflow["env"]}, "PYTHONPATH": str(ROOT)}

    made = sh(baseline_command(), tmp_path, env)
    assert made.returncode == 0, made.stderr[-3000:]
    assert (tmp_path / ".github" / "scheduler-baseline.yaml").is_file()

    gate = sh(diff_steps[0], tmp_path, env)
    assert gate.returncode == 0, gate.stdout[-3000:] + gate.stderr[-3000:]
    report = tmp_path / upload["with"]["path"]
    assert (report / "summary.md").is_file() and (report / "diff.json").is_file()
    assert "<testsuite" in (report / "junit.xml").read_text()
