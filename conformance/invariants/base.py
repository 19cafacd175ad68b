"""The invariant registry: each invariant has an ID, a one-line statement and its upstream source.

Checks are plain functions `check(ctx)` over a `Run` (scenario + outcome + derived facts). They
raise `Violation` and are idempotent, because Hypothesis re-runs them while shrinking.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from ..core.errors import ConformanceError


class Violation(ConformanceError, AssertionError):
    """A broken promise: which invariant, what was expected, what happened, and who is responsible."""

    def __init__(self, invariant: str, message: str, *, expected: Any = None, actual: Any = None,
                 pod: str = "", plugin: str = "", status: str = "", records: tuple = ()) -> None:
        self.invariant = invariant
        self.expected = expected
        self.actual = actual
        self.pod = pod
        self.plugin = plugin
        self.status = status
        self.records = records
        parts = [f"[{invariant}] {message}"]
        if pod:
            parts.append(f"  pod: {pod}")
        if plugin or status:
            parts.append(f"  responsible: {plugin or '?'}{' returned ' + status if status else ''}")
        if expected is not None or actual is not None:
            parts.append(f"  expected: {expected!r}")
            parts.append(f"  actual:   {actual!r}")
        for r in records[:12]:
            parts.append(f"  trace: {_fmt_record(r)}")
        super().__init__("\n".join(parts))


def _fmt_record(r: dict) -> str:
    keys = ("seq", "t", "attempt", "plugin", "point", "node", "code", "reasons", "score", "scores", "timeout")
    return " ".join(f"{k}={r[k]}" for k in keys if k in r)


@dataclass(frozen=True)
class Invariant:
    """A rule checked over a `Run`, with its search recipe: `situation` (a strategy-maker the search draws
    about half its examples from, `conformance.recipes`), `focus` (options of `generators.scenarios()` for
    the other half; None: its theme's) and the rules of the coverage matrix it checks."""

    id: str
    statement: str
    source: str
    fn: Callable[[Any], None]
    requires: frozenset[str] = frozenset()
    theme: str = ""
    situation: Any = None
    focus: Mapping[str, Any] | None = None
    rules: tuple[str, ...] = ()

    def check(self, run: Any) -> None:
        """Raise the Violation `fn` finds in `run`; `run.violation(...)` names this invariant meanwhile."""
        with run.checking(self.id):
            self.fn(run)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "statement": self.statement, "source": self.source,
                "capabilities": sorted(self.requires), "theme": self.theme}


REGISTRY: dict[str, Invariant] = {}


def invariant(id: str, statement: str, source: str, *, requires: tuple[str, ...] = ("probes",),
              situation: Any = None, focus: Mapping[str, Any] | None = None, rules: tuple[str, ...] = ()):
    """Register `check(run)` under `id`; `requires` names the backend capabilities it needs; `situation`,
    `focus` and `rules` as `Invariant` says. The theme is the module's name."""
    def register(fn: Callable[[Any], None]) -> Callable[[Any], None]:
        if id in REGISTRY:
            raise ValueError(f"invariant {id!r} is registered twice")
        theme = fn.__module__.rsplit(".", 1)[-1]
        REGISTRY[id] = Invariant(id, statement, source, fn, frozenset(requires), theme, situation, focus,
                                 tuple(rules))
        return fn
    return register


__all__ = ["Invariant", "REGISTRY", "Violation", "invariant"]
