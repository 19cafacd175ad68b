"""`--conformance-max-examples N` runs N examples per test instead of the profile's; a bad N is a usage error."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conformance.backends.reference import ReferenceBackend

pytest_plugins = ["pytester"]
ROOT = Path(__file__).resolve().parents[2]


class CountingBackend(ReferenceBackend):
    """The reference, appending one line to $SCC_COUNT_FILE per scenario run."""

    def run(self, scenario):
        with open(os.environ["SCC_COUNT_FILE"], "a") as out:
            out.write("x\n")
        return super().run(scenario)


def counting(*, extender_server=None) -> CountingBackend:
    return CountingBackend(extender_server=extender_server)


def _suite(pytester, monkeypatch, *args: str):
    count = pytester.path / "count.txt"
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.setenv("SCC_COUNT_FILE", str(count))
    result = pytester.runpytest_subprocess("--pyargs", "conformance.suite", "-p", "no:cacheprovider",
                                           "--conformance-backend", f"python:{__name__}:counting",
                                           "--conformance-invariant",
                                           "bound-at-most-once", "-k", "invariant", *args)
    return result, (len(count.read_text().splitlines()) if count.exists() else 0)


def test_the_cap_replaces_the_profiles_example_count(pytester, monkeypatch):
    result, runs = _suite(pytester, monkeypatch, "--conformance-profile", "ci", "--conformance-max-examples", "3")
    result.assert_outcomes(passed=1)
    assert runs == 3


def test_without_the_cap_the_profile_decides(pytester, monkeypatch):
    result, runs = _suite(pytester, monkeypatch, "--conformance-profile", "dev")
    result.assert_outcomes(passed=1)
    assert runs == 30


@pytest.mark.parametrize("bad", ["0", "-2", "many"])
def test_a_bad_cap_is_a_one_line_usage_error(pytester, monkeypatch, bad):
    result, _ = _suite(pytester, monkeypatch, "--conformance-max-examples", bad)
    assert result.ret != 0
    result.stderr.fnmatch_lines([f"*--conformance-max-examples {bad!r}: use a whole number of at least 1*"])
