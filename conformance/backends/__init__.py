"""Backends by name: `reference`, `upstream`, `cluster`, or `python:package.module:factory`."""

from __future__ import annotations

import importlib
import inspect
from typing import Any

from ..core.errors import BackendUnavailable
from .base import CAPABILITIES, Backend

BUILTIN = ("reference", "upstream", "cluster")


def make_backend(spec: str, **options: Any) -> Backend:
    """Start the backend named by `spec`; raise BackendUnavailable with a one-line fix when it cannot start."""
    if spec == "reference":
        from .reference import ReferenceBackend
        return ReferenceBackend(extender_server=options.get("extender_server"))
    if spec == "upstream":
        from .upstream import UpstreamBackend
        return UpstreamBackend(**_only(options, "extender_server", "extender_url", "runner"))
    if spec == "cluster":
        from ..cluster.target import open_backend
        return open_backend(**options)
    if spec.startswith("python:"):
        return _python_backend(spec[len("python:"):], options)
    raise BackendUnavailable(f"backend {spec!r} is unknown; use one of {', '.join(BUILTIN)} "
                             "or python:package.module:factory")


def _python_backend(target: str, options: dict[str, Any]) -> Backend:
    module_name, _, attr = target.partition(":")
    if not module_name or not attr:
        raise BackendUnavailable(f"backend 'python:{target}' needs the form python:package.module:factory")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise BackendUnavailable(f"backend 'python:{target}': cannot import {module_name!r} ({exc}); "
                                 "install it or fix PYTHONPATH") from None
    factory = getattr(module, attr, None)
    if not callable(factory):
        raise BackendUnavailable(f"backend 'python:{target}': {module_name} has no callable {attr!r}")
    backend = factory(**_accepted(factory, options))
    missing = [a for a in ("name", "capabilities", "run", "close") if not hasattr(backend, a)]
    if missing:
        raise BackendUnavailable(f"backend 'python:{target}': the factory's object lacks {', '.join(missing)}; "
                                 "see conformance.backends.base.Backend")
    unknown = sorted(set(backend.capabilities) - set(CAPABILITIES))
    if unknown:
        raise BackendUnavailable(f"backend 'python:{target}' declares unknown capability {unknown[0]!r}; "
                                 f"known: {', '.join(CAPABILITIES)}")
    return backend


def _accepted(factory: Any, options: dict[str, Any]) -> dict[str, Any]:
    """The options a user's factory declares (all of them if it takes **kwargs); a factory without
    parameters is called without the suite's extender server."""
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return {}
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return dict(options)
    names = {p.name for p in params if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)}
    return {k: v for k, v in options.items() if k in names}


def _only(options: dict[str, Any], *names: str) -> dict[str, Any]:
    return {k: v for k, v in options.items() if k in names and v is not None}


__all__ = ["BUILTIN", "Backend", "make_backend"]
