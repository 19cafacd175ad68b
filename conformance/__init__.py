"""The conformance suite for the Kubernetes scheduling framework: invariants checked over scenarios run on a
backend (the reference, the real kube-scheduler in-process, a cluster), the differential, plugin contracts and
upgrade diffs. Entry points: the `sched-conformance` CLI (`cli`) and the pytest plugin (`pytest_plugin`).

The public names below, for a `python:` backend or a test of your own, are imported on first use, so loading
the pytest plugin (`import conformance.pytest_plugin`) imports nothing else.

PYTEST_DONT_REWRITE: the CLI imports this package before `pytest.main` marks it for assertion rewriting
(it has no asserts); without the marker pytest warns, an error under `-W error`."""

from __future__ import annotations

from reference.lazy_exports import lazy_exports

# name -> the module that defines it
_PUBLIC = {
    "Backend": "conformance.backends.base", "BackendFailure": "conformance.core.errors",
    "BackendUnavailable": "conformance.core.errors", "CAPABILITIES": "conformance.backends.base",
    "ConformanceError": "conformance.core.errors", "DIFFERENTIAL": "conformance.differential",
    "Exercised": "conformance.search", "ExtenderServer": "conformance.extender.server",
    "Failure": "conformance.search", "Found": "conformance.search", "Invariant": "conformance.invariants",
    "Outcome": "conformance.core.outcome", "PROFILES": "conformance.search", "PodOutcome": "conformance.core.outcome",
    "REGISTRY": "conformance.invariants", "ReferenceBackend": "conformance.backends.reference",
    "Run": "conformance.invariants", "UpstreamBackend": "conformance.backends.upstream",
    "Violation": "conformance.invariants", "check_all": "conformance.invariants",
    "compare": "conformance.differential", "default_strategy": "conformance.search",
    "find_disagreement": "conformance.differential", "find_violation": "conformance.search",
    "for_profile": "conformance.search", "invariant": "conformance.invariants", "make_backend": "conformance.backends",
    "run_search": "conformance.search", "select": "conformance.invariants",
}
__all__ = sorted(_PUBLIC)

__getattr__, __dir__ = lazy_exports("conformance", _PUBLIC, globals())
