"""Preemption helpers, ported from pkg/scheduler/framework/preemption/util_test.go (v1.37.2).

Left out (GenericWorkload is off by default; PodGroups are not modelled): the two "podgroup victim"
cases of TestFilterVictimsWithPDBViolation, TestMoreImportantVictim, TestGetPodPriority and
TestTraverseHierarchyUp.
"""

from __future__ import annotations

import pytest

from reference.plugins.preemption.evaluator import filter_pods_with_pdb_violation, pod_terminating_by_preemption
from reference.types import LabelSelector, PodCondition, PodDisruptionBudget
from tests.builders import pod

FOO = {"app": "foo"}
NO_PDB_MATCH = pod("p1", labels=FOO)
MATCH_PDB = pod("p1", labels=FOO)
MATCH_PDB_2 = pod("p2", labels=FOO)
MATCH_TWO_PDBS = pod("p1", labels={**FOO, "tier": "backend"})


def pdb(match_labels=FOO, allowed=0, disrupted=(), selector=None):
    return PodDisruptionBudget("pdb", selector=selector or LabelSelector(dict(match_labels)),
                               disruptions_allowed=allowed, disrupted_pods={n: "2026-01-01T00:00:00Z" for n in disrupted})


# --- TestFilterVictimsWithPDBViolation --------------------------------------------------------------

@pytest.mark.parametrize("victims,pdbs,want_violating,want_non_violating", [
    pytest.param([], [], [], [], id="no victims, no PDBs"),
    pytest.param([NO_PDB_MATCH], [pdb({"app": "bar"})], [], [NO_PDB_MATCH], id="victim with no matching PDBs"),
    pytest.param([MATCH_PDB], [pdb(allowed=1)], [], [MATCH_PDB],
                 id="victim matching PDB, adequate DisruptionsAllowed"),
    pytest.param([MATCH_PDB], [pdb(allowed=0)], [(MATCH_PDB, 1)], [], id="victim matching PDB, no DisruptionsAllowed"),
    pytest.param([MATCH_PDB, MATCH_PDB_2], [pdb(allowed=1)], [(MATCH_PDB_2, 1)], [MATCH_PDB],
                 id="multiple victims matching the same PDB"),
    pytest.param([MATCH_PDB], [pdb(allowed=0, disrupted=["p1"])], [], [MATCH_PDB],
                 id="pod in DisruptedPods is ignored"),
    pytest.param([MATCH_PDB], [pdb(selector=LabelSelector())], [], [MATCH_PDB], id="PDB with empty selector"),
    pytest.param([MATCH_TWO_PDBS], [pdb(allowed=1), pdb({"tier": "backend"}, allowed=0)], [(MATCH_TWO_PDBS, 1)], [],
                 id="Multiple PDBs"),
])
def test_filter_victims_with_pdb_violation(victims, pdbs, want_violating, want_non_violating):
    assert filter_pods_with_pdb_violation(victims, pdbs) == (want_violating, want_non_violating)


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
