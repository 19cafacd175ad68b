"""Feature-gate defaults per Kubernetes release, and the gates each scheduler plugin reads.

Read from the release's own source in the Go module cache (the build has downloaded it):
`pkg/features/kube_features.go` holds each gate's versioned specs (the default of release 1.X is the
last spec at or before 1.X), `pkg/scheduler/framework/plugins/feature/feature.go` maps the plugins'
`feature.Features` fields to gates, and a plugin package reads those fields or the gates directly. A
difference at a plugin that reads a gate whose default moved between the two releases is reported with
that gate; `--feature-gates` pins gates on both sides.
"""

from __future__ import annotations

import functools
import json
import re
import subprocess
from pathlib import Path

CORE = "(scheduler)"  # gates read outside the plugins: the queue, the scheduling cycle, the framework runtime
_SPEC_ENTRY = re.compile(r"^\t(?:genericfeatures\.)?(\w+): \{\n(.*?)^\t\},", re.MULTILINE | re.DOTALL)
_SPEC = re.compile(r'Version:\s*version\.MustParse\("(\d+)\.(\d+)"\),\s*Default:\s*(true|false)')
_FIELD = re.compile(r"(Enable\w+):\s*\w+\.Enabled\((?:\w+\.)?(\w+)\)")
_NAME = re.compile(r"\w*Name\s*=\s*names\.(\w+)")
_USE = re.compile(r"\b(?:features|fts|feature|f)\.(\w+)")


@functools.lru_cache(maxsize=None)
def source_dir(version: str) -> Path | None:
    """k8s.io/kubernetes@version in the module cache, or None when Go cannot say."""
    proc = subprocess.run(["go", "mod", "download", "-json", f"k8s.io/kubernetes@{version}"], capture_output=True,
                          text=True)
    try:
        directory = Path(json.loads(proc.stdout)["Dir"])
    except (ValueError, KeyError):
        return None
    return directory if directory.is_dir() else None


def defaults(source: Path, version: str) -> dict[str, bool]:
    """Gate -> its default in `version` (v1.X.Y), from the versioned specs."""
    text = (source / "pkg" / "features" / "kube_features.go").read_text()
    minor = tuple(int(x) for x in version.lstrip("v").split(".")[:2])
    out: dict[str, bool] = {}
    for name, body in _SPEC_ENTRY.findall(text):
        specs = [((int(a), int(b)), d == "true") for a, b, d in _SPEC.findall(body)]
        current = [d for v, d in specs if v <= minor]
        if current:
            out[name] = current[-1]
    return out


def plugin_gates(source: Path, known: set[str]) -> dict[str, set[str]]:
    """Plugin name (or CORE, or DefaultPreemption for the shared preemption code) -> the gates it reads."""
    scheduler = source / "pkg" / "scheduler"
    fields = dict(_FIELD.findall((scheduler / "framework" / "plugins" / "feature" / "feature.go").read_text()))
    out: dict[str, set[str]] = {}
    for directory in sorted({p.parent for p in scheduler.rglob("*.go")}):
        text = "\n".join(p.read_text() for p in directory.glob("*.go") if not p.name.endswith("_test.go"))
        used = {fields.get(u, u) for u in _USE.findall(text)} & known
        if not used:
            continue
        relative = directory.relative_to(scheduler).parts
        if relative[:2] == ("framework", "plugins"):
            owners = set(_NAME.findall(text)) or {CORE}
        elif relative[:2] == ("framework", "preemption"):
            owners = {"DefaultPreemption"}
        else:
            owners = {CORE}
        for owner in owners:
            out.setdefault(owner, set()).update(used)
    return out


@functools.lru_cache(maxsize=None)
def gate_info(version: str) -> tuple[dict[str, bool], dict[str, set[str]]]:
    """(defaults, plugin gates) of a release; empty when its source is not at hand."""
    source = source_dir(version)
    if source is None:
        return {}, {}
    values = defaults(source, version)
    return values, plugin_gates(source, set(values))


def moved_defaults(from_version: str, to_version: str) -> dict[str, tuple[bool | None, bool | None]]:
    """The scheduler-read gates whose default differs between the releases: gate -> (from, to)."""
    (da, pa), (db, pb) = gate_info(from_version), gate_info(to_version)
    if not da or not db:
        return {}
    read = set().union(*pa.values(), *pb.values())
    # A gate newer than the release is off there; a gate gone from the newer release was locked to its last
    # default (a GA gate is removed after it is locked on), so its absence is no change.
    before = {g: da.get(g, False) for g in read}
    after = {g: db.get(g, da.get(g, False)) for g in read}
    return {g: (before[g], after[g]) for g in sorted(read) if before[g] != after[g]}


def gates_behind(plugins: set[str], from_version: str, to_version: str,
                 pinned: set[str] = frozenset()) -> dict[str, tuple[bool | None, bool | None]]:
    """Of the moved defaults, those the plugins read; pinned gates excluded. The gates of the scheduler's core
    code (the queue, the cycle) could be behind any difference: the report lists them once, not per group."""
    moved = moved_defaults(from_version, to_version)
    if not moved:
        return {}
    reads: set[str] = set()
    for info in (gate_info(from_version)[1], gate_info(to_version)[1]):
        for owner in plugins:
            reads |= info.get(owner, set())
    return {g: v for g, v in moved.items() if g in reads and g not in pinned}


def parse_pins(text: str) -> dict[str, bool]:
    """`A=true,B=false` as kube-scheduler's --feature-gates; ValueError naming the bad entry."""
    out: dict[str, bool] = {}
    for entry in filter(None, (e.strip() for e in text.split(","))):
        name, _, value = entry.partition("=")
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9]*", name) or value.lower() not in ("true", "false"):
            raise ValueError(f"--feature-gates entry {entry!r}: give Name=true or Name=false, comma-separated")
        out[name] = value.lower() == "true"
    return out


__all__ = ["CORE", "defaults", "gate_info", "gates_behind", "moved_defaults", "parse_pins", "plugin_gates",
           "source_dir"]
