"""Our kind cluster as pytest-kind's `KindCluster`: kind, kubectl and the node image built here, nothing downloaded.

kind.py decides what may be created, reused or deleted (ours or not, the watchdog); this class runs kind for
it. The methods pytest-kind's own cannot stand in for are overridden, each saying why; a user's test gets the
rest as pytest-kind gives it (`kubectl`, `port_forward`, `load_docker_image`, `api`).
"""

from __future__ import annotations

import platform
import time
from functools import cached_property
from pathlib import Path
from typing import Any, Callable

from pytest_kind import KindCluster

from ..core.errors import BackendUnavailable
from .kind import Runner, last_line, node_images, run, run_group
from .state import bin_dir


class OfflineKindCluster(KindCluster):
    """Kind cluster `name` with `kind` (None: delete by its containers only), the suite's kubectl and the
    offline node `image`; `run` and `create` run commands (replaced in tests)."""

    def __init__(self, name: str, *, kind: str | None, kubeconfig: Path, image: str | None = None,
                 run: Runner = run, create: Runner = run_group) -> None:
        # Not KindCluster.__init__: it makes .pytest-kind/<name> in the working directory, where it downloads
        # kind and kubectl; every path is given here, and nothing goes into the user's tree.
        self.name, self.image = name, image
        self.kind_path = Path(kind) if kind else None
        self.kubectl_path = bin_dir() / "kubectl"
        self.kubeconfig_path = self.path = Path(kubeconfig)
        self.platform = platform.system().lower()
        self._run, self._create = run, create

    def ensure_kind(self) -> None:
        """Build kind here when it is missing (pytest-kind would download it)."""
        if self.kind_path is None or not self.kind_path.exists():
            from ..builds.stock import stock_binary
            self.kind_path = stock_binary("kind")

    def ensure_kubectl(self) -> None:
        """Build kubectl here when it is missing (pytest-kind would download it); called by `kubectl()`."""
        if not self.kubectl_path.exists():
            from ..builds.stock import stock_binary
            self.kubectl_path = stock_binary("kubectl")

    @cached_property
    def api(self) -> Any:
        """pykube's client, as KindCluster.create sets it: made on first use (the suite itself does not need it)."""
        import pykube
        return pykube.HTTPClient(pykube.KubeConfig.from_file(self.kubeconfig_path))

    def create(self, config_file: str | Path | None = None) -> None:
        """Create the cluster with `config_file` (kind-configs/); a create that fails or is interrupted deletes
        what it made. The caller has made sure no cluster of the name exists (kind.py)."""
        # KindCluster.create runs kind as a plain child: on Ctrl-C or a timeout kind would stop but not the
        # `docker run` it had started; here kind runs in its own process group, killed as a whole, and its
        # output is kept for the one-line reason instead of going to the terminal.
        self.ensure_kind()
        argv = [str(self.kind_path), "create", "cluster", f"--name={self.name}", f"--kubeconfig={self.kubeconfig_path}",
                *([f"--image={self.image}"] if self.image else []),
                *(["--config", str(config_file)] if config_file else [])]
        try:
            created = self._create(argv)
        except BaseException:
            # A `docker run` kind had sent may still land in the daemon after kind is gone: delete until nothing
            # shows up for a while.
            self.delete_until_gone()
            raise
        if created.returncode != 0:
            self.delete()
            raise BackendUnavailable(f"`kind create cluster --name {self.name}` failed: {last_line(created.stderr)} "
                                     f"(the half-made cluster is removed; `{' '.join(argv)} --retain` keeps it "
                                     f"for `docker logs {self.name}-control-plane`)")

    def reuse(self) -> None:
        """Write the existing cluster's kubeconfig (KindCluster.create reuses a cluster only through the
        kubeconfig it wrote itself when it created it)."""
        self.ensure_kind()
        exported = self._run([str(self.kind_path), "export", "kubeconfig", "--name", self.name, "--kubeconfig",
                              str(self.kubeconfig_path)])
        if exported.returncode != 0:
            raise BackendUnavailable(f"kind cluster {self.name} exists but its kubeconfig cannot be exported: "
                                     f"{last_line(exported.stderr)}; `sched-conformance cluster down --cluster kind "
                                     f"--kind-name {self.name}` removes it")

    def delete(self) -> None:
        """Delete the cluster and whatever node container kind leaves (no kind binary, or kind failed half-way:
        the containers are all there is to a kind cluster). KindCluster.delete raises when kind fails and
        leaves its output on the terminal."""
        if self.kind_path is not None:
            self._run([str(self.kind_path), "delete", "cluster", f"--name={self.name}",
                       f"--kubeconfig={self.kubeconfig_path}"])
        left = list(node_images(self.name, self._run))
        if left:
            self._run(["docker", "rm", "-f", "-v", *left])

    def delete_until_gone(self, *, quiet: float = 3.0, timeout: float = 60.0,
                          sleep: Callable[[float], None] = time.sleep) -> None:
        """Delete the cluster until no node container of it has appeared for `quiet` seconds."""
        deadline = time.monotonic() + timeout
        empty_since: float | None = None
        while time.monotonic() < deadline:
            if node_images(self.name, self._run):
                self.delete()
                empty_since = None
            elif empty_since is None:
                empty_since = time.monotonic()
            elif time.monotonic() - empty_since >= quiet:
                return
            sleep(0.5)


__all__ = ["OfflineKindCluster"]
