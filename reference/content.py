"""Mirrors apimachinery/pkg/api/validate/content: label keys (`IsLabelKey` = `IsQualifiedName`), label
values (`IsLabelValue`) and DNS-1123 subdomains, with upstream's error texts (each function returns
the messages, empty when the value is valid)."""

from __future__ import annotations

import re

_LABEL_KEY_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_LABEL_KEY_ERR = ("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with "
                  "an alphanumeric character")
_LABEL_VALUE_FMT = "(" + _LABEL_KEY_FMT + ")?"
_LABEL_VALUE_ERR = ("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
                    "and must start and end with an alphanumeric character")
_DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS1123_SUBDOMAIN_FMT = _DNS1123_LABEL_FMT + "(\\." + _DNS1123_LABEL_FMT + ")*"
_DNS1123_SUBDOMAIN_ERR = ("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
                          "'-' or '.', and must start and end with an alphanumeric character")


def _regex_error(msg: str, fmt: str, *examples: str) -> str:
    """`content.RegexError`, including the doubled space Go leaves between examples."""
    return msg + " (e.g. " + " or ".join(f"'{e}', " for e in examples) + f"regex used for validation is '{fmt}')"


def _too_long(limit: int, value: str) -> list[str]:
    return [f"must be no more than {limit} bytes"] if len(value.encode()) > limit else []


def dns1123_subdomain_errors(value: str) -> list[str]:
    """`IsDNS1123Subdomain`."""
    errs = _too_long(253, value)
    if not re.fullmatch(_DNS1123_SUBDOMAIN_FMT, value):
        errs.append(_regex_error(_DNS1123_SUBDOMAIN_ERR, _DNS1123_SUBDOMAIN_FMT, "example.com"))
    return errs


def label_key_errors(value: str) -> list[str]:
    """`IsLabelKey` (`IsQualifiedName`): an optional DNS-subdomain prefix and '/', then a name."""
    parts = value.split("/")
    if len(parts) > 2:
        return ["a valid label key " + _regex_error(_LABEL_KEY_ERR, _LABEL_KEY_FMT, "MyName", "my.name", "123-abc")
                + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]
    errs: list[str] = []
    name = parts[-1]
    if len(parts) == 2:
        prefix = parts[0]
        if not prefix:
            errs.append("prefix part must be non-empty")
        else:
            errs += ["prefix part " + msg for msg in dns1123_subdomain_errors(prefix)]
    if not name:
        errs.append("name part must be non-empty")
    else:
        errs += ["name part " + msg for msg in _too_long(63, name)]
    if not re.fullmatch(_LABEL_KEY_FMT, name):
        errs.append("name part " + _regex_error(_LABEL_KEY_ERR, _LABEL_KEY_FMT, "MyName", "my.name", "123-abc"))
    return errs


def label_value_errors(value: str) -> list[str]:
    """`IsLabelValue`."""
    errs = _too_long(63, value)
    if not re.fullmatch(_LABEL_VALUE_FMT, value):
        errs.append(_regex_error(_LABEL_VALUE_ERR, _LABEL_VALUE_FMT, "MyValue", "my_value", "12345"))
    return errs


__all__ = ["dns1123_subdomain_errors", "label_key_errors", "label_value_errors"]
