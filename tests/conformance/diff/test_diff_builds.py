"""`sched-conformance diff` on real builds of the pinned release: the same build on both sides differs nowhere
over the ci profile's scenarios (and over those with a timeline, on their own); a deliberately changed plugin
(the example module with another score for unlabeled nodes) is a new group whose shrunk example shows the
change, a baseline written from that run makes the next one pass, its reproducer replays; a side that does not compile is named, with the Go error
and the other side's build kept (needs Go; the example module's builds take about 40 s each)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.builds import make_spec
from conformance.builds import build
from conformance.diff.engine import Sides, run_all
from conformance.diff.scenarios import fixed_scenarios
from conformance.diff.sides import backend_for
from conformance.extender.server import ExtenderServer

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "plugins"
PLUGIN = "PreferLabeled=example.com/sched-plugins/prefer.New"
CONFIG = EXAMPLE / "configs" / "prefer-labeled.yaml"
pytestmark = pytest.mark.skipif(shutil.which("go") is None, reason="needs a Go toolchain to build")


def diff(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "conformance.cli", "diff", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=1800)


def _differs_nowhere(pinned, drawn) -> None:
    """`drawn` run on two backends of the same build: every scenario runs and none differs."""
    with ExtenderServer() as server:
        a, b = (backend_for(pinned, extender_server=server) for _ in range(2))
        try:
            found, tally = run_all(Sides(a, b, "a", "b"), drawn)
        finally:
            a.close()
            b.close()
    assert tally.scenarios == len(drawn)
    assert found == [], [(d.name, [(x.kind, x.what, x.pod) for x in s.differences]) for d, s in found[:5]]


def test_the_same_build_on_both_sides_differs_nowhere_over_the_ci_scenarios():
    pinned = build(make_spec())
    drawn = list(fixed_scenarios("ci"))
    assert len(drawn) > 300  # every situation's share and the general scenarios
    _differs_nowhere(pinned, drawn)


def test_the_same_build_with_timelines_differs_nowhere_over_the_ci_scenarios():
    # The timeline source and the event rules' situations: the scenarios where events race with cycles.
    drawn = [d for d in fixed_scenarios("ci") if d.scenario.timeline]
    assert len([d for d in drawn if d.source == "timeline"]) >= 25 and len({d.source for d in drawn}) >= 2
    _differs_nowhere(build(make_spec()), drawn)


def test_the_same_build_with_faults_differs_nowhere_over_the_ci_scenarios():
    # The faults source and the fault rules' situations: failed calls, vanishing objects, restarts.
    drawn = [d for d in fixed_scenarios("ci") if any(e.get("op") in ("fail", "vanish", "restart")
                                                     for e in d.scenario.timeline)]
    assert len([d for d in drawn if d.source == "faults"]) >= 15 and len({d.source for d in drawn}) >= 3
    _differs_nowhere(build(make_spec()), drawn)


@pytest.fixture(scope="module")
def modules(tmp_path_factory) -> tuple[Path, Path]:
    """The example module as it is (v1) and with unlabeled nodes scored 50 instead of 0 (v2)."""
    root = tmp_path_factory.mktemp("plugins")
    v1, v2 = root / "plugins-v1", root / "plugins-v2"
    for directory in (v1, v2):
        shutil.copytree(EXAMPLE, directory)
    prefer = v2 / "prefer" / "prefer.go"
    source = prefer.read_text()
    assert "return fwk.MinNodeScore, nil" in source
    prefer.write_text(source.replace("return fwk.MinNodeScore, nil", "return fwk.MaxNodeScore / 2, nil"))
    return v1, v2


def plugin_diff(v1: Path, v2: Path, *extra: str) -> subprocess.CompletedProcess:
    return diff("--from-module", str(v1), "--to-module", str(v2), "--go-plugin", PLUGIN,
                "--scheduler-config", str(CONFIG), "--profile", "dev", *extra)


def test_a_changed_plugin_is_a_new_group_a_baseline_accepts_it_and_it_replays(modules, tmp_path):
    v1, v2 = modules
    report = tmp_path / "report"
    first = plugin_diff(v1, v2, "--report", str(report), "--junitxml", str(tmp_path / "junit.xml"))
    assert first.returncode == 1, first.stdout[-3000:] + first.stderr[-3000:]
    data = json.loads((report / "diff.json").read_text())
    keys = [g["key"] for g in data["groups"]]
    assert any(k.startswith("plugin-calls Score/PreferLabeled") for k in keys), keys
    group = next(g for g in data["groups"] if g["key"].startswith("plugin-calls Score/PreferLabeled"))
    # The shrunk example shows the change: PreferLabeled's scores, 0 on the --from side, 50 on the --to side.
    cause = group["example"]["differences"][0]
    assert {entry[0][4] for entry in cause["from"]} == {0} and {entry[0][4] for entry in cause["to"]} == {50}, cause
    assert len(group["example"]["scenario"]["workload"]) == 1  # shrunk to one pod
    assert "**new**" in (report / "summary.md").read_text()
    assert 'failures="' in (tmp_path / "junit.xml").read_text() and "<failure" in (tmp_path / "junit.xml").read_text()

    baseline = tmp_path / "accepted.yaml"
    written = plugin_diff(v1, v2, "--write-baseline", str(baseline))
    assert written.returncode == 0, written.stderr[-3000:]
    second = plugin_diff(v1, v2, "--baseline", str(baseline))
    assert second.returncode == 0, second.stdout[-3000:] + second.stderr[-3000:]
    assert "0 new" in second.stderr

    directory = group["reproducer"]
    replay = subprocess.run([sys.executable, "-m", "conformance.cli", "reproduce", directory], cwd=ROOT,
                            capture_output=True, text=True, timeout=900)
    assert replay.returncode == 1 and "REPRODUCED" in replay.stdout, replay.stdout[-2000:] + replay.stderr[-2000:]
    one_side = subprocess.run([sys.executable, "-m", "conformance.cli", "reproduce", directory, "--version",
                               data["to"].split()[0], "--side", "to"], cwd=ROOT, capture_output=True, text=True,
                              timeout=900)
    assert one_side.returncode == 0, one_side.stderr[-2000:]
    assert "Score PreferLabeled" in one_side.stdout and "score=50" in one_side.stdout


def test_a_side_that_does_not_compile_is_named_and_the_other_build_kept(modules, tmp_path):
    v1, _ = modules
    broken = tmp_path / "plugins-broken"
    shutil.copytree(v1, broken)
    prefer = broken / "prefer" / "prefer.go"
    prefer.write_text(prefer.read_text().replace("return fwk.MinNodeScore, nil", "return fwk.MinNodeScore"))
    result = plugin_diff(v1, broken)
    assert result.returncode == 2, result.stderr[-3000:]
    message = result.stderr.split("sched-conformance: ", 1)[1]
    first_line = message.splitlines()[0]
    assert first_line.startswith("the --to side (Kubernetes ") and "does not build" in first_line, first_line
    assert "prefer.go" in first_line and "the --from side's build is kept in" in first_line, first_line
    assert "Traceback" not in result.stderr


def test_feature_gates_reach_the_runner_and_a_gate_it_refuses_is_one_line():
    from conformance.diff.sides import check_gates
    from conformance.core.errors import ConformanceError
    pinned = build(make_spec())
    check_gates(pinned, "SchedulerAsyncPreemption=false", "--from")
    with pytest.raises(ConformanceError) as info:
        check_gates(pinned, "NoSuchGate=true", "--to")
    assert str(info.value) == (f"--feature-gates NoSuchGate=true: Kubernetes {pinned.k8s_version} (the --to side) "
                               "refuses them: unrecognized feature gate: NoSuchGate; pin only gates both releases "
                               "have and do not lock")
    # The runner started with a pinned gate runs scenarios (the flag is parsed before the first one).
    with ExtenderServer() as server:
        backend = backend_for(pinned, extender_server=server, feature_gates="SchedulerAsyncPreemption=false")
        try:
            drawn = list(fixed_scenarios("dev", only=("preemption-victims-minimal",)))
            found, tally = run_all(Sides(backend, backend, "a", "b"), drawn[:3])
        finally:
            backend.close()
    assert tally.scenarios == 3 and found == []


def test_two_versions_that_differ_only_on_the_plugins_own_label_differ(tmp_path):
    """The versions score the plugin's own label value differently (gold: 80 against 60); the stock vocabulary
    never draws it, the vocabulary read from both versions' sources does."""
    sides = []
    for version, score in (("v1", 80), ("v2", 60)):
        directory = tmp_path / f"plugins-{version}"
        shutil.copytree(EXAMPLE, directory)
        prefer = directory / "prefer" / "prefer.go"
        prefer.write_text(prefer.read_text().replace(
            "\tif node.Node().Labels[Label] == \"true\" {",
            f"\tif node.Node().Labels[\"example.com/tier\"] == \"gold\" {{\n\t\treturn {score}, nil\n\t}}\n"
            "\tif node.Node().Labels[Label] == \"true\" {"))
        sides.append(directory)
    report = tmp_path / "report"
    result = plugin_diff(*sides, "--report", str(report))
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-3000:]
    groups = json.loads((report / "diff.json").read_text())["groups"]
    group = next((g for g in groups if g["key"].startswith("plugin-calls Score/PreferLabeled")), None)
    assert group is not None, [g["key"] for g in groups]
    cause = group["example"]["differences"][0]
    assert {entry[0][4] for entry in cause["from"]} == {80} and {entry[0][4] for entry in cause["to"]} == {60}, cause
