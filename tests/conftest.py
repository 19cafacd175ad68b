"""Fixtures shared across the project's own tests."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def installed():
    """The wheel of this checkout installed into a fresh virtualenv outside it (tests/installed.py)."""
    from tests.installed import install
    workdir = Path(tempfile.mkdtemp(prefix="sched-conformance-installed-"))
    try:
        yield install(workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
