"""Mirrors pkg/scheduler/framework/plugins/noderesources/least_allocated.go, most_allocated.go,
requested_to_capacity_ratio.go and the scorer of balanced_allocation.go.

Every scorer takes three per-resource lists in the order of the configured resources:
`requested` (node + pod), `allocated` (node only) and `allocatable`; a resource with
allocatable 0 is left out of the weighted average.
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

from ..interfaces import MAX_NODE_SCORE
from .helper import FunctionShapePoint, build_broken_linear_function, go_div
from .resource_args import MAX_CUSTOM_PRIORITY_SCORE, ResourceSpec, UtilizationShapePoint

Scorer = Callable[[Sequence[int], Sequence[int], Sequence[int]], int]

# requested_to_capacity_ratio.go `maxUtilization`.
MAX_UTILIZATION = 100


def least_requested_score(requested: int, capacity: int) -> int:
    """Unused capacity as a share of MAX_NODE_SCORE; 0 when over-committed."""
    if capacity == 0 or requested > capacity:
        return 0
    return go_div((capacity - requested) * MAX_NODE_SCORE, capacity)


def most_requested_score(requested: int, capacity: int) -> int:
    """Used capacity as a share of MAX_NODE_SCORE; requests above capacity (possible with the
    non-zero defaults) count as full."""
    if capacity == 0:
        return 0
    return go_div(min(requested, capacity) * MAX_NODE_SCORE, capacity)


def _weighted(resources: Sequence[ResourceSpec], per_resource: Callable[[int, int], int]) -> Scorer:
    def scorer(requested: Sequence[int], _allocated: Sequence[int], allocatable: Sequence[int]) -> int:
        node_score = weight_sum = 0
        for i, req in enumerate(requested):
            if allocatable[i] == 0:
                continue
            node_score += per_resource(req, allocatable[i]) * resources[i].weight
            weight_sum += resources[i].weight
        return go_div(node_score, weight_sum) if weight_sum else 0
    return scorer


def least_resource_scorer(resources: Sequence[ResourceSpec]) -> Scorer:
    return _weighted(resources, least_requested_score)


def most_resource_scorer(resources: Sequence[ResourceSpec]) -> Scorer:
    return _weighted(resources, most_requested_score)


def go_round(x: float) -> int:
    """Go's `math.Round`: halves round away from zero (Python's `round` goes to even)."""
    whole = math.floor(abs(x))
    if abs(x) - whole >= 0.5:
        whole += 1
    return int(math.copysign(whole, x))


def requested_to_capacity_ratio_scorer(resources: Sequence[ResourceSpec],
                                       shape: Sequence[UtilizationShapePoint]) -> Scorer:
    """Shape scores (0..10) are scaled to 0..MAX_NODE_SCORE; resources scoring 0 do not count
    towards the weights, and the average is rounded, not truncated."""
    scale = MAX_NODE_SCORE // MAX_CUSTOM_PRIORITY_SCORE
    raw = build_broken_linear_function(
        [FunctionShapePoint(p.utilization, p.score * scale) for p in shape])

    def resource_score(requested: int, capacity: int) -> int:
        if capacity == 0 or requested > capacity:
            return raw(MAX_UTILIZATION)
        return raw(go_div(requested * MAX_UTILIZATION, capacity))

    def scorer(requested: Sequence[int], _allocated: Sequence[int], allocatable: Sequence[int]) -> int:
        node_score = weight_sum = 0
        for i, req in enumerate(requested):
            if allocatable[i] == 0:
                continue
            score = resource_score(req, allocatable[i])
            if score > 0:
                node_score += score * resources[i].weight
                weight_sum += resources[i].weight
        return go_round(float(node_score) / float(weight_sum)) if weight_sum else 0

    return scorer


def balanced_resource_score(requested: Sequence[int], allocatable: Sequence[int]) -> int:
    """(1 - std of the usage fractions, each capped at 1) x MAX_NODE_SCORE, truncated.

    The float operations follow Go's order so the truncation lands on the same integer.
    """
    fractions = []
    total = 0.0
    for req, alloc in zip(requested, allocatable):
        if alloc == 0:
            continue
        fraction = min(float(req) / float(alloc), 1.0)
        total += fraction
        fractions.append(fraction)
    std = 0.0
    if len(fractions) == 2:
        std = abs((fractions[0] - fractions[1]) / 2)
    elif len(fractions) > 2:
        mean = total / float(len(fractions))
        acc = 0.0
        for fraction in fractions:
            acc = acc + (fraction - mean) * (fraction - mean)
        std = math.sqrt(acc / float(len(fractions)))
    return int((1 - std) * float(MAX_NODE_SCORE))


def balanced_resource_scorer(requested: Sequence[int], allocated: Sequence[int],
                             allocatable: Sequence[int]) -> int:
    """Scores the change in balance the pod brings: around 75 when small, towards 100 when the
    node gets more balanced, towards 50 when less."""
    with_pod = balanced_resource_score(requested, allocatable)
    without_pod = balanced_resource_score(allocated, allocatable)
    half = MAX_NODE_SCORE // 2
    return half + go_div(half + with_pod - without_pod, 2)


__all__ = [
    "MAX_UTILIZATION",
    "Scorer",
    "balanced_resource_score",
    "balanced_resource_scorer",
    "go_round",
    "least_requested_score",
    "least_resource_scorer",
    "most_requested_score",
    "most_resource_scorer",
    "requested_to_capacity_ratio_scorer",
]
