"""`--cluster kind`: a kind cluster on the offline node image, created or reused, or the reason it cannot run.

The cluster is pytest-kind's `KindCluster` (kind_cluster.py), so that a user's test can have it as
pytest-kind's `kind_cluster` fixture (kind_fixture.py). The kind CLI is the one `harness/build.sh --kind`
builds from its Go module (harness/bin/kind), else `kind` on PATH; kubectl is built beside it. The node
image comes from kind-node/build-image.sh (kind_image.py): everything is built here, nothing is pulled or
downloaded. A cluster is "ours" when its nodes run that image; a cluster of the same name that is not ours
is never reused or deleted. A create that fails or is interrupted deletes what it made; `tied` clusters
are also deleted when this process dies (kind_watchdog.py).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from .. import paths
from ..core.errors import BackendUnavailable
from . import kind_image
from .kind_watchdog import Watchdog
from .state import StateDir, bin_dir

if TYPE_CHECKING:
    from .kind_cluster import OfflineKindCluster

DEFAULT_NAME = "sched-conformance"
NAME_ENV = "SCHED_CONFORMANCE_KIND_NAME"  # another cluster name for --cluster kind (tests use their own)
CLUSTER_LABEL = "io.x-k8s.kind.cluster"  # kind labels every node container with its cluster's name
CREATE_TIMEOUT = 600
NO_PYTEST_KIND = ("kind clusters are pytest-kind's KindCluster, and pytest-kind is not installed: "
                  "pip install 'kube-scheduler-conformance[kind]'")

Runner = Callable[[list[str]], "subprocess.CompletedProcess[str]"]


def run(argv: list[str]) -> "subprocess.CompletedProcess[str]":
    return subprocess.run(argv, capture_output=True, text=True, timeout=CREATE_TIMEOUT, check=False)


def run_group(argv: list[str]) -> "subprocess.CompletedProcess[str]":
    """`argv` in its own process group, all of which dies with it: `kind create` runs `docker run` and
    `docker exec`, which would otherwise go on (and make a node container) after kind is stopped."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=CREATE_TIMEOUT)
    except BaseException:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        raise
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


def last_line(text: str) -> str:
    return (text.strip().splitlines() or ["no output"])[-1]


def configs() -> Path:
    """kind-configs/: the cluster configs (offline.yaml is the default)."""
    return paths.kind_configs()


def default_name() -> str:
    return os.environ.get(NAME_ENV) or DEFAULT_NAME


def kind_command(which: Callable[[str], str | None] = shutil.which) -> str | None:
    built = bin_dir() / "kind"
    return str(built) if built.is_file() else which("kind")


def unavailable_reason(*, which: Callable[[str], str | None] = shutil.which, run: Runner = run) -> str | None:
    """None when kind can run here; otherwise what is missing and the command that fixes it."""
    try:
        import pytest_kind  # noqa: F401
    except ImportError:
        return NO_PYTEST_KIND
    setup = kind_image.docker_setup_command()
    if which("docker") is None:
        return f"kind needs Docker: the `docker` command is not on PATH (as root: {setup} --install)"
    info = run(["docker", "info", "--format", "{{.ServerVersion}}"])
    if info.returncode != 0:
        return f"kind needs a running Docker daemon: `docker info` failed: {last_line(info.stderr)} (as root: {setup})"
    check = run(["bash", str(kind_image.docker_setup()), "--check"])
    if check.returncode != 0:
        return f"kind needs privileged containers: {last_line(check.stderr).removeprefix('docker-setup: ')}"
    if kind_command(which) is None and which("go") is None:
        return "kind is not built and Go is missing to build it: install Go, or put `kind` on PATH"
    return None


def node_images(name: str, run: Runner = run) -> dict[str, str]:
    """Container name -> image of every node container of kind cluster `name` (running or not)."""
    out = run(["docker", "ps", "-a", "--filter", f"label={CLUSTER_LABEL}={name}", "--format",
               "{{.Names}}\t{{.Image}}"])
    if out.returncode != 0:
        raise BackendUnavailable(f"`docker ps` failed: {last_line(out.stderr)}")
    return dict(line.split("\t", 1) for line in out.stdout.splitlines() if "\t" in line)


def check_ours(name: str, run: Runner = run) -> bool:
    """True when cluster `name` exists and is ours, False when it does not exist; raises when it is not ours."""
    nodes = node_images(name, run)
    foreign = sorted(f"{c} ({img})" for c, img in nodes.items() if not kind_image.is_ours(img))
    if foreign:
        raise BackendUnavailable(f"kind cluster {name!r} exists and is not ours (node {foreign[0]} does not run a "
                                 f"{kind_image.IMAGE_REPOSITORY} image): pick another name with --kind-name or "
                                 f"${NAME_ENV}, "
                                 f"or delete it yourself with `kind delete cluster --name {name}`")
    return bool(nodes)


