"""kind availability, cluster ownership and cleanup of a failed create (with a fake docker/kind), and the
CLI's registration and errors. The live kind tests are in test_kind_live.py."""

import argparse
import subprocess

import pytest

from conformance.cluster import kind
from conformance.cluster.cli import register
from conformance.core.errors import BackendUnavailable


def _done(code: int, out: str = "", err: str = ""):
    return lambda argv: subprocess.CompletedProcess(argv, code, out, err)


class FakeDocker:
    """Answers the docker/kind commands kind.py runs; `nodes` are the cluster's containers -> images."""

    def __init__(self, nodes=None, *, info=0, check=0, create=0, interrupt=False):
        self.nodes = dict(nodes or {})
        self.info, self.check, self.create, self.interrupt = info, check, create, interrupt
        self.calls = []

    def __call__(self, argv):
        self.calls.append(argv)
        if argv[:2] == ["docker", "info"]:
            return _done(self.info, "20.10.24", "" if self.info == 0 else "Cannot connect to the Docker daemon")(argv)
        if argv[-1] == "--check":
            return _done(self.check, "", "docker-setup: privileged containers fail here (the bounding set lacks "
                                         "CAP_SYS_RESOURCE): run kind-node/docker-setup.sh as root")(argv)
        if argv[:2] == ["docker", "ps"]:
            return _done(0, "".join(f"{c}\t{i}\n" for c, i in self.nodes.items()))(argv)
        if argv[1:3] == ["create", "cluster"]:
            self.nodes["sc-control-plane"] = "sched-conformance/kind-node:v1.37.1-abc"  # half-made
            if self.interrupt:
                raise KeyboardInterrupt
            return _done(self.create, "", "ERROR: failed to init node with kubeadm")(argv)
        if argv[1:3] == ["delete", "cluster"] or argv[:2] == ["docker", "rm"]:
            self.nodes.clear()
        return _done(0)(argv)


def _which(name):
    return "/usr/bin/" + name


def _image(**_):
    return "sched-conformance/kind-node:v1.37.1-abc"


def test_kind_names_a_missing_docker_command():
    reason = kind.unavailable_reason(which=lambda name: None, run=FakeDocker())
    assert reason == ("kind needs Docker: the `docker` command is not on PATH "
                      "(as root: kind-node/docker-setup.sh --install)")


def test_kind_names_a_docker_daemon_that_does_not_answer():
    reason = kind.unavailable_reason(which=_which, run=FakeDocker(info=1))
    assert reason.startswith("kind needs a running Docker daemon: `docker info` failed: Cannot connect")
    assert reason.endswith("(as root: kind-node/docker-setup.sh)")


def test_kind_names_docker_without_privileges():
    reason = kind.unavailable_reason(which=_which, run=FakeDocker(check=1))
    assert reason == ("kind needs privileged containers: privileged containers fail here (the bounding set lacks "
                      "CAP_SYS_RESOURCE): run kind-node/docker-setup.sh as root")


def test_kind_names_a_missing_kind_binary(monkeypatch, tmp_path):
    monkeypatch.setenv("SCHED_CONFORMANCE_BIN", str(tmp_path))
    reason = kind.unavailable_reason(which=lambda name: "/usr/bin/docker" if name == "docker" else None,
                                     run=FakeDocker())
    assert reason == "kind is not built and Go is missing to build it: install Go, or put `kind` on PATH"
    assert kind.unavailable_reason(which=_which, run=FakeDocker()) is None


def test_ensure_cluster_reuses_our_cluster(tmp_path):
    from conformance.cluster.state import StateDir
    docker = FakeDocker({"sc-control-plane": "sched-conformance/kind-node:v1.37.1-abc"})
    kubeconfig, context = kind.ensure_cluster("sc", state=StateDir(tmp_path), run=docker, which=_which,
                                              build=lambda **_: pytest.fail("no image build for a reused cluster"))
    assert context == "kind-sc" and kubeconfig.endswith("kind-sc.kubeconfig")
    assert not [c for c in docker.calls if c[1:3] == ["create", "cluster"]]
    assert [c for c in docker.calls if c[1:3] == ["export", "kubeconfig"]]


def test_a_cluster_that_is_not_ours_is_neither_reused_nor_deleted(tmp_path):
    from conformance.cluster.state import StateDir
    docker = FakeDocker({"sc-control-plane": "kindest/node:v1.35.0"})
    with pytest.raises(BackendUnavailable, match=r"^kind cluster 'sc' exists and is not ours \(node sc-control-plane "
                                                 r"\(kindest/node:v1.35.0\) does not run a sched-conformance/kind-node"):
        kind.ensure_cluster("sc", state=StateDir(tmp_path), run=docker, create=docker, which=_which, build=_image)
    with pytest.raises(BackendUnavailable, match="is not ours"):
        kind.delete("sc", run=docker, which=_which)
    assert docker.nodes and not [c for c in docker.calls if "delete" in c or c[:2] == ["docker", "rm"]]


