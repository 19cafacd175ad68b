"""A ci-profile subset of the suite against the real kube-scheduler (harness/bin/runner) that CI can
afford: every invariant on its first few derandomized examples, and the differential against the
reference. Failures are not shrunk here (the wall-clock runs are what costs); `sched-conformance run
--backend upstream` shrinks them."""

from __future__ import annotations

import pytest
from hypothesis import Phase, given, settings

from conformance.backends.reference import ReferenceBackend
from conformance.backends.upstream import BUILD_HINT, UpstreamBackend, default_runner
from conformance.differential import find_disagreement, scenarios_for
from conformance.extender_server import ExtenderServer
from conformance.invariants import REGISTRY
from conformance.search import check, default_strategy
from conformance.settings import for_profile
from conformance.suite._scenarios import for_backends

EXAMPLES = 4
DIFFERENTIAL_EXAMPLES = 12
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)


@pytest.fixture(scope="module")
def backends():
    if not default_runner().is_file():
        pytest.skip(BUILD_HINT)
    with ExtenderServer() as server:
        upstream = UpstreamBackend(extender_server=server)
        try:
            yield upstream, ReferenceBackend(extender_server=server)
        finally:
            upstream.close()


@pytest.mark.parametrize("invariant_id", list(REGISTRY))
def test_invariant_holds_on_upstream(invariant_id, backends):
    upstream, _ = backends
    inv = REGISTRY[invariant_id]
    missing = inv.requires - upstream.capabilities
    assert not missing, f"the upstream backend lost capability {sorted(missing)}"

    @settings(for_profile("ci"), max_examples=EXAMPLES, phases=NO_SHRINK)
    @given(for_backends(default_strategy(inv), [upstream]))
    def holds(scenario):
        check(upstream, inv, scenario)

    holds()


def test_upstream_agrees_with_the_reference(backends):
    upstream, reference = backends
    failure = find_disagreement(upstream, reference, for_backends(scenarios_for(extenders=True), backends),
                                shrink=False, max_examples=DIFFERENTIAL_EXAMPLES)
    assert failure is None, f"{failure.violation}\non the scenario\n{failure.scenario.to_json()}"
