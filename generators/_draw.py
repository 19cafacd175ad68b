"""Drawing helpers the strategies share: weighted flags, uniform picks, and the shapes (optional
values, element lists, keyed maps) that keep the choice sequence easy to shrink."""

from __future__ import annotations

import threading
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


_STOP, _SKIP, _KEEP = object(), object(), object()


@lru_cache(maxsize=None)
def _decisions(more: int) -> SearchStrategy[object]:
    """Per element slot: stop the list, skip the slot, or keep an element, in that order of
    simplicity. A skipped element is still drawn (and thrown away), so lowering a keep to a skip
    removes that element and leaves every later choice where it was: the shrinker can drop the
    first of several pods as easily as the last."""
    keep = more * _SLOTS // 100
    return st.sampled_from((_STOP,) * (_SLOTS - keep - 1) + (_SKIP,) + (_KEEP,) * keep)


class _Pending(threading.local):
    """The arguments of the shared span strategies' draws in progress, innermost last.

    A composite strategy built per call (`_span(build)`) costs three times the draw it wraps
    (Hypothesis builds and validates each instance); one instance per kind of span, told what
    to build through this stack, gives the same spans for the cost of the draw."""

    def __init__(self) -> None:
        self.args: list[tuple] = []


_pending = _Pending()


def _shared(draw: Draw, strategy: SearchStrategy[T], *args: Any) -> T:
    _pending.args.append(args)
    try:
        return draw(strategy)
    finally:
        _pending.args.pop()


@st.composite
def _element_span(draw: Draw) -> Any:
    build, more = _pending.args[-1]
    decision = draw(_decisions(more))
    if decision is _STOP:
        return _STOP
    value = build(draw)
    return value if decision is _KEEP else _SKIP


@st.composite
def _build_span(draw: Draw) -> Any:
    (build,) = _pending.args[-1]
    return build(draw)


_ELEMENT, _SPAN = _element_span(), _build_span()


def together(draw: Draw, build: Callable[[Draw], T]) -> T:
    """`build(draw)` as one span of the choice sequence.

    Draw what a choice enables right after that choice and together: the shrinker can then undo
    the choice and delete everything it enabled in one step, instead of leaving those choices to
    be misread by later draws.
    """
    return _shared(draw, _SPAN, build)


def optional(draw: Draw, percent: int, build: Callable[[Draw], T]) -> T | None:
    """`build(draw)` (drawn `together`) in about `percent`% of draws, else None; shrinks towards None."""
    return together(draw, build) if draw(flag(percent)) else None


def elements(draw: Draw, low: int, high: int, build: Callable[[Draw, int], T | None], *,
             more: int = 60, kept: Callable[[T], None] | None = None) -> list[T]:
    """`low` to `high` elements, `build(draw, index)` each (index: the element's position); past
    `low`, each comes only if a flag (about `more`%) says so. `build` may return None to leave an
    element out. `build` must not change shared state, as a skipped element is built too: do that
    in `kept(element)`, called for each element kept, before the next one is built.

    Each element is one span of the choice sequence, behind its own decision, so the shrinker
    removes any element, first or last, by lowering that decision (see `_decisions`); a length
    drawn up front would have to shrink together with the elements' choices, which the shrinker
    rarely manages. The elements `low` requires are drawn after the optional ones, with no
    decision: the simplest list is "stop at once" followed by the required elements' choices,
    which is exactly what stopping before the first kept element leaves behind.
    """
    if not 0 <= low <= high or not 0 < more <= 90:
        raise ValueError(f"elements(low={low!r}, high={high!r}, more={more!r}): need 0 <= low <= high, 0 < more <= 90")
    out: list[T] = []
    for _ in range(high):
        value = _shared(draw, _ELEMENT, lambda d: build(d, len(out)), more)
        if value is _STOP:
            break
        if value is not _SKIP and value is not None:
            out.append(value)
            if kept is not None:
                kept(value)
            if len(out) == high:
                break
    while len(out) < low:
        value = together(draw, lambda d: build(d, len(out)))
        if value is None:
            raise ValueError(f"elements(low={low}): build left out required element {len(out)}; "
                             "required elements must always be built")
        out.append(value)
        if kept is not None:
            kept(value)
    return out


def keyed(draw: Draw, keys: Sequence[str], build: Callable[[Draw], T], *, more: int = 40) -> dict[str, T]:
    """A non-empty map from some of `keys` to `build(draw)` values, each key drawn `together` with its
    value so that shrinking drops or re-keys an entry whole."""
    def entry(draw: Draw, i: int) -> tuple[str, T]:
        return pick(draw, keys), build(draw)
    return dict(elements(draw, 1, len(keys), entry, more=more))


@lru_cache(maxsize=4096)
def _sampled(pool: tuple, types: tuple) -> SearchStrategy[Any]:
    # `types` is part of the key only: (0, 1) and (False, True) are equal tuples, but not the same pool.
    return st.sampled_from(pool)


def pick(draw: Draw, pool: Sequence[T]) -> T:
    """One element of `pool`; shrinks towards the first."""
    pool = tuple(pool)
    try:
        strategy = _sampled(pool, tuple(map(type, pool)))  # one built per draw costs more than the draw
    except TypeError:  # unhashable elements (manifests)
        strategy = st.sampled_from(pool)
    return draw(strategy)


__all__ = ["Draw", "Manifest", "count", "elements", "flag", "keyed", "optional", "pick", "subset", "together"]
