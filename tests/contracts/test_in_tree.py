"""The in-tree plugins of the pinned release keep every contract property that applies to them (stock build)."""

from __future__ import annotations

import pytest

from conformance.contracts import REGISTRY, Tally, find_violation

from .conftest import needs_go

pytestmark = needs_go

# A handful for CI: a QueueSort, Filter/Score plugins with and without PreFilterExtensions and ScoreExtensions.
PLUGINS = ("PrioritySort", "NodeResourcesFit", "TaintToleration", "InterPodAffinity")


def test_the_stock_profile_lists_the_default_plugins(stock):
    assert set(PLUGINS) <= set(stock.plugins())


@pytest.mark.parametrize("plugin", PLUGINS)
def test_the_in_tree_plugin_keeps_its_contracts(stock, plugin):
    driver = stock.driver(plugin)
    checked = []
    for prop in REGISTRY.values():
        if prop.race or not prop.applies(driver.points):
            continue
        tally = Tally()
        failure = find_violation(driver, prop, profile="ci", max_examples=50, tally=tally)
        assert failure is None, f"{plugin}: {failure.violation}"
        checked.append((prop.id, tally.exercised))
    assert checked, f"no property applies to {plugin}"
    assert any(exercised for _, exercised in checked), checked
