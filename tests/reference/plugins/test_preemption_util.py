"""Preemption helpers, ported from pkg/scheduler/framework/preemption/util_test.go (v1.37.1).

Left out: TestMoreImportantVictim's PodGroup cases, TestGetPodPriority and TestTraverseHierarchyUp
(GenericWorkload is off by default; PodGroups are not modelled).
"""

from __future__ import annotations

import pytest

from reference.plugins.preemption.evaluator import pod_terminating_by_preemption
from reference.types import PodCondition
from tests.builders import pod


def disruption(status: str, reason: str) -> tuple[PodCondition, ...]:
    return (PodCondition("DisruptionTarget", status, reason),)


# --- TestPodTerminatingByPreemption ---------------------------------------------------------------

@pytest.mark.parametrize("p,want", [
    pytest.param(pod("p1"), False, id="pod without DeletionTimestamp"),
    pytest.param(pod("p1", deletion_timestamp="now"), False,
                 id="pod with DeletionTimestamp but no DisruptionTarget condition"),
    pytest.param(pod("p1", deletion_timestamp="now", conditions=disruption("False", "PreemptionByScheduler")), False,
                 id="pod with DeletionTimestamp, DisruptionTarget condition status False"),
    pytest.param(pod("p1", deletion_timestamp="now", conditions=disruption("True", "SomeOtherReason")), False,
                 id="pod with DeletionTimestamp, DisruptionTarget condition reason not PreemptionByScheduler"),
    pytest.param(pod("p1", deletion_timestamp="now", conditions=disruption("True", "PreemptionByScheduler")), True,
                 id="pod with DeletionTimestamp, DisruptionTarget condition status True and reason "
                    "PreemptionByScheduler"),
])
def test_pod_terminating_by_preemption(p, want):
    assert pod_terminating_by_preemption(p) is want


def test_only_the_first_disruption_target_condition_counts():
    """The loop returns at the first DisruptionTarget entry, as upstream's does."""
    conditions = disruption("False", "PreemptionByScheduler") + disruption("True", "PreemptionByScheduler")
    assert not pod_terminating_by_preemption(pod("p1", deletion_timestamp="now", conditions=conditions))
