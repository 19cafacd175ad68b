"""docs/coverage.md's list of reference branches the generators do not reach stays true to the source.

Measuring takes minutes (`benchmarks/reference_coverage.py`); this checks without measuring that each
listed branch point still is the line holding the quoted condition, in a measured module, so an edit
that moves or drops it makes the list fail here instead of silently excusing another line.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("reference_coverage",
                                               ROOT / "benchmarks" / "reference_coverage.py")
assert _spec is not None and _spec.loader is not None
rc = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = rc  # dataclasses look their module up there
_spec.loader.exec_module(rc)

DOC_TEXT = rc.DOC.read_text()
ROWS = rc.unreachable_rows(DOC_TEXT)
BRANCH_STATEMENTS = ("if ", "elif ", "for ", "while ")


def test_the_list_is_not_empty_and_has_no_duplicates() -> None:
    table_lines = [line for line in rc.between(DOC_TEXT, rc.TABLE).splitlines() if line.startswith("| `")]
    assert ROWS and len(ROWS) == len(table_lines), "a row of the table does not parse; see rc.ROW"
    locations = [(r.path, r.line) for r in ROWS]
    assert len(set(locations)) == len(locations)


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r.path}:{r.line}")
def test_listed_line_holds_the_quoted_condition(row) -> None:
    assert row.path.startswith(tuple(f"{s}/" for s in rc.SOURCES)), f"{row.path} is not a measured module"
    source = (ROOT / row.path).read_text().splitlines()
    assert row.line <= len(source), f"{row.path} has {len(source)} lines, the list names line {row.line}"
    held = source[row.line - 1].strip()
    assert held.startswith(row.code), (
        f"{row.path}:{row.line} holds {held!r}, not {row.code!r}: update docs/coverage.md (the line moved? "
        "`python tests/reference/test_branch_coverage.py --repoint` moves each row to the nearest line holding it)")
    assert row.code.startswith(BRANCH_STATEMENTS), f"{row.code!r} is not a branch point"
    assert row.why.strip(), "each listed branch says why the generators do not reach it"


def test_the_measured_figures_are_recorded() -> None:
    figures = rc.between(DOC_TEXT, rc.FIGURES)
    assert "| **total** |" in figures, "run `benchmarks/reference_coverage.py --write-doc` to record them"


def repoint() -> None:
    """Move each row whose line no longer holds its quoted condition to the nearest line that does (after an
    edit above it); a condition found nowhere is reported, for a person to decide."""
    text = DOC_TEXT
    for row in ROWS:
        source = (ROOT / row.path).read_text().splitlines()
        if row.line <= len(source) and source[row.line - 1].strip().startswith(row.code):
            continue
        hits = [i + 1 for i, line in enumerate(source) if line.strip().startswith(row.code)]
        if not hits:
            print(f"{row.path}:{row.line}: {row.code!r} is nowhere in the file: edit its row by hand")
            continue
        new = min(hits, key=lambda h: abs(h - row.line))
        # The whole cell pair, so that a row moved onto another row's old line is not moved again.
        cells = f"`{row.path}:{{}}` | `{row.code}`"
        text = text.replace(cells.format(row.line), cells.format(new), 1)
        print(f"{row.path}:{row.line} -> {new}")
    rc.DOC.write_text(text)


if __name__ == "__main__" and sys.argv[1:] == ["--repoint"]:
    repoint()
