"""The ci profile draws the same examples for every invariant as when they were pinned, and the differential
repeats its examples exactly: refactoring the search (its engine, the recipes, where they are declared)
must not reshuffle what CI checks, and a reshuffle must be a decision (regenerate with `--regenerate`).

Regenerate: `python tests/conformance/test_ci_examples.py --regenerate`."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import hypothesis
import pytest

from conformance.backends.reference import ReferenceBackend
from conformance.differential import find_disagreement, scenarios_for
from conformance.invariants import REGISTRY
from conformance.search import find_violation

PINNED = Path(__file__).parent / "data" / "ci_examples.json"


class _Recording:
    """A backend that remembers the digest of every scenario it runs."""

    def __init__(self) -> None:
        self.inner = ReferenceBackend()
        self.name, self.capabilities = self.inner.name, self.inner.capabilities
        self.seen: list[str] = []

    def run(self, scenario):
        self.seen.append(hashlib.sha256(scenario.to_json(indent=None).encode()).hexdigest()[:16])
        return self.inner.run(scenario)


def first_examples(invariant_id: str, count: int) -> list[str]:
    backend = _Recording()
    find_violation(backend, REGISTRY[invariant_id], profile="ci", max_examples=count, shrink=False)
    return backend.seen


def _pinned() -> dict:
    return json.loads(PINNED.read_text())


def test_the_pinned_hypothesis_is_installed():
    # The examples depend on the Hypothesis version (pyproject.toml pins it for the dev extra).
    assert hypothesis.__version__ == _pinned()["hypothesis"]


def test_every_invariant_is_pinned():
    assert sorted(_pinned()["digests"]) == sorted(REGISTRY)


@pytest.mark.parametrize("invariant_id", sorted(REGISTRY))
def test_the_ci_profile_draws_the_pinned_examples(invariant_id):
    pinned = _pinned()
    assert first_examples(invariant_id, pinned["examples"]) == pinned["digests"][invariant_id]


def test_the_differential_repeats_its_examples():
    def drawn() -> list[str]:
        a, b = _Recording(), _Recording()
        assert find_disagreement(a, b, scenarios_for(extenders=False), profile="ci", max_examples=6) is None
        assert a.seen == b.seen
        return a.seen
    first = drawn()
    assert len(first) == 6 and drawn() == first


if __name__ == "__main__" and sys.argv[1:] == ["--regenerate"]:
    count = 8
    PINNED.write_text(json.dumps({"hypothesis": hypothesis.__version__, "examples": count,
                                  "digests": {i: first_examples(i, count) for i in sorted(REGISTRY)}},
                                 indent=1, sort_keys=True) + "\n")
