"""The suite as users run it (`python -m pytest --pyargs conformance.suite --conformance-backend cluster ...`)
against the local control plane: a ci-profile subset of the invariants, the differential run against
the reference, the outcome-only path of a plain kubeconfig, and an API server left empty after each.

Each run is a subprocess that reuses the session's control plane (tests/cluster/conftest.py) through
$SCHED_CONFORMANCE_STATE. The ci profile's example count is capped to EXAMPLES by a small plugin
loaded with `-p` (the suite has no option for it), which also counts the scenarios the cluster
backend ran.
"""

import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conformance.cluster.kube import Kube, path
from conformance.cluster.schedconfig import render
from conformance.differential import TIMELINE_SHARE

from .test_kind_cli import _parser
from .test_live import _suite_objects

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = 20
SUBSET = ("capacity-respected", "preemptor-nominated", "gated-pods-never-prefiltered")
# Outcome-only invariants a user's scheduler is judged by (conformance/invariants/placement.py, topology.py,
# liveness.py, disruption.py); each draws its own situation.
OUTCOME_ONLY = ("taints-tolerated", "node-selection-respected", "unschedulable-nodes-avoided", "host-ports-free",
                "pod-affinity-respected", "topology-spread-respected", "schedulable-pods-bound",
                "never-preempting-pods-evict-none", "pdb-kept-when-avoidable", "preemption-victims-minimal")
NEEDS_PLUGIN_LIST = "plugin-order-matches-expansion"
SESSION_TIMEOUT = 300

_PLUGIN = f'''
import time
from conformance.cluster.backend import ClusterBackend

_stats = {{"scenarios": 0, "seconds": 0.0, "timelines": 0, "applied": 0}}
_run = ClusterBackend.run

def _counted(self, scenario):
    start = time.monotonic()
    outcome = None
    try:
        outcome = _run(self, scenario)
        return outcome
    finally:
        _stats["scenarios"] += 1
        _stats["seconds"] += time.monotonic() - start
        _stats["timelines"] += bool(scenario.timeline)
        _stats["applied"] += len(outcome.timeline) if outcome is not None else 0

ClusterBackend.run = _counted

def pytest_terminal_summary(terminalreporter):
    terminalreporter.write_line("SCC-STATS scenarios=%(scenarios)d seconds=%(seconds).2f "
                                "timelines=%(timelines)d applied=%(applied)d" % _stats)
'''


class Session:
    def __init__(self, proc: subprocess.CompletedProcess, junit: Path, seconds: float) -> None:
        self.proc, self.seconds = proc, seconds
        self.output = proc.stdout + proc.stderr
        stats = next(line for line in proc.stdout.splitlines() if line.startswith("SCC-STATS"))
        fields = dict(item.split("=") for item in stats.split()[1:])
        self.scenarios, self.backend_seconds = int(fields["scenarios"]), float(fields["seconds"])
        # Scenarios with a timeline, and the events the cluster applied in them.
        self.timelines, self.applied = int(fields["timelines"]), int(fields["applied"])
        self.outcomes: dict[str, tuple[str, str]] = {}
        for case in ET.parse(junit).getroot().iter("testcase"):
            # <properties> holds the test's user properties (the exercised counts), not its outcome.
            result = next((child for child in case if child.tag != "properties"), None)
            self.outcomes[case.get("name", "")] = ("passed", "") if result is None else \
                (result.tag, result.get("message", ""))


@pytest.fixture(scope="module")
def kube(control_plane):
    k = Kube.connect(str(control_plane.kubeconfig))
    yield k
    k.close()


@pytest.fixture(scope="module")
def run_suite(control_plane, tmp_path_factory):
    work = tmp_path_factory.mktemp("suite")
    (work / "scc_subset_plugin.py").write_text(_PLUGIN)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(work)]),
           "SCHED_CONFORMANCE_STATE": str(control_plane.state.root)}

    def run(name: str, *args: str) -> Session:
        junit = work / f"{name}.xml"
        argv = [sys.executable, "-m", "pytest", "--pyargs", "conformance.suite", "-p", "scc_subset_plugin",
                "-p", "no:cacheprovider", "--conformance-profile", "ci", "--conformance-max-examples", str(EXAMPLES),
                "--conformance-reproducers", str(work / "repro"),
                f"--junitxml={junit}", "-rs", *args]
        start = time.monotonic()
        proc = subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True, timeout=SESSION_TIMEOUT)
        return Session(proc, junit, time.monotonic() - start)
    return run


