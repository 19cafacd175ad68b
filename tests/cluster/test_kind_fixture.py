"""pytest-kind's `kind_cluster` fixture in a user's own tests, on the suite's offline kind cluster
(`--conformance-kind-fixture`): kind, kubectl and node image built here, nothing downloaded.

Each session is a fresh `python -m pytest` in a project directory outside the checkout, as a user runs it.
The cluster is this module's own (its name, deleted at the end). These tests skip only where Docker cannot
run kind, with the reason, as test_kind_live.py does; where Docker runs but the binaries are not built they
fail (run `harness/build.sh --control-plane --kind`).
"""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conformance.builds.builder import pinned_version
from conformance.cluster import kind
from conformance.cluster.state import StateDir, bin_dir

ROOT = Path(__file__).resolve().parents[2]

USER_TEST = """
import json
import os

import pykube


def test_users_own(kind_cluster):
    # Each session its own namespace: on a kept cluster the last session's is still terminating.
    namespace = f"users-own-{{os.getpid()}}"
    assert kind_cluster.name == {name!r}
    assert str(kind_cluster.kubectl_path) == {kubectl!r}
    version = json.loads(kind_cluster.kubectl("version", "-o", "json"))["serverVersion"]["gitVersion"]
    assert version == {version!r}
    kind_cluster.kubectl("get", "nodes")  # none: the suite hides the kind node's Node object (kind.hide_node)
    kind_cluster.kubectl("create", "namespace", namespace)
    assert f"namespace/{{namespace}}" in kind_cluster.kubectl("get", "namespaces", "-o", "name").split()
    assert namespace in [ns.name for ns in pykube.Namespace.objects(kind_cluster.api)]
    kind_cluster.kubectl("delete", "namespace", namespace, "--wait=false")
"""


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    reason = kind.unavailable_reason()
    if reason:
        pytest.skip(f"kind cannot run here: {reason}")
    name = f"sc-fixture-{os.getpid()}"
    state = StateDir(tmp_path_factory.mktemp("kind-state"))
    yield {"name": name, "state": state}
    kind.delete(name, state=state)
    assert kind.node_images(name) == {}, "the cluster's containers are left behind"


@pytest.fixture
def project(tmp_path, cluster):
    (tmp_path / "test_user.py").write_text(USER_TEST.format(name=cluster["name"], kubectl=str(bin_dir() / "kubectl"),
                                                           version=pinned_version()))
    return tmp_path


def _pytest(project: Path, cluster, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SCHED_CONFORMANCE_STATE": str(cluster["state"].root),
           kind.NAME_ENV: cluster["name"]}
    env.pop("PYTEST_ADDOPTS", None)
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA", "--conformance-kind-fixture",
                           "test_user.py", *args], cwd=project, env=env, capture_output=True, text=True, timeout=900)
    print(f"[kind fixture] `pytest {' '.join(args)}`: {time.monotonic() - start:.1f} s")
    return proc


def _gone(name: str, timeout: float = 120) -> bool:
    deadline = time.monotonic() + timeout
    while kind.node_images(name) and time.monotonic() < deadline:
        time.sleep(1)
    return not kind.node_images(name)


def test_the_fixture_creates_the_offline_cluster_and_deletes_it_at_the_end(project, cluster):
    proc = _pytest(project, cluster)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "1 passed" in proc.stdout.splitlines()[-1], out[-3000:]
    assert f"creating kind cluster {cluster['name']} with sched-conformance/kind-node:" in out, out[-3000:]
    assert _gone(cluster["name"], timeout=30), "the fixture's cluster is left after the session"
    assert not (project / ".pytest-kind").exists(), "pytest-kind's download directory in the user's project"


def test_the_fixture_and_the_suite_share_the_cluster(project, cluster):
    """--keep-cluster keeps it (as pytest-kind's does); the next session's suite and user test both reuse it and
    leave it up, since they did not create it."""
    kept = _pytest(project, cluster, "--keep-cluster")
    assert kept.returncode == 0, (kept.stdout + kept.stderr)[-3000:]
    assert kind.node_images(cluster["name"]), "--keep-cluster deleted the cluster"
    suite = ["--pyargs", "conformance.suite", "--conformance-backend", "cluster", "--conformance-cluster", "kind",
             "--conformance-invariant", "capacity-respected", "--conformance-max-examples", "3",
             "--conformance-reproducers", str(project / "repro"), "-k", "invariant or users_own"]
    both = _pytest(project, cluster, *suite)
    out = both.stdout + both.stderr
    assert both.returncode == 0, out[-3000:]
    passed = [line for line in both.stdout.splitlines() if line.startswith("PASSED ")]
    assert len(passed) == 2 and "PASSED test_user.py::test_users_own" in passed and \
        any(line.endswith("::test_invariant[cluster-capacity-respected]") for line in passed), out[-3000:]
    assert f"reusing kind cluster {cluster['name']}" in out and "creating kind cluster" not in out, out[-3000:]
    assert kind.node_images(cluster["name"]), "a session that did not create the cluster deleted it"
