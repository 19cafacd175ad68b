"""Errors of the conformance package: one hierarchy; messages name the bad value, then the fix."""


class ConformanceError(Exception):
    """Base of every error the suite raises about its own inputs and backends."""


class BackendUnavailable(ConformanceError):
    """A backend cannot start (not built, unknown target, no kubeconfig); the message names the fix."""


class BackendFailure(ConformanceError):
    """A started backend failed while running a scenario (crash, protocol error, timeout)."""


__all__ = ["BackendFailure", "BackendUnavailable", "ConformanceError"]
