"""`load_config`: decode, default and validate a KubeSchedulerConfiguration, as kube-scheduler's
`--config` does (cmd/kube-scheduler/app/options: loadConfigFromFile, then Validate)."""

from __future__ import annotations

from typing import Any, Mapping

from ..registry import Registry
from .decode import decode_config
from .defaults import set_defaults
from .model import KubeSchedulerConfiguration
from .validation import validate_config


def load_config(text_or_mapping: str | bytes | Mapping[str, Any], *, registry: Registry | None = None,
                features: Mapping[str, bool] | None = None, validate: bool = True) -> KubeSchedulerConfiguration:
    """YAML/JSON text or a mapping -> a defaulted (and, unless `validate=False`, valid) configuration.

    `features` overrides the v1.37.2 defaults of the gates in `FEATURE_DEFAULTS`. Raises ConfigError
    whose str() is `<field path>: <upstream message>`, or `[a, b]` for several validation errors.
    """
    if registry is None:
        from ..plugins import in_tree_registry
        registry = in_tree_registry()
    config = set_defaults(decode_config(text_or_mapping, registry=registry), registry=registry, features=features)
    if validate:
        validate_config(config, registry=registry)
    return config


__all__ = ["load_config"]
