"""The drawing helpers every generator builds on (generators/_draw.py)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from generators._draw import pick


@given(st.data())
def test_pick_keeps_each_pools_types_when_pools_are_equal(data):
    # pick caches one strategy per pool; (0, 1) and (False, True) are equal tuples and must not share one.
    number = data.draw(st.composite(lambda d: pick(d, (0, 1)))())
    boolean = data.draw(st.composite(lambda d: pick(d, (False, True)))())
    assert type(number) is int and type(boolean) is bool, (number, boolean)
