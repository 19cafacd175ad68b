"""Mirrors pkg/scheduler/apis/config/v1/defaults.go and validation/validation_pluginargs.go (InterPodAffinityArgs)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Mapping

from ...errors import ConfigError
from ...registry import PluginArgs
from ..resource_args import child, invalid, raise_if_any

DEFAULT_HARD_POD_AFFINITY_WEIGHT = 1
MIN_HARD_POD_AFFINITY_WEIGHT = 0
MAX_HARD_POD_AFFINITY_WEIGHT = 100


@dataclass(frozen=True)
class InterPodAffinityArgs(PluginArgs):
    KIND: ClassVar[str] = "InterPodAffinityArgs"

    hard_pod_affinity_weight: int = DEFAULT_HARD_POD_AFFINITY_WEIGHT
    ignore_preferred_terms_of_existing_pods: bool = False

    @classmethod
    def from_config(cls, raw: Mapping[str, Any] | None, path: str) -> "InterPodAffinityArgs":
        raw = raw or {}
        weight = raw.get("hardPodAffinityWeight")
        ignore = raw.get("ignorePreferredTermsOfExistingPods", False)
        if weight is not None and (isinstance(weight, bool) or not isinstance(weight, int)):
            raise ConfigError(f"expected an integer, got {weight!r}", field=child(path, "hardPodAffinityWeight"))
        if not isinstance(ignore, bool):
            raise ConfigError(f"expected a boolean, got {ignore!r}",
                              field=child(path, "ignorePreferredTermsOfExistingPods"))
        args = cls(DEFAULT_HARD_POD_AFFINITY_WEIGHT if weight is None else weight, ignore)
        args.validate(path)
        return args

    def validate(self, path: str) -> None:
        """`ValidateInterPodAffinityArgs`: the weight must lie in [0, 100]."""
        w = self.hard_pod_affinity_weight
        if not MIN_HARD_POD_AFFINITY_WEIGHT <= w <= MAX_HARD_POD_AFFINITY_WEIGHT:
            raise_if_any([invalid(child(path, "hardPodAffinityWeight"), w, f"not in valid range "
                                  f"[{MIN_HARD_POD_AFFINITY_WEIGHT}, {MAX_HARD_POD_AFFINITY_WEIGHT}]")])

    def to_config(self) -> dict[str, Any]:
        return {"hardPodAffinityWeight": self.hard_pod_affinity_weight,
                "ignorePreferredTermsOfExistingPods": self.ignore_preferred_terms_of_existing_pods}


__all__ = ["DEFAULT_HARD_POD_AFFINITY_WEIGHT", "InterPodAffinityArgs"]
