"""docs/own-scheduler.md, run as written with the wheel installed as a user would (tests/installed.py) from a
project directory outside the checkout: the example module is built with the suite, the green
configuration passes the ci profile, the broken plugin is reported by name with a reproducer that
replays on the same build, and the pyproject table alone is enough (needs Go and the module proxy)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "own-scheduler.md"
pytestmark = pytest.mark.skipif(shutil.which("go") is None, reason="needs a Go toolchain to build")


def documented_commands() -> list[str]:
    """Every `sched-conformance` command in the doc's sh blocks, continuation lines joined."""
    blocks = re.findall(r"```sh\n(.*?)```", DOC.read_text(), re.DOTALL)
    return [" ".join(block.replace("\\\n", " ").split()) for block in blocks
            if block.lstrip().startswith("sched-conformance")]


def command(prefix: str) -> list[str]:
    """The documented command starting with `prefix`, as argv."""
    matches = [c for c in documented_commands() if c.startswith(prefix)]
    assert len(matches) == 1, f"docs/own-scheduler.md should show one command starting with {prefix!r}: {matches}"
    return shlex.split(matches[0])


@pytest.fixture(scope="module")
def user(installed):
    """The installed package and a user's project directory with examples/ in it."""
    return installed, installed.project("own-scheduler")


def run(user, argv: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess:
    """`argv` (a `sched-conformance ...` command) with the installed CLI, in the project (or `cwd`)."""
    installed, project = user
    assert argv[0] == "sched-conformance"
    return subprocess.run([str(installed.cli), *argv[1:]], cwd=cwd or project, env=installed.env(),
                          capture_output=True, text=True, timeout=1800)


def test_the_example_plugin_passes_the_ci_profile(user, tmp_path):
    argv = command("sched-conformance run --backend upstream --go-module examples/plugins --go-plugin "
                   "PreferLabeled=example.com/sched-plugins/prefer.New --scheduler-config")
    result = run(user, argv + ["--reproducers", str(tmp_path)])
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    # The framework's rules were checked on the user's real plugin (observed), and invariants whose rule
    # never applied on this config are reported as skipped with that reason, not as passed.
    assert re.search(r"observed-score-range: exercised in [1-9]\d*/100 examples", result.stdout), result.stdout[-3000:]
    assert "failed" not in result.stdout.splitlines()[-1]
    # How much of the plugin's own code ran (section 13): its package, instrumented, reported with its report files.
    reached = re.search(r"your plugins' code: (\d+) of (\d+) statements run", result.stdout)
    assert reached and 0 < int(reached.group(1)) <= int(reached.group(2)), result.stdout[-3000:]
    assert "example.com/sched-plugins/prefer:" in result.stdout
    assert (user[1] / ".sched-conformance" / "coverage" / "profile.txt").is_file()


def test_the_broken_plugin_is_named_and_its_reproducer_replays(user, tmp_path):
    argv = command("sched-conformance run --backend upstream --go-module examples/plugins --go-plugin "
                   "PreferLabeled=example.com/sched-plugins/prefer.New --go-plugin FreeCPU")
    result = run(user, argv + ["--reproducers", str(tmp_path)])
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-2000:]
    assert "[observed-score-range] FreeCPU scored outside [0, 100]" in result.stdout
    assert "responsible: FreeCPU" in result.stdout
    reproducer = tmp_path / "observed-score-range"
    assert (reproducer / "own-scheduler.toml").is_file()
    replay = command("sched-conformance reproduce")
    replay[replay.index(".sched-conformance/reproducers/observed-score-range")] = str(reproducer)
    replayed = run(user, replay)
    assert replayed.returncode == 1, replayed.stdout + replayed.stderr
    assert "REPRODUCED on upstream" in replayed.stdout and "FreeCPU" in replayed.stdout


def test_the_pyproject_table_alone_builds_and_runs_the_module(user, tmp_path):
    argv = command("sched-conformance run --backend upstream --profile ci")
    result = run(user, argv + ["--max-examples", "3", "--invariant", "observed-score-range",
                         "--reproducers", str(tmp_path)], user[1] / "examples" / "plugins")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    # Exit 0 means the build registered PreferLabeled: the table's config names it, and a scheduler without it
    # refuses the config before any test runs (exit 2).
    # The module's plugin ran (3 examples may not reach a scoring cycle: then the rule says so, skipped).
    assert "observed-score-range: exercised in" in result.stdout and "failed" not in result.stdout.splitlines()[-1]


