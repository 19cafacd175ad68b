"""Every broken backend is caught by its invariant in the ci profile; the unbroken reference passes them all."""

from __future__ import annotations

import pytest

from conformance.backends.reference import ReferenceBackend
from conformance.extender.server import ExtenderServer
from conformance.invariants import REGISTRY
from conformance.search import find_violation

from .hard_mutants import HARD_MUTANTS
from .mutants import MUTANTS

ALL_MUTANTS = MUTANTS + HARD_MUTANTS

MUTANT_SHRINK_SECONDS = 8.0


@pytest.fixture(scope="module")
def extender_server():
    with ExtenderServer() as server:
        yield server


@pytest.mark.parametrize("mutant", ALL_MUTANTS, ids=[m.name for m in ALL_MUTANTS])
def test_broken_backend_is_caught(mutant, extender_server, record_property) -> None:
    backend = ReferenceBackend(hook=mutant.hook, extender_server=extender_server)
    # A bounded shrink keeps the 39 searches within CI's budget; the size recorded is the smallest
    # counterexample found in that time.
    failure = find_violation(backend, REGISTRY[mutant.invariant], profile="ci", shrink_seconds=MUTANT_SHRINK_SECONDS)
    assert failure is not None, f"mutant {mutant.name} was not caught by {mutant.invariant} in the ci profile"
    assert getattr(failure.violation, "invariant", None) == mutant.invariant
    record_property("examples_to_detection", failure.examples)
    record_property("seconds_to_detection", round(failure.seconds, 3))
    record_property("shrink_seconds", round(failure.shrink_seconds, 3))
    record_property("counterexample_size", failure.size())


def test_forward_order_unreserve_shrinks_to_one_node_one_pod_two_reserve_probes(extender_server) -> None:
    mutant = next(m for m in MUTANTS if m.name == "forward-order-unreserve")
    failure = find_violation(ReferenceBackend(hook=mutant.hook, extender_server=extender_server),
                             REGISTRY[mutant.invariant], profile="ci")
    assert failure is not None
    size = failure.size()
    assert size["nodes"] <= 1 and size["pods"] <= 1, size
    assert size.get("reserve_probes", 0) + size.get("multiPoint_probes", 0) <= 2, size


@pytest.mark.parametrize("invariant_id", sorted(REGISTRY))
def test_unbroken_reference_conforms(invariant_id, extender_server) -> None:
    failure = find_violation(ReferenceBackend(extender_server=extender_server), REGISTRY[invariant_id], profile="ci")
    assert failure is None, str(failure.violation) + "\n" + failure.scenario.to_json()
