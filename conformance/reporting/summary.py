"""What the end of a suite run prints beside pytest's own summary: which invariants the backend could check,
how often each rule was exercised (carried as JUnit properties, from xdist workers too), and Hypothesis'
statistics for the searches run inside a test."""

from __future__ import annotations

import contextlib
import re
from typing import Any, Iterator

import pytest


def capability_summary(terminalreporter: Any, session: Any) -> None:
    """Which of the invariant tests that ran the backend could check, and which it could not, with
    the capability it lacks."""
    backend = session.started().get(session.backend_name)
    test = re.compile(rf"::test_invariant\[{re.escape(session.backend_name)}-([^\]]+)\]$")  # ids: backend-invariant
    ran = {match.group(1) for outcome in ("passed", "failed", "skipped", "error")
           for report in terminalreporter.stats.get(outcome, ())
           if (match := test.search(str(getattr(report, "nodeid", ""))))}
    if backend is None or not ran:
        return
    from ..invariants import REGISTRY
    from .report import coverage
    terminalreporter.section("sched-conformance invariants")
    invariants = [inv for inv in REGISTRY.values() if inv.id in ran]
    for line in coverage(invariants, backend.name, backend.capabilities):
        terminalreporter.write_line(line)


ID_PROPERTY, EXERCISED_PROPERTY, EXAMPLES_PROPERTY = ("sched_conformance_id", "sched_conformance_exercised",
                                                     "sched_conformance_examples")


def record_exercised(item: pytest.Item, invariant_id: str, exercised: int, examples: int) -> None:
    """Attach the counts to the test's report as plain values (JUnit `<property>`s); user properties travel
    from xdist workers too."""
    item.user_properties.extend([(ID_PROPERTY, invariant_id), (EXERCISED_PROPERTY, exercised),
                                 (EXAMPLES_PROPERTY, examples)])


def exercised_summary(terminalreporter: Any) -> None:
    """One line per invariant that ran: in how many examples its rule was exercised."""
    counts: dict[str, tuple[int, int]] = {}
    for reports in terminalreporter.stats.values():
        for report in reports:
            if getattr(report, "when", None) != "call":
                continue
            properties = dict(getattr(report, "user_properties", ()))
            if ID_PROPERTY in properties and EXERCISED_PROPERTY in properties:
                counts[properties[ID_PROPERTY]] = (properties[EXERCISED_PROPERTY], properties[EXAMPLES_PROPERTY])
    if not counts:
        return
    terminalreporter.section("sched-conformance: rules exercised")
    for invariant_id in sorted(counts):
        exercised, examples = counts[invariant_id]
        terminalreporter.write_line(f"{invariant_id}: exercised in {exercised}/{examples} examples")


@contextlib.contextmanager
def hypothesis_statistics(item: pytest.Item) -> Iterator[None]:
    """Collect the statistics of the search run inside `item` (not itself a @given test), so that
    `--hypothesis-show-statistics` prints them, events (the exercised count) included."""
    if not item.config.getoption("hypothesis_show_statistics", False):
        yield
        return
    from hypothesis.statistics import collector, describe_statistics

    def note(stats: dict) -> None:
        stats["nodeid"] = item.nodeid
        item.hypothesis_statistics = describe_statistics(stats)
    with collector.with_value(note):
        yield


__all__ = ["EXAMPLES_PROPERTY", "EXERCISED_PROPERTY", "ID_PROPERTY", "capability_summary", "exercised_summary",
           "hypothesis_statistics", "record_exercised"]
