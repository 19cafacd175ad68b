"""`minimal(strategy, condition)`: the simplest example Hypothesis finds and shrinks to, as in
Hypothesis's own shrink-quality tests (tests/common/debug.py)."""

from __future__ import annotations

from typing import Callable, TypeVar

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis.database import InMemoryExampleDatabase
from hypothesis.strategies import SearchStrategy

from conformance.search.hypothesis_internals import repeatable

T = TypeVar("T")


class _Found(Exception):
    pass


def minimal(strategy: SearchStrategy[T], condition: Callable[[T], bool], *, max_examples: int = 500,
            rounds: int = 1) -> T:
    """The shrunk example satisfying `condition`; AssertionError if none is found.

    Seeded, so a result is the same on every run. Hypothesis's shrinker gives up after a couple of
    hundred calls without progress; `rounds` > 1 does what a user re-running a failing test does:
    replay the best example from the example database and shrink it again, until a round
    changes nothing.
    """
    satisfying: list[T] = []

    @seed(0)
    @settings(max_examples=max_examples, database=InMemoryExampleDatabase(), deadline=None,
              phases=[Phase.reuse, Phase.generate, Phase.shrink], report_multiple_bugs=False,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                     HealthCheck.filter_too_much])
    @given(strategy)
    def search(value: T) -> None:
        if condition(value):
            satisfying.append(value)
            raise _Found

    best: T | None = None
    for _ in range(rounds):
        try:
            with repeatable():  # the same examples whatever modules the session has imported
                search()
        except _Found:
            pass
        assert satisfying, f"no example of {strategy!r} satisfies the condition"
        if best is not None and repr(satisfying[-1]) == repr(best):
            break
        best = satisfying[-1]  # Hypothesis replays the shrunk example last
    return best


__all__ = ["minimal"]
