"""Shrinking on the real scheduler is as good as on the reference.

The broken schedulers here are the upstream runner's real outcomes with one rule broken in what they
report, so the search and the shrink run on upstream's own timing (goroutines, asynchronous
preemption, informers), on its virtual clock. The shrink's wall time is bounded by the profile's
budget (conformance/search/engine.py); it is recorded, not asserted.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from typing import Callable

import pytest

from conformance.backends.upstream import UpstreamBackend, default_runner
from conformance.extender.server import ExtenderServer
from conformance.invariants import REGISTRY
from conformance.core.outcome import Outcome
from conformance.search import find_violation
from reference.scenario import Scenario

pytestmark = pytest.mark.skipif(not default_runner().is_file(),
                                reason="harness/bin/runner is not built; run `harness/build.sh` (needs Go)")


class Reporting:
    """The upstream backend, its outcomes passed through `mutate`."""

    def __init__(self, backend: UpstreamBackend, mutate: Callable[[Outcome], Outcome]) -> None:
        self.backend, self.mutate = backend, mutate
        self.name, self.capabilities = backend.name, backend.capabilities

    def run(self, scenario: Scenario) -> Outcome:
        return self.mutate(self.backend.run(scenario))


def forward_unreserve(outcome: Outcome) -> Outcome:
    """Each attempt's Unreserve records in the order Reserve ran, not the reverse."""
    trace = list(outcome.trace)
    groups: dict[tuple, list[int]] = defaultdict(list)
    for i, record in enumerate(trace):
        if record.get("point") == "Unreserve":
            groups[(record.get("pod"), record.get("attempt"))].append(i)
    for positions in groups.values():
        for i, record in zip(positions, reversed([trace[i] for i in positions])):
            trace[i] = {**record, "seq": trace[i]["seq"], "t": trace[i]["t"]}
    return dataclasses.replace(outcome, trace=tuple(trace))


def bound_twice(outcome: Outcome) -> Outcome:
    """The first binding reported twice."""
    return dataclasses.replace(outcome, bindings=outcome.bindings[:1] + outcome.bindings)


@pytest.fixture(scope="module")
def upstream():
    with ExtenderServer() as server:
        backend = UpstreamBackend(extender_server=server)
        yield backend
        backend.close()


def test_the_real_scheduler_passes_what_the_mutants_break(upstream) -> None:
    for invariant in ("unreserve-reverse-order", "bound-at-most-once"):
        assert find_violation(upstream, REGISTRY[invariant], profile="ci", max_examples=30) is None


@pytest.mark.parametrize(("mutate", "invariant", "nodes", "pods"), [
    (forward_unreserve, "unreserve-reverse-order", 1, 1),
    (bound_twice, "bound-at-most-once", 1, 1),
], ids=["forward-unreserve", "bound-twice"])
def test_a_failure_on_upstream_shrinks_as_far_as_on_the_reference(upstream, mutate, invariant, nodes, pods,
                                                                  record_property) -> None:
    failure = find_violation(Reporting(upstream, mutate), REGISTRY[invariant], profile="ci")
    assert failure is not None and getattr(failure.violation, "invariant", None) == invariant
    size = failure.size()
    record_property("shrink_seconds", round(failure.shrink_seconds, 2))
    record_property("counterexample_size", size)
    assert size["nodes"] <= nodes and size["pods"] <= pods and size["bound_pods"] == 0, size
    if invariant == "unreserve-reverse-order":
        assert size.get("reserve_probes", 0) + size.get("multiPoint_probes", 0) <= 2, size
