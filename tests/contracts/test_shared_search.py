"""Properties of one strategy share their examples (search.find_violations): each still meets exactly the examples
it meets searched alone, a violation is shrunk for its property alone while the others go on, and one driver run
serves every property whose call sequence it starts with. Made-up properties on a fake driver (no Go)."""

from __future__ import annotations

import contextlib

from hypothesis import strategies as st

from conformance.contracts import ContractViolation, Property, SharedSearches, Tally, find_violation, find_violations


def numbers():
    return st.integers(0, 1000)


def letters():
    return st.sampled_from("abc")


class FakeDriver:
    """Answers each call with its `n`; counts the sequences it really ran and which were watched."""
    plugin, race, points = "Fake", False, frozenset({"filter"})

    def __init__(self) -> None:
        self.watch, self.runs = True, []

    @contextlib.contextmanager
    def watching(self, watch):
        before, self.watch = self.watch, watch
        yield self
        self.watch = before

    def run(self, calls):
        self.runs.append((len(calls), self.watch))
        return [{"code": "Success", "n": c["n"]} for c in calls]


def prop(pid, check, *, watch=False, strategy=numbers):
    return Property(pid, pid, "test", frozenset({"filter"}), strategy, check, watch=watch)


def sequence(length):
    def check(driver, n):
        results = driver.run([{"point": "filter", "n": n + i} for i in range(length)])
        assert [r["n"] for r in results] == [n + i for i in range(length)]
        return n % 2 == 0
    return check


def fails_from(limit):
    def check(driver, n):
        driver.run([{"point": "filter", "n": n}])
        if n >= limit:
            raise ContractViolation("fails-from", f"{n} >= {limit}", [])
        return True
    return check


PASSING = prop("even", sequence(1))
LONGER = prop("longer", sequence(3))
FAILING = prop("fails-from", fails_from(500))


def test_each_property_meets_the_examples_it_meets_alone():
    alone = {p.id: Tally() for p in (PASSING, LONGER)}
    for p in (PASSING, LONGER):
        assert find_violation(FakeDriver(), p, tally=alone[p.id]) is None
    shared: dict[str, Tally] = {}
    failures = find_violations(FakeDriver(), [PASSING, FAILING, LONGER], tallies=shared)
    assert set(failures) == {"fails-from"}
    for pid, tally in alone.items():
        assert (shared[pid].examples, shared[pid].exercised) == (tally.examples, tally.exercised), pid
        assert tally.examples == 100 and 0 < tally.exercised < 100


def test_a_violation_is_shrunk_for_its_property_alone():
    failure = find_violations(FakeDriver(), [PASSING, FAILING])["fails-from"]
    assert failure.prop is FAILING and failure.example == 500
    assert failure.violation.message == "500 >= 500"
    assert failure.examples == failure.tally.examples + 1  # the passing ones and the first failing, not the shrinking


def test_one_run_serves_every_sequence_it_starts_with():
    driver = FakeDriver()
    tallies: dict[str, Tally] = {}
    watched = prop("watched", sequence(3), watch=True)
    find_violations(driver, [PASSING, LONGER, watched], tallies=tallies)
    # the watched sequence runs first and answers both others: one run per example
    assert driver.runs == [(3, True)] * tallies["watched"].examples


def test_an_unwatched_run_does_not_serve_a_watched_sequence():
    driver = FakeDriver()
    tallies: dict[str, Tally] = {}
    find_violations(driver, [LONGER, prop("watched", sequence(1), watch=True)], tallies=tallies)
    assert driver.runs == [(1, True), (3, False)] * tallies["longer"].examples


def test_the_suite_runs_one_search_per_strategy():
    driver = FakeDriver()
    searches = SharedSearches()
    other = prop("letter", lambda d, x: bool(d.run([{"point": "filter", "n": 0}])), strategy=letters)
    checked = [PASSING, LONGER, other]
    assert searches.result(driver, PASSING, checked)[0] is None
    runs = len(driver.runs)
    failure, tally = searches.result(driver, LONGER, checked)
    assert failure is None and tally.examples == 100
    assert len(driver.runs) == runs, "LONGER's result came from the search PASSING started"
    searches.result(driver, other, checked)
    assert len(driver.runs) > runs, "another strategy searches on its own"
