"""Mirrors pkg/scheduler/apis/config/v1/defaults.go and validation/validation_pluginargs.go (PodTopologySpreadArgs).

Messages follow apimachinery `field.Error` rendering, via the shared helpers in `resource_args`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Mapping

from ...codec import label_selector_from_manifest, label_selector_to_manifest
from ...errors import ConfigError, ManifestError
from ...registry import PluginArgs
from ...types import TopologySpreadConstraint
from ..resource_args import (FieldError, child, duplicate, forbidden, index, invalid, not_supported, raise_if_any,
                             required, validate_label_name)
from .common import DO_NOT_SCHEDULE, SCHEDULE_ANYWAY

SYSTEM_DEFAULTING = "System"
LIST_DEFAULTING = "List"


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


def validation_errors(defaulting_type: str, constraints: tuple[TopologySpreadConstraint, ...],
                      path: str) -> list[FieldError]:
    """`ValidatePodTopologySpreadArgs`, errors in upstream order."""
    errs: list[FieldError] = []
    if defaulting_type not in (SYSTEM_DEFAULTING, LIST_DEFAULTING):
        errs.append(not_supported(child(path, "defaultingType"), defaulting_type,
                                  [SYSTEM_DEFAULTING, LIST_DEFAULTING]))
    elif defaulting_type == SYSTEM_DEFAULTING and constraints:
        errs.append(invalid(child(path, "defaultingType"), defaulting_type, "when .defaultConstraints are not empty"))
    for i, c in enumerate(constraints):
        p = index(child(path, "defaultConstraints"), i)
        if c.max_skew <= 0:
            errs.append(invalid(child(p, "maxSkew"), c.max_skew, "not in valid range (0, inf)"))
        if not c.topology_key:
            errs.append(required(child(p, "topologyKey"), "can not be empty"))
        else:
            errs += validate_label_name(c.topology_key, child(p, "topologyKey"))
        if not c.when_unsatisfiable:
            errs.append(required(child(p, "whenUnsatisfiable"), "can not be empty"))
        elif c.when_unsatisfiable not in (DO_NOT_SCHEDULE, SCHEDULE_ANYWAY):
            errs.append(not_supported(child(p, "whenUnsatisfiable"), c.when_unsatisfiable,
                                      [DO_NOT_SCHEDULE, SCHEDULE_ANYWAY]))
        if c.label_selector is not None:
            errs.append(forbidden(child(p, "labelSelector"),
                                  "constraint must not define a selector, as they deduced for each pod"))
        if any(o.topology_key == c.topology_key and o.when_unsatisfiable == c.when_unsatisfiable
               for o in constraints[:i]):
            errs.append(duplicate(p, "{" + c.topology_key + ", " + c.when_unsatisfiable + "}"))
    return errs


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
            default_constraints=tuple(_constraint_from_config(c, index(child(path, "defaultConstraints"), i))
                                      for i, c in enumerate(items)),
            defaulting_type=str(raw.get("defaultingType") or SYSTEM_DEFAULTING))
        args.validate(path)
        return args

    def validate(self, path: str) -> None:
        raise_if_any(validation_errors(self.defaulting_type, self.default_constraints, path))

    def to_config(self) -> dict[str, Any]:
        out: dict[str, Any] = {"defaultingType": self.defaulting_type}
        if self.default_constraints:
            out["defaultConstraints"] = [_constraint_to_config(c) for c in self.default_constraints]
        return out


__all__ = ["LIST_DEFAULTING", "PodTopologySpreadArgs", "SYSTEM_DEFAULTING", "validation_errors"]
