"""The build cache: what is in it, when each entry was last used, and least-recently-used eviction.

Entries are `builds/<key>` (a scheduler with the user's plugins, per set of inputs: every plugin edit
makes a new one) and `sources/<digest>` (an installed package's copy of the harness sources with its
stock binaries). After each new build the cache is trimmed to $SCHED_CONFORMANCE_CACHE_MAX (default
10G; 0 turns the cap off) by removing the entries used longest ago, never the one just built nor the
sources in use. The local control plane's state (`cluster/`) is not an entry and is never removed here.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from .. import paths
from ..core.errors import ConformanceError

MAX_ENV = "SCHED_CONFORMANCE_CACHE_MAX"
DEFAULT_MAX = "10G"
_LAST_USED = ".last-used"
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


@dataclass(frozen=True)
class Entry:
    path: Path
    kind: str  # "build" or "sources"
    size: int
    last_used: float

    def describe(self) -> str:
        if self.kind == "sources":
            bins = sorted(p.name for p in (self.path / "harness" / "bin").glob("*") if p.is_file())
            return f"harness sources of an installed package; stock binaries: {', '.join(bins) or 'none yet'}"
        try:
            meta = json.loads((self.path / "built.json").read_text())
        except (OSError, ValueError):
            return "unfinished build"
        plugins = ", ".join(meta.get("plugins") or ()) or "no plugins of its own"
        return f"Kubernetes {meta.get('k8sVersion')} with {plugins}"


def parse_size(text: str) -> int:
    """`10G`, `500M`, `0`: bytes (binary units)."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)i?B?\s*", text, re.IGNORECASE)
    if match is None:
        raise ConformanceError(f"size {text!r}: give a number with an optional unit K, M, G or T, e.g. 10G")
    return int(float(match.group(1)) * _UNITS[match.group(2).upper()])


def human(size: float) -> str:
    for unit in ("B", "K", "M", "G"):
        if size < 1024:
            return f"{size:.0f}{unit}" if unit == "B" else f"{size:.1f}{unit}"
        size /= 1024
    return f"{size:.1f}T"


def touch(directory: Path) -> None:
    """Record that the entry at `directory` was used now."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / _LAST_USED).write_text(f"{time.time():.0f}\n")


def entries() -> list[Entry]:
    """Every entry, least recently used first."""
    found = []
    for kind, parent in (("build", paths.builds()), ("sources", paths.cache() / "sources")):
        if not parent.is_dir():
            continue
        for path in parent.iterdir():
            if path.is_dir() and not path.name.startswith("."):
                found.append(Entry(path, kind, _size(path), _last_used(path)))
    return sorted(found, key=lambda e: e.last_used)


def evict(*, keep: Path | None = None, max_size: int | None = None) -> list[Entry]:
    """Remove the least recently used entries until the cache holds at most `max_size` bytes (default
    $SCHED_CONFORMANCE_CACHE_MAX); returns what was removed."""
    limit = parse_size(os.environ.get(MAX_ENV) or DEFAULT_MAX) if max_size is None else max_size
    if max_size is None and limit == 0:
        return []
    protected = {keep.resolve()} if keep is not None else set()
    if paths.checkout() is None and paths.PACKAGED.is_dir():
        protected.add(paths.sources().resolve())
    current = entries()
    total = sum(e.size for e in current)
    removed = []
    for entry in current:
        if total <= limit:
            break
        if entry.path.resolve() in protected:
            continue
        shutil.rmtree(entry.path, ignore_errors=True)
        total -= entry.size
        removed.append(entry)
    return removed


def _size(path: Path) -> int:
    total = 0
    for root, _dirs, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                pass
    return total


def _last_used(path: Path) -> float:
    try:
        return float((path / _LAST_USED).read_text().strip())
    except (OSError, ValueError):
        return path.stat().st_mtime


__all__ = ["DEFAULT_MAX", "Entry", "MAX_ENV", "entries", "evict", "human", "parse_size", "touch"]
