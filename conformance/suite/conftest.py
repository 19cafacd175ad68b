"""A failure's first line is its JUnit message (conformance/reporting/pytest_failure.py)."""

from conformance.reporting.pytest_failure import pytest_runtest_makereport

__all__ = ["pytest_runtest_makereport"]
