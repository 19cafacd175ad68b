"""Mirrors pkg/scheduler/apis/config/v1/defaults.go and validation/validation_pluginargs.go (PodTopologySpreadArgs).

Messages follow apimachinery `field.Error` and `utilerrors.NewAggregate` rendering.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, ClassVar, Mapping

from ...codec import label_selector_from_manifest, label_selector_to_manifest
from ...errors import ConfigError, ManifestError
from ...registry import PluginArgs
from ...types import TopologySpreadConstraint
from .common import DO_NOT_SCHEDULE, SCHEDULE_ANYWAY

SYSTEM_DEFAULTING = "System"
LIST_DEFAULTING = "List"

_LABEL_KEY_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_LABEL_KEY_MSG = ("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
                  "alphanumeric character (e.g. 'MyName' or 'my.name' or '123-abc', regex used for validation is '"
                  + _LABEL_KEY_FMT + "')")
_DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS1123_SUBDOMAIN_FMT = _DNS1123_LABEL_FMT + "(\\." + _DNS1123_LABEL_FMT + ")*"
_DNS1123_SUBDOMAIN_MSG = ("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
                          "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
                          "for validation is '" + _DNS1123_SUBDOMAIN_FMT + "')")


def label_key_errors(value: str) -> list[str]:
    """apimachinery `content.IsLabelKey`: an optional DNS-subdomain prefix, '/', and a name."""
    parts = value.split("/")
    if len(parts) > 2:
        return ["a valid label key " + _LABEL_KEY_MSG
                + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]
    errs = []
    name = parts[-1]
    if len(parts) == 2:
        prefix = parts[0]
        if not prefix:
            errs.append("prefix part must be non-empty")
        else:
            if len(prefix) > 253:
                errs.append("prefix part must be no more than 253 bytes")
            if not re.fullmatch(_DNS1123_SUBDOMAIN_FMT, prefix):
                errs.append("prefix part " + _DNS1123_SUBDOMAIN_MSG)
    if not name:
        errs.append("name part must be non-empty")
    elif len(name) > 63:
        errs.append("name part must be no more than 63 bytes")
    if not re.fullmatch(_LABEL_KEY_FMT, name):
        errs.append("name part " + _LABEL_KEY_MSG)
    return errs


def _constraint_from_config(o: Mapping[str, Any], path: str) -> TopologySpreadConstraint:
    if not isinstance(o, Mapping):
        raise ConfigError(f"expected an object, got {o!r}", field=path)
    try:
        return TopologySpreadConstraint(
            max_skew=int(o.get("maxSkew") or 0), topology_key=str(o.get("topologyKey") or ""),
            when_unsatisfiable=str(o.get("whenUnsatisfiable") or ""),
            label_selector=label_selector_from_manifest(o.get("labelSelector"), f"{path}.labelSelector"),
            min_domains=o.get("minDomains"), node_affinity_policy=o.get("nodeAffinityPolicy"),
            node_taints_policy=o.get("nodeTaintsPolicy"), match_label_keys=tuple(o.get("matchLabelKeys") or ()))
    except (ManifestError, TypeError, ValueError) as e:
        raise ConfigError(str(e), field=path) from e


def _constraint_to_config(c: TopologySpreadConstraint) -> dict[str, Any]:
    out: dict[str, Any] = {"maxSkew": c.max_skew, "topologyKey": c.topology_key,
                           "whenUnsatisfiable": c.when_unsatisfiable}
    optional = {"labelSelector": label_selector_to_manifest(c.label_selector), "minDomains": c.min_domains,
                "nodeAffinityPolicy": c.node_affinity_policy, "nodeTaintsPolicy": c.node_taints_policy,
                "matchLabelKeys": list(c.match_label_keys) or None}
    out.update({k: v for k, v in optional.items() if v is not None})
    return out


def child(path: str, name: str) -> str:
    """`field.Path.Child`: a nil path prints without a leading dot."""
    return f"{path}.{name}" if path else name


def _q(value: str) -> str:
    """Go's `%q` for the plain strings config values are."""
    return json.dumps(value)


