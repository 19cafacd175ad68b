"""Go `time.ParseDuration` and `time.Duration.String`, shared by every Go duration the reference reads or prints
(config fields, extender timeouts, plugin args, Permit timeout messages)."""

from __future__ import annotations

import re

_UNITS_NS = {
    "ns": 1,
    "us": 1_000,
    "µs": 1_000,  # U+00B5 micro sign
    "μs": 1_000,  # U+03BC Greek mu
    "ms": 1_000_000,
    "s": 1_000_000_000,
    "m": 60_000_000_000,
    "h": 3_600_000_000_000,
}
_PART = re.compile(r"(\d*)(?:\.(\d*))?([^\d.]*)")


def parse_duration(text: str) -> float:
    """Seconds in `text` ("5s", "1m30s", "1.5h", "-2ms", "0"); ValueError with Go's message otherwise."""
    return parse_duration_ns(text) / 1e9


def parse_duration_ns(text: str) -> int:
    original = text
    sign = 1
    if text and text[0] in "+-":
        sign = -1 if text[0] == "-" else 1
        text = text[1:]
    if text == "0":
        return 0
    if not text:
        raise ValueError(f'time: invalid duration "{original}"')
    total = 0
    while text:
        match = _PART.match(text)
        whole, frac, unit = match.group(1), match.group(2), match.group(3)  # type: ignore[union-attr]
        if not whole and not frac:
            raise ValueError(f'time: invalid duration "{original}"')
        if not unit:
            raise ValueError(f'time: missing unit in duration "{original}"')
        if unit not in _UNITS_NS:
            raise ValueError(f'time: unknown unit "{unit}" in duration "{original}"')
        scale = _UNITS_NS[unit]
        total += int(whole or "0") * scale
        if frac:
            total += int(frac) * scale // 10 ** len(frac)
        text = text[match.end():]  # type: ignore[union-attr]
    if total > 2**63 - 1:
        raise ValueError(f'time: invalid duration "{original}"')
    return sign * total


def format_duration(seconds: float) -> str:
    """Go's `Duration.String()` of `seconds`: "1h30m0s", "1.5s", "500ms", "0s"."""
    return format_duration_ns(round(seconds * 1e9))


def format_duration_ns(ns: int) -> str:
    """Go's `Duration.String()` of a nanosecond count."""
    if ns == 0:
        return "0s"
    sign = "-" if ns < 0 else ""
    ns = abs(ns)
    if ns < 1_000_000_000:
        for unit, scale in (("ms", 1_000_000), ("µs", 1_000), ("ns", 1)):
            if ns >= scale:
                return sign + _decimal(ns, scale) + unit
    hours, rest = divmod(ns, 3_600_000_000_000)
    minutes, rest = divmod(rest, 60_000_000_000)
    text = _decimal(rest, 1_000_000_000) + "s"
    if hours or minutes:
        text = f"{minutes}m" + text
    if hours:
        text = f"{hours}h" + text
    return sign + text


def _decimal(value: int, scale: int) -> str:
    whole, frac = divmod(value, scale)
    if not frac:
        return str(whole)
    digits = str(frac).rjust(len(str(scale)) - 1, "0").rstrip("0")
    return f"{whole}.{digits}"


__all__ = ["format_duration", "format_duration_ns", "parse_duration", "parse_duration_ns"]
