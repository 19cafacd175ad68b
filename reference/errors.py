"""Errors raised by the reference implementation; one hierarchy, messages name the value and the fix."""


class ReferenceError_(Exception):
    """Base class of every error raised by the `reference` package."""


class ManifestError(ReferenceError_, ValueError):
    """A Kubernetes manifest could not be read (wrong shape, bad quantity)."""


class ConfigError(ReferenceError_, ValueError):
    """A KubeSchedulerConfiguration is invalid; `field` is the upstream field path."""

    def __init__(self, message: str, field: str = "") -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}" if field else message)


class FrameworkError(ReferenceError_):
    """Framework construction failed (upstream `NewFramework` errors)."""


class NotModelledError(ReferenceError_, ValueError):
    """The scenario uses a feature the reference does not model (volumes, resource claims)."""


__all__ = ["ReferenceError_", "ManifestError", "ConfigError", "FrameworkError", "NotModelledError"]
