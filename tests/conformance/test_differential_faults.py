"""The suite's `--compare` differential runs a fault search of its own (where both backends inject faults
on virtual time): a scheduler that mishandles a failed binding, the same as the reference everywhere else,
is caught with a reproducer that holds the fault."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.backends.reference import ReferenceBackend

from .invariants.test_faults import drops_pod_after_failed_binding

pytest_plugins = ["pytester"]
ROOT = Path(__file__).resolve().parents[2]
HERE = __name__


def drops_failed_pods(*, extender_server=None) -> ReferenceBackend:
    """A `python:` backend: the reference, but a pod whose binding failed is never requeued."""
    return ReferenceBackend(extender_server=extender_server, hook=drops_pod_after_failed_binding)


@pytest.fixture
def suite(pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    return pytester


def test_the_suite_compares_under_faults_and_catches_a_dropped_retry(suite):
    result = suite.runpytest_subprocess("--pyargs", "conformance.suite", "-k",
                                        "differential and not test_invariant", "-p", "no:cacheprovider",
                                        "--conformance-profile", "ci", "--conformance-reproducers", "repro",
                                        "--conformance-backend", f"python:{HERE}:drops_failed_pods",
                                        "--conformance-compare", "reference")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*[[]differential[]] * and reference disagree on *"])
    scenario = json.loads((suite.path / "repro/differential-reference/scenario.json").read_text())
    assert any(e.get("op") == "fail" for e in scenario.get("timeline", [])), scenario
