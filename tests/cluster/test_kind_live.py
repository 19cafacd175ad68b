"""The suite on a real kind cluster, built and created offline here (kind-node/, kind-configs/offline.yaml).

One cluster per module (its own name, deleted at the end and by a watchdog if this process dies).
The suite runs as users run it (`--conformance-backend cluster --conformance-cluster kind`, a subprocess) for
a subset of the invariants with probes and the differential against the reference; the cluster's own
kube-scheduler is the probe build, driven per scenario. Then what must leave nothing behind: a
Ctrl-C during `cluster up`, a killed session, a name that is not ours, an image build that fails
half-way. These tests skip only where Docker cannot run kind, with the reason; a machine where
Docker runs but the binaries are not built fails (run `harness/build.sh --control-plane --kind`).
"""

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import pytest

from conformance.cluster import kind, kind_image
from conformance.builds.builder import pinned_version
from conformance.cluster.kube import Kube, path
from conformance.cluster.naming import RUN_LABEL
from conformance.cluster.state import StateDir, bin_dir
from conformance.differential import TIMELINE_SHARE

from .test_suite_subset import _PLUGIN, Session, _report

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = 6
SUBSET = ("capacity-respected", "preemptor-nominated", "gated-pods-never-prefiltered", "taints-tolerated",
          "node-selection-respected")
SESSION_TIMEOUT = 600


def _containers(name: str) -> dict[str, str]:
    return kind.node_images(name)


@pytest.fixture(scope="module")
def kind_cluster(tmp_path_factory, request):
    reason = kind.unavailable_reason()
    if reason:
        pytest.skip(f"kind cannot run here: {reason}")
    shown = request.config.pluginmanager.getplugin("capturemanager").global_and_fixture_disabled
    name = f"sc-test-{os.getpid()}"
    state = StateDir(tmp_path_factory.mktemp("kind-state"))
    start = time.monotonic()
    with shown():
        image = kind_image.build_image(progress=lambda line: print(f"    {line}", flush=True))
    built = time.monotonic() - start
    start = time.monotonic()
    try:
        kubeconfig, context = kind.ensure_cluster(name, state=state, tied=True, build=lambda **_: image)
    except BaseException:
        kind.delete(name)
        raise
    with shown():
        print(f"\n[kind] node image {image} ready in {built:.1f} s; cluster {name} created in "
              f"{time.monotonic() - start:.1f} s", flush=True)
    yield {"name": name, "state": state, "kubeconfig": kubeconfig, "context": context, "image": image}
    kind.delete(name)
    assert _containers(name) == {}, "the cluster's containers are left behind"


@pytest.fixture(scope="module")
def kube(kind_cluster):
    k = Kube.connect(kind_cluster["kubeconfig"], kind_cluster["context"])
    yield k
    k.close()


def _leftovers(kube):
    """Pods and nodes the suite made (namespaces go through the cluster's namespace controller)."""
    pods, _ = kube.list(path("Pod"), label_selector=RUN_LABEL)
    nodes, _ = kube.list(path("Node"), label_selector=RUN_LABEL)
    return pods, nodes


def _run_suite(kind_cluster, work: Path, label: str, *args: str) -> Session:
    (work / "scc_subset_plugin.py").write_text(_PLUGIN)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(work)]),
           "SCHED_CONFORMANCE_STATE": str(kind_cluster["state"].root), kind.NAME_ENV: kind_cluster["name"]}
    junit = work / f"{label}.xml"
    argv = [sys.executable, "-m", "pytest", "--pyargs", "conformance.suite", "-p", "scc_subset_plugin",
            "-p", "no:cacheprovider", "--conformance-profile", "ci", "--conformance-max-examples", str(EXAMPLES),
            "--conformance-reproducers", str(work / "repro"), f"--junitxml={junit}", "-rs",
            "--conformance-backend", "cluster", "--conformance-cluster", "kind", *args]
    start = time.monotonic()
    proc = subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True, timeout=SESSION_TIMEOUT)
    return Session(proc, junit, time.monotonic() - start)


