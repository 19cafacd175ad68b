"""How long a cluster run waits for a pod a timeline event woke (conformance/cluster/requeue.py)."""

from __future__ import annotations

import pytest

from conformance.cluster.requeue import FLUSH, MAX_BACKOFF, at_least, backoff, woken_pod_wait


@pytest.mark.parametrize("version, expected", [("v1.37.2", True), ("v1.33.0", True), ("v1.32.9", False),
                                               ("1.40.1", True), ("v2.0.0", True), ("unknown", True)])
def test_versions_compare_by_minor(version, expected):
    assert at_least(version, 33) is expected


def test_backoff_doubles_from_one_second_up_to_ten():
    assert [backoff(n) for n in (1, 2, 3, 4, 5, 6)] == [1.0, 2.0, 4.0, 8.0, 10.0, 10.0]


def test_a_scheduler_that_pops_from_backoff_needs_no_wait_and_an_older_one_the_longest_backoff():
    # SchedulerPopFromBackoffQ (v1.33 on): an idle scheduler retries a woken pod at once.
    assert woken_pod_wait("v1.37.2") == 0.0
    assert woken_pod_wait("v1.32.3") == MAX_BACKOFF + FLUSH
