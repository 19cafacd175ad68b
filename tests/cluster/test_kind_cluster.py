"""OfflineKindCluster without Docker: it is pytest-kind's KindCluster, writes nothing into the working directory,
builds kind and kubectl instead of downloading them, and the kind_cluster fixture ends in one line when kind
cannot run. On a real cluster: test_kind_fixture.py and test_kind_live.py."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from pytest_kind import KindCluster

from conformance.cluster.kind_cluster import OfflineKindCluster
from conformance.core.errors import BackendUnavailable

ROOT = Path(__file__).resolve().parents[2]


def test_it_is_a_kind_cluster_and_leaves_the_working_directory_alone(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cluster = OfflineKindCluster("sc", kind="/opt/kind", kubeconfig=tmp_path / "state" / "kind-sc.kubeconfig",
                                 image="sched-conformance/kind-node:v1.37.2-abc")
    assert isinstance(cluster, KindCluster)
    assert (cluster.kind_path, cluster.image) == (Path("/opt/kind"), "sched-conformance/kind-node:v1.37.2-abc")
    assert list(tmp_path.iterdir()) == [], "pytest-kind's .pytest-kind download directory"


def test_kubectl_is_built_not_downloaded(tmp_path, monkeypatch):
    """With no kubectl where the stock binaries are, pytest-kind would download one; here the build is asked for
    (and, with $SCHED_CONFORMANCE_BIN naming a directory without it, says so in one line)."""
    monkeypatch.setenv("SCHED_CONFORMANCE_BIN", str(tmp_path))
    monkeypatch.setattr("requests.get", lambda *a, **k: pytest.fail("pytest-kind downloads"))
    cluster = OfflineKindCluster("sc", kind=None, kubeconfig=tmp_path / "kc")
    with pytest.raises(BackendUnavailable, match=rf"^\$SCHED_CONFORMANCE_BIN is {tmp_path}, which has no executable "
                                                 r"kubectl; build it there"):
        cluster.kubectl("version")
    with pytest.raises(BackendUnavailable, match="which has no executable kind"):
        cluster.create()


def test_the_fixture_fails_in_one_line_when_kind_cannot_run(tmp_path):
    (tmp_path / "conftest.py").write_text(
        "from conformance.cluster import kind\n"
        "kind.unavailable_reason = lambda **_: 'kind needs Docker: the `docker` command is not on PATH'\n")
    (tmp_path / "test_user.py").write_text("def test_users_own(kind_cluster):\n    pass\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PYTEST_ADDOPTS", None)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--conformance-kind-fixture",
                           "test_user.py"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1 and "1 error" in proc.stdout.splitlines()[-1], proc.stdout[-3000:]
    errors = proc.stdout.split(" ERROR at setup of test_users_own ")[1].split("short test summary info")[0]
    assert errors.strip("_ \n=").splitlines() == ["sched-conformance: kind needs Docker: the `docker` command is not "
                                                 "on PATH"], proc.stdout[-3000:]
