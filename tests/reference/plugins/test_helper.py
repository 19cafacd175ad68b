"""Ports helper/normalize_score_test.go (TestDefaultNormalizeScore), and checks the Go integer
arithmetic of the helpers. Upstream tests BuildBrokenLinearFunction in
noderesources/requested_to_capacity_ratio_test.go (TestBrokenLinearFunction), ported in
test_requested_to_capacity_ratio.py.
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


def test_falling_segment_truncates_toward_zero_like_go():
    # 10 + (0-10)*(50-40)/(100-40) = 10 + (-100/60): Go gives -1, Python floor division -2.
    f = build_broken_linear_function([FunctionShapePoint(0, 2), FunctionShapePoint(40, 10), FunctionShapePoint(100, 0)])
    assert f(50) == 9


@pytest.mark.parametrize("a,b,q", [(7, 2, 3), (-7, 2, -3), (7, -2, -3), (-7, -2, 3), (0, 5, 0)])
def test_go_div(a, b, q):
    assert go_div(a, b) == q
