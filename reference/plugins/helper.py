"""Mirrors pkg/scheduler/framework/plugins/helper/normalize_score.go and helper/shape_score.go."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from ..interfaces import NodeScore
from ..status import SUCCESS, Status


def go_div(a: int, b: int) -> int:
    """Go's int64 `/`: truncates toward zero (Python's `//` floors)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def default_normalize_score(max_priority: int, reverse: bool, scores: list[NodeScore]) -> Status:
    """Scale scores from [0, max(scores)] to [0, max_priority] in place; `reverse` flips them.

    With every score 0 (or below), scores stay as they are unless `reverse`, which sets them all
    to `max_priority`.
    """
    max_count = max((s.score for s in scores if s.score > 0), default=0)
    if max_count == 0:
        if reverse:
            for s in scores:
                s.score = max_priority
        return SUCCESS
    for s in scores:
        score = go_div(max_priority * s.score, max_count)
        s.score = max_priority - score if reverse else score
    return SUCCESS


@dataclass(frozen=True)
class FunctionShapePoint:
    utilization: int
    score: int


FunctionShape = Sequence[FunctionShapePoint]


def build_broken_linear_function(shape: FunctionShape) -> Callable[[int], int]:
    """A piecewise-linear function through `shape`, flat before the first and after the last point.

    Interpolation uses Go integer division (toward zero), so a falling segment rounds up.
    """
    points = tuple(shape)

    def f(p: int) -> int:
        for i, point in enumerate(points):
            if p <= point.utilization:
                if i == 0:
                    return points[0].score
                prev = points[i - 1]
                return prev.score + go_div((point.score - prev.score) * (p - prev.utilization),
                                           point.utilization - prev.utilization)
        return points[-1].score

    return f


__all__ = [
    "FunctionShape",
    "FunctionShapePoint",
    "build_broken_linear_function",
    "default_normalize_score",
    "go_div",
]
