"""Drivers for the contract tests: the stock scheduler's, and the broken plugins' own build (needs Go)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Iterator

import pytest

from conformance.contracts.session import ContractSession
from conformance.builds.own_scheduler import resolve

BROKEN = Path(__file__).resolve().parent / "brokenplugins"
BROKEN_OWN = BROKEN / "own-scheduler.toml"
needs_go = pytest.mark.skipif(shutil.which("go") is None, reason="needs a Go toolchain to build the plugin driver")


@pytest.fixture(scope="session")
def stock() -> Iterator[ContractSession]:
    session = ContractSession(None)
    yield session
    session.close()


@pytest.fixture(scope="session")
def broken() -> Iterator[ContractSession]:
    """The broken plugins built as a user's scheduler never seen before: --own-scheduler, a local module."""
    session = ContractSession(resolve(own_file=str(BROKEN_OWN)))
    yield session
    session.close()
