"""Go error text: apimachinery `field.Error`, `errors.Aggregate`, `content.IsLabelKey` and
`content.IsLabelValue`, so parse and validation messages match upstream byte for byte.

Other plugin args modules (VolumeBinding, DynamicResources) reuse the `field.Error` part.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from ...errors import ConfigError

_LABEL_KEY_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_LABEL_KEY_ERR = ("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
                  "alphanumeric character")
_LABEL_VALUE_FMT = f"({_LABEL_KEY_FMT})?"
_LABEL_VALUE_ERR = ("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
                    "and must start and end with an alphanumeric character")
_DNS_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS_SUBDOMAIN_FMT = _DNS_LABEL_FMT + "(\\." + _DNS_LABEL_FMT + ")*"
_DNS_SUBDOMAIN_ERR = ("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
                      "and must start and end with an alphanumeric character")
_INT64 = re.compile(r"[+-]?[0-9]+")


def _regex_error(msg: str, fmt: str, *examples: str) -> str:
    """`content.RegexError`: note the doubled space Go produces between examples."""
    return msg + " (e.g. " + " or ".join(f"'{e}', " for e in examples) + f"regex used for validation is '{fmt}')"


def _max_len_error(n: int) -> str:
    return f"must be no more than {n} bytes"


def _nbytes(s: str) -> int:
    return len(s.encode())


def label_key_errors(key: str) -> list[str]:
    """`content.IsLabelKey` (a qualified name with an optional DNS subdomain prefix)."""
    errs: list[str] = []
    parts = key.split("/")
    if len(parts) > 2:
        return ["a valid label key " + _regex_error(_LABEL_KEY_ERR, _LABEL_KEY_FMT, "MyName", "my.name", "123-abc")
                + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]
    name = parts[-1]
    if len(parts) == 2:
        prefix = parts[0]
        if not prefix:
            errs.append("prefix part must be non-empty")
        else:
            if _nbytes(prefix) > 253:
                errs.append("prefix part " + _max_len_error(253))
            if not re.fullmatch(_DNS_SUBDOMAIN_FMT, prefix):
                errs.append("prefix part " + _regex_error(_DNS_SUBDOMAIN_ERR, _DNS_SUBDOMAIN_FMT, "example.com"))
    if not name:
        errs.append("name part must be non-empty")
    elif _nbytes(name) > 63:
        errs.append("name part " + _max_len_error(63))
    if not re.fullmatch(_LABEL_KEY_FMT, name):
        errs.append("name part " + _regex_error(_LABEL_KEY_ERR, _LABEL_KEY_FMT, "MyName", "my.name", "123-abc"))
    return errs


def label_value_errors(value: str) -> list[str]:
    """`content.IsLabelValue`."""
    errs: list[str] = []
    if _nbytes(value) > 63:
        errs.append(_max_len_error(63))
    if not re.fullmatch(_LABEL_VALUE_FMT, value):
        errs.append(_regex_error(_LABEL_VALUE_ERR, _LABEL_VALUE_FMT, "MyValue", "my_value", "12345"))
    return errs


def parse_int64(s: str) -> int | None:
    """`strconv.ParseInt(s, 10, 64)`, or None where Go returns an error."""
    if not _INT64.fullmatch(s):
        return None
    value = int(s)
    return value if -(2**63) <= value < 2**63 else None


def go_quote(s: str) -> str:
    """`strconv.Quote` for the strings these messages carry."""
    out = []
    for ch in s:
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif ch in "\a\b\f\n\r\t\v":
            out.append({"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t",
                        "\v": "\\v"}[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def go_json(value: object) -> str:
    """`json.Marshal` of strings / string slices (a nil slice renders as null; HTML is escaped)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


@dataclass(frozen=True)
class FieldError:
    """`field.Error`: `str()` is its `Error()` text."""

    path: str
    body: str

    def __str__(self) -> str:
        return f"{self.path}: {self.body}"


def invalid(path: str, value: int | str | Sequence[str] | None, detail: str) -> FieldError:
    """`field.Invalid`; an int prints as is, a str is %q-quoted, a slice JSON-encoded (nil as null)."""
    if isinstance(value, int):
        rendered = str(value)
    elif isinstance(value, str):
        rendered = go_quote(value)
    else:
        rendered = go_json(None if not value else list(value))
    return invalid_rendered(path, rendered, detail)


def invalid_rendered(path: str, rendered: str, detail: str) -> FieldError:
    """`field.Invalid` with a value already rendered the way Go would (e.g. a JSON-encoded struct)."""
    return FieldError(path, f"Invalid value: {rendered}: {detail}")


def required(path: str, detail: str) -> FieldError:
    return FieldError(path, f"Required value: {detail}")


def forbidden(path: str, detail: str) -> FieldError:
    return FieldError(path, f"Forbidden: {detail}")


def not_supported(path: str, value: str, valid: Iterable[str]) -> FieldError:
    """`field.NotSupported` with a named string type as value (so JSON-encoded, not %q)."""
    quoted = ", ".join(go_quote(v) for v in valid)
    return FieldError(path, f"Unsupported value: {go_json(value)}: supported values: {quoted}")


def aggregate(errors: Sequence[FieldError]) -> str:
    """`errors.Aggregate.Error()` of a flattened aggregate: duplicates dropped, brackets when > 1."""
    unique = list(dict.fromkeys(str(err) for err in errors))
    return unique[0] if len(unique) == 1 else "[" + ", ".join(unique) + "]"


def config_error(errors: Sequence[FieldError]) -> ConfigError:
    """A ConfigError whose `str()` is upstream's aggregated text; one error keeps its field path."""
    unique = list(dict.fromkeys(errors))
    if len(unique) == 1:
        return ConfigError(unique[0].body, field=unique[0].path)
    return ConfigError(aggregate(unique))
