"""Extended resource name checks for extender `managedResources`, after validation.go
`validateExtendedResourceName`, apimachinery `content.IsLabelKey` / `IsDNS1123Subdomain` and
pkg/apis/core/v1/helper `IsExtendedResourceName`."""

from __future__ import annotations

import re

_LABEL_KEY_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_LABEL_KEY_MSG = ("must consist of alphanumeric characters, '-', '_' or '.', "
                  "and must start and end with an alphanumeric character")
_DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS1123_SUBDOMAIN_FMT = _DNS1123_LABEL_FMT + "(\\." + _DNS1123_LABEL_FMT + ")*"
_DNS1123_SUBDOMAIN_MSG = ("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
                          "'-' or '.', and must start and end with an alphanumeric character")


def _regex_error(msg: str, fmt: str, *examples: str) -> str:
    if not examples:
        return f"{msg} (regex used for validation is '{fmt}')"
    quoted = " or ".join(f"'{e}', " for e in examples)
    return f"{msg} (e.g. {quoted}regex used for validation is '{fmt}')"


def _max_len_error(length: int) -> str:
    return f"must be no more than {length} bytes"


def is_dns1123_subdomain(value: str) -> list[str]:
    errs = []
    if len(value.encode()) > 253:
        errs.append(_max_len_error(253))
    if not re.fullmatch(_DNS1123_SUBDOMAIN_FMT, value):
        errs.append(_regex_error(_DNS1123_SUBDOMAIN_MSG, _DNS1123_SUBDOMAIN_FMT, "example.com"))
    return errs


def is_qualified_name(value: str) -> list[str]:
    """`IsQualifiedName` (= content.IsLabelKey): an optional DNS subdomain prefix and '/', then a name."""
    errs: list[str] = []
    parts = value.split("/")
    if len(parts) == 1:
        name = parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            errs.append("prefix part must be non-empty")
        else:
            errs += ["prefix part " + m for m in is_dns1123_subdomain(prefix)]
    else:
        return ["a valid label key " + _regex_error(_LABEL_KEY_MSG, _LABEL_KEY_FMT, "MyName", "my.name", "123-abc")
                + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]
    if not name:
        errs.append("name part must be non-empty")
    elif len(name.encode()) > 63:
        errs.append("name part " + _max_len_error(63))
    if not re.fullmatch(_LABEL_KEY_FMT, name):
        errs.append("name part " + _regex_error(_LABEL_KEY_MSG, _LABEL_KEY_FMT, "MyName", "my.name", "123-abc"))
    return errs


def is_extended_resource_name(name: str) -> bool:
    native = "/" not in name or "kubernetes.io/" in name
    if native or name.startswith("requests."):
        return False
    return not is_qualified_name("requests." + name)


def validate_extended_resource_name(name: str) -> list[str]:
    """The messages `validateExtendedResourceName` reports for `name` (empty when valid)."""
    errs = is_qualified_name(name)
    if errs:
        return errs
    if not is_extended_resource_name(name):
        return ["is an invalid extended resource name"]
    return []


__all__ = ["is_extended_resource_name", "is_qualified_name", "validate_extended_resource_name"]
