"""Ports helper/normalize_score_test.go (TestDefaultNormalizeScore) and TestBrokenLinearFunction.

Upstream has no helper/shape_score_test.go in v1.37.1: BuildBrokenLinearFunction is tested in
noderesources/requested_to_capacity_ratio_test.go (TestBrokenLinearFunction), ported here whole.
"""

import pytest

from reference.interfaces import MAX_NODE_SCORE, NodeScore
from reference.plugins.helper import (
    FunctionShapePoint,
    build_broken_linear_function,
    default_normalize_score,
    go_div,
)


@pytest.mark.parametrize("reverse,scores,expected", [
    pytest.param(False, [1, 2, 3, 4], [25, 50, 75, 100], id="case_0"),
    pytest.param(True, [1, 2, 3, 4], [75, 50, 25, 0], id="case_1"),
    pytest.param(False, [1000, 10, 20, 30], [100, 1, 2, 3], id="case_2"),
    pytest.param(True, [1000, 10, 20, 30], [0, 99, 98, 97], id="case_3"),
    pytest.param(False, [1, 1, 1, 1], [100, 100, 100, 100], id="case_4"),
    pytest.param(False, [1000, 1, 1, 1], [100, 0, 0, 0], id="case_5"),
    pytest.param(True, [0, 1, 1, 1], [100, 0, 0, 0], id="case_6"),
    pytest.param(False, [0, 0, 0, 0], [0, 0, 0, 0], id="case_7"),
    pytest.param(True, [0, 0, 0, 0], [100, 100, 100, 100], id="case_8"),
])
def test_default_normalize_score(reverse, scores, expected):
    node_scores = [NodeScore(f"n{i}", s) for i, s in enumerate(scores)]
    status = default_normalize_score(MAX_NODE_SCORE, reverse, node_scores)
    assert status.is_success()
    assert [s.score for s in node_scores] == expected


_SHAPE_0 = [(10, 1), (90, 9)]
_SHAPE_1 = [(0, 2), (40, 10), (100, 0)]
_SHAPE_2 = [(0, 2), (40, 2), (100, 2)]


@pytest.mark.parametrize("points,p,expected", [
    *[pytest.param(_SHAPE_0, p, e, id=f"case_0-p={p}") for p, e in [
        (-10, 1), (0, 1), (9, 1), (10, 1), (15, 1), (19, 1), (20, 2), (89, 8), (90, 9), (99, 9), (100, 9),
        (110, 9)]],
    *[pytest.param(_SHAPE_1, p, e, id=f"case_1-p={p}") for p, e in [
        (-10, 2), (0, 2), (20, 6), (30, 8), (40, 10), (70, 5), (100, 0), (110, 0)]],
    *[pytest.param(_SHAPE_2, p, e, id=f"case_2-p={p}") for p, e in [
        (-10, 2), (0, 2), (20, 2), (30, 2), (40, 2), (70, 2), (100, 2), (110, 2)]],
])
def test_broken_linear_function(points, p, expected):
    f = build_broken_linear_function([FunctionShapePoint(u, s) for u, s in points])
    assert f(p) == expected


def test_falling_segment_truncates_toward_zero_like_go():
    # 10 + (0-10)*(50-40)/(100-40) = 10 + (-100/60): Go gives -1, Python floor division -2.
    f = build_broken_linear_function([FunctionShapePoint(0, 2), FunctionShapePoint(40, 10), FunctionShapePoint(100, 0)])
    assert f(50) == 9


@pytest.mark.parametrize("a,b,q", [(7, 2, 3), (-7, 2, -3), (7, -2, -3), (-7, -2, 3), (0, 5, 0)])
def test_go_div(a, b, q):
    assert go_div(a, b) == q
