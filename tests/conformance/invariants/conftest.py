"""The extender server the invariant tests share (HTTP on 127.0.0.1)."""

from __future__ import annotations

import pytest

from conformance.extender.server import ExtenderServer


@pytest.fixture(scope="module")
def extender_server():
    with ExtenderServer() as server:
        yield server
