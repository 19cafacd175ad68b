"""The whole ci profile against the real kube-scheduler (harness/bin/runner, on a virtual clock): every
invariant on all its derandomized examples, and the differential against the reference; failures
shrink, as in `sched-conformance run --backend upstream --compare reference`."""

from __future__ import annotations

import pytest

from conformance.backends.reference import ReferenceBackend
from conformance.backends.upstream import BUILD_HINT, UpstreamBackend, default_runner
from conformance.differential import find_disagreement, scenarios_for
from conformance.extender.server import ExtenderServer
from conformance.invariants import REGISTRY
from conformance.search import find_violation
from conformance.suite._scenarios import for_backends


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


# Capabilities a wrapper adds around the user's own extenders (tests/conformance/test_user_extender.py).
WRAPPED = {"extender-exchanges"}


@pytest.mark.parametrize("invariant_id", [i for i, inv in REGISTRY.items() if not inv.requires & WRAPPED])
def test_invariant_holds_on_upstream(invariant_id, backends):
    upstream, _ = backends
    inv = REGISTRY[invariant_id]
    missing = inv.requires - upstream.capabilities
    assert not missing, f"the upstream backend lost capability {sorted(missing)}"

    failure = find_violation(upstream, inv, profile="ci")
    assert failure is None, f"{failure.violation}\non the scenario\n{failure.scenario.to_json()}"


def test_upstream_agrees_with_the_reference(backends):
    upstream, reference = backends
    failure = find_disagreement(upstream, reference, for_backends(scenarios_for(extenders=True), backends))
    assert failure is None, f"{failure.violation}\non the scenario\n{failure.scenario.to_json()}"
