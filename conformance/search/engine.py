"""The one search loop: Hypothesis draws examples, a check raises on a counterexample, the failure shrinks.

Invariants (one backend), the differential (two backends), plugin contracts (one plugin) and the upgrade
diff's scenario list all search through `run_search`; it alone sets the seed, the example-database key,
the shrink budget and the guard against run-dependent draws, and treats a failure that does not replay
one way: the last failure seen stands, marked flaky.
"""

from __future__ import annotations

import time
import zlib
from dataclasses import dataclass
from typing import Any, Callable, Generic, TypeVar

from hypothesis import Phase, given, settings
from hypothesis.errors import Flaky
from hypothesis.strategies import SearchStrategy

from .hypothesis_internals import failing_blob, repeatable, search_seed, seeded, shrink_budget
from .profiles import example_database, for_profile

T = TypeVar("T")

# Shrinking a scenario re-runs it thousands of times; these bound the wait for the smallest one.
SHRINK_SECONDS = {"dev": 60.0, "ci": 60.0, "thorough": 300.0, "mutation": 1.0}


@dataclass(frozen=True)
class Replay:
    """How the search's failure can be drawn again: `seed` replays the whole search (`--hypothesis-seed`; a
    `derandomized` profile's comes from the search's name, the same in every run), `blob` is Hypothesis'
    `@reproduce_failure(...)` for the failing example alone. `replayed`, for a flaky failure: what Hypothesis'
    replay of the example saw ("passed", or the first line of what it raised)."""

    seed: int | str | None = None
    derandomized: bool = False
    blob: str | None = None
    replayed: str | None = None


@dataclass
class Found(Generic[T]):
    """A counterexample: the (shrunk) example and what `check` raised on it; `examples` and `seconds` until
    the first failure, `shrink_seconds` after it. `flaky`: the failure did not show again when Hypothesis
    replayed its example (a data race, timing), so the last failure seen stands, unshrunk."""

    example: T
    error: BaseException
    examples: int
    seconds: float
    shrink_seconds: float
    flaky: bool = False
    replay: Replay = Replay()


def run_search(strategy: SearchStrategy[T], check: Callable[[T], None], *, key: str, profile: str = "ci",
               failure: type[BaseException] | tuple[type[BaseException], ...] = AssertionError,
               shrink: bool = True, shrink_seconds: float | None = None, max_examples: int | None = None,
               phases: tuple[Phase, ...] | None = None, database: Any = ...,
               on_example: Callable[[T, bool], None] | None = None) -> Found[T] | None:
    """Search `strategy` for an example on which `check` raises `failure`, and shrink it.

    `key` names the search: derandomized profiles seed from it (so an edit to the caller does not reshuffle
    the ci sample) and Hypothesis' example database keys its saved failures by it (so two searches never
    replay each other's). `on_example(example, searching)` sees every example before it is checked;
    `searching` is False once a failure was found (shrinking replays examples). Returns None when every
    example of the profile (or the first `max_examples`) passes."""
    base = for_profile(profile)
    if phases is None:
        phases = base.phases if shrink else tuple(p for p in base.phases if p is not Phase.shrink)
    options: dict[str, Any] = {"report_multiple_bugs": False, "phases": phases,
                               "max_examples": max_examples or base.max_examples}
    if database is ... and (kept := example_database()) is not None:  # --example-db, else the profile's
        database = kept
        if base.derandomize:
            # Hypothesis refuses a database with derandomize; the seed below (which wins over derandomize's
            # own) keeps the ci sample the same, and saved failures now replay before it.
            options["derandomize"] = False
    if database is not ...:
        options["database"] = database
    state: dict[str, Any] = {"examples": 0}

    @settings(base, **options)
    @given(strategy)
    def search(example: T) -> None:
        searching = "detected" not in state
        if searching:
            state["examples"] += 1
        if on_example is not None:
            on_example(example, searching)
        state["replayed"] = "passed"
        try:
            check(example)
        except failure as error:
            state.setdefault("detected", (state["examples"], time.perf_counter() - start))
            state["last"] = (example, error)
            state["blob"] = failing_blob()
            state["replayed"] = _first_line(error)
            raise
        except Exception as error:
            state["replayed"] = _first_line(error)
            raise

    # `search` is the same function for every caller: Hypothesis keys its database by the test's source, and
    # its pytest plugin tells parametrized tests apart through this same attribute.
    search.hypothesis.inner_test._hypothesis_internal_add_digest = key.encode()
    if base.derandomize:
        # Hypothesis would derive the seed from the source of `search`, which any edit would reshuffle.
        search = seeded(search, zlib.crc32(key.encode()), options.get("database"))
    start = time.perf_counter()
    try:
        with repeatable(), shrink_budget(shrink_seconds or SHRINK_SECONDS[profile]):
            search()
    except failure as error:
        return _found(state, state["last"][0], error, start,
                      Replay(search_seed(search), base.derandomize, state.get("blob")))
    except Flaky:
        if "last" not in state:
            raise
        # The last example run is Hypothesis' replay of the failing one: its outcome is the other half of the story.
        replay = Replay(search_seed(search), base.derandomize, state.get("blob"), state["replayed"])
        return _found(state, *state["last"], start, replay)
    return None


def _found(state: dict[str, Any], example: Any, error: BaseException, start: float, replay: Replay) -> Found:
    examples, seconds = state["detected"]
    return Found(example, error, examples, seconds, time.perf_counter() - start - seconds,
                 replay.replayed is not None, replay)


def _first_line(error: BaseException) -> str:
    return (str(error).splitlines() or [type(error).__name__])[0]


__all__ = ["Found", "Replay", "SHRINK_SECONDS", "run_search"]
