"""The ci profile draws real machine sizes (issue 30): its examples hold nodes of more than 16 cores and more
than 1 TiB, and a broken scheduler that misbehaves only on such nodes (mutants.MAGNITUDE_MUTANTS) is caught,
without shrinking, by the invariant it names."""

from __future__ import annotations

import pytest

from conformance.backends.reference import ReferenceBackend
from conformance.extender.server import ExtenderServer
from conformance.invariants import REGISTRY
from conformance.search import find_violation
from reference import codec
from reference.scenario import Scenario

from .mutants import MAGNITUDE_MUTANTS

TI = 1024 ** 4


class _Recording:
    """The reference backend, keeping every scenario it runs."""

    def __init__(self, server: ExtenderServer) -> None:
        self.inner = ReferenceBackend(extender_server=server)
        self.name, self.capabilities = self.inner.name, self.inner.capabilities
        self.seen: list[Scenario] = []

    def run(self, scenario):
        self.seen.append(scenario)
        return self.inner.run(scenario)


@pytest.fixture(scope="module")
def extender_server():
    with ExtenderServer() as server:
        yield server


# Invariants of every kind of search: general scenarios, a constrained situation, probe situations.
SAMPLED = ("capacity-respected", "schedulable-pods-bound", "score-range-enforced", "chosen-node-has-max-score")


def _allocatable(scenario: Scenario) -> list[dict[str, int]]:
    return [codec.node_from_manifest(n).allocatable for n in scenario.nodes]


def test_the_ci_profile_reaches_large_nodes(extender_server):
    backend = _Recording(extender_server)
    for invariant_id in SAMPLED:
        assert find_violation(backend, REGISTRY[invariant_id], profile="ci", shrink=False) is None
    assert len(backend.seen) == 100 * len(SAMPLED)
    nodes = [n for s in backend.seen for n in _allocatable(s)]
    assert max(n.get("cpu", 0) for n in nodes) > 16_000
    assert max(n.get("memory", 0) for n in nodes) > TI
    with_large = sum(any(n.get("cpu", 0) > 16_000 for n in _allocatable(s)) for s in backend.seen)
    assert with_large >= len(backend.seen) // 10, f"only {with_large} examples have a node of more than 16 cores"


@pytest.mark.parametrize("mutant", MAGNITUDE_MUTANTS, ids=[m.name for m in MAGNITUDE_MUTANTS])
def test_a_scheduler_broken_only_on_large_nodes_is_caught(mutant, extender_server):
    backend = ReferenceBackend(hook=mutant.hook, extender_server=extender_server)
    failure = find_violation(backend, REGISTRY[mutant.invariant], profile="ci", shrink=False)
    assert failure is not None, f"mutant {mutant.name} was not caught by {mutant.invariant} in the ci profile"
    assert getattr(failure.violation, "invariant", None) == mutant.invariant
    cores = max(codec.node_from_manifest(n).allocatable.get("cpu", 0) for n in failure.scenario.nodes)
    assert cores > 16_000
