"""The user's plugins' own vocabulary, read from their Go sources (harness/cmd/vocabulary): the label,
annotation and taint keys and values, and the extended resources, that their code compares against.

The generators draw them (generators.Domain) beside the stock vocabulary, like a fuzzing dictionary: a
plugin whose bug shows only on its own label value is otherwise never given that value. Only the
packages of the registered plugins are read (a module may hold many plugins the user did not register).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import BackendFailure
from ..core.progress import say
from .spec import BuildSpec, GoModule

if TYPE_CHECKING:
    from generators import Domain

_TIMEOUT = 120
_extracted: dict[tuple[str, ...], "Domain"] = {}


def plugin_directories(spec: BuildSpec) -> list[Path]:
    """The source directories of the registered plugins' packages (module directories for proxy modules
    come from `go mod download`)."""
    out: list[Path] = []
    for module in spec.modules:
        packages = [p.package for p in spec.plugins if p.package == module.path or p.package.startswith(module.path + "/")]
        if not packages:
            continue
        root = module.directory if module.local else _downloaded(module)
        out.extend(dict.fromkeys(root / p[len(module.path):].lstrip("/") for p in packages))
    return out


def _downloaded(module: GoModule) -> Path:
    argv = ["go", "mod", "download", "-json", f"{module.path}@{module.version}"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=_TIMEOUT, check=False, cwd="/")
    try:
        directory = json.loads(done.stdout).get("Dir") if done.stdout else None
    except json.JSONDecodeError:
        directory = None
    if done.returncode != 0 or not directory:
        detail = (done.stderr or done.stdout).strip().splitlines()
        raise BackendFailure(f"reading the vocabulary of {module.describe()}: `go mod download` failed: "
                             f"{detail[-1] if detail else 'no output'}")
    return Path(directory)


def extract(spec: BuildSpec) -> "Domain":
    """What the registered plugins' sources compare against, as a Domain (empty without plugins)."""
    from generators import Domain
    directories = plugin_directories(spec)
    key = tuple(str(d) for d in directories)
    if not directories:
        return Domain()
    if key not in _extracted:
        _extracted[key] = _run(directories)
        say(f"sched-conformance: the plugins' own vocabulary: {_extracted[key].summary()} "
            f"(from {', '.join(d.name for d in directories)})")
    return _extracted[key]


def _run(directories: list[Path]) -> "Domain":
    from generators import Domain

    from .stock import stock_binary
    argv = [str(stock_binary("vocabulary")), *map(str, directories)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=_TIMEOUT, check=False)
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        raise BackendFailure(f"reading the plugins' vocabulary: {lines[0] if lines else f'exit {done.returncode}'}")
    try:
        data = json.loads(done.stdout)
    except json.JSONDecodeError as exc:
        raise BackendFailure(f"reading the plugins' vocabulary: the extractor printed no JSON ({exc})") from None
    return Domain.from_mapping(data, "vocabulary", strict=False)


__all__ = ["extract", "plugin_directories"]
