"""docs/upgrade-gating.md, run as written: the command that writes the baseline, then the CI job's diff step
against it (exit 0, the report and JUnit uploaded from where the job says). Both sides are the pinned
release (FROM_K8S and TO_K8S come from the environment in the doc): a real two-release diff needs two
cold builds of 10-20 minutes, beyond the CI budget; tests/conformance/diff/test_diff_builds.py and the
SCHED_CONFORMANCE_OTHER_RELEASES test cover the rest."""

from __future__ import annotations

import re
import shutil
import subprocess
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
    return subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=1800)


def test_the_documented_job_runs_and_passes_on_its_baseline(installed):
    workflow = job()
    steps = workflow["jobs"]["diff"]["steps"]
    diff_steps = [s["run"] for s in steps if "sched-conformance diff" in str(s.get("run", ""))]
    assert len(diff_steps) == 1
    cache = next(s for s in steps if str(s.get("uses", "")).startswith("actions/cache"))
    assert "~/.cache/sched-conformance\n" in cache["with"]["path"]
    upload = next(s for s in steps if str(s.get("uses", "")).startswith("actions/upload-artifact"))
    assert upload.get("if") == "always()"

    # The user's checkout, outside this one: the example module and .github/. The job's `pip install` step
    # finds this checkout's wheel (already in the user's virtualenv, as on a runner with a warm cache).
    project = installed.project("upgrade-gating")
    (project / ".github").mkdir()
    env = installed.env(**{k: pinned_version() for k in workflow["env"]}, PIP_NO_INDEX="1",
                        PIP_FIND_LINKS=str(installed.wheel.parent))
    install = [s["run"] for s in steps if "pip install" in str(s.get("run", ""))]
    assert install == ["pip install kube-scheduler-conformance"]
    installed_step = sh(install[0], project, env)
    assert installed_step.returncode == 0, installed_step.stderr[-2000:]

    made = sh(baseline_command(), project, env)
    assert made.returncode == 0, made.stderr[-3000:]
    assert (project / ".github" / "scheduler-baseline.yaml").is_file()

    gate = sh(diff_steps[0], project, env)
    assert gate.returncode == 0, gate.stdout[-3000:] + gate.stderr[-3000:]
    report = project / upload["with"]["path"]
    assert (report / "summary.md").is_file() and (report / "diff.json").is_file()
    assert "<testsuite" in (report / "junit.xml").read_text()
