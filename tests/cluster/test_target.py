"""`--backend cluster` options: through the pytest plugin and `sched-conformance run` to the backend.

The ClusterBackend itself is replaced by a recorder here (tests/cluster/test_live.py and
test_suite_subset.py run the real one).
"""

from pathlib import Path

import pytest

from conformance.cluster import target
from conformance.core.errors import BackendUnavailable

pytest_plugins = ["pytester"]


@pytest.mark.parametrize("options, message", [
    ({"cluster": "docker"}, "--cluster 'docker' is unknown; use one of local, kind"),
    ({"cluster": "kind", "kubeconfig": "k"}, "--cluster kind picks its own kubeconfig; drop --kubeconfig or --cluster"),
    ({"cluster": "local", "context": "c"}, "--cluster local picks its own kubeconfig; drop --context or --cluster"),
    ({"cluster": "local", "scheduler_name": "s"}, "--scheduler-name is for a cluster's own scheduler"),
])
def test_options_that_cannot_go_together_are_named(options, message):
    with pytest.raises(BackendUnavailable, match=message):
        target.check_options(**options)


class _Recorder:
    """Stands in for ClusterBackend: records its options."""

    made: list = []

    def __init__(self, **options):
        self.options = options
        self.name, self.capabilities, self.kubernetes_version = "cluster", frozenset(), "v0"
        self.notes = ["recorded"]
        _Recorder.made.append(options)


@pytest.fixture
def recorder(monkeypatch, tmp_path):
    monkeypatch.setattr(target, "ClusterBackend", _Recorder)
    monkeypatch.setenv("SCHED_CONFORMANCE_STATE", str(tmp_path / "state"))
    _Recorder.made = []
    return _Recorder.made


def test_no_target_means_the_local_control_plane_started_for_the_session(recorder):
    target.open_backend(extender_server=None)
    (options,) = recorder
    cp = options["control_plane"]
    assert options["stop_control_plane"] is True and cp.tied, "started here: tied to the session, stopped at close"
    assert str(cp.state.root).endswith("state")


def test_a_running_local_control_plane_is_reused_and_left_running(recorder, monkeypatch):
    monkeypatch.setattr(target.ControlPlane, "running", lambda self: True)
    target.open_backend(cluster="local")
    assert "stop_control_plane" not in recorder[0] and not recorder[0]["control_plane"].tied


def test_kubeconfig_options_reach_the_backend(recorder):
    target.open_backend(kubeconfig="k", context="c", scheduler_name="s", allow_any_cluster=True, fresh_scheduler=True)
    assert recorder[0] == {"kubeconfig": "k", "context": "c", "scheduler_name": "s", "allow_any_cluster": True,
                           "extender_server": None, "fresh_scheduler": True, "progress": None}


def test_kind_uses_the_kind_clusters_kubeconfig_or_fails_naming_what_is_missing(recorder, monkeypatch):
    from conformance.cluster import kind_scheduler
    monkeypatch.setattr(kind_scheduler, "gateway", lambda: "172.18.0.1")
    target.open_backend(cluster="kind", ensure_kind=lambda: ("/kind.kubeconfig", "kind-x"))
    assert (recorder[0]["kubeconfig"], recorder[0]["context"]) == ("/kind.kubeconfig", "kind-x")
    # The node's scheduler is driven per scenario and posts its traces to the Docker network's gateway.
    assert recorder[0]["collector_host"] == "172.18.0.1"
    assert recorder[0]["cluster_scheduler"](object()).node == "x-control-plane"
    target.open_backend(cluster="kind", ensure_kind=lambda: ("/kind.kubeconfig", "kind-x"), scheduler_name="s")
    assert "cluster_scheduler" not in recorder[1] and recorder[1]["scheduler_name"] == "s"

    def missing():
        raise BackendUnavailable("kind needs Docker: the `docker` command is not on PATH (install Docker)")
    with pytest.raises(BackendUnavailable, match="kind needs Docker"):
        target.open_backend(cluster="kind", ensure_kind=missing)


# --- through pytest ---------------------------------------------------------------------------------

