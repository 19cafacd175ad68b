"""NodeAffinityArgs: v1 has no defaults; validation mirrors `ValidateNodeAffinityArgs`
(pkg/scheduler/apis/config/validation/validation_pluginargs.go)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Mapping

from ...codec import node_affinity_from_manifest, node_affinity_to_manifest
from ...errors import ConfigError, ManifestError
from ...field_errors import FieldError, raise_if_any
from ...registry import PluginArgs
from ...types import NodeAffinity
from .selector import NodeAffinityParseError, new_node_selector, new_preferred_scheduling_terms


@dataclass(frozen=True)
class NodeAffinityArgs(PluginArgs):
    KIND: ClassVar[str] = "NodeAffinityArgs"

    added_affinity: NodeAffinity | None = None

    @classmethod
    def from_config(cls, raw: Mapping[str, Any] | None, path: str) -> "NodeAffinityArgs":
        raw = raw or {}
        try:
            added = node_affinity_from_manifest(raw.get("addedAffinity"), f"{path}.addedAffinity")
        except ManifestError as err:
            raise ConfigError(str(err), field=f"{path}.addedAffinity") from None
        args = cls(added)
        args.validate(path)
        return args

    def validate(self, path: str) -> None:
        """Parse the added affinity as the plugin will; every parse error is reported, aggregated."""
        added = self.added_affinity
        if added is None:
            return
        prefix = f"{path}.addedAffinity" if path else "addedAffinity"
        errs: list[FieldError] = []
        if added.required is not None:
            try:
                new_node_selector(added.required, f"{prefix}.requiredDuringSchedulingIgnoredDuringExecution")
            except NodeAffinityParseError as err:
                errs.extend(err.errors)
        if added.preferred:
            try:
                new_preferred_scheduling_terms(
                    added.preferred, f"{prefix}.preferredDuringSchedulingIgnoredDuringExecution")
            except NodeAffinityParseError as err:
                errs.extend(err.errors)
        if errs:
            raise_if_any(errs)

    def to_config(self) -> dict[str, Any]:
        manifest = node_affinity_to_manifest(self.added_affinity)
        return {} if manifest is None else {"addedAffinity": manifest}

