"""Extended resource name checks for extender `managedResources`, after validation.go
`validateExtendedResourceName`."""

from __future__ import annotations

from ..content import dns1123_subdomain_errors as is_dns1123_subdomain  # generators/_pods.py reads it here
from ..content import label_key_errors
from ..resources import is_extended_resource_name


def validate_extended_resource_name(name: str) -> list[str]:
    """The messages `validateExtendedResourceName` reports for `name` (empty when valid)."""
    errs = label_key_errors(name)
    if errs:
        return errs
    if not is_extended_resource_name(name):
        return ["is an invalid extended resource name"]
    return []


__all__ = ["is_dns1123_subdomain", "validate_extended_resource_name"]
