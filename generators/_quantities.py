"""`quantities()` and `resource_lists()`: resource amounts as the API writes them, in every common format.

Amounts are drawn as integers in the scheduler's units (milli-CPU, bytes, counts), mostly from
small pools so that requests land exactly on capacities, sometimes anywhere in range; then one
exact spelling is drawn ("1", "1000m", "1.5", "1Gi", "1073741824", "500M", ...).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Collection, Mapping

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from reference.quantity import CPU, MEMORY, PODS

from ._draw import Draw, flag, pick
from .pools import GI, GPU, MI

RESOURCES = (CPU, MEMORY, GPU)
# Pod-side amounts; the largest exceed the biggest node on purpose.
AMOUNTS: Mapping[str, tuple[int, ...]] = {
    CPU: (0, 100, 250, 500, 1000, 2000, 4000, 16000),
    MEMORY: (0, 64 * MI, 128 * MI, 256 * MI, 512 * MI, GI, 4 * GI, 32 * GI),
    PODS: (0, 1, 2, 4, 110),
    GPU: (0, 1, 2, 4),
}
# Node-side amounts, ample first (and most often) so that shrinking ends on a node everything fits on.
CAPACITIES: Mapping[str, tuple[int, ...]] = {
    CPU: (8000, 8000, 4000, 2000, 1000, 500),
    MEMORY: (16 * GI, 16 * GI, 8 * GI, 4 * GI, 2 * GI, GI),
    PODS: (110, 110, 110, 8, 4, 2, 1),
    GPU: (4, 2, 1, 0),
}
_UNIT = {CPU: 1, MEMORY: MI, PODS: 1, GPU: 1}  # off-pool amounts are multiples of this
_MAX = {CPU: 16000, MEMORY: 32 * GI, PODS: 110, GPU: 8}


def spellings(resource: str, value: int) -> list[str]:
    """Every spelling this module uses for `value` of `resource`, the plainest first."""
    if resource == CPU:
        out = [str(value // 1000)] if value % 1000 == 0 else []
        if value % 100 == 0 and value % 1000:
            out.append(f"{value / 1000:g}")
        return out + [f"{value}m"]
    if resource != MEMORY:
        return [str(value)]
    out = []
    for suffix, unit in (("Gi", GI), ("Mi", MI), ("Ki", 1024), ("G", 10 ** 9), ("M", 10 ** 6), ("k", 1000)):
        if value and value % unit == 0:
            out.append(f"{value // unit}{suffix}")
    return out + [str(value)]


def draw_spelling(draw: Draw, resource: str, value: int) -> str:
    return pick(draw, spellings(resource, value))


@lru_cache(maxsize=None)
def _integers(top: int) -> SearchStrategy[int]:
    return st.integers(0, top)


def draw_amount(draw: Draw, resource: str, *, pool: Mapping[str, tuple[int, ...]] = AMOUNTS,
                max_value: int | None = None) -> int:
    """An amount from the pool (usually) or any multiple of the resource's unit up to `max_value`."""
    top = _MAX.get(resource, 8) if max_value is None else max_value
    values = tuple(v for v in pool.get(resource, AMOUNTS[PODS]) if v <= top) or (0,)
    if draw(flag(10 if pool is CAPACITIES else 20)):
        unit = _UNIT.get(resource, 1)
        return unit * draw(_integers(top // unit))
    return pick(draw, values)


def _check_resource(resource: str, where: str) -> None:
    if resource not in (*RESOURCES, PODS):
        raise ValueError(f"{where}: unknown resource {resource!r}; use one of {', '.join((*RESOURCES, PODS))}")


def quantities(*, resource: str = CPU, max_value: int | None = None) -> SearchStrategy[str]:
    """Quantity strings for `resource` ("cpu" in milli-CPU, "memory" in bytes, "pods" and
    "example.com/gpu" as counts), at most `max_value` in those units.

    Shrinks towards "0".
    """
    _check_resource(resource, "quantities(resource=...)")
    if max_value is not None and max_value < 0:
        raise ValueError(f"quantities(max_value={max_value!r}): amounts cannot be negative; pass 0 or more")

    @st.composite
    def build(draw: Draw) -> str:
        return draw_spelling(draw, resource, draw_amount(draw, resource, max_value=max_value))
    return build()


def draw_resource_list(draw: Draw, resources: Collection[str]) -> dict[str, int]:
    """Integer amounts for a drawn subset of `resources` (each present with probability 1/2)."""
    return {name: draw_amount(draw, name) for name in resources if draw(st.booleans())}


def format_resource_list(draw: Draw, amounts: Mapping[str, int]) -> dict[str, str]:
    return {name: draw_spelling(draw, name, value) for name, value in amounts.items()}


def resource_lists(*, resources: Collection[str] = RESOURCES) -> SearchStrategy[dict[str, str]]:
    """Maps of resource name -> quantity string over a subset of `resources`.

    Shrinks towards {}.
    """
    resources = tuple(resources)
    for name in resources:
        _check_resource(name, "resource_lists(resources=...)")

    @st.composite
    def build(draw: Draw) -> dict[str, str]:
        return format_resource_list(draw, draw_resource_list(draw, resources))
    return build()


__all__ = ["AMOUNTS", "CAPACITIES", "RESOURCES", "draw_amount", "draw_resource_list", "draw_spelling",
           "format_resource_list", "quantities", "resource_lists", "spellings"]
