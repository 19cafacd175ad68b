"""The broken schedulers of unseen_mutants.py are caught by the invariant each names, in the ci profile."""

from __future__ import annotations

import pytest

from conformance.backends.reference import ReferenceBackend
from conformance.extender.server import ExtenderServer
from conformance.invariants import REGISTRY
from conformance.search import find_violation

from .unseen_mutants import UNSEEN_MUTANTS


@pytest.fixture(scope="module")
def extender_server():
    with ExtenderServer() as server:
        yield server


@pytest.mark.parametrize("mutant", UNSEEN_MUTANTS, ids=[m.name for m in UNSEEN_MUTANTS])
def test_unseen_broken_backend_is_caught(mutant, extender_server) -> None:
    backend = ReferenceBackend(hook=mutant.hook, extender_server=extender_server)
    failure = find_violation(backend, REGISTRY[mutant.invariant], profile="ci", shrink=False)
    assert failure is not None, f"mutant {mutant.name} was not caught by {mutant.invariant} in the ci profile"
    assert getattr(failure.violation, "invariant", None) == mutant.invariant
