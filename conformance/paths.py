"""Every path the suite reads or writes outside the user's project, in one place.

Sources: the harness Go module (probes, runner, driver, build.sh), the kind node image's build
(kind-node/) and the kind configs (kind-configs/). In a source checkout they are the checkout's own
directories. Installed from a wheel they ship inside the package (`conformance/_sources`, put there by
setup.py) and are copied once into the cache, keyed by their content: builds write beside them
(harness/bin) and scripts must be executable, and site-packages is the place for neither.

Cache: $SCHED_CONFORMANCE_CACHE, else $XDG_CACHE_HOME/sched-conformance, else ~/.cache/sched-conformance.
It holds `sources/<digest>` (the copied sources and their stock binaries), `builds/<key>` (schedulers
built with the user's plugins, conformance/builds) and `cluster/` (the local control plane's state).
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import stat
import tempfile
from pathlib import Path

from .core.errors import ConformanceError

SOURCE_DIRS = ("harness", "kind-node", "kind-configs")
CACHE_ENV = "SCHED_CONFORMANCE_CACHE"
BIN_ENV = "SCHED_CONFORMANCE_BIN"
STATE_ENV = "SCHED_CONFORMANCE_STATE"
PACKAGED = Path(__file__).resolve().parent / "_sources"
_COMPLETE = ".complete"  # written last into a copy of the sources: a copy without it is unfinished


def checkout() -> Path | None:
    """The source checkout this package runs from, or None when it is installed."""
    root = Path(__file__).resolve().parents[1]
    return root if (root / "harness" / "go.mod").is_file() and (root / "pyproject.toml").is_file() else None


def cache() -> Path:
    if env := os.environ.get(CACHE_ENV):
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".cache") / "sched-conformance"


def builds() -> Path:
    """Schedulers built with the user's plugins or another release, one directory per set of inputs."""
    return cache() / "builds"


def cluster_state() -> Path:
    """The local control plane's files (unless $SCHED_CONFORMANCE_STATE names another directory)."""
    env = os.environ.get(STATE_ENV)
    return Path(env) if env else cache() / "cluster"


@functools.cache
def sources() -> Path:
    """The directory holding harness/, kind-node/ and kind-configs/: the checkout, or the installed
    package's copy in the cache (made on first use)."""
    root = checkout()
    if root is not None:
        return root
    if not (PACKAGED / "harness" / "go.mod").is_file():
        raise ConformanceError(f"this installation has no harness sources ({PACKAGED} is missing); reinstall "
                               "kube-scheduler-conformance from its wheel or sdist (`python -m build` makes both)")
    target = cache() / "sources" / _digest(PACKAGED)
    if not (target / _COMPLETE).is_file():
        _copy_sources(PACKAGED, target)
    return target


def harness() -> Path:
    return sources() / "harness"


def kind_node() -> Path:
    return sources() / "kind-node"


def kind_configs() -> Path:
    return sources() / "kind-configs"


def stock_bin() -> Path:
    """The stock binaries (runner, kube-scheduler, driver, control plane, kind): $SCHED_CONFORMANCE_BIN,
    else harness/bin beside the sources, where harness/build.sh puts them."""
    env = os.environ.get(BIN_ENV)
    return Path(env) if env else harness() / "bin"


def _source_files(root: Path) -> list[Path]:
    """The files of the sources under `root`, without build output (harness/bin) or Python caches."""
    return sorted(p for name in SOURCE_DIRS for p in (root / name).rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts
                  and p.relative_to(root).parts[:2] != ("harness", "bin"))


def _digest(root: Path) -> str:
    digest = hashlib.sha256()
    for path in _source_files(root):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def _copy_sources(packaged: Path, target: Path) -> None:
    """Copy into a temporary sibling, then rename: a copy interrupted halfway is never taken for a complete
    one, and two processes copying at once both end with the same complete copy."""
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".copy-", dir=target.parent))
    try:
        for path in _source_files(packaged):
            dest = staging / path.relative_to(packaged)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, dest)
            if path.suffix in (".sh", ".py"):  # a wheel need not keep the executable bit
                dest.chmod(dest.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        (staging / _COMPLETE).write_text("")
        if (target / _COMPLETE).is_file():
            return  # another process finished first
        if target.exists():
            shutil.rmtree(target)  # an unfinished copy (no _COMPLETE) left by a killed process
        try:
            staging.rename(target)
        except OSError:
            if not (target / _COMPLETE).is_file():  # another process won the race only if its copy is whole
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)


__all__ = ["BIN_ENV", "CACHE_ENV", "PACKAGED", "SOURCE_DIRS", "STATE_ENV", "builds", "cache", "checkout",
           "cluster_state", "harness", "kind_configs", "kind_node", "sources", "stock_bin"]
