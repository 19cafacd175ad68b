"""A failure's first line is its JUnit message (conformance/reporting/pytest_failure.py); the differential is
collected only with a second backend to compare with."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.reporting.pytest_failure import pytest_runtest_makereport


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Without --compare there is nothing to compare: the differential is not collected, rather than reported
    as skipped in every run."""
    if collection_path.name == "test_differential.py" and not config.getoption("conformance_compare"):
        return True
    return None


__all__ = ["pytest_ignore_collect", "pytest_runtest_makereport"]
