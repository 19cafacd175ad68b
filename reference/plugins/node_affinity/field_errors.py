"""What label-selector parsing needs beyond `resource_args`' field errors: `strconv.ParseInt`,
slice values and the `errors.Aggregate` text of parse errors (which, unlike config errors, stay
plain error strings). Label keys and values are checked by `reference.content`."""

from __future__ import annotations

import json
import re
from typing import Sequence

from ..resource_args import FieldError, go_quote, invalid, not_supported, raise_if_any

_INT64 = re.compile(r"[+-]?[0-9]+")


def parse_int64(s: str) -> int | None:
    """`strconv.ParseInt(s, 10, 64)`, or None where Go returns an error."""
    if not _INT64.fullmatch(s):
        return None
    value = int(s)
    return value if -(2**63) <= value < 2**63 else None


def invalid_values(field: str, values: Sequence[str], detail: str) -> FieldError:
    """`field.Invalid` of a []string: JSON-encoded, a nil (empty) slice as null, HTML escaped."""
    text = json.dumps(list(values) or None, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return FieldError(field, f"Invalid value: {text}: {detail}")


def aggregate(errors: Sequence[FieldError]) -> str:
    """`errors.Aggregate.Error()` of a flattened aggregate: duplicates dropped, brackets when > 1."""
    unique = list(dict.fromkeys(str(err) for err in errors))
    return unique[0] if len(unique) == 1 else "[" + ", ".join(unique) + "]"


__all__ = ["FieldError", "aggregate", "go_quote", "invalid", "invalid_values", "not_supported", "parse_int64",
           "raise_if_any"]