_CONFTEST = """
import json, os
from conformance.cluster import target

class Recorder:
    def __init__(self, **options):
        self.name, self.capabilities, self.kubernetes_version = "cluster", frozenset(), "v1.37.1"
        self.notes = ["probes: not available (recorded)"]
        shown = {k: v for k, v in options.items() if k not in ("extender_server", "control_plane", "progress")}
        print("OPTIONS " + json.dumps(shown, sort_keys=True))
    def run(self, scenario):
        raise AssertionError("not run here")
    def close(self):
        pass

target.ClusterBackend = Recorder
"""

_TEST = """
def test_backend(conformance):
    assert conformance.backend().name == "cluster"
"""


@pytest.fixture
def suite(pytester, monkeypatch, tmp_path):
    monkeypatch.setenv("SCHED_CONFORMANCE_STATE", str(tmp_path / "state"))
    pytester.makeconftest(_CONFTEST)
    pytester.makepyfile(test_backend=_TEST)
    return pytester


def _options(result):
    import json
    return [json.loads(line.split("OPTIONS ", 1)[1]) for line in result.outlines if "OPTIONS " in line]


def test_plugin_passes_the_cluster_options(suite):
    result = suite.runpytest_subprocess("--conformance-backend", "cluster", "--conformance-kubeconfig", "k.yaml",
                                        "--conformance-context", "ci", "--conformance-scheduler-name", "my-scheduler",
                                        "--conformance-allow-any-cluster", "-s")
    result.assert_outcomes(passed=1)
    assert _options(result)[0] == {"kubeconfig": "k.yaml", "context": "ci", "scheduler_name": "my-scheduler",
                                   "allow_any_cluster": True, "fresh_scheduler": False}
    result.stdout.fnmatch_lines(["sched-conformance: cluster: probes: not available (recorded)"])


def test_plugin_defaults_to_the_local_control_plane_and_compares_with_a_fresh_scheduler(suite):
    result = suite.runpytest_subprocess("--conformance-backend", "cluster", "--conformance-compare", "reference", "-s")
    result.assert_outcomes(passed=1)
    assert _options(result)[0] == {"fresh_scheduler": True, "stop_control_plane": True}


def test_cluster_options_without_the_cluster_backend_are_a_usage_error(suite):
    result = suite.runpytest_subprocess("--conformance-backend", "reference", "--conformance-kubeconfig", "k.yaml")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: sched-conformance: --conformance-kubeconfig applies to the cluster backend; "
                                 "add --conformance-backend cluster or drop --conformance-kubeconfig"])


def test_unavailable_kind_ends_the_session_at_once_with_one_line(pytester, monkeypatch, tmp_path):
    from conformance.cluster import kind
    monkeypatch.setenv("PATH", str(tmp_path))  # no docker here, whether or not this machine has one
    monkeypatch.setenv("PYTHONPATH", str(Path(kind.__file__).resolve().parents[2]))  # this checkout's package
    reason = kind.unavailable_reason()
    assert reason == "kind needs Docker: the `docker` command is not on PATH (as root: kind-node/docker-setup.sh --install)"
    pytester.makepyfile(test_backend=_TEST)
    result = pytester.runpytest_subprocess("--conformance-backend", "cluster", "--conformance-cluster", "kind")
    assert result.ret == 4
    # Before the header, as pytest's usage error: the reason may hold [brackets].
    assert f"ERROR: sched-conformance: {reason}" in result.stderr.str()
    assert "test session starts" not in result.stdout.str()


def test_run_command_passes_the_cluster_options_to_pytest(monkeypatch):
    import argparse

    import pytest as pytest_module

    from conformance import commands
    seen = []
    monkeypatch.setattr(pytest_module, "main", lambda argv, plugins=(): seen.append(argv) or 0)
    parser = argparse.ArgumentParser()
    commands.add_to(parser.add_subparsers())
    args = parser.parse_args(["run", "--backend", "cluster", "--cluster", "kind", "--kubeconfig", "k", "--context", "c",
                              "--scheduler-name", "s", "--allow-any-cluster"])
    assert args.run(args) == 0
    argv = seen[0]
    for flag, value in (("--conformance-cluster", "kind"), ("--conformance-kubeconfig", "k"),
                        ("--conformance-context", "c"), ("--conformance-scheduler-name", "s")):
        assert argv[argv.index(flag) + 1] == value
    assert "--conformance-allow-any-cluster" in argv
