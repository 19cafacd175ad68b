"""A failed conformance test as pytest reports it: the whole report is the failure's text, and its first line
the one line CI shows (JUnit's `<failure message>`, pytest's short summary), from xdist workers too."""

from __future__ import annotations

from typing import Any, NoReturn

import pytest


class ReportedFailure(pytest.fail.Exception):
    """`pytest.fail(text, pytrace=False)` whose report's crash message is the text's first line."""


def fail(text: str) -> NoReturn:
    raise ReportedFailure(text, pytrace=False)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Any:
    """Re-exported by the suites' conftest.py: the hook applies to their tests only."""
    report = yield
    crash = getattr(report.longrepr, "reprcrash", None)
    if call.excinfo is not None and isinstance(call.excinfo.value, ReportedFailure) and crash is not None:
        # JUnit's `message` and the short summary read the crash message; it is serialized to the xdist controller.
        crash.message = (str(call.excinfo.value).splitlines() or [""])[0]
    return report


__all__ = ["ReportedFailure", "fail", "pytest_runtest_makereport"]