def test_the_node_runs_the_probe_scheduler_and_only_scenario_nodes_are_seen(kind_cluster, kube):
    version = kube.request("GET", "/version")["gitVersion"]
    assert version == pinned_version()
    nodes, _ = kube.list(path("Node"))
    assert nodes == [], "the kind node's Node object is hidden from the scheduler (kind.hide_node)"
    out = subprocess.run(["docker", "exec", f"{kind_cluster['name']}-control-plane", "ctr", "-n", "k8s.io",
                          "images", "list", "-q"], capture_output=True, text=True, check=True).stdout.split()
    assert f"registry.k8s.io/kube-scheduler:{pinned_version()}" in out and "registry.k8s.io/pause:3.10.2" in out


def test_a_subset_of_the_invariants_passes_on_kind(kind_cluster, kube, tmp_path, capsys):
    args = [a for inv in SUBSET for a in ("--conformance-invariant", inv)]
    session = _run_suite(kind_cluster, tmp_path, "subset", *args)
    assert session.proc.returncode == 0, session.output[-3000:]
    assert {f"test_invariant[cluster-{i}]": "passed" for i in SUBSET}.items() <= \
        {k: v[0] for k, v in session.outcomes.items()}.items(), session.outcomes
    assert "probes: not available" not in session.output, "the node's scheduler is the probe build"
    assert len(SUBSET) * EXAMPLES >= session.scenarios >= len(SUBSET) * EXAMPLES // 2, session.scenarios
    _report(capsys, "kind: invariant subset", session)
    assert _leftovers(kube) == ([], []), "the suite left pods or nodes on the kind cluster"


def test_the_differential_against_the_reference_passes_on_kind(kind_cluster, kube, tmp_path, capsys):
    session = _run_suite(kind_cluster, tmp_path, "differential", "--conformance-compare", "reference",
                         "-k", "differential")
    assert set(session.outcomes) == {"test_differential"}, session.output[-3000:]
    status, _ = session.outcomes["test_differential"]
    assert session.proc.returncode == 0 and status == "passed", session.output[-3000:]
    timelines = EXAMPLES // TIMELINE_SHARE  # its timeline search: idle events only on a wall clock
    assert EXAMPLES + timelines + 2 >= session.scenarios >= EXAMPLES // 2 + timelines // 2, session.scenarios
    assert session.timelines >= timelines // 2 and session.applied >= session.timelines, \
        (session.timelines, session.applied)
    _report(capsys, "kind: differential vs reference (fresh scheduler)", session)
    assert _leftovers(kube) == ([], [])


def _cli(*args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "conformance.cli", *args], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, **kwargs)


def _wait_gone(name: str, timeout: float = 120) -> dict[str, str]:
    deadline = time.monotonic() + timeout
    while _containers(name) and time.monotonic() < deadline:
        time.sleep(1)
    return _containers(name)


def _first_container_created(name: str, timeout: float) -> Callable[[], str]:
    """Starts watching Docker's events; the function returned waits for kind's first node container of `name` to
    be created and returns its name ('' after `timeout`). Events arrive as they happen, so the Ctrl-C lands early
    in the 10-15 s `kind create` takes, whatever the load, with no `docker ps` polling in between."""
    events = subprocess.Popen(["docker", "events", "--filter", "type=container", "--filter", "event=create",
                               "--filter", f"label={kind.CLUSTER_LABEL}={name}", "--format",
                               "{{.Actor.Attributes.name}}"], stdout=subprocess.PIPE, text=True)

    def wait() -> str:
        assert events.stdout is not None
        try:
            ready, _, _ = select.select([events.stdout], [], [], timeout)
            return events.stdout.readline().strip() if ready else ""
        finally:
            events.kill()
            events.wait()
    return wait


