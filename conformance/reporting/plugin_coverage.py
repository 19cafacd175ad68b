"""The run's report of the user's plugin code it reached (builds/coverage.py), in pytest's summary.

The instrumented runner and driver write their counters when they exit, so the report is made at the end
of the session, after the backends and drivers are closed; a run below --min-plugin-coverage fails.
Under pytest-xdist each worker has its own counters and none reports (run without -n for the report).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from ..builds import coverage

_LINES = pytest.StashKey[list[str]]()


def finish(session: pytest.Session, own: Any, close: Callable[[], None]) -> None:
    """Close what holds counters (`close`), collect the report, and fail the session when it is too low."""
    config = session.config
    directory = coverage.counters_directory()
    if own is None or not own.spec.plugins or directory is None or hasattr(config, "workerinput"):
        return
    close()
    out_dir = Path(config.getoption("conformance_plugin_coverage"))
    try:
        report = coverage.collect(directory, own.module_dir(), out_dir)
    finally:
        coverage.end_session(directory)
    if report is None:
        config.stash[_LINES] = ["your plugins' code: no instrumented process ran (nothing reached them)"]
        return
    lines = coverage.summary_lines(report) + [f"  report: {out_dir}/summary.txt, functions.txt, profile.txt "
                                              f"(go tool cover -html={out_dir}/profile.txt)"]
    minimum = config.getoption("conformance_min_plugin_coverage")
    if minimum is not None and report.percent < minimum:
        lines.append(f"FAILED: {report.percent:.0f}% of your plugins' statements reached, below "
                     f"--min-plugin-coverage {minimum:g}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    config.stash[_LINES] = lines


def summary(terminalreporter: Any, config: pytest.Config) -> None:
    lines = config.stash.get(_LINES, None)
    if lines:
        terminalreporter.section("sched-conformance: your plugins' code")
        for line in lines:
            terminalreporter.write_line(line)


__all__ = ["finish", "summary"]
