"""Repeatable derandomized searches: the same examples whatever else the process has imported.

Hypothesis mixes constants it collects from the source of every *local* module loaded so far into
its draws (a 5% chance per integer, float or string choice). Which modules are loaded depends on
the test session (the cluster backend, the tests collected before, an editable install or not), so
a derandomized ci run drew different scenarios in different sessions: a bug caught on one machine
slipped through on another. While `repeatable()` is active Hypothesis sees no local constants,
only its own fixed global ones, so the examples depend on the Hypothesis version and the strategy
alone. These are Hypothesis internals (6.1xx); if they move, the guard does nothing and says so.
"""

from __future__ import annotations

import contextlib
import warnings
from typing import Any, Iterator

try:
    from hypothesis.internal.conjecture import providers as _providers
except ImportError:  # pragma: no cover - a Hypothesis without the providers module
    _providers = None


def _hooks_present() -> bool:
    return (_providers is not None and hasattr(_providers, "_get_local_constants")
            and hasattr(_providers, "Constants") and hasattr(_providers, "CONSTANTS_CACHE"))


def _no_local_constants():
    return _providers.Constants()


def _clear_constant_cache() -> None:
    cache = _providers.CONSTANTS_CACHE
    inner = getattr(cache, "cache", None)  # LRUCache keeps a per-thread OrderedDict
    (inner if inner is not None else cache).clear()


@contextlib.contextmanager
def repeatable() -> Iterator[None]:
    """Hide local-module constants from Hypothesis for the duration."""
    if not _hooks_present():
        warnings.warn("sched-conformance: this Hypothesis version moved its constant pool; derandomized runs "
                      "may differ between sessions", RuntimeWarning, stacklevel=3)
        yield
        return
    original = _providers._get_local_constants
    _providers._get_local_constants = _no_local_constants
    _clear_constant_cache()  # the cache holds the local constants allowed per draw shape
    try:
        yield
    finally:
        _providers._get_local_constants = original
        _clear_constant_cache()


@contextlib.contextmanager
def shrink_budget(seconds: float) -> Iterator[None]:
    """Stop shrinking after `seconds` (Hypothesis' own cap is 300 s, documented as monkeypatchable):
    the counterexample reported is the smallest found by then."""
    from hypothesis.internal.conjecture import engine
    original = engine.MAX_SHRINKING_SECONDS
    engine.MAX_SHRINKING_SECONDS = seconds
    try:
        yield
    finally:
        engine.MAX_SHRINKING_SECONDS = original


def seeded(test: Any, value: int, database: Any) -> Any:
    """`@seed(value)` on `test`, keeping `database`: Hypothesis' `seed` turns the example database off (a seeded
    run should repeat), but a kept database (--example-db) exists to replay the last failures before the
    seeded sample. Relies on `seed` storing the test's settings in `_hypothesis_internal_use_settings`."""
    from hypothesis import seed, settings
    test = seed(value)(test)
    if database is not None:
        current = getattr(test, "_hypothesis_internal_use_settings", None)
        if current is None:  # pragma: no cover - Hypothesis moved it
            warnings.warn("sched-conformance: this Hypothesis version stores settings elsewhere; --example-db "
                          "is not used in the ci profile", RuntimeWarning, stacklevel=2)
        else:
            test._hypothesis_internal_use_settings = settings(current, database=database)
    return test


def failing_blob() -> str | None:
    """Inside a test that just failed: Hypothesis' `@reproduce_failure(...)` for its example, as Hypothesis
    prints it with `print_blob` (the choices drawn so far are all the example's: `@given` draws before the
    test runs). None where Hypothesis moved these internals."""
    try:
        from hypothesis.control import current_build_context
        from hypothesis.core import reproduction_decorator
        return reproduction_decorator(current_build_context().data.choices)
    except Exception:  # noqa: BLE001 - only a note in the report; its absence must not hide the failure
        return None


def search_seed(test: object) -> int | str | None:
    """The seed a finished `@given` test ran with: its `@seed`, else `--hypothesis-seed`, else the one Hypothesis
    generated (with which `--hypothesis-seed` replays it)."""
    from hypothesis import core
    for value in (getattr(test, "_hypothesis_internal_use_seed", None), core.global_force_seed,
                  getattr(test, "_hypothesis_internal_use_generated_seed", None)):
        if value is not None:
            return value if isinstance(value, int) else str(value)
    return None


__all__ = ["failing_blob", "repeatable", "search_seed", "seeded", "shrink_budget"]
