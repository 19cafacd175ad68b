"""The situations drawn to reach the reference's rarer branches (docs/coverage.md): pods that inter-pod
affinity or spreading turned down, then events their queueing hints read (`HeldByTopology`); the stock
plugins under users' configs (`StockConfigured`)."""

from __future__ import annotations

from collections import Counter


from conformance.backends.reference import ReferenceBackend
from conformance.recipes.configured import LEFT_OUT, StockConfigured
from conformance.recipes.held import HOLDS, TOPOLOGY_KINDS, HeldByTopology
from generators._timeline import KINDS
from reference.config import load_config
from reference.plugins.pod_topology_spread.filtering import ERR_REASON_CONSTRAINTS_NOT_MATCH
from reference.scenario import Scenario
from tests.generators.support import sample

# The plugins' reasons: "node(s) didn't match pod affinity rules", "... pod anti-affinity rules",
# "... existing pods anti-affinity rules"; "... pod topology spread constraints" (with or without a missing
# label).
REASONS = ("affinity rules", ERR_REASON_CONSTRAINTS_NOT_MATCH)


def test_held_by_topology_turns_pods_down_by_each_hold_then_changes_the_cluster():
    drawn = sample(HeldByTopology().strategy(), 40)
    kinds, held = Counter(), 0
    for sc in drawn:
        again = Scenario.from_dict(sc.to_dict())  # validates the timeline against the scenario
        assert again.timeline == sc.timeline and 1 <= len(sc.timeline) <= 2
        assert all(e["when"] != 0 for e in sc.timeline), sc.timeline  # after the first attempt
        kinds.update((e["op"], e.get("kind") or e["object"]["kind"]) for e in sc.timeline)
        outcome = ReferenceBackend().run(Scenario.from_dict({**sc.to_dict(), "timeline": []}))
        messages = [str((r.condition or {}).get("message", "")) for r in outcome.pods.values()]
        # Without the events, the hold alone turns every workload pod down.
        assert messages and all(any(reason in m for reason in REASONS) for m in messages), messages
        held += 1
    assert held == len(drawn)
    assert {kind for _, kind in kinds} >= {"Node", "Pod"} and ("create", "Node") in kinds, kinds


def test_the_kinds_drawn_are_timeline_kinds_with_the_opt_in_pod_events():
    assert set(TOPOLOGY_KINDS) <= set(KINDS) and set(TOPOLOGY_KINDS) >= {"relabel-bound-pod", "add-bound-pod",
                                                                          "relabel-pod"}
    assert HOLDS[0] == "anti-affinity"  # the simplest: a bound pod repels the workload pod


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