def test_ctrl_c_during_cluster_up_leaves_no_container(kind_cluster, tmp_path):
    name = f"sc-int-{os.getpid()}"
    created = _first_container_created(name, timeout=120)
    # Ctrl-C as a terminal delivers it: a test session started as a background job (CI runners, nohup ... &)
    # inherits SIGINT ignored, and so would the CLI, which then never sees the interrupt.
    proc = _cli("cluster", "up", "--cluster", "kind", "--kind-name", name, "--state", str(tmp_path),
                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert created(), "kind made no node container within 120 s"
        proc.send_signal(signal.SIGINT)  # while `kind create` still runs: the node's kubeadm takes seconds more
        out = proc.communicate(timeout=120)[0]
        assert proc.returncode == 130 and out.strip().splitlines()[-1] == \
            "sched-conformance: interrupted (what it had started is removed)", out
        assert "creating kind cluster" in out and "created in" not in out, out
        assert _wait_gone(name, timeout=30) == {}, "an interrupted `cluster up` left its node container"
    finally:  # a failed run leaves no cluster behind either
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if _containers(name):
            kind.delete(name)


def test_a_killed_session_leaves_no_cluster(kind_cluster, tmp_path):
    name = f"sc-kill-{os.getpid()}"
    code = ("import sys, time; from pathlib import Path; from conformance.cluster import kind;"
            "from conformance.cluster.state import StateDir;"
            f"kind.ensure_cluster({name!r}, state=StateDir(Path(sys.argv[1])), tied=True,"
            f" build=lambda **_: {kind_cluster['image']!r}); print('up', flush=True); time.sleep(600)")
    proc = subprocess.Popen([sys.executable, "-c", code, str(tmp_path)], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert proc.stdout is not None
    first = proc.stdout.readline()
    assert first.strip() == "up" and _containers(name), first + proc.stdout.read()
    proc.kill()
    proc.wait()
    assert _wait_gone(name) == {}, "the watchdog did not delete the cluster of a killed process"


def test_a_cluster_name_that_is_not_ours_is_refused_and_left_alone(kind_cluster, tmp_path):
    name = f"sc-foreign-{os.getpid()}"
    base = subprocess.run(["docker", "image", "ls", "sched-conformance/kind-base", "--format",
                           "{{.Repository}}:{{.Tag}}"], capture_output=True, text=True, check=True).stdout.split()[0]
    container = subprocess.run(["docker", "run", "-d", "--name", f"{name}-control-plane", "--label",
                                f"{kind.CLUSTER_LABEL}={name}", base, "sleep", "300"],
                               capture_output=True, text=True, check=True).stdout.strip()
    try:
        for verb in ("up", "down"):
            proc = _cli("cluster", verb, "--cluster", "kind", "--kind-name", name, "--state", str(tmp_path))
            out = proc.communicate(timeout=120)[0]
            assert proc.returncode == 2, out
            assert out.strip().splitlines()[-1].startswith(
                f"sched-conformance: kind cluster '{name}' exists and is not ours"), out
            assert len(out.strip().splitlines()) == 1 or "Traceback" not in out, out
        assert _containers(name) == {f"{name}-control-plane": base}, "somebody else's container was touched"
    finally:
        subprocess.run(["docker", "rm", "-f", container], capture_output=True, check=False)


def test_an_image_build_that_fails_half_way_leaves_nothing(kind_cluster, tmp_path):
    # A containerd that cannot start: the build fails at its last step, inside the build container.
    bins = tmp_path / "bin"
    bins.mkdir()
    for binary in bin_dir().iterdir():
        if binary.is_file() and not binary.name.startswith("."):
            (bins / binary.name).symlink_to(binary)
    (bins / "containerd").unlink()
    (bins / "containerd").write_text("#!/bin/sh\necho broken containerd >&2\nexit 1\n")
    (bins / "containerd").chmod(0o755)
    before = _docker_objects()
    with pytest.raises(Exception, match=r"^the kind node image build failed: containerd did not start"):
        kind_image.build_image(binaries=bins)
    assert _docker_objects() == before, "the failed build left containers or images"


def _docker_objects() -> tuple[set[str], set[str]]:
    containers = subprocess.run(["docker", "ps", "-aq"], capture_output=True, text=True, check=True).stdout.split()
    images = subprocess.run(["docker", "image", "ls", "-q", "--no-trunc"], capture_output=True, text=True,
                            check=True).stdout.split()
    return set(containers), set(images)
