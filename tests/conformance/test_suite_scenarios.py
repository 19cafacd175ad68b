"""The suite's scenarios: a short deadline only where a backend runs in wall time."""

from __future__ import annotations

from hypothesis import find
from hypothesis import strategies as st

from conformance.backends.reference import ReferenceBackend
from conformance.suite._scenarios import WALL_CLOCK_DEADLINE, for_backends
from reference.scenario import Scenario


class WallClock:
    capabilities = frozenset({"probes"})


def test_virtual_time_keeps_the_deadline():
    strategy = for_backends(st.just(Scenario(deadline=30)), [ReferenceBackend()])
    assert find(strategy, lambda s: True).deadline == 30


def test_wall_clock_backends_get_the_short_deadline():
    strategy = for_backends(st.just(Scenario(deadline=30)), [ReferenceBackend(), WallClock()])
    assert find(strategy, lambda s: True).deadline == WALL_CLOCK_DEADLINE


def test_a_shorter_deadline_is_kept():
    assert find(for_backends(st.just(Scenario(deadline=1)), [WallClock()]), lambda s: True).deadline == 1
