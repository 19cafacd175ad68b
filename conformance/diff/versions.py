"""Which Kubernetes releases a diff can build: the ones the Go module proxy serves (or the module cache
already holds) from v1.34.0 on, the families the harness compiles against."""

from __future__ import annotations

import functools
import re
import subprocess
from pathlib import Path

from ..builds.builder import SUPPORTED
from ..core.errors import ConformanceError

_VERSION = re.compile(r"^v?(\d+)\.(\d+)\.(\d+)$")


class VersionError(ConformanceError):
    """A release the diff cannot build; one line naming the nearest ones it can."""


def parse(version: str) -> tuple[int, int, int] | None:
    m = _VERSION.match(version.strip())
    return (int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else None


@functools.lru_cache(maxsize=None)
def proxy_versions() -> tuple[tuple[str, ...], str]:
    """(the releases `go list -m -versions k8s.io/kubernetes` lists, why none when it lists none)."""
    try:
        proc = subprocess.run(["go", "list", "-m", "-versions", "k8s.io/kubernetes"], capture_output=True, text=True,
                              timeout=120, cwd=Path.home())
    except (OSError, subprocess.TimeoutExpired) as exc:
        return (), f"cannot ask the Go module proxy ({exc})"
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return (), f"the Go module proxy did not answer ({last})"
    return tuple(v for v in proc.stdout.split()[1:] if parse(v)), ""


def cached_versions() -> tuple[str, ...]:
    """Releases whose module zip is already in the Go module cache (they build offline)."""
    proc = subprocess.run(["go", "env", "GOMODCACHE"], capture_output=True, text=True)
    directory = Path(proc.stdout.strip() or Path.home() / "go" / "pkg" / "mod") / "cache" / "download" / "k8s.io" \
        / "kubernetes" / "@v"
    return tuple(sorted(p.stem for p in directory.glob("v*.zip") if parse(p.stem)))


def buildable(versions: tuple[str, ...]) -> list[str]:
    return sorted({v for v in versions if v.startswith(SUPPORTED)}, key=parse)


def nearest(version: tuple[int, int, int], versions: list[str], count: int = 3) -> list[str]:
    def distance(v: str) -> tuple[int, int]:
        other = parse(v)
        return abs(other[1] - version[1]) * 1000 + abs(other[2] - version[2]), -other[2]
    return sorted(versions, key=distance)[:count]


def check(flag: str, version: str) -> str:
    """`version` as v1.X.Y when the diff can build it; else VersionError with the nearest it can."""
    parsed = parse(version)
    if parsed is None:
        raise VersionError(f"{flag} {version!r}: not a release version; give one like v1.37.2")
    normalized = "v{}.{}.{}".format(*parsed)
    served, why = proxy_versions()
    available = buildable(served + cached_versions())
    if normalized in available:
        return normalized
    if not normalized.startswith(SUPPORTED):
        raise VersionError(f"{flag} {normalized}: the probes and runner build against "
                           f"{', '.join(s + 'x' for s in SUPPORTED)} only; nearest available: "
                           f"{', '.join(nearest(parsed, available)) or 'none'}")
    if not served:
        raise VersionError(f"{flag} {normalized}: not in the Go module cache and {why}; connect to the module "
                           f"proxy (GOPROXY) or use a cached release: {', '.join(available) or 'none'}")
    raise VersionError(f"{flag} {normalized}: the Go module proxy does not serve k8s.io/kubernetes {normalized}; "
                       f"nearest available (served or in the module cache): {', '.join(nearest(parsed, available))}")


__all__ = ["VersionError", "buildable", "cached_versions", "check", "nearest", "parse", "proxy_versions"]
