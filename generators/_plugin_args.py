"""pluginConfig args for the in-tree plugins, inside the ranges upstream validation accepts
(pkg/scheduler/apis/config/validation/validation_pluginargs.go)."""

from __future__ import annotations

from typing import Callable

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from reference.quantity import CPU, MEMORY

from ._draw import Draw, Manifest, flag, pick, subset
from ._node_terms import draw_node_affinity
from ._pod_terms import WHEN_UNSATISFIABLE
from .pools import GPU, TOPOLOGY_KEYS

_RESOURCES = (CPU, MEMORY, GPU)


def _fit(draw: Draw) -> Manifest:
    strategy_type = pick(draw, ("LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"))
    strategy: Manifest = {"type": strategy_type}
    if draw(flag(50)):
        # validateResources: weights in (0, 100].
        strategy["resources"] = [{"name": r, "weight": pick(draw, (1, 2, 5, 100))}
                                 for r in subset(draw, _RESOURCES, min_size=1, max_size=3)]
    if strategy_type == "RequestedToCapacityRatio":
        # validateFunctionShape: strictly increasing utilization in [0, 100], score in [0, 10].
        utilizations = sorted(subset(draw, (0, 50, 100), min_size=1, max_size=3))
        strategy["requestedToCapacityRatio"] = {
            "shape": [{"utilization": u, "score": pick(draw, (0, 10, 5))} for u in utilizations]}
    args: Manifest = {"scoringStrategy": strategy}
    if draw(flag(15)):
        args["ignoredResources"] = [GPU]
    if draw(flag(10)):
        args["ignoredResourceGroups"] = ["example.com"]
    return args


def _balanced(draw: Draw) -> Manifest:
    # ValidateNodeResourcesBalancedAllocationArgs: every weight must be 1.
    return {"resources": [{"name": r, "weight": 1} for r in subset(draw, _RESOURCES, min_size=1, max_size=3)]}


def _inter_pod_affinity(draw: Draw) -> Manifest:
    return {"hardPodAffinityWeight": pick(draw, (1, 0, 50, 100)),
            "ignorePreferredTermsOfExistingPods": draw(st.booleans())}


def _spread(draw: Draw) -> Manifest:
    if draw(flag(30)):
        return {"defaultingType": "System"}
    constraints: list[Manifest] = []
    for key in subset(draw, TOPOLOGY_KEYS, max_size=2):
        # ValidatePodTopologySpreadArgs: no selector, unique (topologyKey, whenUnsatisfiable).
        constraints.append({"maxSkew": pick(draw, (1, 3, 5)), "topologyKey": key,
                            "whenUnsatisfiable": pick(draw, WHEN_UNSATISFIABLE)})
    args: Manifest = {"defaultingType": "List"}
    if constraints:
        args["defaultConstraints"] = constraints
    return args


def _preemption(draw: Draw, *, some_candidates: bool = False) -> Manifest:
    # ValidateDefaultPreemptionArgs: percentage in [0, 100], absolute >= 0, not both zero.
    # An absolute of 0 with a small percentage leaves small clusters no candidate node at all.
    percentage = pick(draw, (10, 0, 50, 100))
    absolute = pick(draw, (100, 1, 0) if percentage and not some_candidates else (100, 1))
    return {"minCandidateNodesPercentage": percentage, "minCandidateNodesAbsolute": absolute}


def _node_affinity(draw: Draw) -> Manifest:
    return {"addedAffinity": draw_node_affinity(draw)}


ARGS: dict[str, Callable[[Draw], Manifest]] = {
    "NodeResourcesFit": _fit,
    "PodTopologySpread": _spread,
    "InterPodAffinity": _inter_pod_affinity,
    "DefaultPreemption": _preemption,
    "NodeResourcesBalancedAllocation": _balanced,
    "NodeAffinity": _node_affinity,
}


def draw_plugin_config(draw: Draw, *, preemption: bool = False, max_size: int = 2) -> list[Manifest]:
    """pluginConfig entries (each plugin at most once) with valid args; with `preemption`, only
    args that cannot stop a preemption (no addedAffinity, at least one candidate node)."""
    names = [n for n in ARGS if not (preemption and n == "NodeAffinity")]
    out = []
    for name in subset(draw, names, max_size=max_size):
        if preemption and name == "DefaultPreemption":
            args = _preemption(draw, some_candidates=True)
        else:
            args = ARGS[name](draw)
        out.append({"name": name, "args": args})
    return out


def plugin_args(name: str) -> SearchStrategy[Manifest]:
    """Args for the in-tree plugin `name` (a key of ARGS) that upstream validation accepts. Shrinks towards
    each plugin's first choices (NodeResourcesFit: LeastAllocated over the default resources)."""
    if name not in ARGS:
        raise ValueError(f"plugin_args({name!r}): no args are drawn for it; use one of {', '.join(ARGS)}")
    return st.composite(lambda draw: ARGS[name](draw))()


__all__ = ["ARGS", "draw_plugin_config", "plugin_args"]
