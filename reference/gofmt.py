"""Go's renderings that upstream's messages and wire bodies are made of: `strconv.Quote` (fmt's
%q), `json.Marshal` and `strconv.ParseInt`, so the reference writes and reads text as Go does.

A Python str stands for the Go string of its UTF-8 bytes. A lone surrogate, which only Python can
hold, stands for its three `surrogatepass` bytes, which Go reads as invalid UTF-8.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

_QUOTE_ESCAPES = {'"': '\\"', "\\": "\\\\", "\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n",
                  "\r": "\\r", "\t": "\\t", "\v": "\\v"}
# Inside json.dumps' output these only occur in strings; Go escapes them even there (HTML-safe
# output, JavaScript line terminators) and writes each invalid UTF-8 byte as U+FFFD.
_MARSHAL_UNSAFE = re.compile("[<>&\u2028\u2029\ud800-\udfff]")
_INT64 = re.compile(r"[+-]?[0-9]+")


def _is_print(ch: str) -> bool:
    """`strconv.IsPrint`: letters, marks, numbers, punctuation, symbols and the ASCII space."""
    return ch == " " or unicodedata.category(ch)[0] in "LMNPS"


def _quote_rune(ch: str) -> str:
    code = ord(ch)
    if ch in _QUOTE_ESCAPES:
        return _QUOTE_ESCAPES[ch]
    if 0xD800 <= code <= 0xDFFF:
        return "".join(f"\\x{b:02x}" for b in ch.encode("utf-8", "surrogatepass"))
    if _is_print(ch):
        return ch
    if code < 0x80:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def quote(s: str) -> str:
    """`strconv.Quote`: printable runes kept, the rest escaped the shortest way Go knows."""
    return '"' + "".join(_quote_rune(ch) for ch in s) + '"'


def _marshal_escape(match: re.Match[str]) -> str:
    ch = match.group()
    if "\ud800" <= ch <= "\udfff":
        return "\\ufffd" * 3
    return f"\\u{ord(ch):04x}"


def marshal(value: Any) -> bytes:
    """`json.Marshal` of a value built from dicts, lists, str, int, bool and None: compact, in
    dict order (callers give struct fields in Go's order and sort map keys as Go does)."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return _MARSHAL_UNSAFE.sub(_marshal_escape, text).encode("utf-8")


def parse_int64(s: str) -> int | None:
    """`strconv.ParseInt(s, 10, 64)`, or None where Go returns an error."""
    if not _INT64.fullmatch(s):
        return None
    value = int(s)
    return value if -(2**63) <= value < 2**63 else None


def int64(value: int) -> int:
    """`value` as Go's int64 arithmetic leaves it: wrapped around on overflow (two's complement)."""
    return (value + 2**63) % 2**64 - 2**63


__all__ = ["int64", "marshal", "parse_int64", "quote"]
