"""Upstream's queueing integration table, test/integration/scheduler/queueing/queue.go
(`CoreResourceEnqueueTestCases`, v1.37.2), run against the reference Scheduler: the pods first rejected
(by a scheduling cycle, or held at PreEnqueue), a trigger through the scheduler's event handlers, and
exactly the pods that must be in activeQ afterwards (the others stay in the unschedulable pool).

Count: 78 upstream cases; 75 ported (all must pass; deviations in comments above their rows), 3 excluded
with their reasons (excluded.py). The 29 volume rows (cases_volumes.py) each fail on a queue whose hints
all answer Queue, or all answer QueueSkip.
"""

from __future__ import annotations

import pytest

from tests.reference.queueing import cases_core, cases_features, cases_topology, cases_volumes
from tests.reference.queueing.excluded import EXCLUDED
from reference.events import QueueingHint
from tests.reference.queueing.harness import run

CASES = [*cases_core.CASES, *cases_topology.CASES, *cases_features.CASES, *cases_volumes.CASES]
UPSTREAM_CASES = 78


@pytest.mark.parametrize("c", CASES, ids=[c.name for c in CASES])
def test_requeued_pods(c) -> None:
    assert run(c) == set(c.want)


def test_every_upstream_case_is_ported_or_excluded_once() -> None:
    names = [c.name for c in CASES]
    assert len(set(names)) == len(names)
    assert not set(names) & set(EXCLUDED)
    assert (len(names), len(EXCLUDED)) == (75, 3)
    assert len(names) + len(EXCLUDED) == UPSTREAM_CASES


@pytest.mark.parametrize("c", cases_volumes.CASES, ids=[c.name for c in cases_volumes.CASES])
def test_volume_row_catches_constant_hints(c) -> None:
    """A row that requeues some pods fails with always-Skip; one that requeues none, with always-Queue."""
    broken = QueueingHint.QUEUE_SKIP if c.want else QueueingHint.QUEUE
    assert run(c, hints=broken) != set(c.want)
