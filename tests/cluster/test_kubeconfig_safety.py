"""Kubeconfig writing/reading and the refusal of contexts that do not look like test clusters."""

import stat

import pytest
import yaml

from conformance.cluster import kubeconfig
from conformance.cluster.kubeconfig import Target
from conformance.cluster.safety import ensure_test_cluster, looks_like_test_cluster
from conformance.core.errors import BackendUnavailable


def test_written_kubeconfig_is_private_and_resolves_to_its_server(tmp_path):
    path = tmp_path / "kc"
    kubeconfig.write(path, kubeconfig.build("https://127.0.0.1:6443", b"PEM", "tok"))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    target = kubeconfig.read_target(str(path), None)
    assert (target.context, target.server) == (kubeconfig.LOCAL_CONTEXT, "https://127.0.0.1:6443")
    assert yaml.safe_load(path.read_text())["users"][0]["user"]["token"] == "tok"


def test_unknown_context_names_the_known_ones(tmp_path):
    path = tmp_path / "kc"
    kubeconfig.write(path, kubeconfig.build("https://127.0.0.1:6443", b"PEM", "tok"))
    with pytest.raises(BackendUnavailable, match="'prod' is not in kubeconfig.*sched-conformance-local.*--context"):
        kubeconfig.read_target(str(path), "prod")


def test_missing_kubeconfig_names_the_fix(tmp_path):
    with pytest.raises(BackendUnavailable, match="cannot read kubeconfig.*cluster up"):
        kubeconfig.read_target(str(tmp_path / "nope"), None)


@pytest.mark.parametrize("context,cluster,server", [
    ("kind-sched", "kind-sched", "https://10.1.2.3:6443"),
    ("k3d-x", "k3d-x", "https://10.1.2.3:6443"),
    ("minikube", "minikube", "https://192.168.49.2:8443"),
    ("ops", "staging-ci", "https://10.1.2.3:6443"),
    ("team-test", "c", "https://10.1.2.3:6443"),
    ("anything", "c", "https://127.0.0.1:39000"),
    ("anything", "c", "https://localhost:6443"),
    ("sched-conformance-local", "sched-conformance-local", "https://10.0.0.1"),
])
def test_test_clusters_are_accepted(context, cluster, server):
    assert looks_like_test_cluster(Target("kc", context, cluster, server))


@pytest.mark.parametrize("context,cluster,server", [
    ("prod-eu", "prod-eu", "https://api.prod.example.com"),
    ("arn:aws:eks:eu-west-1:1:cluster/main", "main", "https://ABC.gr7.eu-west-1.eks.amazonaws.com"),
    ("contest", "latest", "https://10.1.2.3"),  # 'test' inside a word is not a test cluster
])
def test_other_clusters_are_refused_unless_allowed(context, cluster, server):
    target = Target("kc", context, cluster, server)
    with pytest.raises(BackendUnavailable, match="does not look like a test cluster.*--allow-any-cluster"):
        ensure_test_cluster(target, allow_any_cluster=False)
    assert ensure_test_cluster(target, allow_any_cluster=True) == "--allow-any-cluster was given"
