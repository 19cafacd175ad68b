"""The baseline: difference groups accepted as intended, matched by their cause key (not by scenario, so a
baseline written from one run accepts the same causes found with other seeds).

    # sched-conformance diff baseline
    from: v1.36.4
    to: v1.37.2
    accepted:
    - key: plugin-list preScore/NodeDeclaredFeatures (the plugins of profile P at preScore)
      note: new in-tree plugin in 1.37 (KEP-5328)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from ..core.errors import ConformanceError
from .groups import Group

SHAPE = "a mapping with `accepted:`, a list of {key: <group key>, note: <text>}"


class BaselineError(ConformanceError):
    """A baseline file that cannot be read; one line with the file, the line and the expected shape."""


def read(path: str | Path) -> dict[str, str]:
    """Accepted group key -> its note."""
    file = Path(path)
    try:
        data = yaml.safe_load(file.read_text())
    except OSError as exc:
        raise BaselineError(f"--baseline {path}: cannot read it ({exc.strerror}); write one with --write-baseline") \
            from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark is not None else ""
        raise BaselineError(f"--baseline {path}{where}: not YAML ({getattr(exc, 'problem', exc)}); expected {SHAPE}") \
            from None
    entries = data.get("accepted") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise BaselineError(f"--baseline {path}: no `accepted:` list; expected {SHAPE}")
    out: dict[str, str] = {}
    for i, entry in enumerate(entries, 1):
        if not isinstance(entry, dict) or not isinstance(entry.get("key"), str) or not entry["key"].strip():
            raise BaselineError(f"--baseline {path}: accepted entry {i} ({_line(file, i)}) has no `key:` string; "
                                f"expected {SHAPE}")
        out[entry["key"]] = str(entry.get("note") or "")
    return out


def _line(file: Path, index: int) -> str:
    """The file line where the index-th list entry starts (for the message)."""
    count = 0
    for number, line in enumerate(file.read_text().splitlines(), 1):
        if line.lstrip().startswith("- "):
            count += 1
            if count == index:
                return f"line {number}"
    return "its line unknown"


def apply(groups: list[Group], accepted: dict[str, str]) -> None:
    for g in groups:
        if g.key in accepted:
            g.accepted = accepted[g.key]


def write(path: str | Path, groups: list[Group], *, from_label: str, to_label: str,
          previous: dict[str, str] | None = None) -> None:
    """Every current group as accepted, keeping the notes of a previous baseline."""
    notes = previous or {}
    data: dict[str, Any] = {"from": from_label, "to": to_label, "accepted": [
        {"key": g.key, "note": notes.get(g.key) or f"accepted: {len(g.scenarios)} scenario(s); say why here"}
        for g in groups]}
    Path(path).write_text("# sched-conformance diff baseline: difference groups accepted as intended "
                          "(edit the notes)\n" + yaml.safe_dump(data, sort_keys=False, width=120))


__all__ = ["BaselineError", "SHAPE", "apply", "read", "write"]
