"""The suite's reports as CI reads them, from a real `pytest --junitxml` run on a broken backend: the failure's
message is the violation's first line, test ids carry the backend, properties are plain values (also under
xdist, with the terminal summary intact); a failure that does not replay is FLAKY with both outcomes; the seed
and blob are printed; a reproducer is removed once its invariant passes."""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conformance.backends.reference import ReferenceBackend
from conformance.pytest_plugin import DEFAULT_REPRODUCERS

from .mutants import _bind_retried_after_success

pytest_plugins = ["pytester"]
ROOT = Path(__file__).resolve().parents[2]
HERE = __name__
BROKEN, PASSING = "bound-at-most-once", "capacity-respected"
MESSAGE = re.compile(r"\[bound-at-most-once\] the pod was bound \d+ times")


def broken(*, extender_server=None) -> ReferenceBackend:
    return ReferenceBackend(extender_server=extender_server, hook=_bind_retried_after_success)


def broken_if_asked(*, extender_server=None) -> ReferenceBackend:
    """Broken while $SCC_BROKEN is set: the same backend name in a failing and a passing run."""
    return broken(extender_server=extender_server) if os.environ.get("SCC_BROKEN") else ReferenceBackend()


class BrokenOnce:
    """Double-binds until the first time that shows, then binds correctly: Hypothesis' replay of the
    failing scenario passes (a race that struck once)."""

    name = "broken-once"
    capabilities = ReferenceBackend.capabilities
    kubernetes_version = ReferenceBackend.kubernetes_version

    def __init__(self, *, extender_server=None) -> None:
        self.broken, self.fixed, self.struck = broken(extender_server=extender_server), ReferenceBackend(), False

    def run(self, scenario):
        fixed = self.fixed.run(scenario)
        if self.struck:
            return fixed
        outcome = self.broken.run(scenario)
        self.struck = len(outcome.bindings) > len(fixed.bindings)
        return outcome

    def close(self) -> None:
        self.broken.close()
        self.fixed.close()


@pytest.fixture
def suite(pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)

    def run(backend: str, *args: str, invariants: tuple[str, ...] = (BROKEN, PASSING)):
        selected = [a for inv in invariants for a in ("--conformance-invariant", inv)]
        result = pytester.runpytest_subprocess("--pyargs", "conformance.suite", "-p", "no:cacheprovider",
                                               "--conformance-backend", f"python:{HERE}:{backend}", "--conformance-profile",
                                               "ci", "--conformance-max-examples", "5", *selected,
                                               f"--junitxml={pytester.path / 'junit.xml'}", *args)
        cases = {c.get("name"): c for c in ET.parse(pytester.path / "junit.xml").getroot().iter("testcase")}
        return result, cases
    return run


def _properties(case: ET.Element) -> dict[str, str]:
    return {p.get("name"): p.get("value") for p in case.iter("property")}


@pytest.mark.parametrize("workers", [(), ("-n", "2")], ids=["one-process", "xdist"])
def test_junit_message_id_and_properties(suite, workers):
    if workers:
        pytest.importorskip("xdist", reason="pytest-xdist is not installed (the dev extra has it)")
    result, cases = suite("broken", *workers)
    result.assert_outcomes(failed=1, passed=1)
    backend = f"python:{HERE}:broken"
    failed = cases[f"test_invariant[{backend}-{BROKEN}]"]
    failure = failed.find("failure")
    assert MESSAGE.fullmatch(failure.get("message")), failure.get("message")
    assert "Shrunk scenario" in failure.text and "Reproduce with:" in failure.text
    assert _properties(failed)["sched_conformance_id"] == BROKEN
    passed = _properties(cases[f"test_invariant[{backend}-{PASSING}]"])
    assert passed["sched_conformance_id"] == PASSING
    assert passed["sched_conformance_examples"] == "5" and passed["sched_conformance_exercised"].isdigit()
    result.stdout.fnmatch_lines(["checked on reference (2):", f"  {BROKEN}, {PASSING}",
                                 f"{PASSING}: exercised in */5 examples"])


def test_the_seed_and_blob_are_printed(suite):
    result, _ = suite("broken", invariants=(BROKEN,))
    result.stdout.fnmatch_lines(["Seed: * (derandomized: *", "Blob: @reproduce_failure('*', b'*')"])


def test_a_failure_that_does_not_replay_is_flaky_with_both_outcomes(suite):
    result, cases = suite("BrokenOnce", invariants=(BROKEN,))
    result.assert_outcomes(failed=1)
    failure = cases[f"test_invariant[python:{HERE}:BrokenOnce-{BROKEN}]"].find("failure")
    message = failure.get("message")
    assert message.startswith("FLAKY: ") and MESSAGE.fullmatch(message.removeprefix("FLAKY: ")), message
    assert re.search(r"Outcomes: the first run of this scenario: \[bound-at-most-once\] the pod was bound \d+ "
                     r"times\n +Hypothesis' replay of the same scenario: passed", failure.text), failure.text


def test_a_reproducer_is_removed_once_its_invariant_passes(suite, monkeypatch, pytester):
    reproducers = pytester.path / DEFAULT_REPRODUCERS
    suite("broken_if_asked", invariants=(BROKEN,))[0].assert_outcomes(passed=1)
    assert not reproducers.parent.exists(), "a pass creates no reproducer directory"
    monkeypatch.setenv("SCC_BROKEN", "1")
    suite("broken_if_asked", invariants=(BROKEN,))[0].assert_outcomes(failed=1)
    assert (reproducers / BROKEN / "meta.json").is_file()
    monkeypatch.delenv("SCC_BROKEN")
    suite("broken_if_asked", invariants=(BROKEN,))[0].assert_outcomes(passed=1)
    assert not (reproducers / BROKEN).exists()
