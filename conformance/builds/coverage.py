"""Coverage of the user's plugin code: which of their statements a run reached.

"Exercised" counts a plugin being called, not its interesting code being run: a Score plugin whose bug
hides behind its own label is called in every example and never reaches the bug. So a build with the
user's plugins instruments their packages (build.sh --cover: go build -cover -coverpkg); this module
points the instrumented runner and driver at a directory for their counters (the runner is a test
binary: `-test.gocoverdir`; the driver: $GOCOVERDIR), and turns the counters into a report once the
processes have exited (they write on exit): `go tool covdata textfmt`, per file and per function
(`go tool cover -func`, run in the build's module, where the user's import paths resolve), and the line
ranges never run.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

MARKER = ".cover"   # beside an instrumented build's binaries: the covered packages, one per line
DIR_ENV = "SCHED_CONFORMANCE_GOCOVERDIR"  # the session's counter directory, shared with its subprocesses
_BLOCK = re.compile(r"^(?P<file>.+):(?P<l1>\d+)\.\d+,(?P<l2>\d+)\.\d+ (?P<stmts>\d+) (?P<count>\d+)$")


def covered_packages(binary: Path) -> list[str]:
    """The packages `binary` was instrumented for (empty: not instrumented)."""
    marker = binary.parent / MARKER
    return marker.read_text().split() if marker.is_file() else []


def counters_directory() -> Path | None:
    """The session's counter directory, or None when no session collects coverage."""
    given = os.environ.get(DIR_ENV)
    return Path(given) if given else None


def start_session() -> Path:
    """A fresh counter directory for this run (and the subprocesses it starts)."""
    directory = Path(tempfile.mkdtemp(prefix="sched-conformance-gocover-"))
    os.environ[DIR_ENV] = str(directory)
    return directory


def end_session(directory: Path) -> None:
    """Forget the session's counters (a later session in this process starts from none)."""
    shutil.rmtree(directory, ignore_errors=True)
    if os.environ.get(DIR_ENV) == str(directory):
        del os.environ[DIR_ENV]


def runner_args(binary: Path) -> list[str]:
    directory = counters_directory()
    return [f"-test.gocoverdir={directory}"] if directory and covered_packages(binary) else []


def driver_env(binary: Path) -> dict[str, str]:
    directory = counters_directory()
    return {"GOCOVERDIR": str(directory)} if directory and covered_packages(binary) else {}


@dataclass(frozen=True)
class FileCoverage:
    path: str            # import path of the package / file name
    statements: int
    reached: int
    never: tuple[tuple[int, int], ...]  # line ranges of statements never run, merged

    @property
    def package(self) -> str:
        return self.path.rsplit("/", 1)[0]


@dataclass(frozen=True)
class Report:
    files: tuple[FileCoverage, ...]
    functions: str = ""  # `go tool cover -func` output

    @property
    def statements(self) -> int:
        return sum(f.statements for f in self.files)

    @property
    def reached(self) -> int:
        return sum(f.reached for f in self.files)

    @property
    def percent(self) -> float:
        return 100.0 * self.reached / self.statements if self.statements else 100.0

    def per_package(self) -> dict[str, tuple[int, int]]:
        out: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for f in self.files:
            out[f.package][0] += f.reached
            out[f.package][1] += f.statements
        return {k: (v[0], v[1]) for k, v in sorted(out.items())}

    def never_run(self, limit: int = 6) -> list[str]:
        """`file.go:33-35` for the first `limit` ranges never run (file names without the package path)."""
        spots = [f"{f.path.rsplit('/', 1)[-1]}:{a}" + (f"-{b}" if b != a else "") for f in self.files for a, b in f.never]
        return spots[:limit] + ([f"{len(spots) - limit} more"] if len(spots) > limit else [])


def parse_profile(text: str) -> tuple[FileCoverage, ...]:
    """A `go tool covdata textfmt` profile, merged per block (several processes count the same block)."""
    blocks: dict[tuple[str, int, int], tuple[int, int]] = {}
    for line in text.splitlines():
        match = _BLOCK.match(line.strip())
        if not match:
            continue
        key = (match["file"], int(match["l1"]), int(match["l2"]))
        stmts, count = int(match["stmts"]), int(match["count"])
        seen = blocks.get(key, (stmts, 0))
        blocks[key] = (stmts, seen[1] + count)
    by_file: dict[str, list[tuple[int, int, int, int]]] = defaultdict(list)
    for (file, l1, l2), (stmts, count) in blocks.items():
        by_file[file].append((l1, l2, stmts, count))
    out = []
    for file, entries in sorted(by_file.items()):
        entries.sort()
        never = _merge((l1, l2) for l1, l2, stmts, count in entries if count == 0 and stmts)
        out.append(FileCoverage(file, sum(e[2] for e in entries), sum(e[2] for e in entries if e[3]), never))
    return tuple(out)


def _merge(ranges: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    merged: list[list[int]] = []
    for a, b in ranges:
        if merged and a <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return tuple((a, b) for a, b in merged)


def collect(directory: Path, module_dir: Path | None, out_dir: Path) -> Report | None:
    """The report of the counters in `directory` (None when no instrumented process wrote any), with its
    files written to `out_dir`: profile.txt (for `go tool cover -html`), functions.txt, summary.txt."""
    if not directory.is_dir() or not any(directory.glob("covcounters.*")):
        return None
    out_dir.mkdir(parents=True, exist_ok=True)
    profile = out_dir / "profile.txt"
    done = subprocess.run(["go", "tool", "covdata", "textfmt", f"-i={directory}", f"-o={profile}"],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return None
    functions = ""
    if module_dir is not None and module_dir.is_dir():
        func = subprocess.run(["go", "tool", "cover", f"-func={profile}"], cwd=module_dir, capture_output=True,
                              text=True, check=False)
        functions = func.stdout if func.returncode == 0 else ""
        (out_dir / "functions.txt").write_text(functions)
    report = Report(parse_profile(profile.read_text()), functions)
    (out_dir / "summary.txt").write_text("\n".join(summary_lines(report)) + "\n")
    return report


def summary_lines(report: Report) -> list[str]:
    lines = [f"your plugins' code: {report.reached} of {report.statements} statements run "
             f"({report.percent:.0f}%)"]
    for package, (reached, total) in report.per_package().items():
        note = "  (never run)" if reached == 0 else "  (most of it never ran)" if reached * 2 < total else ""
        lines.append(f"  {package}: {reached}/{total}{note}")
    never = report.never_run()
    if never:
        lines.append(f"  never run: {', '.join(never)}")
    return lines


__all__ = ["DIR_ENV", "MARKER", "FileCoverage", "Report", "collect", "counters_directory", "covered_packages",
           "driver_env", "end_session", "parse_profile", "runner_args", "start_session", "summary_lines"]
