"""Where the local control plane keeps its files, and where the binaries come from."""

from __future__ import annotations

import fcntl
import json
import os
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from .. import paths
from ..core.errors import BackendUnavailable

STATE_ENV = paths.STATE_ENV
BIN_ENV = paths.BIN_ENV
BUILD_HINT = "harness/build.sh --control-plane"


@dataclass(frozen=True)
class StateDir:
    """One control plane's files: state.json, logs/, pki/, kubeconfig, etcd data, scheduler configs."""

    root: Path

    @classmethod
    def default(cls) -> "StateDir":
        return cls(paths.cluster_state())

    @property
    def state_file(self) -> Path:
        return self.root / "state.json"

    @property
    def kubeconfig(self) -> Path:
        return self.root / "kubeconfig"

    @property
    def pki(self) -> Path:
        return self.root / "pki"

    @property
    def etcd_data(self) -> Path:
        return self.root / "etcd"

    @property
    def scheduler_dir(self) -> Path:
        return self.root / "scheduler"

    def log(self, component: str) -> Path:
        return self.root / "logs" / f"{component}.log"

    def prepare(self) -> None:
        for d in (self.root, self.pki, self.scheduler_dir, self.root / "logs"):
            d.mkdir(parents=True, exist_ok=True)
        os.chmod(self.pki, 0o700)

    def read(self) -> dict[str, Any]:
        """The recorded processes and ports; empty when nothing was started (or the file is unreadable)."""
        try:
            data = json.loads(self.state_file.read_text())
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def write(self, data: dict[str, Any]) -> None:
        tmp = self.state_file.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=2, sort_keys=True))
        tmp.replace(self.state_file)

    def clear(self) -> None:
        self.state_file.unlink(missing_ok=True)

    @contextmanager
    def lock(self, name: str = "lock") -> Iterator[None]:
        """Serialises up/down/scheduler restarts (the default `name`), or whatever `name` stands for,
        between processes sharing this state dir; the kernel releases it when a holder dies."""
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.root / name, "a") as fh:
            fcntl.flock(fh, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fh, fcntl.LOCK_UN)


def bin_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """`explicit`, else the stock binaries' directory ($SCHED_CONFORMANCE_BIN, else harness/bin)."""
    return Path(explicit) if explicit else paths.stock_bin()


def find_binary(name: str, directory: Path) -> Path:
    """`name` in `directory`; in the stock directory, built now if it is missing."""
    from ..builds.stock import executable, stock_binary
    if directory == paths.stock_bin():
        return stock_binary(name)
    path = directory / name
    if not executable(path):
        raise BackendUnavailable(f"{name} not found at {path}; build it with `{BUILD_HINT}` "
                                 f"or point ${BIN_ENV} at a directory that has it")
    return path


__all__ = ["BIN_ENV", "BUILD_HINT", "STATE_ENV", "StateDir", "bin_dir", "find_binary"]
