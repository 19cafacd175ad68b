"""The situations drawn to reach the reference's rarer branches (docs/coverage.md): pods that inter-pod affinity
or spreading turned down, then events their queueing hints read (`ConstrainedThenChanged`); the stock
plugins under users' configs (`StockConfigured`)."""

from __future__ import annotations

from collections import Counter

import pytest

from conformance.backends.reference import ReferenceBackend
from conformance.recipes.configured import LEFT_OUT, StockConfigured
from conformance.recipes.events import TOPOLOGY_KINDS, ConstrainedThenChanged
from reference.config import load_config
from reference.plugins.pod_topology_spread.filtering import ERR_REASON_CONSTRAINTS_NOT_MATCH
from reference.scenario import Scenario
from tests.generators.support import sample

# The plugin's reasons: "node(s) didn't match pod affinity rules", "... pod anti-affinity rules", "... existing
# pods anti-affinity rules"; "... pod topology spread constraints" (with or without a missing label).
REASONS = {"affinity": "affinity rules", "spread": ERR_REASON_CONSTRAINTS_NOT_MATCH}


@pytest.mark.parametrize("feature", sorted(REASONS))
def test_constrained_then_changed_turns_pods_down_then_changes_the_cluster(feature):
    drawn = sample(ConstrainedThenChanged(feature).strategy(), 30)
    turned_down = 0
    for sc in drawn:
        again = Scenario.from_dict(sc.to_dict())  # validates the timeline against the scenario
        assert again.timeline == sc.timeline and 1 <= len(sc.timeline) <= 2
        assert all(e["when"] != 0 for e in sc.timeline), sc.timeline  # after the first attempt
        assert all(not (c.get("resources") or {}) for p in sc.workload for c in p["spec"]["containers"])
        messages = [str((r.condition or {}).get("message", "")) for r in ReferenceBackend().run(sc).pods.values()
                    if r.phase == "unschedulable"]
        turned_down += any(REASONS[feature] in m for m in messages)
    # The hints are asked only of pods the plugin turned down: a fifth of the draws at least.
    assert turned_down >= 6, turned_down


def test_constrained_then_changed_draws_node_and_pod_events_and_checks_its_feature():
    drawn = sample(ConstrainedThenChanged("affinity").strategy(), 30)
    ops = Counter((e["op"], e.get("kind") or e["object"]["kind"]) for sc in drawn for e in sc.timeline)
    assert {kind for _, kind in ops} >= {"Node", "Pod"}, ops
    assert set(TOPOLOGY_KINDS) >= {"relabel-bound-pod", "add-bound-pod", "relabel-pod"}
    with pytest.raises(ValueError, match="feature='ports'"):
        ConstrainedThenChanged("ports").strategy()


def test_stock_configured_draws_scoring_strategies_and_points_left_out():
    drawn = sample(StockConfigured().strategy(), 40)
    strategies, left_out = Counter(), Counter()
    for sc in drawn:
        load_config(sc.config)
        (profile,) = sc.config["profiles"]
        (fit,) = profile["pluginConfig"]
        strategies[fit["args"]["scoringStrategy"]["type"]] += 1
        for point, plugins in (profile.get("plugins") or {}).items():
            (entry,) = plugins["disabled"]
            assert entry["name"] in LEFT_OUT[point]
            left_out[point] += 1
    assert len(strategies) == 3, strategies
    assert set(left_out) == set(LEFT_OUT) and sum(left_out.values()) < len(drawn), left_out  # some keep all
