"""kind availability (up to where Docker is needed) and the CLI's registration and errors."""

import argparse
import subprocess

import pytest

from conformance.cluster import kind
from conformance.cluster.cli import register
from conformance.errors import BackendUnavailable


def _done(code: int, out: str = "", err: str = ""):
    return lambda argv: subprocess.CompletedProcess(argv, code, out, err)


def test_kind_names_a_missing_docker_command():
    reason = kind.unavailable_reason(which=lambda name: None, run=_done(0))
    assert reason == "kind needs Docker: the `docker` command is not on PATH (install Docker)"


def test_kind_names_a_docker_daemon_that_does_not_answer():
    reason = kind.unavailable_reason(which=lambda name: "/usr/bin/" + name,
                                     run=_done(1, err="Cannot connect to the Docker daemon at unix:///var/run/docker.sock."))
    assert reason.startswith("kind needs a running Docker daemon: `docker info` failed: Cannot connect")


def test_kind_names_missing_kind_and_the_extra():
    reason = kind.unavailable_reason(which=lambda name: "/usr/bin/docker" if name == "docker" else None,
                                     run=_done(0, "28.2.2"), has_pytest_kind=lambda: False)
    assert "put `kind` on PATH" in reason and "[kind]" in reason
    assert kind.unavailable_reason(which=lambda name: "/usr/bin/" + name, run=_done(0, "28.2.2")) is None


def test_ensure_cluster_reuses_an_existing_cluster(tmp_path):
    from conformance.cluster.state import StateDir
    calls = []

    def run(argv):
        calls.append(argv[:3])
        return subprocess.CompletedProcess(argv, 0, "sched-conformance\nother\n" if argv[1] == "get" else "28", "")
    kubeconfig, context = kind.ensure_cluster(state=StateDir(tmp_path), run=run, which=lambda n: "/bin/" + n)
    assert context == "kind-sched-conformance" and kubeconfig.endswith("kind-sched-conformance.kubeconfig")
    assert ["kind", "create", "cluster"] not in calls and ["kind", "export", "kubeconfig"] in calls


def test_kind_cluster_here_or_the_reason_it_cannot_run():
    reason = kind.unavailable_reason()
    if reason:
        with pytest.raises(BackendUnavailable, match="kind"):
            kind.ensure_cluster()
        pytest.skip(reason)
    kubeconfig, context = kind.ensure_cluster(config=kind.CONFIGS / "stock.yaml")
    assert context.startswith("kind-")


def test_kind_configs_are_valid_yaml():
    import yaml
    for path in kind.CONFIGS.glob("*.yaml"):
        assert yaml.safe_load(path.read_text())["kind"] in ("Cluster", "KubeSchedulerConfiguration"), path


def _parser():
    parser = argparse.ArgumentParser(prog="sched-conformance")
    register(parser.add_subparsers(dest="command", required=True))
    return parser


def test_register_adds_cluster_and_cleanup():
    p = _parser()
    assert p.parse_args(["cluster", "up", "--port", "6443"]).port == 6443
    assert p.parse_args(["cluster", "down"]).cluster_command == "down"
    args = p.parse_args(["cleanup", "--run", "abc", "--context", "kind-x"])
    assert (args.run_id, args.context, args.allow_any_cluster) == ("abc", "kind-x", False)


def test_cluster_status_without_a_control_plane(tmp_path, capsys):
    args = _parser().parse_args(["cluster", "status", "--state", str(tmp_path)])
    assert args.run(args) == 1
    assert capsys.readouterr().out.startswith("control plane not running")


def test_cleanup_refuses_a_production_looking_context(tmp_path, capsys):
    kc = tmp_path / "kc"
    kc.write_text("""
apiVersion: v1
kind: Config
current-context: prod
clusters: [{name: prod, cluster: {server: "https://api.prod.example.com"}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: prod, context: {cluster: prod, user: u}}]
""")
    args = _parser().parse_args(["cleanup", "--state", str(tmp_path / "s"), "--kubeconfig", str(kc)])
    assert args.run(args) == 2
    assert "does not look like a test cluster" in capsys.readouterr().err
