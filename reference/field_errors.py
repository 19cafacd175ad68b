"""Mirrors apimachinery/pkg/util/validation/field (errors.go) and pkg/util/errors (`Aggregate`), so an
error reads exactly like upstream's `Error()`: for config validation, plugin args and selector
parsing alike. Go's renderings of the bad values come from `reference.gofmt`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from .errors import ConfigError
from .gofmt import marshal, quote


class JSONString(str):
    """A Go value whose type is not `string` but that json.Marshal writes as a string (a named
    string type such as v1.ResourceName, a metav1.Duration): `ErrorBody` marshals it, not %q."""


def child(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def index(path: str, i: int) -> str:
    return f"{path}[{i}]"


def _bad_value(value: Any) -> str:
    """`ErrorBody`'s rendering: %v for bools and numbers, %q for strings, json.Marshal for the rest."""
    if isinstance(value, JSONString) or not isinstance(value, (bool, int, float, str)):
        return marshal(value).decode("utf-8")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    return quote(value)


@dataclass(frozen=True)
class FieldError:
    field: str
    body: str

    def __str__(self) -> str:
        return f"{self.field}: {self.body}"

    def to_config_error(self) -> ConfigError:
        return ConfigError(self.body, field=self.field)


def _with_detail(body: str, detail: str) -> str:
    return f"{body}: {detail}" if detail else body


def invalid(field: str, value: Any, detail: str) -> FieldError:
    return FieldError(field, _with_detail(f"Invalid value: {_bad_value(value)}", detail))


def required(field: str, detail: str = "") -> FieldError:
    return FieldError(field, _with_detail("Required value", detail))


def forbidden(field: str, detail: str) -> FieldError:
    return FieldError(field, _with_detail("Forbidden", detail))


def duplicate(field: str, value: Any) -> FieldError:
    return FieldError(field, f"Duplicate value: {_bad_value(value)}")


def not_supported(field: str, value: str, valid: Sequence[str]) -> FieldError:
    """`field.NotSupported` with a named string type as value, so JSON-encoded rather than %q."""
    detail = "supported values: " + ", ".join(quote(v) for v in valid) if valid else ""
    return FieldError(field, _with_detail(f"Unsupported value: {_bad_value(JSONString(value))}", detail))


def invalid_values(field: str, values: Sequence[str], detail: str) -> FieldError:
    """`field.Invalid` of a []string: JSON-encoded, a nil (empty) slice as null."""
    return invalid(field, list(values) or None, detail)


def aggregate(errors: Iterable[object]) -> str:
    """`utilerrors.Aggregate.Error()`: one message as is, several as "[a, b]", duplicates dropped."""
    unique = list(dict.fromkeys(str(err) for err in errors))
    return unique[0] if len(unique) == 1 else "[" + ", ".join(unique) + "]"


def raise_if_any(errors: Sequence[FieldError]) -> None:
    """Raise like `ErrorList.ToAggregate()`: one error keeps its field; several become
    Go's "[a, b]" text (duplicates dropped), so `str(ConfigError)` equals upstream's `Error()`."""
    if not errors:
        return
    if len(errors) == 1:
        raise errors[0].to_config_error()
    raise ConfigError(aggregate(errors))


def to_aggregate(errors: Iterable[FieldError | ConfigError]) -> ConfigError | None:
    """`ErrorList.ToAggregate()` as one ConfigError (None for no errors), worded as `raise_if_any`
    words it; `.errors` keeps the individual errors, duplicates dropped, for `utilerrors.Flatten`."""
    first: dict[str, FieldError | ConfigError] = {}
    for err in errors:
        first.setdefault(str(err), err)
    unique = list(first.values())
    if not unique:
        return None
    if len(unique) == 1:
        only = unique[0]
        result = only.to_config_error() if isinstance(only, FieldError) else only
    else:
        result = ConfigError(aggregate(unique))
    result.errors = [e.to_config_error() if isinstance(e, FieldError) else e for e in unique]  # type: ignore[attr-defined]
    return result


__all__ = ["FieldError", "JSONString", "aggregate", "child", "duplicate", "forbidden", "index", "invalid",
           "invalid_values", "not_supported", "raise_if_any", "required", "to_aggregate"]
