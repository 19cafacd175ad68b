"""`--cluster kind`: create or reuse a kind cluster where Docker exists, else say what is missing.

kind comes from the `kind` command on PATH, or from pytest-kind (the optional extra `kind`), which
fetches the kind binary itself. Configs for the three setups are in kind-configs/ at the repo root.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Callable

from ..errors import BackendUnavailable
from .state import StateDir

DEFAULT_NAME = "sched-conformance"
CONFIGS = Path(__file__).resolve().parents[2] / "kind-configs"

Runner = Callable[[list[str]], "subprocess.CompletedProcess[str]"]


def _run(argv: list[str]) -> "subprocess.CompletedProcess[str]":
    return subprocess.run(argv, capture_output=True, text=True, timeout=600, check=False)


def _pytest_kind() -> bool:
    """Is the optional extra installed? (Asked without importing it.)"""
    import importlib.util
    return importlib.util.find_spec("pytest_kind") is not None


def unavailable_reason(*, which: Callable[[str], str | None] = shutil.which, run: Runner = _run,
                       has_pytest_kind: Callable[[], bool] = _pytest_kind) -> str | None:
    """None when kind can run here; otherwise what is missing, naming the thing to install or start."""
    if which("docker") is None:
        return "kind needs Docker: the `docker` command is not on PATH (install Docker)"
    info = run(["docker", "info", "--format", "{{.ServerVersion}}"])
    if info.returncode != 0:
        last = (info.stderr.strip().splitlines() or ["no output"])[-1]
        return f"kind needs a running Docker daemon: `docker info` failed: {last}"
    if which("kind") is None and not has_pytest_kind():
        return ("kind is not installed: put `kind` on PATH or install the extra "
                "`pip install 'kube-scheduler-conformance[kind]'` (pytest-kind)")
    return None


def ensure_cluster(name: str = DEFAULT_NAME, *, config: Path | None = None, state: StateDir | None = None,
                   run: Runner = _run, which: Callable[[str], str | None] = shutil.which) -> tuple[str, str]:
    """(kubeconfig path, context) of kind cluster `name`, created with `config` unless it exists."""
    reason = unavailable_reason(which=which, run=run)
    if reason:
        raise BackendUnavailable(reason)
    state = state or StateDir.default()
    kubeconfig = state.root / f"kind-{name}.kubeconfig"
    kubeconfig.parent.mkdir(parents=True, exist_ok=True)
    # xdist workers (or concurrent sessions) get here at once: one creates the cluster or writes the
    # shared kubeconfig at a time, and the others find the cluster there.
    with state.lock():
        if which("kind") is None:
            from pytest_kind import KindCluster  # the optional extra; downloads kind on first use
            cluster = KindCluster(name, kubeconfig=kubeconfig)
            cluster.create(config_file=config)
            return str(kubeconfig), f"kind-{name}"
        clusters = run(["kind", "get", "clusters"]).stdout.split()
        if name not in clusters:
            argv = ["kind", "create", "cluster", "--name", name, "--kubeconfig", str(kubeconfig), "--wait", "120s"]
            created = run(argv + (["--config", str(config)] if config else []))
            if created.returncode != 0:
                raise BackendUnavailable(f"`{' '.join(argv)}` failed: {created.stderr.strip()[-300:]}")
        else:
            exported = run(["kind", "export", "kubeconfig", "--name", name, "--kubeconfig", str(kubeconfig)])
            if exported.returncode != 0:
                raise BackendUnavailable(f"kind cluster {name} exists but its kubeconfig cannot be exported: "
                                         f"{exported.stderr.strip()[-300:]}")
    return str(kubeconfig), f"kind-{name}"


__all__ = ["CONFIGS", "DEFAULT_NAME", "ensure_cluster", "unavailable_reason"]
