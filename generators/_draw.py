"""Drawing helpers the strategies share: weighted flags and small unique subsets."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, Sequence, TypeVar

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

T = TypeVar("T")
Draw = Callable[[SearchStrategy[Any]], Any]
Manifest = dict[str, Any]

_SLOTS = 20


@lru_cache(maxsize=None)
def flag(percent: int) -> SearchStrategy[bool]:
    """True in about `percent`% of draws (5% steps); shrinks towards False.

    `st.booleans()` is 50/50; most optional features should be rarer than that, or every
    generated pod would carry every feature and nothing would ever schedule.
    """
    if not 0 <= percent <= 100 or percent % (100 // _SLOTS):
        raise ValueError(f"flag({percent!r}): use a multiple of 5 between 0 and 100")
    true = percent * _SLOTS // 100
    return st.sampled_from((False,) * (_SLOTS - true) + (True,) * true)


@lru_cache(maxsize=None)
def _subsets(pool: tuple, min_size: int, max_size: int) -> SearchStrategy[list]:
    return st.lists(st.sampled_from(pool), min_size=min_size, max_size=max_size, unique=True)


def subset(draw: Draw, pool: Sequence[T], *, max_size: int, min_size: int = 0) -> list[T]:
    """Distinct elements of `pool`, in drawn order; shrinks towards the first `min_size` elements."""
    pool = tuple(pool)
    max_size = min(max_size, len(pool))
    if max_size <= 0:
        return []
    return draw(_subsets(pool, min(min_size, max_size), max_size))


def pick(draw: Draw, pool: Sequence[T]) -> T:
    """One element of `pool`; shrinks towards the first."""
    return draw(st.sampled_from(tuple(pool)))


__all__ = ["Draw", "Manifest", "flag", "pick", "subset"]
