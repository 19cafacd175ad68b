"""Mirrors apimachinery/pkg/util/validation/field (errors.go) and pkg/util/errors (`Aggregate`), with
the Go renderings their messages use (`strconv.Quote`, `json.Marshal`, `strconv.ParseInt`), so an
error reads exactly like upstream's `Error()`. Config validation has its own richer `FieldError` in
`reference.config.field_errors`; this one is for plugin args and selector parsing."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from .errors import ConfigError

_INT64 = re.compile(r"[+-]?[0-9]+")


def child(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def index(path: str, i: int) -> str:
    return f"{path}[{i}]"


def _go_value(value: Any) -> str:
    """`ErrorBody`'s rendering: %v for numbers and bools, %q for strings."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return go_quote(value)


@dataclass(frozen=True)
class FieldError:
    field: str
    body: str

    def __str__(self) -> str:
        return f"{self.field}: {self.body}"


def _with_detail(body: str, detail: str) -> str:
    return f"{body}: {detail}" if detail else body


def invalid(field: str, value: Any, detail: str) -> FieldError:
    return FieldError(field, _with_detail(f"Invalid value: {_go_value(value)}", detail))


def required(field: str, detail: str) -> FieldError:
    return FieldError(field, _with_detail("Required value", detail))


def forbidden(field: str, detail: str) -> FieldError:
    return FieldError(field, _with_detail("Forbidden", detail))


def duplicate(field: str, value: Any) -> FieldError:
    return FieldError(field, f"Duplicate value: {_go_value(value)}")


def not_supported(field: str, value: str, valid: Sequence[str]) -> FieldError:
    """`field.NotSupported` with a named string type as value, so JSON-encoded rather than %q."""
    detail = "supported values: " + ", ".join(go_quote(v) for v in valid) if valid else ""
    return FieldError(field, _with_detail(f"Unsupported value: {go_json(value)}", detail))


def raise_if_any(errors: Sequence[FieldError]) -> None:
    """Raise like `ErrorList.ToAggregate()`: one error keeps its field; several become
    Go's "[a, b]" text (duplicates dropped), so `str(ConfigError)` equals upstream's `Error()`."""
    if not errors:
        return
    if len(errors) == 1:
        raise ConfigError(errors[0].body, field=errors[0].field)
    raise ConfigError(aggregate(errors))


def go_quote(s: str) -> str:
    """`strconv.Quote` for printable text: backslash-escape quotes, backslashes and controls."""
    escapes = {'"': '\\"', "\\": "\\\\", "\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n",
               "\r": "\\r", "\t": "\\t", "\v": "\\v"}
    out = [escapes.get(ch) or (f"\\x{ord(ch):02x}" if ord(ch) < 0x20 or ord(ch) == 0x7F else ch) for ch in s]
    return '"' + "".join(out) + '"'


def go_json(value: Any) -> str:
    """`json.Marshal` (HTML characters escaped, as Go does)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def invalid_values(field: str, values: Sequence[str], detail: str) -> FieldError:
    """`field.Invalid` of a []string: JSON-encoded, a nil (empty) slice as null, HTML escaped."""
    return FieldError(field, f"Invalid value: {go_json(list(values) or None)}: {detail}")


def aggregate(errors: Iterable[object]) -> str:
    """`utilerrors.Aggregate.Error()`: one message as is, several as "[a, b]", duplicates dropped."""
    unique = list(dict.fromkeys(str(err) for err in errors))
    return unique[0] if len(unique) == 1 else "[" + ", ".join(unique) + "]"


def parse_int64(s: str) -> int | None:
    """`strconv.ParseInt(s, 10, 64)`, or None where Go returns an error."""
    if not _INT64.fullmatch(s):
        return None
    value = int(s)
    return value if -(2**63) <= value < 2**63 else None


__all__ = ["FieldError", "aggregate", "child", "duplicate", "forbidden", "go_json", "go_quote", "index", "invalid",
           "invalid_values", "not_supported", "parse_int64", "raise_if_any", "required"]
