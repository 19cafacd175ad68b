"""Mirrors NodeResourcesFitArgs: pkg/scheduler/apis/config/v1/defaults.go (SetDefaults_NodeResourcesFitArgs)
and validation/validation_pluginargs.go (ValidateNodeResourcesFitArgs).

Upstream quirk: the config validator map is keyed "NodeResourcesFitArgs" instead of the plugin
name, so these args are validated only by NewFit, with an empty field path. `new()` does the
same (`validate(args, "")`); `from_config` validates under the caller's `path`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping

from ..registry import PluginArgs
from . import resource_args as ra
from .resource_args import DEFAULT_RESOURCES, FieldError, ResourceSpec, UtilizationShapePoint

LEAST_ALLOCATED = "LeastAllocated"
MOST_ALLOCATED = "MostAllocated"
REQUESTED_TO_CAPACITY_RATIO = "RequestedToCapacityRatio"
SUPPORTED_SCORING_STRATEGY_TYPES = (LEAST_ALLOCATED, MOST_ALLOCATED, REQUESTED_TO_CAPACITY_RATIO)


@dataclass(frozen=True)
class ScoringStrategy:
    type: str = LEAST_ALLOCATED
    resources: tuple[ResourceSpec, ...] = DEFAULT_RESOURCES
    # `requestedToCapacityRatio.shape`; None when the field is absent.
    shape: tuple[UtilizationShapePoint, ...] | None = None

    def to_config(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "resources": [r.to_config() for r in self.resources]}
        if self.shape is not None:
            out["requestedToCapacityRatio"] = {"shape": [p.to_config() for p in self.shape]}
        return out


@dataclass(frozen=True)
class NodeResourcesFitArgs(PluginArgs):
    """The internal (defaulted) args. Built directly, they are not defaulted, like upstream
    unit tests that hand NewFit a config struct."""

    KIND: ClassVar[str] = "NodeResourcesFitArgs"

    ignored_resources: tuple[str, ...] = ()
    ignored_resource_groups: tuple[str, ...] = ()
    scoring_strategy: ScoringStrategy | None = field(default_factory=ScoringStrategy)

    @classmethod
    def from_config(cls, raw: Mapping[str, Any] | None, path: str) -> "NodeResourcesFitArgs":
        o = ra.fields(raw, path, ("ignoredResources", "ignoredResourceGroups", "scoringStrategy"))
        args = cls(ignored_resources=ra.strings(o, "ignoredResources", path),
                   ignored_resource_groups=ra.strings(o, "ignoredResourceGroups", path),
                   scoring_strategy=_strategy_with_defaults(o.get("scoringStrategy"),
                                                            ra.child(path, "scoringStrategy")))
        ra.raise_if_any(validate(args, path))
        return args

    def to_config(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.ignored_resources:
            out["ignoredResources"] = list(self.ignored_resources)
        if self.ignored_resource_groups:
            out["ignoredResourceGroups"] = list(self.ignored_resource_groups)
        if self.scoring_strategy is not None:
            out["scoringStrategy"] = self.scoring_strategy.to_config()
        return out


def _strategy_with_defaults(raw: Any, path: str) -> ScoringStrategy:
    """Decode v1 `scoringStrategy` and apply SetDefaults_NodeResourcesFitArgs."""
    if raw is None:
        return ScoringStrategy()
    o = ra.fields(raw, path, ("type", "resources", "requestedToCapacityRatio"))
    resources = ra.items(o, "resources", path, ra.resource_spec) or DEFAULT_RESOURCES
    shape = None
    rtcr = ra.typed(o, "requestedToCapacityRatio", dict, path)
    if rtcr is not None:
        rtcr_path = ra.child(path, "requestedToCapacityRatio")
        shape = ra.items(ra.fields(rtcr, rtcr_path, ("shape",)), "shape", rtcr_path, ra.shape_point)
    return ScoringStrategy(type=ra.typed(o, "type", str, path, ""), resources=ra.default_weights(resources),
                           shape=shape)


def validate(args: NodeResourcesFitArgs, path: str) -> list[FieldError]:
    """`ValidateNodeResourcesFitArgs`, error for error."""
    errs: list[FieldError] = []
    for i, res in enumerate(args.ignored_resources):
        errs += ra.validate_label_name(res, ra.index(ra.child(path, "ignoredResources"), i))
    for i, group in enumerate(args.ignored_resource_groups):
        group_path = ra.index(ra.child(path, "ignoredResourceGroups"), i)
        if "/" in group:
            errs.append(ra.invalid(group_path, group, "resource group name can't contain '/'"))
        errs += ra.validate_label_name(group, group_path)
    strategy_path = ra.child(path, "scoringStrategy")
    strategy = args.scoring_strategy
    if strategy is None:
        return errs + [ra.required(strategy_path, "ScoringStrategy field is required")]
    if strategy.type not in SUPPORTED_SCORING_STRATEGY_TYPES:
        errs.append(ra.not_supported(ra.child(strategy_path, "type"), strategy.type,
                                     sorted(SUPPORTED_SCORING_STRATEGY_TYPES)))
    errs += ra.validate_resources(strategy.resources, ra.child(strategy_path, "resources"))
    rtcr_path = ra.child(strategy_path, "requestedToCapacityRatio")
    if strategy.type == REQUESTED_TO_CAPACITY_RATIO:
        if strategy.shape is None:
            errs.append(ra.required(rtcr_path, "must be specified when type is RequestedToCapacityRatio"))
        else:
            errs += ra.validate_function_shape(strategy.shape, ra.child(rtcr_path, "shape"))
    elif strategy.shape is not None:
        errs.append(ra.forbidden(rtcr_path, "must be nil when type is not RequestedToCapacityRatio"))
    return errs


__all__ = [
    "LEAST_ALLOCATED",
    "MOST_ALLOCATED",
    "NodeResourcesFitArgs",
    "REQUESTED_TO_CAPACITY_RATIO",
    "SUPPORTED_SCORING_STRATEGY_TYPES",
    "ScoringStrategy",
    "validate",
]
