"""Go's renderings, pinned to what go1.26 prints (`strconv.Quote`, `json.Marshal`, `strconv.ParseInt`)."""

import pytest

from reference.gofmt import marshal, parse_int64, quote

# (Python text, strconv.Quote, json.Marshal); a lone surrogate is Go's invalid bytes ED A0 80.
CASES = [
    ("plain", '"plain"', '"plain"'),
    ('say "hi"', r'"say \"hi\""', r'"say \"hi\""'),
    ("back\\slash", r'"back\\slash"', r'"back\\slash"'),
    ("\a\b\f\n\r\t\v", r'"\a\b\f\n\r\t\v"', r'"\u0007\b\f\n\r\t\u000b"'),
    ("\x00\x01\x1f\x7f", r'"\x00\x01\x1f\x7f"', '"\\u0000\\u0001\\u001f\x7f"'),
    ("<a & b>", '"<a & b>"', r'"\u003ca \u0026 b\u003e"'),
    ("line\u2028sep\u2029", r'"line\u2028sep\u2029"', r'"line\u2028sep\u2029"'),
    ("héllo 日本", '"héllo 日本"', '"héllo 日本"'),
    ("nbsp\u00a0x", r'"nbsp\u00a0x"', '"nbsp\u00a0x"'),
    ("c1\u0080x", r'"c1\u0080x"', '"c1\u0080x"'),
    ("soft\u00adhy", r'"soft\u00adhy"', '"soft\u00adhy"'),
    ("unassigned\u0378", r'"unassigned\u0378"', '"unassigned\u0378"'),
    ("astral \U0001F600", '"astral \U0001F600"', '"astral \U0001F600"'),
    ("private \U000F0000", r'"private \U000f0000"', '"private \U000F0000"'),
    ("\ufffd", '"\ufffd"', '"\ufffd"'),
    ("bad\ud800x", r'"bad\xed\xa0\x80x"', r'"bad\ufffd\ufffd\ufffdx"'),
]


@pytest.mark.parametrize("text, quoted, marshalled", CASES)
def test_quote_and_marshal_a_string(text, quoted, marshalled):
    assert quote(text) == quoted
    assert marshal(text) == marshalled.encode("utf-8")


def test_marshal_is_compact_and_keeps_dict_order():
    """Struct fields come in the order given; nil is null, an empty slice []."""
    assert marshal({"b": 1, "a": [], "c": None, "d": {"x": True}}) == b'{"b":1,"a":[],"c":null,"d":{"x":true}}'
    assert marshal({"k<": ["&"]}) == b'{"k\\u003c":["\\u0026"]}'


@pytest.mark.parametrize("text, value", [
    ("5", 5), ("+5", 5), ("-0", 0), ("007", 7),
    ("9223372036854775807", 2**63 - 1), ("-9223372036854775808", -(2**63)),
    ("9223372036854775808", None), ("-9223372036854775809", None),
    ("", None), ("+", None), ("1_000", None), (" 1", None), ("1\n", None), ("0x10", None), ("\u0663", None),
])
def test_parse_int64(text, value):
    assert parse_int64(text) == value
