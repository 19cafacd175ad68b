"""The one search loop: shrinks, derandomizes by the search's name, and reports a failure that does not replay
as flaky with the last failure seen."""

from __future__ import annotations

import zlib

import pytest
from hypothesis import given, reproduce_failure
from hypothesis import strategies as st

from conformance.search import run_search
from conformance.search.profiles import EXAMPLE_DB_ENV


def test_a_failure_shrinks_to_the_smallest_example():
    found = run_search(st.integers(0, 1000), lambda x: _fail_if(x >= 17), key="shrinks", profile="ci")
    assert found is not None and found.example == 17 and not found.flaky
    assert isinstance(found.error, AssertionError)


def test_no_failure_is_none():
    assert run_search(st.integers(), lambda x: None, key="passes", profile="ci", max_examples=10) is None


def test_the_ci_examples_follow_the_name_of_the_search():
    def drawn(key: str) -> list[int]:
        seen: list[int] = []
        run_search(st.integers(0, 10**9), seen.append, key=key, profile="ci", max_examples=10)
        return seen
    assert drawn("one") == drawn("one")
    assert drawn("one") != drawn("two")


def test_a_failure_that_does_not_replay_is_flaky_with_the_last_failure():
    calls: list[int] = []

    def once(x: int) -> None:
        calls.append(x)
        _fail_if(len(calls) == 3)
    found = run_search(st.integers(0, 10), once, key="flaky", profile="ci", max_examples=20)
    assert found is not None and found.flaky
    assert found.example == calls[2] and found.examples == 3
    assert found.replay.replayed == "passed", "the replay's outcome is reported beside the failure"


def test_a_replay_that_fails_differently_is_named():
    calls: list[int] = []

    def changing(x: int) -> None:
        calls.append(x)
        if len(calls) == 3:
            raise AssertionError("counterexample")
        if len(calls) > 3:
            raise AssertionError("something else\nmore")
    found = run_search(st.integers(0, 10), changing, key="flaky", profile="ci", max_examples=20)
    assert found is not None and found.flaky and found.replay.replayed == "something else"


def test_a_failure_carries_its_seed_and_a_blob_that_reproduces_it():
    strategy = st.lists(st.integers(0, 1000))
    found = run_search(strategy, lambda xs: _fail_if(sum(xs) >= 17), key="blob", profile="ci")
    assert found is not None and not found.flaky and found.replay.replayed is None
    assert found.replay.seed == zlib.crc32(b"blob") and found.replay.derandomized
    assert found.replay.blob.startswith("@reproduce_failure(")
    version, blob = eval(found.replay.blob.removeprefix("@reproduce_failure"))  # as a person pastes it
    seen: list[list[int]] = []

    @reproduce_failure(version, blob)
    @given(strategy)
    def again(xs: list[int]) -> None:
        seen.append(xs)
        _fail_if(sum(xs) >= 17)
    with pytest.raises(AssertionError):
        again()
    assert seen == [found.example]


def test_a_random_profile_reports_the_seed_it_drew():
    found = run_search(st.integers(0, 1000), lambda x: _fail_if(x >= 17), key="random", profile="dev",
                       database=None)
    assert found is not None and isinstance(found.replay.seed, int) and not found.replay.derandomized


def test_the_suites_profiles_ignore_the_profile_hypothesis_loaded_for_the_environment():
    # Hypothesis loads its derandomized "ci" profile whenever $CI is set: dev must stay random there.
    from hypothesis import settings
    from conformance.search.profiles import for_profile
    loaded = settings._current_profile
    settings.load_profile("ci")
    try:
        assert not for_profile("dev").derandomize and not for_profile("thorough").derandomize
        assert for_profile("ci").derandomize
    finally:
        settings.load_profile(loaded or "default")


def test_only_the_failure_type_is_a_counterexample():
    class Broken(Exception):
        pass

    def crash(x: int) -> None:
        raise Broken
    with pytest.raises(Broken):  # a crash of the check is not a counterexample
        run_search(st.integers(), crash, key="crash", profile="ci", failure=AssertionError, max_examples=5)


def test_examples_replayed_while_shrinking_are_not_searching():
    searching: list[bool] = []
    run_search(st.integers(0, 1000), lambda x: _fail_if(x >= 17), key="shrinks", profile="ci",
               on_example=lambda x, s: searching.append(s))
    first_failure = searching.index(False)
    assert all(searching[:first_failure]) and not any(searching[first_failure:])


def test_a_kept_example_database_keeps_the_ci_sample(tmp_path, monkeypatch):
    def drawn() -> list[int]:
        seen: list[int] = []
        run_search(st.integers(0, 10**9), seen.append, key="kept", profile="ci", max_examples=20)
        return seen
    without = drawn()
    monkeypatch.setenv(EXAMPLE_DB_ENV, str(tmp_path / "db"))
    assert drawn() == without


def test_a_kept_example_database_replays_the_last_failure_first(tmp_path, monkeypatch):
    monkeypatch.setenv(EXAMPLE_DB_ENV, str(tmp_path / "db"))
    def rare(x: int) -> None:
        _fail_if(x % 97 == 13)
    first = run_search(st.integers(0, 10**6), rare, key="replays", profile="ci")
    assert first is not None and first.examples > 1
    again = run_search(st.integers(0, 10**6), rare, key="replays", profile="ci")
    assert again is not None and again.example == first.example and again.examples == 1
    monkeypatch.delenv(EXAMPLE_DB_ENV)  # without the database, the ci sample searches from the start again
    fresh = run_search(st.integers(0, 10**6), rare, key="replays", profile="ci")
    assert fresh is not None and fresh.examples == first.examples


def _fail_if(condition: bool) -> None:
    if condition:
        raise AssertionError("counterexample")


def test_the_printed_seed_replays_a_random_search(monkeypatch):
    from hypothesis import core  # what `pytest --hypothesis-seed=N` sets

    def drawn() -> tuple[int, list[int]]:
        seen: list[int] = []
        found = run_search(st.integers(0, 10**9), lambda x: (seen.append(x), _fail_if(len(seen) == 5)), key="seeded",
                           profile="dev", database=None, shrink=False)
        return found.replay.seed, seen[:5]
    seed, first = drawn()
    monkeypatch.setattr(core, "global_force_seed", seed)
    assert drawn() == (seed, first)