def test_the_extender_command_checks_a_running_extender(user, tmp_path):
    from tests.conformance.test_user_extender import Extender
    argv = command("sched-conformance run --backend upstream --extender")
    url = argv[argv.index("--extender") + 1]
    try:
        extender = Extender("good", port=int(url.split(":")[2].split("/")[0]))
    except OSError as exc:
        pytest.skip(f"the documented extender port is taken here: {exc}")
    try:
        result = run(user, argv + ["--max-examples", "10", "--invariant", "extender-wire-contract", "--strict-coverage",
                             "--reproducers", str(tmp_path)])
    finally:
        extender.close()
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "1 passed" in result.stdout


# Section 8 builds Kubernetes 1.34 (a cold build of several minutes) with scheduler-plugins from the proxy.
third_party = pytest.mark.skipif(os.environ.get("SCHED_CONFORMANCE_OTHER_RELEASES") != "1",
                                 reason="builds Kubernetes 1.34 with sigs.k8s.io/scheduler-plugins (minutes); set "
                                        "SCHED_CONFORMANCE_OTHER_RELEASES=1 to run")


@third_party
def test_scheduler_plugins_allocatable_runs_on_1_34(user, tmp_path):
    argv = command("sched-conformance run --backend upstream --go-module sigs.k8s.io/scheduler-plugins@v0.34.7")
    result = run(user, argv + ["--max-examples", "3", "--invariant", "observed-score-range", "--invariant",
                         "plugin-order-matches-expansion", "--reproducers", str(tmp_path)], ROOT)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "Kubernetes v1.34.3" in result.stdout
    # The reference expands configs as v1.37 does; a v1.34 build lacks `reference-release`.
    assert "lacks capability reference-release" in result.stdout
    assert "failed" not in result.stdout.splitlines()[-1]


@third_party
def test_coscheduling_runs_on_the_local_control_plane_with_its_pod_groups(user, tmp_path):
    argv = command("sched-conformance run --backend cluster --own-scheduler examples/scheduler-plugins")
    result = run(user, argv + ["--max-examples", "5", "--invariant", "permit-wait-resolution", "--invariant",
                               "unreserve-reverse-order", "--reproducers", str(tmp_path)])
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "CRDs: installed podgroups.scheduling.x-k8s.io for this run" in result.stdout
    assert "failed" not in result.stdout.splitlines()[-1]


@third_party
def test_a_pod_group_decides_on_the_cluster():
    # The PodGroup reaches Coscheduling: one pod of a group of two waits for its sibling; two are bound.
    from conformance.builds import load_file
    from conformance.builds import build
    from conformance.cluster.target import open_backend
    from reference.scenario import Scenario
    spec = load_file(ROOT / "examples" / "scheduler-plugins" / "own-scheduler.toml")
    crds = (ROOT / "examples" / "scheduler-plugins" / "crds" / "podgroups.yaml",)
    config = yaml.safe_load((ROOT / "examples" / "scheduler-plugins" / "coscheduling.yaml").read_text())
    backend = open_backend(scheduler_binary=str(build(spec).kube_scheduler), crds=crds)

    def scenario(pods: int) -> Scenario:
        return Scenario.from_dict({
            "config": config, "deadline": 15,
            "nodes": [{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-0"},
                       "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"},
                                  "capacity": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}],
            "workload": [{"apiVersion": "v1", "kind": "Pod", "metadata": {
                "name": f"pod-{i}", "namespace": "default", "labels": {"scheduling.x-k8s.io/pod-group": "pg"}},
                "spec": {"containers": [{"name": "c"}]}} for i in range(pods)],
            "customObjects": [{"apiVersion": "scheduling.x-k8s.io/v1alpha1", "kind": "PodGroup",
                               "metadata": {"name": "pg", "namespace": "default"}, "spec": {"minMember": 2}}]})
    try:
        alone = backend.run(scenario(1)).pods["default/pod-0"]
        both = backend.run(scenario(2)).pods
    finally:
        backend.close()
    assert alone.phase != "bound", alone
    assert [both[k].phase for k in sorted(both)] == ["bound", "bound"], both
