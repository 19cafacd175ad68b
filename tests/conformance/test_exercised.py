"""Exercised counts: the search counts the examples that tested each rule, the run summary prints them,
and --strict-coverage fails a vacuous pass but leaves a skipped invariant skipped."""

from __future__ import annotations

import pytest

from conformance.backends.reference import ReferenceBackend
from conformance.extender.server import ExtenderServer
from conformance.invariants import REGISTRY
from conformance.invariants.base import invariant
from conformance.search import Exercised, find_violation

pytest_plugins = ["pytester"]
VACUOUS = "never-exercised"


def test_search_counts_examples_and_exercised_ones() -> None:
    exercised = Exercised()
    with ExtenderServer() as server:
        failure = find_violation(ReferenceBackend(extender_server=server), REGISTRY["unreserve-reverse-order"],
                                 profile="dev", max_examples=20, exercised=exercised)
    assert failure is None
    assert exercised.examples == 20
    assert 0 < exercised.exercised <= exercised.examples
    assert exercised.line("x") == f"x: exercised in {exercised.exercised}/20 examples"


@pytest.fixture
def vacuous_invariant():
    """An invariant that checks nothing and never calls Run.exercise()."""
    invariant(VACUOUS, "Nothing.", "none", requires=())(lambda run: None)
    try:
        yield VACUOUS
    finally:
        del REGISTRY[VACUOUS]


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest_inprocess("--pyargs", "conformance.suite", "-p", "no:cacheprovider",
                                        "--conformance-backend", "reference", "--conformance-max-examples", "3", *args)


def test_summary_line_per_invariant(pytester, vacuous_invariant) -> None:
    result = _run(pytester, "--conformance-invariant", vacuous_invariant,
                  "--conformance-invariant", "bound-at-most-once")
    result.assert_outcomes(passed=2)  # the differential is not collected without --compare
    result.stdout.fnmatch_lines(["*rules exercised*", "bound-at-most-once: exercised in */3 examples",
                                 f"{VACUOUS}: exercised in 0/3 examples"])


def test_strict_coverage_fails_a_vacuous_pass(pytester, vacuous_invariant) -> None:
    result = _run(pytester, "--conformance-invariant", vacuous_invariant, "--conformance-strict-coverage")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([f"*{VACUOUS}: exercised in 0/3 examples (--strict-coverage)*"])


def test_strict_coverage_leaves_a_missing_capability_skipped(pytester) -> None:
    result = _run(pytester, "--conformance-invariant", "observed-legal-codes", "--conformance-strict-coverage", "-rs")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["*lacks capability observed-plugins*"])
