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


def count(draw: Draw, low: int, high: int) -> int:
    """An integer in [low, high], uniformly; shrinks towards `low`.

    Hypothesis's `integers()` draws the lower bound of a small range about half the time;
    counts of nodes, pods and probes want every value about equally often.
    """
    return pick(draw, range(low, high + 1))


_STOP = object()


@st.composite
def _element(draw: Draw, build: Callable[[Draw], Any], more: int, required: bool) -> Any:
    # The flag is drawn for required elements too (and ignored), so that every element has the
    # same shape [flag, element]: deleting one element's span slides the next one into its place.
    wanted = draw(flag(more))
    return build(draw) if wanted or required else _STOP


@st.composite
def _span(draw: Draw, build: Callable[[Draw], Any]) -> Any:
    return build(draw)


def together(draw: Draw, build: Callable[[Draw], T]) -> T:
    """`build(draw)` as one span of the choice sequence.

    Draw what a choice enables right after that choice and together: the shrinker can then undo
    the choice and delete everything it enabled in one step, instead of leaving those choices to
    be misread by later draws.
    """
    return draw(_span(build))


def optional(draw: Draw, percent: int, build: Callable[[Draw], T]) -> T | None:
    """`build(draw)` (drawn `together`) in about `percent`% of draws, else None; shrinks towards None."""
    return together(draw, build) if draw(flag(percent)) else None


def elements(draw: Draw, low: int, high: int, build: Callable[[Draw, int], T | None], *,
             more: int = 60) -> list[T]:
    """`low` to `high` elements, `build(draw, index)` each; past `low`, each comes only if a
    flag (about `more`%) says so. `build` may return None to leave an element out.

    Like `st.lists`, each element is one span of the choice sequence, so the shrinker deletes any
    element by deleting its span. A length drawn up front would have to shrink together with the
    elements' choices, which the shrinker rarely manages.
    """
    out: list[T] = []
    for index in range(high):
        value = draw(_element(lambda d: build(d, index), more, index < low))
        if value is _STOP:
            break
        if value is not None:
            out.append(value)
    return out


def keyed(draw: Draw, keys: Sequence[str], build: Callable[[Draw], T], *, more: int = 40) -> dict[str, T]:
    """A non-empty map from some of `keys` to `build(draw)` values, each key drawn `together` with its
    value so that shrinking drops or re-keys an entry whole."""
    def entry(draw: Draw, i: int) -> tuple[str, T]:
        return pick(draw, keys), build(draw)
    return dict(elements(draw, 1, len(keys), entry, more=more))


def pick(draw: Draw, pool: Sequence[T]) -> T:
    """One element of `pool`; shrinks towards the first."""
    return draw(st.sampled_from(tuple(pool)))


__all__ = ["Draw", "Manifest", "count", "elements", "flag", "keyed", "optional", "pick", "subset", "together"]
