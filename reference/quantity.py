"""Kubernetes quantities as integers, rounded like apimachinery's `Quantity.Value`/`MilliValue` (up)."""

from __future__ import annotations

import math
from decimal import Decimal, InvalidOperation

from kubernetes.utils import parse_quantity

from .errors import ManifestError

CPU = "cpu"
MEMORY = "memory"
EPHEMERAL_STORAGE = "ephemeral-storage"
PODS = "pods"


def _decimal(value: object, what: str) -> Decimal:
    try:
        return parse_quantity(value)
    except (ValueError, InvalidOperation, TypeError):
        raise ManifestError(
            f"{what}: {value!r} is not a Kubernetes quantity; use forms such as '500m', '2', '1Gi'"
        ) from None


def milli_value(value: object, what: str = "quantity") -> int:
    """`Quantity.MilliValue()`: value x 1000, rounded up."""
    return math.ceil(_decimal(value, what) * 1000)


def int_value(value: object, what: str = "quantity") -> int:
    """`Quantity.Value()`: rounded up to an integer."""
    return math.ceil(_decimal(value, what))


def resource_value(name: str, value: object, what: str = "quantity") -> int:
    """The integer the scheduler uses for `name`: milli-CPU for cpu, whole units otherwise."""
    return milli_value(value, what) if name == CPU else int_value(value, what)


def format_resource(name: str, value: int) -> str:
    """Inverse of `resource_value`, in canonical form."""
    return f"{value}m" if name == CPU else str(value)
