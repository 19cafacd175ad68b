"""PriorityClass and RuntimeClass manifests, validated as the API server validates them
(pkg/apis/scheduling/validation, pkg/apis/node/validation)."""

from __future__ import annotations

import re
from typing import Mapping

from .. import types as t
from ..content import dns1123_subdomain_errors
from ..errors import ManifestError
from ._fields import get_field, get_resources, read_metadata

HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000
SYSTEM_PRIORITY_CLASS_PREFIX = "system-"
PREEMPTION_POLICIES = ("PreemptLowerPriority", "Never")
_INT32 = (-(2**31), 2**31 - 1)
_DNS1123_LABEL = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?")


def _name(m: Mapping, kind: str) -> str:
    _, name = read_metadata(m, kind)
    errors = dns1123_subdomain_errors(name)
    if errors:
        raise ManifestError(f"{kind}.metadata.name: {name!r}: {errors[0]}")
    return name


def priority_class_from_manifest(m: Mapping) -> t.PriorityClass:
    name = _name(m, "PriorityClass")
    value = get_field(m, "value", int, "PriorityClass", None)
    if value is None:
        raise ManifestError(f"PriorityClass {name}: value is missing; give it an integer priority")
    if not _INT32[0] <= value <= _INT32[1]:
        raise ManifestError(f"PriorityClass {name}: value {value} is not a 32-bit integer")
    if name.startswith(SYSTEM_PRIORITY_CLASS_PREFIX):
        raise ManifestError(f"PriorityClass {name}: the {SYSTEM_PRIORITY_CLASS_PREFIX!r} prefix is reserved for "
                            "the built-in classes, which every API server has; rename it")
    if value > HIGHEST_USER_DEFINABLE_PRIORITY:
        raise ManifestError(f"PriorityClass {name}: value {value} is above {HIGHEST_USER_DEFINABLE_PRIORITY}, the "
                            "maximum for a user-defined class")
    policy = get_field(m, "preemptionPolicy", str, "PriorityClass", "PreemptLowerPriority")
    if policy not in PREEMPTION_POLICIES:
        raise ManifestError(f"PriorityClass {name}: preemptionPolicy {policy!r} is not one of "
                            f"{', '.join(PREEMPTION_POLICIES)}")
    return t.PriorityClass(name=name, value=value, preemption_policy=policy,
                           global_default=get_field(m, "globalDefault", bool, "PriorityClass", False))


def runtime_class_from_manifest(m: Mapping) -> t.RuntimeClass:
    name = _name(m, "RuntimeClass")
    handler = get_field(m, "handler", str, "RuntimeClass", "")
    if len(handler) > 63 or not _DNS1123_LABEL.fullmatch(handler):
        raise ManifestError(f"RuntimeClass {name}: handler {handler!r} is not a DNS label (NameIsDNSLabel); "
                            "use one like 'runc'")
    overhead = get_field(m, "overhead", dict, "RuntimeClass", None)
    return t.RuntimeClass(
        name=name, handler=handler,
        overhead=None if overhead is None else get_resources(overhead, "podFixed", "RuntimeClass.overhead"),
        has_scheduling=get_field(m, "scheduling", dict, "RuntimeClass", None) is not None)


__all__ = ["HIGHEST_USER_DEFINABLE_PRIORITY", "PREEMPTION_POLICIES", "priority_class_from_manifest",
           "runtime_class_from_manifest"]
