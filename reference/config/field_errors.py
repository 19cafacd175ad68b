"""`field.Error`, `ErrorList.ToAggregate` and the aggregate's one-line message, after
k8s.io/apimachinery/pkg/util/validation/field/errors.go and pkg/util/errors/errors.go."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterable

from ..errors import ConfigError

INVALID = "Invalid value"
REQUIRED = "Required value"
DUPLICATE = "Duplicate value"


class GoJSON:
    """A bad value rendered as Go's json.Marshal would (struct field names, `null`, no spaces)."""

    def __init__(self, value: Any) -> None:
        self.text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)


# field.Duplicate's bad value in validation.go is a *field.Path, whose fields are unexported:
# json.Marshal renders it as an empty object.
PATH_VALUE = GoJSON({})


@dataclass(frozen=True)
class FieldError:
    kind: str  # INVALID, REQUIRED or DUPLICATE
    field: str
    bad_value: Any = None
    detail: str = ""

    def body(self) -> str:
        """`ErrorBody`: simple values printed with %v, strings with %q, the rest as JSON."""
        if self.kind == REQUIRED:
            text = self.kind
        elif isinstance(self.bad_value, GoJSON):
            text = f"{self.kind}: {self.bad_value.text}"
        elif isinstance(self.bad_value, bool):
            text = f"{self.kind}: {'true' if self.bad_value else 'false'}"
        elif isinstance(self.bad_value, (int, float)):
            text = f"{self.kind}: {self.bad_value}"
        else:
            text = f"{self.kind}: {json.dumps(str(self.bad_value), ensure_ascii=False)}"
        return f"{text}: {self.detail}" if self.detail else text

    def __str__(self) -> str:
        return f"{self.field}: {self.body()}"

    def to_config_error(self) -> ConfigError:
        return ConfigError(self.body(), field=self.field)


def aggregate(errors: Iterable[FieldError | ConfigError]) -> ConfigError | None:
    """One ConfigError for all errors: the message alone for one, else `[a, b]` with duplicates
    dropped (ErrorList.ToAggregate + aggregate.Error). `.errors` keeps the individual errors."""
    unique: list[FieldError | ConfigError] = []
    seen: set[str] = set()
    for err in errors:
        if str(err) not in seen:
            seen.add(str(err))
            unique.append(err)
    if not unique:
        return None
    if len(unique) == 1:
        only = unique[0]
        result = only.to_config_error() if isinstance(only, FieldError) else only
    else:
        result = ConfigError("[" + ", ".join(str(e) for e in unique) + "]")
    result.errors = [e.to_config_error() if isinstance(e, FieldError) else e for e in unique]  # type: ignore[attr-defined]
    return result


__all__ = ["DUPLICATE", "FieldError", "GoJSON", "INVALID", "PATH_VALUE", "REQUIRED", "aggregate"]
