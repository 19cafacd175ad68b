"""Shared settings and a deterministic sampler for the generator tests."""

from __future__ import annotations

from typing import TypeVar

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.strategies import SearchStrategy

from conformance.search.hypothesis_internals import repeatable

T = TypeVar("T")

# Derandomized: the same examples every run, so a failure here is reproducible as is.
FAST = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def sample(strategy: SearchStrategy[T], n: int) -> list[T]:
    """`n` examples of `strategy`, the same ones every run and whatever the session has imported (generation
    only, no shrinking)."""
    out: list[T] = []

    @settings(FAST, max_examples=n, phases=[Phase.generate])
    @given(strategy)
    def collect(value: T) -> None:
        out.append(value)

    with repeatable():  # Hypothesis would mix in constants from every local module loaded so far
        collect()
    return out


__all__ = ["FAST", "sample"]
