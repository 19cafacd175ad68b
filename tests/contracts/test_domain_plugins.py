"""Plugins broken only in their own world (tests/contracts/brokenplugins/domain.go): on their own label value,
their own extended resource, past a table bound indexed by a parsed label, on nodes of more than 16 cores.
check-plugin catches each with no domain table: the vocabulary comes from the plugins' sources (and the node
sizes from the generators' real magnitudes); with the stock vocabulary alone the first three pass."""

from __future__ import annotations

import pytest

from conformance.contracts import REGISTRY, find_violation
from conformance.contracts.inputs import _Vocabulary, use_domain

from .conftest import needs_go

pytestmark = needs_go

CAUGHT_BY = {"BrokenGoldTier": "score-normalized-range", "BrokenFreeQAT": "score-normalized-range",
             "BrokenSlotTable": "plugin-no-panic", "BrokenBigNode": "score-normalized-range"}
OWN_WORLD_ONLY = ("BrokenGoldTier", "BrokenFreeQAT", "BrokenSlotTable")


def test_the_vocabulary_is_read_from_the_plugins_sources(broken):
    domain = broken.own.domain()
    assert "gold" in domain.labels["example.com/tier"]
    assert {"4", "5"} <= set(domain.labels["example.com/slot"])  # around len(slotWeights)
    assert "example.com/qat" in domain.resources


@pytest.mark.parametrize("plugin", sorted(CAUGHT_BY))
def test_a_plugin_broken_in_its_own_world_is_caught(broken, plugin):
    prop = REGISTRY[CAUGHT_BY[plugin]]
    failure = find_violation(broken.driver(plugin), prop, profile="ci", max_examples=100, shrink_seconds=5)
    assert failure is not None, f"{prop.id} let {plugin} through"
    assert failure.violation.property_id == prop.id and plugin in failure.violation.message


@pytest.fixture
def stock_vocabulary(broken):
    kept = _Vocabulary.domain
    use_domain(None)
    yield broken
    use_domain(kept)


@pytest.mark.parametrize("plugin", OWN_WORLD_ONLY)
def test_the_stock_vocabulary_alone_misses_it(stock_vocabulary, plugin):
    prop = REGISTRY[CAUGHT_BY[plugin]]
    assert find_violation(stock_vocabulary.driver(plugin), prop, profile="ci", max_examples=100) is None