@pytest.mark.parametrize("interrupt", [False, True])
def test_a_create_that_fails_or_is_interrupted_leaves_nothing(tmp_path, interrupt):
    from conformance.cluster.state import StateDir
    docker = FakeDocker(create=1, interrupt=interrupt)
    with pytest.raises(KeyboardInterrupt if interrupt else BackendUnavailable) as raised:
        kind.ensure_cluster("sc", state=StateDir(tmp_path), run=docker, create=docker, which=_which, build=_image)
    if not interrupt:
        assert str(raised.value).startswith("`kind create cluster --name sc` failed: ERROR: failed to init node")
    assert docker.nodes == {}, "the half-made node container is left behind"


def test_kind_configs_are_valid_yaml():
    import yaml
    for path in kind.configs().glob("*.yaml"):
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


def test_the_scheduler_manifest_runs_the_scenario_config_with_kubeadm_s_credentials():
    from conformance.cluster.kind_scheduler import CONFIG_DIR, HASH_ANNOTATION, scheduler_manifest
    kubeadm = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "kube-scheduler", "namespace": "kube-system"},
               "spec": {"containers": [{
                   "name": "kube-scheduler", "image": "registry.k8s.io/kube-scheduler:v1.37.1",
                   "command": ["kube-scheduler", "--authentication-kubeconfig=/etc/kubernetes/scheduler.conf",
                               "--authorization-kubeconfig=/etc/kubernetes/scheduler.conf",
                               "--bind-address=127.0.0.1", "--kubeconfig=/etc/kubernetes/scheduler.conf",
                               "--leader-elect=true"],
                   "startupProbe": {"initialDelaySeconds": 10}, "livenessProbe": {"periodSeconds": 10},
                   "readinessProbe": {"periodSeconds": 1},
                   "volumeMounts": [{"name": "kubeconfig", "mountPath": "/etc/kubernetes/scheduler.conf"}]}],
                   "volumes": [{"name": "kubeconfig", "hostPath": {"path": "/etc/kubernetes/scheduler.conf"}}]}}
    pod = scheduler_manifest(kubeadm, "abc")
    container = pod["spec"]["containers"][0]
    assert container["command"] == ["kube-scheduler", "--authentication-kubeconfig=/etc/kubernetes/scheduler.conf",
                                    "--authorization-kubeconfig=/etc/kubernetes/scheduler.conf",
                                    "--bind-address=0.0.0.0", f"--config={CONFIG_DIR}/config-abc.yaml"]
    assert "startupProbe" not in container and "livenessProbe" not in container and container["readinessProbe"]
    assert {"name": "sched-conformance", "mountPath": CONFIG_DIR, "readOnly": True} in container["volumeMounts"]
    assert {"name": "sched-conformance", "hostPath": {"path": CONFIG_DIR, "type": "DirectoryOrCreate"}} in \
        pod["spec"]["volumes"]
    assert pod["metadata"]["annotations"][HASH_ANNOTATION] == "abc"
    assert kubeadm["spec"]["containers"][0]["command"][3] == "--bind-address=127.0.0.1", "kubeadm's is not changed"


def test_cluster_up_kind_without_docker_names_the_command(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(kind, "unavailable_reason", lambda: "kind needs Docker: the `docker` command is not on PATH "
                                                            "(as root: kind-node/docker-setup.sh --install)")
    monkeypatch.setattr(kind, "ensure_cluster", lambda *a, **k: pytest.fail("no cluster without Docker"))
    args = _parser().parse_args(["cluster", "up", "--cluster", "kind", "--state", str(tmp_path)])
    assert args.run(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["sched-conformance: kind needs Docker: the `docker` command is not on PATH (as root: "
                   "kind-node/docker-setup.sh --install); or pass --install-docker (as root) to let this command do it"]


def test_a_kubelet_that_keeps_the_old_scheduler_running_is_restarted_once(monkeypatch):
    """The CI case: the kubelet restarted (kubeadm) while the manifest left, and never killed the old pod."""
    import subprocess
    from conformance.cluster import kind_scheduler
    monkeypatch.setattr(kind_scheduler, "KUBELET_NUDGE_AFTER", 0.0)
    calls, alive = [], {"kube-scheduler": True}

    def run(argv, stdin=None):
        command = [a for a in argv[2:] if a != "-i"][1:]  # after `docker exec [-i] NODE`
        calls.append(command)
        if command == ["systemctl", "restart", "kubelet"]:
            alive["kube-scheduler"] = False  # the restarted kubelet kills the pod it has no manifest for
        code = 0 if command != ["pgrep", "-x", "kube-scheduler"] or alive["kube-scheduler"] else 1
        return subprocess.CompletedProcess(argv, code, "", "")

    scheduler = kind_scheduler.KindScheduler("sc", kube=None, run=run)
    assert scheduler.stop()
    assert calls.count(["systemctl", "restart", "kubelet"]) == 1
    assert calls[-1] == ["pgrep", "-x", "kube-scheduler"]


def test_kind_without_pytest_kind_says_how_to_install_it(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "pytest_kind", None)  # `import pytest_kind` raises ImportError
    reason = kind.unavailable_reason(which=_which, run=FakeDocker())
    assert reason == ("kind clusters are pytest-kind's KindCluster, and pytest-kind is not installed: "
                      "pip install 'kube-scheduler-conformance[kind]'")