def _report(capsys, what: str, session: Session) -> None:
    with capsys.disabled():
        print(f"\n[cluster suite] {what}: {session.scenarios} scenarios in {session.seconds:.1f} s "
              f"({session.scenarios / session.seconds:.2f} examples/s overall, "
              f"{session.scenarios / max(session.backend_seconds, 1e-9):.2f}/s inside the backend)")


def test_ci_subset_passes_and_leaves_nothing(run_suite, kube, capsys):
    assert _suite_objects(kube) == ([], [], []), "an earlier test left objects behind"
    args = [a for inv in (*SUBSET, NEEDS_PLUGIN_LIST) for a in ("--conformance-invariant", inv)]
    session = run_suite("subset", "--conformance-backend", "cluster", *args)
    assert session.proc.returncode == 0, session.output[-3000:]
    assert {f"test_invariant[cluster-{i}]": "passed" for i in SUBSET}.items() <= \
        {k: v[0] for k, v in session.outcomes.items()}.items(), session.outcomes
    status, reason = session.outcomes[f"test_invariant[cluster-{NEEDS_PLUGIN_LIST}]"]
    assert status == "skipped" and "lacks capability plugin-list" in reason
    assert "started the local control plane" not in session.output, \
        "the session's control plane is reused, not started again"
    assert len(SUBSET) * EXAMPLES >= session.scenarios >= len(SUBSET) * EXAMPLES // 2, \
        f"{session.scenarios} scenarios: the example cap did not hold"
    _report(capsys, "ci subset", session)
    assert _suite_objects(kube) == ([], [], []), "the suite left objects on the API server"


def test_differential_against_the_reference_through_the_plugin(run_suite, kube, capsys):
    session = run_suite("differential", "--conformance-backend", "cluster", "--conformance-compare", "reference",
                        "-k", "differential")
    assert _suite_objects(kube) == ([], [], []), "the suite left objects on the API server"
    assert set(session.outcomes) == {"test_differential"}, session.output[-3000:]
    _report(capsys, "differential vs reference (fresh scheduler)", session)
    # The cluster lacks creation-order, so the differential draws one workload pod per scenario.
    status, message = session.outcomes["test_differential"]
    assert session.proc.returncode == 0 and status == "passed", session.output[-3000:]
    # Then its timeline search: idle events only on a wall clock, a share of the examples.
    timelines = EXAMPLES // TIMELINE_SHARE
    assert EXAMPLES + timelines + 2 >= session.scenarios >= EXAMPLES // 2 + timelines // 2, session.scenarios
    assert session.timelines >= timelines // 2 and session.applied >= session.timelines, \
        (session.timelines, session.applied)


def test_a_plain_kubeconfig_runs_only_outcome_level_invariants(run_suite, kube, control_plane):
    # As any cluster: its own scheduler (the control plane's, on the v1 defaults), no probes.
    control_plane.scheduler().ensure(render(None, kubeconfig=str(control_plane.kubeconfig)))
    args = [a for inv in ("capacity-respected", *OUTCOME_ONLY) for a in ("--conformance-invariant", inv)]
    # Fewer examples each than the subset's: eleven invariants share the session's time.
    session = run_suite("kubeconfig", "--conformance-backend", "cluster",
                        "--conformance-kubeconfig", str(control_plane.kubeconfig), *args,
                        "--conformance-invariant", "gated-pods-never-prefiltered", "--conformance-max-examples", "8")
    assert session.proc.returncode == 0, session.output[-3000:]
    assert "only outcome-level invariants apply" in session.proc.stdout
    for inv in ("capacity-respected", *OUTCOME_ONLY):
        assert session.outcomes[f"test_invariant[cluster-{inv}]"] == ("passed", ""), inv
    assert f"checked on cluster ({1 + len(OUTCOME_ONLY)}):\n  capacity-respected" in session.proc.stdout
    assert "skipped, cluster lacks probes (probes: " in session.proc.stdout
    status, reason = session.outcomes["test_invariant[cluster-gated-pods-never-prefiltered]"]
    assert status == "skipped" and "lacks capability probes" in reason
    # Against a cluster, namespaces are left to its namespace controller; this control plane has none,
    # so they stay Terminating until `sched-conformance cleanup` finalizes them.
    found, pods, _ = _suite_objects(kube)
    assert pods == [] and {f.kind for f in found} <= {"Namespace"}
    assert all((kube.get(path("Namespace", name=f.name)) or {}).get("status", {}).get("phase") == "Terminating"
               for f in found)
    args = _parser().parse_args(["cleanup", "--state", str(control_plane.state.root)])
    assert args.run(args) == 0
    assert _suite_objects(kube) == ([], [], [])
