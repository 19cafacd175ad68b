"""`--compare`: the suite's differential test agrees with itself, catches a broken backend, and is
skipped without a second backend."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from conformance.backends.reference import ReferenceBackend
from conformance.differential import find_disagreement, scenarios_for

from .mutants import _each_framework, _filter_not_short_circuited

pytest_plugins = ["pytester"]
ROOT = Path(__file__).resolve().parents[2]
HERE = __name__


def filters_not_short_circuited(*, extender_server=None) -> ReferenceBackend:
    """A `python:` backend: the reference with every Filter plugin run on a node an earlier one rejected."""
    return ReferenceBackend(extender_server=extender_server, hook=_each_framework(_filter_not_short_circuited))


@pytest.fixture
def suite(pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    return pytester


def run_differential(suite, *args: str):
    # Not -k differential alone: the invariant tests' ids carry the backend, here a module named *differential*.
    return suite.runpytest_subprocess("--pyargs", "conformance.suite", "-k", "differential and not test_invariant",
                                      "-p", "no:cacheprovider",
                                      "--conformance-profile", "ci", "--conformance-reproducers", "repro", *args)


def test_the_reference_agrees_with_itself(suite):
    result = run_differential(suite, "--conformance-backend", "reference", "--conformance-compare", "reference")
    result.assert_outcomes(passed=1)


def test_without_compare_it_is_not_collected(suite):
    # Not a skip in every run: there is nothing to compare, so there is no test.
    result = run_differential(suite, "--conformance-backend", "reference", "-rs")
    result.assert_outcomes()
    assert "test_differential" not in result.stdout.str() and "skipped" not in result.stdout.str()


def test_a_broken_backend_is_caught_with_a_reproducer(suite):
    result = run_differential(suite, "--conformance-backend", f"python:{HERE}:filters_not_short_circuited",
                              "--conformance-compare", "reference")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*[[]differential[]] * and reference disagree on the plugin calls of attempt *",
                                 "*Reproduce with: sched-conformance reproduce repro/differential-reference*"])
    directory = suite.path / "repro/differential-reference"
    meta = json.loads((directory / "meta.json").read_text())
    assert meta == {"invariant": "differential", "backend": f"python:{HERE}:filters_not_short_circuited",
                    "compare": "reference"}
    # In a subprocess, like the rest: pytester drops modules imported during the test afterwards.
    reproduced = suite.run(sys.executable, "-m", "conformance.cli", "reproduce", str(directory))
    assert reproduced.ret == 1 and "REPRODUCED on python:" in reproduced.stdout.str()
    agreed = suite.run(sys.executable, "-m", "conformance.cli", "reproduce", str(directory), "--backend", "reference")
    assert agreed.ret == 0 and "reference and reference agree" in agreed.stdout.str()


def test_the_search_shrinks_a_disagreement_to_one_pod():
    broken = ReferenceBackend(hook=_each_framework(_filter_not_short_circuited))
    failure = find_disagreement(broken, ReferenceBackend(), scenarios_for(extenders=False))
    assert failure is not None and failure.violation.invariant == "differential"
    assert len(failure.scenario.workload) == 1 and len(failure.scenario.nodes) == 1


class BrokenOnce:
    """Broken on the first run only: what a race in a wall-clock backend looks like to Hypothesis."""

    name = "broken-once"
    capabilities = ReferenceBackend.capabilities
    kubernetes_version = "v1.37.1"

    def __init__(self) -> None:
        self.broken, self.fixed = ReferenceBackend(hook=_each_framework(_filter_not_short_circuited)), ReferenceBackend()
        self.runs = 0

    def run(self, scenario):
        self.runs += 1
        return (self.broken if self.runs == 1 else self.fixed).run(scenario)

    def close(self) -> None:
        pass


def test_a_disagreement_that_does_not_replay_is_still_reported():
    from hypothesis import strategies as st

    from .invariants._kit import config, node, pod, scenario
    rejected = scenario([pod(probes={"Probe0": {"Filter": {"code": "Unschedulable"}}})],
                        nodes=[node("node-0")], cfg=config({"filter": ["Probe0", "Probe1"]}))
    backend = BrokenOnce()
    failure = find_disagreement(backend, ReferenceBackend(), st.just(rejected))
    assert backend.runs > 1, "Hypothesis replayed the failing example"
    assert failure is not None and failure.scenario == rejected and "plugin calls of attempt 1" in str(failure.violation)
