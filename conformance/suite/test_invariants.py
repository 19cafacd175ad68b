"""One property test per invariant: draw scenarios, run them on the backend, check, shrink, report."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.reporting import reproducer
from conformance.invariants import REGISTRY, select
from conformance.pytest_plugin import reproducers_dir
from conformance.reporting.summary import hypothesis_statistics, record_exercised
from conformance.reporting.pytest_failure import fail
from conformance.reporting.report import describe_failure
from conformance.search import Exercised, default_strategy, find_violation

from ._scenarios import for_backends


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "invariant_id" in metafunc.fixturenames:
        chosen = select(metafunc.config.getoption("conformance_invariants")) or list(REGISTRY.values())
        # The backend in the id: CI UIs list test ids, and a run on two backends must not merge.
        backend = metafunc.config.getoption("conformance_backend") or "reference"
        metafunc.parametrize("invariant_id", [inv.id for inv in chosen], ids=[f"{backend}-{inv.id}" for inv in chosen])


@pytest.mark.conformance
def test_invariant(invariant_id: str, conformance, request: pytest.FixtureRequest) -> None:
    inv = REGISTRY[invariant_id]
    backend = conformance.backend()
    missing = inv.requires - set(backend.capabilities)
    if missing:
        pytest.skip(f"backend {backend.name} lacks capability {', '.join(sorted(missing))}")
    exercised = Exercised()
    with hypothesis_statistics(request.node):
        failure = find_violation(backend, inv, profile=request.config.getoption("conformance_profile"),
                                 strategy=for_backends(default_strategy(inv, conformance.base_config()), [backend],
                                                       objects=conformance.objects_hook(),
                                                       domain=conformance.domain()),
                                 max_examples=request.config.getoption("conformance_max_examples"),
                                 exercised=exercised)
    record_exercised(request.node, invariant_id, exercised.exercised, exercised.examples)
    if failure is None:
        # A pass removes the reproducer of an earlier failure on this backend (without creating the directory).
        stale = Path(request.config.getoption("conformance_reproducers")) / reproducer.slug(invariant_id)
        reproducer.remove_stale(stale, invariant=invariant_id, backend=conformance.backend_name)
        if exercised.exercised == 0 and request.config.getoption("conformance_strict_coverage"):
            pytest.fail(f"{exercised.line(invariant_id)} (--strict-coverage): no example reached the situation "
                        "the rule governs, so the pass says nothing; see `sched-conformance invariants --coverage` "
                        "and the situation the invariant declares (conformance/recipes)", pytrace=False)
        if exercised.exercised == 0 and conformance.base_config() is not None:
            # On the user's own config the suite cannot steer into every situation (their profiles decide
            # which plugins run): a rule that never applied is reported as not checked, not as kept.
            pytest.skip(f"{exercised.line(invariant_id)}: the rule never applied on your configuration (e.g. a "
                        "plugin or point it is about is not in your profiles), so it was not checked")
        return
    directory = reproducers_dir(request.config) / reproducer.slug(invariant_id)
    reproducer.write(directory, failure.scenario, invariant=invariant_id, backend=conformance.backend_name,
                     message=str(failure.violation), root=request.config.invocation_params.dir,
                     **conformance.reproducer_options())
    fail(describe_failure(failure, directory, conformance.backend_name))
