"""Each invariant carries its recipe where it is defined: the guards that keep those declarations real."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import conformance.invariants as invariants_package
from conformance.core.outcome import Outcome
from conformance.invariants import REGISTRY, Run
from conformance.recipes.focus import THEMES, scenario_options
from generators import scenarios
from reference.scenario import Scenario

INVARIANT_MODULES = sorted(p for p in Path(invariants_package.__file__).parent.glob("*.py")
                           if p.name not in ("__init__.py", "base.py", "run.py"))


@pytest.mark.parametrize("invariant_id", sorted(REGISTRY))
def test_the_focus_is_options_the_generators_take(invariant_id):
    inv = REGISTRY[invariant_id]
    scenarios(**scenario_options(inv)).validate()  # a misspelt option fails when the strategy is built
    if inv.situation is not None:
        assert callable(inv.situation.strategy)


def test_every_theme_with_options_has_invariants():
    themes = {inv.theme for inv in REGISTRY.values()}
    assert set(THEMES) <= themes, f"options for themes no invariant has: {sorted(set(THEMES) - themes)}"


@pytest.mark.parametrize("path", INVARIANT_MODULES, ids=lambda p: p.name)
def test_checks_name_their_violations_through_the_run(path):
    # `run.violation(...)` names the invariant being checked; a Violation built by hand could name another.
    built = [node.lineno for node in ast.walk(ast.parse(path.read_text()))
             if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Violation"]
    assert built == [], f"{path.name} builds Violation(...) by hand at lines {built}; raise run.violation(...)"


def test_a_violation_names_the_invariant_being_checked():
    run = Run(Scenario(), Outcome(backend="test", kubernetes_version="v1.37.2", pods={}))
    with run.checking("one"), run.checking("two"):
        assert run.violation("m").invariant == "two"
    with run.checking("one"):
        assert run.violation("m").invariant == "one"
