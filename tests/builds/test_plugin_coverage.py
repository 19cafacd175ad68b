"""The report of the user's plugin code a run reached (conformance/builds/coverage.py): Go's counters read,
merged over processes, summarized per package with the lines never run; and, with Go, a real instrumented
binary's counters."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from conformance.builds import coverage

PROFILE = """mode: atomic
example.com/p/prefer/prefer.go:20.2,22.3 2 5
example.com/p/prefer/prefer.go:23.2,25.3 3 0
example.com/p/prefer/prefer.go:26.2,26.20 1 0
example.com/p/prefer/prefer.go:30.2,31.3 2 0
example.com/p/freecpu/freecpu.go:10.2,12.3 4 0
"""


def test_the_profile_is_summarized_per_file_with_the_ranges_never_run():
    files = {f.path: f for f in coverage.parse_profile(PROFILE)}
    prefer = files["example.com/p/prefer/prefer.go"]
    assert (prefer.statements, prefer.reached) == (8, 2)
    assert prefer.never == ((23, 26), (30, 31))  # adjacent blocks merge; a gap stays a gap
    report = coverage.Report(tuple(files.values()))
    assert report.never_run() == ["freecpu.go:10-12", "prefer.go:23-26", "prefer.go:30-31"]
    lines = coverage.summary_lines(report)
    assert lines[0] == "your plugins' code: 2 of 12 statements run (17%)"
    assert "  example.com/p/freecpu: 0/4  (never run)" in lines
    assert "  example.com/p/prefer: 2/8  (most of it never ran)" in lines


def test_blocks_counted_by_several_processes_are_merged():
    twice = PROFILE + "example.com/p/prefer/prefer.go:23.2,25.3 3 1\n"
    prefer = next(f for f in coverage.parse_profile(twice) if f.path.endswith("prefer.go"))
    assert prefer.reached == 5 and prefer.never == ((26, 26), (30, 31))


def test_only_an_instrumented_binary_is_pointed_at_the_counters(tmp_path, monkeypatch):
    binary = tmp_path / "runner"
    monkeypatch.setenv(coverage.DIR_ENV, str(tmp_path / "counters"))
    assert coverage.runner_args(binary) == [] and coverage.driver_env(binary) == {}
    (tmp_path / coverage.MARKER).write_text("example.com/p/prefer\n")
    assert coverage.runner_args(binary) == [f"-test.gocoverdir={tmp_path / 'counters'}"]
    assert coverage.driver_env(binary) == {"GOCOVERDIR": str(tmp_path / "counters")}
    monkeypatch.delenv(coverage.DIR_ENV)
    assert coverage.runner_args(binary) == []  # no session collects: nothing to point at


@pytest.mark.skipif(shutil.which("go") is None, reason="needs Go to build an instrumented binary")
def test_an_instrumented_test_binary_reports_its_counters(tmp_path):
    module = tmp_path / "m"
    (module / "lib").mkdir(parents=True)
    (module / "go.mod").write_text("module example.com/m\n\ngo 1.22\n")
    (module / "lib" / "lib.go").write_text("package lib\n\nfunc F(x int) int {\n\tif x > 3 {\n\t\treturn 1\n"
                                           "\t}\n\treturn 0\n}\n")
    (module / "main_test.go").write_text('package main\n\nimport (\n\t"testing"\n\n\t"example.com/m/lib"\n)\n\n'
                                         'func TestF(t *testing.T) { lib.F(1) }\n')
    binary = tmp_path / "bin" / "runner"
    subprocess.run(["go", "test", "-c", "-cover", "-covermode=atomic", "-coverpkg=example.com/m/lib", "-o",
                    str(binary), "."], cwd=module, check=True, capture_output=True)
    (binary.parent / coverage.MARKER).write_text("example.com/m/lib\n")
    counters = coverage.start_session()
    try:
        subprocess.run([str(binary), *coverage.runner_args(binary)], check=True, capture_output=True)
        report = coverage.collect(counters, module, tmp_path / "report")
    finally:
        coverage.end_session(counters)
    assert report is not None and (report.reached, report.statements) == (2, 3)
    assert report.never_run() == ["lib.go:4-6"]
    assert "lib.go" in report.functions and (tmp_path / "report" / "profile.txt").is_file()
    assert not counters.exists() and coverage.counters_directory() is None
