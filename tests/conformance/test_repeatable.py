"""Derandomized searches draw the same scenarios whatever local modules the session has imported."""

from __future__ import annotations

import contextlib
import importlib
import sys

import pytest

from conformance import search
from conformance.search import engine
from conformance.backends.reference import ReferenceBackend
from conformance.invariants import REGISTRY

# Integers in no module of the project, in the range of quantity draws: once a module holding them
# is imported, Hypothesis (without the guard) draws some of them, and every later choice shifts.
NEW_CONSTANTS = "VALUES = (" + ", ".join(str(101 + 7 * i) for i in range(400)) + ")\n"
INVARIANT = REGISTRY["chosen-node-has-max-score"]


def _drawn(guarded: bool, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    if not guarded:
        monkeypatch.setattr(engine, "repeatable", contextlib.nullcontext)
    strategy = search.default_strategy(INVARIANT).map(lambda s: seen.append(s.to_json()) or s)
    assert search.find_violation(ReferenceBackend(), INVARIANT, strategy=strategy, shrink=False) is None
    monkeypatch.undo()
    return seen


def test_a_new_local_module_does_not_change_the_ci_examples(tmp_path, monkeypatch):
    guarded_before = _drawn(True, monkeypatch)
    unguarded_before = _drawn(False, monkeypatch)

    package = tmp_path / "localpkg"
    package.mkdir()
    (package / "many_constants.py").write_text(NEW_CONSTANTS)
    monkeypatch.syspath_prepend(str(package))
    module = importlib.import_module("many_constants")
    try:
        assert _drawn(True, monkeypatch) == guarded_before
        # Without the guard the same search draws other scenarios: the hazard the guard removes.
        assert _drawn(False, monkeypatch) != unguarded_before
    finally:
        sys.modules.pop(module.__name__, None)
