"""Typed field readers shared by the codec modules; errors name the manifest path."""

from __future__ import annotations

from typing import Any, Callable, Mapping, TypeVar

from .. import types as t
from ..errors import ManifestError
from ..quantity import format_resource, resource_value

T = TypeVar("T")
Manifest = dict[str, Any]


def get_field(obj: Mapping, key: str, kind: type, path: str, default: Any = None) -> Any:
    value = obj.get(key, default) if isinstance(obj, Mapping) else default
    if value is None:
        return default
    if kind is int and isinstance(value, bool):
        raise ManifestError(f"{path}.{key}: expected an integer, got {value!r}")
    if not isinstance(value, kind):
        expected = {int: "an integer", str: "a string", bool: "a boolean", list: "a list", dict: "a mapping"}[kind]
        raise ManifestError(f"{path}.{key}: expected {expected}, got {value!r}; fix the manifest field")
    return value


def get_list(obj: Mapping, key: str, path: str, read: Callable[[Mapping, str], T]) -> tuple[T, ...]:
    items = get_field(obj, key, list, path, [])
    return tuple(read(item, f"{path}.{key}[{i}]") for i, item in enumerate(items))


def get_strs(obj: Mapping, key: str, path: str) -> tuple[str, ...]:
    return tuple(str(v) for v in get_field(obj, key, list, path, []))


def get_str_map(obj: Mapping, key: str, path: str) -> dict[str, str]:
    return {str(k): str(v) for k, v in get_field(obj, key, dict, path, {}).items()}


def get_resources(obj: Mapping, key: str, path: str) -> dict[str, int]:
    return {
        name: resource_value(name, value, f"{path}.{key}.{name}")
        for name, value in get_field(obj, key, dict, path, {}).items()
    }


def drop_empty(d: dict[str, Any], keep: tuple[str, ...] = ()) -> dict[str, Any]:
    """Drop unset fields; `keep` names fields where an empty `{}` means something (a selector)."""
    return {k: v for k, v in d.items() if v is not None and (k in keep or v not in ("", [], {}, ()))}


def fmt_resources(resources: t.ResourceList) -> dict[str, str]:
    return {name: format_resource(name, v) for name, v in resources.items()}


def read_metadata(m: Mapping, kind: str) -> tuple[Mapping, str]:
    if not isinstance(m, Mapping):
        raise ManifestError(f"a {kind} manifest must be a mapping, got {type(m).__name__}")
    meta = get_field(m, "metadata", dict, kind, {})
    name = get_field(meta, "name", str, f"{kind}.metadata", "")
    if not name:
        raise ManifestError(f"{kind}.metadata.name is missing; every {kind} needs a name")
    return meta, name