def validation_errors(defaulting_type: str, constraints: tuple[TopologySpreadConstraint, ...],
                      path: str) -> list[tuple[str, str]]:
    """(field, body) pairs in upstream order; bodies read like `field.Error.ErrorBody()`."""
    errs: list[tuple[str, str]] = []
    if defaulting_type not in (SYSTEM_DEFAULTING, LIST_DEFAULTING):
        errs.append((child(path, "defaultingType"), f'Unsupported value: {_q(defaulting_type)}: supported values: '
                                               f'"{SYSTEM_DEFAULTING}", "{LIST_DEFAULTING}"'))
    elif defaulting_type == SYSTEM_DEFAULTING and constraints:
        errs.append((child(path, "defaultingType"),
                     f"Invalid value: {_q(defaulting_type)}: when .defaultConstraints are not empty"))
    for i, c in enumerate(constraints):
        p = child(path, f"defaultConstraints[{i}]")
        if c.max_skew <= 0:
            errs.append((f"{p}.maxSkew", f"Invalid value: {c.max_skew}: not in valid range (0, inf)"))
        if not c.topology_key:
            errs.append((f"{p}.topologyKey", "Required value: can not be empty"))
        else:
            errs += [(f"{p}.topologyKey", f"Invalid value: {_q(c.topology_key)}: {m}")
                     for m in label_key_errors(c.topology_key)]
        if not c.when_unsatisfiable:
            errs.append((f"{p}.whenUnsatisfiable", "Required value: can not be empty"))
        elif c.when_unsatisfiable not in (DO_NOT_SCHEDULE, SCHEDULE_ANYWAY):
            errs.append((f"{p}.whenUnsatisfiable", f"Unsupported value: {_q(c.when_unsatisfiable)}: supported "
                                                   f'values: "{DO_NOT_SCHEDULE}", "{SCHEDULE_ANYWAY}"'))
        if c.label_selector is not None:
            errs.append((f"{p}.labelSelector",
                         "Forbidden: constraint must not define a selector, as they deduced for each pod"))
        if any(o.topology_key == c.topology_key and o.when_unsatisfiable == c.when_unsatisfiable
               for o in constraints[:i]):
            errs.append((p, f"Duplicate value: {_q('{' + c.topology_key + ', ' + c.when_unsatisfiable + '}')}"))
    return errs


def raise_aggregate(errs: list[tuple[str, str]]) -> None:
    """`utilerrors.NewAggregate(...).Error()`: one error as is, several in brackets, deduplicated."""
    if not errs:
        return
    if len(errs) == 1:
        raise ConfigError(errs[0][1], field=errs[0][0])
    texts = list(dict.fromkeys(f"{f}: {b}" for f, b in errs))
    raise ConfigError(texts[0] if len(texts) == 1 else "[" + ", ".join(texts) + "]")


@dataclass(frozen=True)
class PodTopologySpreadArgs(PluginArgs):
    KIND: ClassVar[str] = "PodTopologySpreadArgs"

    default_constraints: tuple[TopologySpreadConstraint, ...] = ()
    defaulting_type: str = SYSTEM_DEFAULTING

    @classmethod
    def from_config(cls, raw: Mapping[str, Any] | None, path: str) -> "PodTopologySpreadArgs":
        raw = raw or {}
        items = raw.get("defaultConstraints") or []
        args = cls(
            default_constraints=tuple(_constraint_from_config(c, child(path, f"defaultConstraints[{i}]"))
                                      for i, c in enumerate(items)),
            defaulting_type=str(raw.get("defaultingType") or SYSTEM_DEFAULTING))
        args.validate(path)
        return args

    def validate(self, path: str) -> None:
        raise_aggregate(validation_errors(self.defaulting_type, self.default_constraints, path))

    def to_config(self) -> dict[str, Any]:
        out: dict[str, Any] = {"defaultingType": self.defaulting_type}
        if self.default_constraints:
            out["defaultConstraints"] = [_constraint_to_config(c) for c in self.default_constraints]
        return out


__all__ = ["LIST_DEFAULTING", "PodTopologySpreadArgs", "SYSTEM_DEFAULTING", "label_key_errors",
           "child", "raise_aggregate", "validation_errors"]
