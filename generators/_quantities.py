"""`quantities()` and `resource_lists()`: resource amounts as the API writes them, in every common format.

Amounts are drawn as integers in the scheduler's units (milli-CPU, bytes, counts) over the range of real
machines: from half a core to 192 cores, from 1 GiB to terabytes of memory, up to 16 GPUs. Each draw picks
a magnitude first: today's small pools (simplest, and most often), any amount in their range, pools of real
large sizes, or (nodes) any amount up to the largest; pooled amounts collide often, so requests land exactly
on allocatable. Then one exact spelling is drawn, as users write it ("1", "250m", "1.5", "512Mi", "1.5Gi",
"1Ti", "1073741824", "500M", ...).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Collection, Mapping

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from reference.quantity import CPU, MEMORY, PODS

from ._draw import Draw, pick
from .pools import GI, GPU, MI, TI

RESOURCES = (CPU, MEMORY, GPU)


@dataclass(frozen=True)
class Magnitudes:
    """The amounts of one resource: `small`, the pool shrinking ends in (its first element the simplest);
    `large`, real large sizes; any multiple of one of `units` (the first the simplest) up to `near` (the
    small sizes' range) or up to `top` (the largest real machines')."""

    small: tuple[int, ...]
    large: tuple[int, ...]
    near: int
    top: int
    units: tuple[int, ...] = (1,)


# Pod-side amounts; the largest exceed the biggest node on purpose (a request that fits nowhere).
AMOUNTS: Mapping[str, Magnitudes] = {
    CPU: Magnitudes((0, 100, 250, 500, 1000, 2000, 4000, 16000),
                    (1500, 8000, 32000, 64000, 96000, 192000, 256000), 16000, 256000),
    MEMORY: Magnitudes((0, 64 * MI, 128 * MI, 256 * MI, 512 * MI, GI, 4 * GI, 32 * GI),
                       (1536 * MI, 16 * GI, 64 * GI, 256 * GI, TI, 2 * TI, 8 * TI), 32 * GI, 8 * TI, (MI, 1)),
    PODS: Magnitudes((0, 1, 2, 4, 110), (250, 512), 110, 512),
    GPU: Magnitudes((0, 1, 2, 4), (8, 16, 32), 8, 32),
}
# Node-side (allocatable) amounts, ample first (and most often) so that shrinking ends on a node everything
# fits on; up to the largest real machines (192 cores, 4 TiB, 512 pods, 16 GPUs).
CAPACITIES: Mapping[str, Magnitudes] = {
    CPU: Magnitudes((8000, 8000, 4000, 2000, 1000, 500),
                    (16000, 32000, 48000, 64000, 96000, 128000, 192000), 16000, 192000),
    MEMORY: Magnitudes((16 * GI, 16 * GI, 8 * GI, 4 * GI, 2 * GI, GI),
                       (32 * GI, 64 * GI, 128 * GI, 384 * GI, 768 * GI, TI, 1536 * GI, 2 * TI, 4 * TI), 32 * GI,
                       4 * TI, (MI, 1)),
    PODS: Magnitudes((110, 110, 110, 8, 4, 2, 1), (250, 256, 512), 110, 512),
    GPU: Magnitudes((4, 2, 1, 0), (8, 16), 8, 16),
}
# Which magnitude a draw takes, in 5% steps, simplest first: mostly the small sizes (pooled, or anywhere in
# their range), so that most pods fit most nodes; nodes reach real sizes more often than requests.
_REQUEST_TIERS = ("small",) * 16 + ("near",) * 3 + ("large",)
_NODE_TIERS = ("small",) * 15 + ("near",) * 2 + ("large",) * 2 + ("any",)
_BINARY = (("Ti", TI), ("Gi", GI), ("Mi", MI), ("Ki", 1024))
_DECIMAL = (("T", 10 ** 12), ("G", 10 ** 9), ("M", 10 ** 6), ("k", 1000))


def _cpu_spellings(value: int) -> list[str]:
    cores, milli = divmod(value, 1000)
    if not milli:
        return [str(cores), f"{value}m"]
    decimal = f"{cores}.{milli:03d}".rstrip("0")
    return [decimal, f"{value}m"] if value % 100 == 0 else [f"{value}m", decimal]


def _memory_spellings(value: int) -> list[str]:
    """Binary units largest first, halves of Gi and Ti too ("1.5Gi"), then decimal units, then bytes."""
    out = []
    for suffix, unit in _BINARY:
        if value and value % unit == 0:
            out.append(f"{value // unit}{suffix}")
        elif value > unit and (2 * value) % unit == 0 and unit >= GI:
            out.append(f"{value // unit}.5{suffix}")
    out += [f"{value // unit}{suffix}" for suffix, unit in _DECIMAL if value and value % unit == 0]
    return out + [str(value)]


def spellings(resource: str, value: int) -> list[str]:
    """Every spelling this module uses for `value` of `resource`, the plainest first."""
    if resource == CPU:
        return _cpu_spellings(value)
    if resource == MEMORY:
        return _memory_spellings(value)
    return [str(value)]


def draw_spelling(draw: Draw, resource: str, value: int) -> str:
    return pick(draw, spellings(resource, value))


@lru_cache(maxsize=None)
def _integers(top: int) -> SearchStrategy[int]:
    return st.integers(0, top)


def draw_amount(draw: Draw, resource: str, *, pool: Mapping[str, Magnitudes] = AMOUNTS,
                max_value: int | None = None) -> int:
    """An amount of `resource` up to `max_value` (default: the pool's top): from the small pool (usually),
    any in the small sizes' range, from the large pool, or (nodes) any up to the top; shrinks towards the
    small pool's first amount."""
    magnitudes = pool.get(resource, pool[PODS])
    top = magnitudes.top if max_value is None else max_value
    tier = pick(draw, _NODE_TIERS if pool is CAPACITIES else _REQUEST_TIERS)
    if tier in ("near", "any"):
        unit = pick(draw, magnitudes.units)
        return unit * draw(_integers(min(top, magnitudes.near if tier == "near" else top) // unit))
    small = tuple(v for v in magnitudes.small if v <= top) or (0,)
    large = tuple(v for v in magnitudes.large if v <= top) or small
    return pick(draw, small if tier == "small" else large)


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


__all__ = ["AMOUNTS", "CAPACITIES", "Magnitudes", "RESOURCES", "draw_amount", "draw_resource_list", "draw_spelling",
           "format_resource_list", "quantities", "resource_lists", "spellings"]
