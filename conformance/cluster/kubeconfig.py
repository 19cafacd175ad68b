"""Kubeconfig files: the one `cluster up` writes, and reading the target context of any other."""

from __future__ import annotations

import base64
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import yaml

from ..core.errors import BackendUnavailable

LOCAL_CONTEXT = "sched-conformance-local"


def build(server: str, ca_pem: bytes, token: str, *, name: str = LOCAL_CONTEXT) -> dict[str, Any]:
    """A kubeconfig with one cluster, one token user and one context, all called `name`."""
    return {
        "apiVersion": "v1", "kind": "Config", "current-context": name, "preferences": {},
        "clusters": [{"name": name, "cluster": {
            "server": server, "certificate-authority-data": base64.b64encode(ca_pem).decode()}}],
        "users": [{"name": name, "user": {"token": token}}],
        "contexts": [{"name": name, "context": {"cluster": name, "user": name}}],
    }


def write(path: Path, config: Mapping[str, Any]) -> None:
    """Written 0600: it holds an admin token."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        yaml.safe_dump(dict(config), fh, sort_keys=False)


@dataclass(frozen=True)
class Target:
    """The context a backend would talk to: names and server URL, as the safety check sees them."""

    path: str
    context: str
    cluster: str
    server: str


def default_path() -> str:
    env = os.environ.get("KUBECONFIG", "")
    return env.split(os.pathsep)[0] if env else str(Path.home() / ".kube" / "config")


def read_target(path: str | None, context: str | None) -> Target:
    """Resolve `context` (or the current one) in the kubeconfig at `path` (or $KUBECONFIG, ~/.kube/config)."""
    path = path or default_path()
    try:
        data = yaml.safe_load(Path(path).read_text()) or {}
    except OSError as exc:
        raise BackendUnavailable(f"backend 'cluster' cannot read kubeconfig {path!r} ({exc.strerror}); pass "
                                 "--kubeconfig or run `sched-conformance cluster up`") from None
    except yaml.YAMLError:
        raise BackendUnavailable(f"kubeconfig {path!r} is not valid YAML; pass a kubeconfig file") from None
    name = context or data.get("current-context") or ""
    contexts = {c.get("name"): c.get("context") or {} for c in data.get("contexts") or [] if isinstance(c, dict)}
    if name not in contexts:
        known = ", ".join(sorted(str(k) for k in contexts)) or "none"
        raise BackendUnavailable(f"context {name!r} is not in kubeconfig {path!r} (contexts: {known}); "
                                 "pass --context with one of them")
    cluster = str(contexts[name].get("cluster") or "")
    clusters = {c.get("name"): c.get("cluster") or {} for c in data.get("clusters") or [] if isinstance(c, dict)}
    server = str((clusters.get(cluster) or {}).get("server") or "")
    return Target(path=str(path), context=str(name), cluster=cluster, server=server)


__all__ = ["LOCAL_CONTEXT", "Target", "build", "default_path", "read_target", "write"]
