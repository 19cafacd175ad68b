"""Refuse contexts that do not look like a test cluster, unless the user says --allow-any-cluster.

The suite creates and deletes Nodes; on a production cluster that is never what anybody wants.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

from ..core.errors import BackendUnavailable
from .kubeconfig import LOCAL_CONTEXT, Target

# Names the common local and CI cluster tools give their contexts and clusters.
TEST_NAME = re.compile(r"^(kind-|k3d-|minikube|docker-desktop|rancher-desktop|colima|microk8s|kwok-|envtest"
                       r"|orbstack|" + re.escape(LOCAL_CONTEXT) + r")|(^|[-_.])(test|testing|ci|e2e|dev|sandbox"
                       r"|scratch|conformance)([-_.]|$)")


def _loopback(server: str) -> bool:
    host = urlsplit(server).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def looks_like_test_cluster(target: Target) -> str | None:
    """Why `target` looks like a test cluster, or None when nothing says so."""
    if _loopback(target.server):
        return f"its server {target.server} is on this machine"
    for kind, name in (("context", target.context), ("cluster", target.cluster)):
        if TEST_NAME.search(name.lower()):
            return f"its {kind} is called {name!r}"
    return None


def ensure_test_cluster(target: Target, *, allow_any_cluster: bool) -> str:
    """The reason the target is acceptable; raises when it is not a test cluster and not allowed anyway."""
    reason = looks_like_test_cluster(target)
    if reason:
        return reason
    if allow_any_cluster:
        return "--allow-any-cluster was given"
    raise BackendUnavailable(
        f"context {target.context!r} (server {target.server or '?'}) does not look like a test cluster: the "
        "suite creates and deletes Nodes there; use a kind/k3d/minikube/local context, or pass "
        "--allow-any-cluster if you mean it")


__all__ = ["TEST_NAME", "ensure_test_cluster", "looks_like_test_cluster"]
