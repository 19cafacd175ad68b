"""`minimal(strategy, condition)`: the simplest example Hypothesis finds and shrinks to, as in
Hypothesis's own shrink-quality tests (tests/common/debug.py)."""

from __future__ import annotations

from typing import Callable, TypeVar

from hypothesis import HealthCheck, Phase, find, settings
from hypothesis.strategies import SearchStrategy

T = TypeVar("T")


def minimal(strategy: SearchStrategy[T], condition: Callable[[T], bool], *, max_examples: int = 500) -> T:
    """The shrunk example satisfying `condition`; raises hypothesis.errors.NoSuchExample if none is found.

    Derandomized, so a shrink result is the same on every run and machine.
    """
    return find(strategy, condition, settings=settings(
        max_examples=max_examples, derandomize=True, database=None, deadline=None,
        phases=[Phase.generate, Phase.shrink],
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]))


__all__ = ["minimal"]
