"""The rule coverage matrix: every rule has an entry, invariants name only known rules, and docs/coverage.md is
current."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from conformance.commands import coverage_document
from conformance.invariants import REGISTRY
from conformance.invariants.coverage import RULES, Rule, checked_by, problems, render

DOC = Path(__file__).resolve().parents[2] / "docs" / "coverage.md"


def test_every_rule_has_an_entry_and_invariants_name_known_rules() -> None:
    assert problems(REGISTRY) == []


def test_a_rules_invariants_are_derived_from_their_declarations() -> None:
    checks = checked_by(REGISTRY)
    assert checks["unreserve-all-reverse"] == ["observed-unreserve-reverse-order", "unreserve-reverse-order"]
    assert all(rule_id in REGISTRY[i].rules for rule_id, ids in checks.items() for i in ids)


def test_a_rule_without_an_entry_is_reported() -> None:
    bare = Rule("bare", "§2.3", "a rule", "framework.go")
    assert any("'bare' has no entry" in p for p in problems(REGISTRY) + _problems_with(bare))


def test_an_unknown_rule_named_by_an_invariant_is_reported() -> None:
    rule_id, (only,) = next((r, ids) for r, ids in checked_by(REGISTRY).items() if len(ids) == 1)
    inv = REGISTRY[only]
    typo = rule_id[:-1]
    found = problems({**REGISTRY, only: replace(inv, rules=tuple(typo if r == rule_id else r for r in inv.rules))})
    assert f"invariant {only!r} names unknown rule {typo!r}" in found
    assert f"rule {rule_id!r} has no entry" in " ".join(found)


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