def hide_node(name: str, run: Runner = run) -> None:
    """Delete the kind node's Node object (and its mirror pods): the scheduler then sees exactly the
    scenario's nodes, as on the reference and the local control plane, and FitError messages count
    the same nodes. The static control-plane pods keep running (the kubelet runs them from files) and
    the kubelet does not register again while it runs."""
    node = f"{name}-control-plane"
    kubectl = ["docker", "exec", node, "kubectl", "--kubeconfig=/etc/kubernetes/admin.conf"]
    for argv in ([*kubectl, "delete", "node", node, "--ignore-not-found", "--wait=false"],
                 [*kubectl, "delete", "pods", "-n", "kube-system", "--field-selector", f"spec.nodeName={node}",
                  "--force", "--grace-period=0", "--ignore-not-found", "--wait=false"]):
        out = run(argv)
        if out.returncode != 0:
            raise BackendUnavailable(f"cannot remove kind node {node}'s Node object: {last_line(out.stderr)}; "
                                     f"`sched-conformance cluster down --cluster kind --kind-name {name}` and retry")


def _cluster(name: str, *, state: StateDir | None = None, image: str | None = None, run: Runner = run,
             which: Callable[[str], str | None] = shutil.which, create: Runner = run_group) -> OfflineKindCluster:
    from .kind_cluster import OfflineKindCluster
    state = state or StateDir.default()
    state.root.mkdir(parents=True, exist_ok=True)
    return OfflineKindCluster(name, kind=kind_command(which), kubeconfig=state.root / f"kind-{name}.kubeconfig",
                              image=image, run=run, create=create)


def delete(name: str, *, state: StateDir | None = None, run: Runner = run,
           which: Callable[[str], str | None] = shutil.which) -> list[str]:
    """Delete cluster `name` if it is ours; what was removed, one line each."""
    if not check_ours(name, run):
        return []
    _cluster(name, state=state, run=run, which=which).delete()
    return [f"deleted kind cluster {name}"]


def open_cluster(name: str | None = None, *, config: Path | None = None, state: StateDir | None = None,
                 run: Runner = run, which: Callable[[str], str | None] = shutil.which,
                 progress: Callable[[str], None] | None = None, tied: bool = False, create: Runner = run_group,
                 build: Callable[..., str] = kind_image.build_image) -> tuple[OfflineKindCluster, bool]:
    """Our kind cluster `name` (pytest-kind's KindCluster), created unless it exists, and whether it was
    created here. `tied`: a cluster created here is deleted when this process ends, however it ends (a
    cluster that existed already is left as it was)."""
    say = progress or (lambda _msg: None)
    name = name or default_name()
    reason = unavailable_reason(which=which, run=run)
    if reason:
        raise BackendUnavailable(reason)
    state = state or StateDir.default()
    cluster = _cluster(name, state=state, run=run, which=which, create=create)
    cluster.ensure_kind()
    # xdist workers (or concurrent sessions) get here at once: one creates the cluster or writes the
    # shared kubeconfig at a time, and the others find the cluster there.
    with state.lock(f"kind-{name}.lock"):
        if check_ours(name, run):
            cluster.reuse()
            say(f"reusing kind cluster {name}")
            hide_node(name, run)
            return cluster, False
        cluster.image = build(progress=say)
        if tied:
            Watchdog.start(name, str(cluster.kind_path))
        say(f"creating kind cluster {name} with {cluster.image}")
        start = time.monotonic()
        try:
            cluster.create(config or configs() / "offline.yaml")
        except BackendUnavailable:
            raise
        except BaseException:  # Ctrl-C or the timeout: create() has deleted what kind had made
            say(f"interrupted: deleted the half-made kind cluster {name}")
            raise
        hide_node(name, run)
        say(f"kind cluster {name} created in {time.monotonic() - start:.1f} s")
    return cluster, True


def ensure_cluster(name: str | None = None, **options: Any) -> tuple[str, str]:
    """(kubeconfig path, context) of our kind cluster `name`, created unless it exists (options: open_cluster's)."""
    cluster, _ = open_cluster(name, **options)
    return str(cluster.kubeconfig_path), f"kind-{cluster.name}"


__all__ = ["DEFAULT_NAME", "NAME_ENV", "NO_PYTEST_KIND", "Runner", "check_ours", "default_name", "delete",
           "ensure_cluster", "kind_command", "last_line", "node_images", "open_cluster", "run", "run_group",
           "unavailable_reason"]
