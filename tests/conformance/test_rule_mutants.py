"""The mutant matrix (conformance/invariants/proofs.py) holds: every mutant misbehaves on its witness and is
caught there by the invariant the matrix names, and every rule has a mutant per direction or is listed as
pending (the count is reported, not hidden). Whether each invariant's ci search finds its mutants too, and
whether an "equivalent" mutant equals the reference on every ci scenario, is the per-rule run of
benchmarks/rule_mutants.py (minutes per mutant; issue 32 keeps it out of `make test`)."""

from __future__ import annotations

import warnings
from functools import lru_cache

import pytest

from conformance.invariants import REGISTRY, Run
from conformance.invariants.proofs import PENDING, PROOFS, pending_count, problems

from .invariants._kit import run_on_reference, violation
from .mutant_matrix import ALL_HOOKS, OLDER_MUTANTS, RULE_MUTANTS, WITNESSES

PROVEN = sorted({p.mutant for p in PROOFS})
EQUIVALENT = sorted({p.mutant for p in PROOFS if p.reason.startswith("equivalent")})
NAMED_IN_PENDING = sorted(m for m in WITNESSES
                          if any(m in note for d in PENDING.values() for note in d.values()))
CAUGHT = sorted({(p.mutant, p.caught_by) for p in PROOFS if p.caught_by})


class PendingRuleDirections(UserWarning):
    """Rule directions without a mutant yet: reported on every run of this module."""


@lru_cache(maxsize=None)
def _runs(mutant: str, server=None) -> tuple[Run, Run]:
    """The unmutated reference's run and the mutant's run on the mutant's witness (its extenders, if any,
    answered by the suite's extender server)."""
    sc = WITNESSES[mutant]()
    return run_on_reference(sc, server=server), run_on_reference(sc, server=server, hook=ALL_HOOKS[mutant])


def test_every_rule_direction_has_a_mutant_or_is_pending() -> None:
    found = problems()
    assert found == [], "\n".join(found)
    directions = len({(p.rule, p.direction) for p in PROOFS})
    message = f"mutant matrix: {directions} rule directions proven, {pending_count()} still pending " \
              "(PENDING in conformance/invariants/proofs.py)"
    print(message)
    if pending_count():
        warnings.warn(PendingRuleDirections(message))


def test_every_mutant_has_a_witness_and_every_rule_mutant_a_proof() -> None:
    assert [m for m in PROVEN if m not in WITNESSES or m not in ALL_HOOKS] == []
    orphans = [m.name for m in RULE_MUTANTS if m.name not in PROVEN and m.name not in NAMED_IN_PENDING]
    assert orphans == [], f"mutants named neither in PROOFS nor in PENDING: {orphans}"


def test_older_mutants_keep_their_invariant_in_the_matrix() -> None:
    """A mutant of mutants.py names the invariant test_mutants.py searches with; the matrix must agree."""
    older = {m.name: m.invariant for m in OLDER_MUTANTS}
    wrong = [(m, older[m]) for m in PROVEN if m in older and older[m] not in {c for n, c in CAUGHT if n == m}]
    assert wrong == []


@pytest.mark.parametrize("mutant", sorted(set(PROVEN) - set(EQUIVALENT)) + NAMED_IN_PENDING)
def test_mutant_misbehaves_on_its_witness(mutant: str, extender_server) -> None:
    reference, broken = _runs(mutant, extender_server)
    ref, mut = reference.outcome.to_dict(), broken.outcome.to_dict()
    assert ref != mut, f"{mutant}: outcome and trace equal the reference's on its witness"


@pytest.mark.parametrize("mutant", EQUIVALENT)
def test_equivalent_mutant_equals_the_reference_on_its_witness(mutant: str, extender_server) -> None:
    """What keeps its rule "not checkable from outside": outcome, trace and events are the reference's."""
    reference, broken = _runs(mutant, extender_server)
    assert reference.outcome.to_dict() == broken.outcome.to_dict()


@pytest.mark.parametrize("mutant, invariant", CAUGHT, ids=[f"{m}-{i}" for m, i in CAUGHT])
def test_mutant_caught_on_its_witness(mutant: str, invariant: str, extender_server) -> None:
    reference, broken = _runs(mutant, extender_server)
    REGISTRY[invariant].check(reference)
    violation(REGISTRY[invariant], broken)


@pytest.fixture(scope="module")
def extender_server():
    from conformance.extender.server import ExtenderServer
    with ExtenderServer() as server:
        yield server
