"""Mirrors the resource parts of pkg/scheduler/apis/config/validation/validation_pluginargs.go.

Shared by the NodeResourcesFit and NodeResourcesBalancedAllocation args: `ResourceSpec`, the
utilization shape and their v1 decoding. The field-error helpers of `reference.field_errors` are
re-exported for the plugin args modules that use them as `ra.invalid(...)`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence, TypeVar

from ..content import label_key_errors
from ..errors import ConfigError
from ..field_errors import (FieldError, child, duplicate, forbidden, index, invalid, not_supported, raise_if_any,
                            required)

T = TypeVar("T")

# pkg/scheduler/apis/config/types.go: shape scores are 0..MaxCustomPriorityScore.
MAX_CUSTOM_PRIORITY_SCORE = 10


@dataclass(frozen=True)
class ResourceSpec:
    name: str
    weight: int = 1

    def to_config(self) -> dict[str, Any]:
        return {"name": self.name, "weight": self.weight}


@dataclass(frozen=True)
class UtilizationShapePoint:
    utilization: int
    score: int

    def to_config(self) -> dict[str, Any]:
        return {"utilization": self.utilization, "score": self.score}


# v1 defaults.go `defaultResourceSpec`.
DEFAULT_RESOURCES = (ResourceSpec("cpu", 1), ResourceSpec("memory", 1))


def validate_label_name(value: str, path: str) -> list[FieldError]:
    """`metav1validation.ValidateLabelName`."""
    return [invalid(path, value, msg) for msg in label_key_errors(value)]


# --- shared validators ------------------------------------------------------------------------

def validate_resources(resources: Sequence[ResourceSpec], path: str) -> list[FieldError]:
    """`validateResources`: every weight in (0, 100]."""
    return [invalid(child(index(path, i), "weight"), r.weight,
                    f"resource weight of {r.name} not in valid range (0, 100]")
            for i, r in enumerate(resources) if r.weight <= 0 or r.weight > 100]


def validate_function_shape(shape: Sequence[UtilizationShapePoint], path: str) -> list[FieldError]:
    """`validateFunctionShape`: non-empty, strictly increasing utilization, values in range."""
    if not shape:
        return [required(path, "at least one point must be specified")]
    errs = []
    for i in range(1, len(shape)):
        if shape[i - 1].utilization >= shape[i].utilization:
            errs.append(invalid(child(index(path, i), "utilization"), shape[i].utilization,
                                "values must be sorted in increasing order"))
            break
    for i, point in enumerate(shape):
        if not 0 <= point.utilization <= 100:
            errs.append(invalid(child(index(path, i), "utilization"), point.utilization,
                                "not in valid range [0, 100]"))
        if not 0 <= point.score <= MAX_CUSTOM_PRIORITY_SCORE:
            errs.append(invalid(child(index(path, i), "score"), point.score,
                                f"not in valid range [0, {MAX_CUSTOM_PRIORITY_SCORE}]"))
    return errs


# --- v1 decoding -------------------------------------------------------------------------------

def fields(raw: Mapping[str, Any] | None, path: str, known: Iterable[str]) -> Mapping[str, Any]:
    """The mapping itself, rejecting unknown keys (the scheduler decodes its config strictly)."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise ConfigError(f"must be a mapping, got {type(raw).__name__} {raw!r}", field=path)
    allowed = set(known) | {"apiVersion", "kind"}
    for key in raw:
        if key not in allowed:
            raise ConfigError(f"unknown field {key!r}; known fields are {', '.join(sorted(allowed))}",
                              field=path)
    return raw


def typed(raw: Mapping[str, Any], key: str, kind: type, path: str, default: Any = None) -> Any:
    value = raw.get(key, default)
    if value is not None and (not isinstance(value, kind) or (kind is int and isinstance(value, bool))):
        raise ConfigError(f"must be {kind.__name__}, got {type(value).__name__} {value!r}", field=child(path, key))
    return value


def items(raw: Mapping[str, Any], key: str, path: str, read: Callable[[Any, str], T]) -> tuple[T, ...]:
    values = typed(raw, key, list, path) or []
    return tuple(read(v, index(child(path, key), i)) for i, v in enumerate(values))


def strings(raw: Mapping[str, Any], key: str, path: str) -> tuple[str, ...]:
    def read(v: Any, p: str) -> str:
        if not isinstance(v, str):
            raise ConfigError(f"must be a string, got {type(v).__name__} {v!r}", field=p)
        return v
    return items(raw, key, path, read)


def resource_spec(raw: Any, path: str) -> ResourceSpec:
    o = fields(raw, path, ("name", "weight"))
    return ResourceSpec(typed(o, "name", str, path, ""), typed(o, "weight", int, path, 0))


def shape_point(raw: Any, path: str) -> UtilizationShapePoint:
    o = fields(raw, path, ("utilization", "score"))
    return UtilizationShapePoint(typed(o, "utilization", int, path, 0), typed(o, "score", int, path, 0))


def default_weights(resources: Sequence[ResourceSpec]) -> tuple[ResourceSpec, ...]:
    """v1 defaulting: a weight left unset or set to 0 becomes 1."""
    return tuple(ResourceSpec(r.name, r.weight or 1) for r in resources)


__all__ = [
    "DEFAULT_RESOURCES",
    "FieldError",
    "MAX_CUSTOM_PRIORITY_SCORE",
    "ResourceSpec",
    "UtilizationShapePoint",
    "child",
    "default_weights",
    "duplicate",
    "fields",
    "forbidden",
    "index",
    "invalid",
    "items",
    "not_supported",
    "raise_if_any",
    "required",
    "resource_spec",
    "shape_point",
    "strings",
    "typed",
    "validate_function_shape",
    "validate_label_name",
    "validate_resources",
]
