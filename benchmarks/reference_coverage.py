"""Branch coverage of the reference's plugins, framework and scheduler under the ci profile's scenarios.

    PYTHONPATH=. python benchmarks/reference_coverage.py [--data FILE] [--write-doc] [--missed]

Runs `sched-conformance run --backend reference --profile ci` under coverage.py (`--branch`); every
invariant's situation and the differential's general scenarios are drawn there (the diff's fixed list,
conformance/diff/scenarios.py, draws from the same strategies). It takes about 10 minutes on a shared
machine; `--data` reuses a data file of an earlier run. Prints per module the branches reached, the ones
listed as unreachable in docs/coverage.md ("Reference branches the generators do not reach") and the
percentage of reachable branches reached; `--missed` lists each missed branch that is not listed there;
`--write-doc` records the figures in docs/coverage.md.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("reference/plugins", "reference/framework", "reference/scheduler")
DOC = ROOT / "docs" / "coverage.md"
TABLE = ("<!-- unreachable-branches:begin -->", "<!-- unreachable-branches:end -->")
FIGURES = ("<!-- reference-branch-coverage:begin -->", "<!-- reference-branch-coverage:end -->")
# A row of the unreachable table: | `reference/x.py:LINE` | `condition` | why |
ROW = re.compile(r"^\| `(?P<path>reference/[\w/]+\.py):(?P<line>\d+)` \| `(?P<code>[^`]+)` "
                 r"\| (?P<why>.+) \|$")


@dataclass(frozen=True)
class Unreachable:
    path: str
    line: int
    code: str
    why: str


@dataclass
class Module:
    path: str
    branches: int = 0
    reached: int = 0
    unreachable: int = 0
    missed: list[tuple[int, int]] = field(default_factory=list)  # reachable arcs never taken

    @property
    def reachable(self) -> int:
        return self.branches - self.unreachable


def between(text: str, markers: tuple[str, str]) -> str:
    begin, end = markers
    if begin not in text or end not in text:
        raise SystemExit(f"{DOC}: markers {begin} ... {end} missing; restore the section")
    return text.split(begin, 1)[1].split(end, 1)[0]


def unreachable_rows(text: str) -> list[Unreachable]:
    """The table of docs/coverage.md: each listed branch point (a line holding a condition) with why."""
    rows = []
    for line in between(text, TABLE).splitlines():
        m = ROW.match(line.strip())
        if m:
            rows.append(Unreachable(m["path"], int(m["line"]), m["code"], m["why"]))
    return rows


def measure(data: Path) -> None:
    command = [sys.executable, "-m", "coverage", "run", "--branch", f"--data-file={data}",
               f"--source={','.join(SOURCES)}", "-m", "conformance.cli", "run", "--backend", "reference",
               "--profile", "ci"]
    subprocess.run(command, cwd=ROOT, check=False, env={**os.environ, "PYTHONPATH": str(ROOT)})


def modules(data: Path, listed: list[Unreachable]) -> list[Module]:
    import coverage
    cov = coverage.Coverage(data_file=str(data), branch=True, source=list(SOURCES))
    cov.load()
    cov_data = cov.get_data()
    skip = {(u.path, u.line) for u in listed}
    out = []
    for filename in sorted(cov_data.measured_files()):
        path = str(Path(filename).resolve().relative_to(ROOT))
        analysis = cov._analyze(filename)  # noqa: SLF001 - the per-arc figures `coverage json` reports
        numbers = analysis.numbers
        module = Module(path, numbers.n_branches, numbers.n_branches - numbers.n_missing_branches)
        for start, ends in sorted(analysis.missing_branch_arcs().items()):
            for end in ends:
                if (path, start) in skip:
                    module.unreachable += 1
                else:
                    module.missed.append((start, end))
        out.append(module)
    return out


def figures(mods: list[Module]) -> str:
    lines = ["| module | branches | reached | listed unreachable | reached of reachable |",
             "|---|---|---|---|---|"]
    total = Module("total")
    for m in mods + [total]:
        if m is not total:
            total.branches += m.branches
            total.reached += m.reached
            total.unreachable += m.unreachable
        percent = 100.0 * m.reached / m.reachable if m.reachable else 100.0
        name = f"`{m.path}`" if m is not total else "**total**"
        lines.append(f"| {name} | {m.branches} | {m.reached} | {m.unreachable} | "
                     f"{m.reached}/{m.reachable} ({percent:.1f}%) |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, help="a coverage data file of an earlier run (skips the run)")
    parser.add_argument("--write-doc", action="store_true", help="record the figures in docs/coverage.md")
    parser.add_argument("--missed", action="store_true",
                        help="list the missed branches not listed as unreachable")
    args = parser.parse_args(argv)
    text = DOC.read_text()
    listed = unreachable_rows(text)
    data = args.data
    if data is None:
        data = Path(tempfile.mkdtemp()) / "reference.coverage"
        measure(data)
    elif not data.exists():
        parser.error(f"--data {data}: no such file; run without --data to measure")
    mods = modules(data, listed)
    table = figures(mods)
    print(table)
    if args.missed:
        for m in mods:
            source = (ROOT / m.path).read_text().splitlines()
            for start, end in m.missed:
                target = "exit" if end < 0 else str(end)
                print(f"{m.path}:{start}->{target}  {source[start - 1].strip()[:90]}")
    if args.write_doc:
        begin, end = FIGURES
        head, rest = text.split(begin, 1)
        DOC.write_text(f"{head}{begin}\n{table}\n{end}{rest.split(end, 1)[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
