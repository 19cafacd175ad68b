"""The rule coverage matrix: every rule has an entry, names only known invariants, and docs/coverage.md is current."""

from __future__ import annotations

from pathlib import Path

from conformance.commands import coverage_document
from conformance.invariants import REGISTRY
from conformance.invariants.coverage import RULES, Rule, problems, render

DOC = Path(__file__).resolve().parents[2] / "docs" / "coverage.md"


def test_every_rule_has_an_entry_and_names_known_invariants() -> None:
    assert problems(REGISTRY) == []


def test_a_rule_without_an_entry_is_reported() -> None:
    bare = Rule("bare", "§2.3", "a rule", "framework.go")
    assert any("'bare' has no entry" in p for p in problems(REGISTRY) + _problems_with(bare))


def test_an_unknown_invariant_is_reported() -> None:
    wrong = Rule("wrong", "§2.3", "a rule", "framework.go", ("no-such-invariant",))
    assert any("unknown invariant 'no-such-invariant'" in p for p in _problems_with(wrong))


def test_docs_coverage_is_rendered_from_the_matrix() -> None:
    text = DOC.read_text()
    assert coverage_document(text) == text, "docs/coverage.md is stale: run " \
        "`sched-conformance invariants --coverage --output docs/coverage.md`"


def test_render_counts_rules() -> None:
    assert f"{len(RULES)} rules:" in render(REGISTRY)


def _problems_with(rule: Rule) -> list[str]:
    import conformance.invariants.coverage as coverage
    saved = coverage.RULES
    coverage.RULES = (*saved, rule)
    try:
        return coverage.problems(REGISTRY)
    finally:
        coverage.RULES = saved
