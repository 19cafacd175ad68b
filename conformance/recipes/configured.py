"""A situation for the stock plugins under the configs users write: NodeResourcesFit's scoring strategy drawn
(LeastAllocated, MostAllocated, RequestedToCapacityRatio shapes, weighted resources) over a constrained
cluster, and sometimes one stock plugin left out at PreFilter or PreScore only, so its Filter or Score runs
without the state those points write (upstream then reads it back as its PreScore would, or fails the
attempt with its "not found" error).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from generators import plugin_args
from reference.scenario import Scenario

from .constrained import Constrained

# Stock plugins whose Filter (AddPod, RemovePod) or Score reads what their PreFilter or PreScore wrote.
LEFT_OUT: dict[str, tuple[str, ...]] = {
    "preFilter": ("NodeResourcesFit", "NodePorts", "PodTopologySpread", "InterPodAffinity", "NodeAffinity"),
    "preScore": ("NodeResourcesFit", "NodeResourcesBalancedAllocation", "PodTopologySpread",
                 "InterPodAffinity", "TaintToleration", "NodeAffinity"),
}
# Clusters where those plugins decide: tight nodes and requests, required pod (anti-)affinity, spreading.
FEATURES = ("resources", "affinity", "spread")


@dataclass(frozen=True)
class StockConfigured:
    """`Constrained(feature)`'s cluster (a feature of FEATURES) on the default profile with a drawn
    NodeResourcesFit pluginConfig, and in some draws one plugin of `LEFT_OUT` disabled at
    that point only. Shrinks towards the resources cluster, LeastAllocated, and nothing left out.
    `weight`: shares of the search's draws (see search.py)."""

    weight: int = 2

    def strategy(self) -> SearchStrategy[Scenario]:
        return st.composite(self._draw)()

    def _draw(self, draw) -> Scenario:
        sc = draw(st.sampled_from(FEATURES).flatmap(lambda f: Constrained(f).strategy()))
        profile: dict = {"schedulerName": "default-scheduler",
                         "pluginConfig": [{"name": "NodeResourcesFit",
                                           "args": draw(plugin_args("NodeResourcesFit"))}]}
        if draw(st.integers(0, 2)) == 2:
            point = draw(st.sampled_from(tuple(LEFT_OUT)))
            profile["plugins"] = {point: {"disabled": [{"name": draw(st.sampled_from(LEFT_OUT[point]))}]}}
        config = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
                  "profiles": [profile]}
        return replace(sc, config=config)


__all__ = ["FEATURES", "LEFT_OUT", "StockConfigured"]
