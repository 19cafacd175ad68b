"""The suite's scenarios: a short deadline only where a backend runs in wall time."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import find
from hypothesis import strategies as st

from conformance.backends.reference import ReferenceBackend
from conformance.suite._scenarios import EVENT_ROOM, WALL_CLOCK_DEADLINE, for_backends
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


def test_a_timed_timeline_event_keeps_room_before_the_wall_clock_deadline():
    late = Scenario(deadline=30, timeline=({"when": 5, "op": "delete", "kind": "Node", "name": "n1"},
                                           {"when": "idle", "op": "delete", "kind": "Node", "name": "n2"}))
    early = replace(late, timeline=({"when": 2, "op": "delete", "kind": "Node", "name": "n1"},))
    got = [find(for_backends(st.just(s), [WallClock()]), lambda s: True).deadline for s in (late, early)]
    assert got == [5 + EVENT_ROOM, WALL_CLOCK_DEADLINE]
