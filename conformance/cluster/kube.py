"""The only module that talks to the Kubernetes client: raw JSON over paths, no generated models.

Objects stay plain dicts (like the scenario's manifests); the official client gives us config
loading, authentication and TLS.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Iterator, Mapping

import urllib3
from kubernetes import client as k8s_client
from kubernetes import config as k8s_config

from ..core.errors import BackendFailure, BackendUnavailable

# kind -> (API group path, resource, namespaced)
RESOURCES: dict[str, tuple[str, str, bool]] = {
    "Namespace": ("/api/v1", "namespaces", False),
    "Node": ("/api/v1", "nodes", False),
    "Pod": ("/api/v1", "pods", True),
    "ServiceAccount": ("/api/v1", "serviceaccounts", True),
    "Service": ("/api/v1", "services", True),
    "ReplicationController": ("/api/v1", "replicationcontrollers", True),
    "ReplicaSet": ("/apis/apps/v1", "replicasets", True),
    "StatefulSet": ("/apis/apps/v1", "statefulsets", True),
    "PodDisruptionBudget": ("/apis/policy/v1", "poddisruptionbudgets", True),
    "PriorityClass": ("/apis/scheduling.k8s.io/v1", "priorityclasses", False),
    "RuntimeClass": ("/apis/node.k8s.io/v1", "runtimeclasses", False),
    "Event": ("/apis/events.k8s.io/v1", "events", True),
    "CustomResourceDefinition": ("/apis/apiextensions.k8s.io/v1", "customresourcedefinitions", False),
}


class KubeError(Exception):
    """A non-2xx answer: `status` is the HTTP code, `reason` the Status reason (NotFound, AlreadyExists...)."""

    def __init__(self, status: int, reason: str, message: str) -> None:
        super().__init__(f"{status} {reason}: {message}")
        self.status, self.reason, self.message = status, reason, message


def path(kind: str, namespace: str | None = None, name: str | None = None, sub: str | None = None) -> str:
    group, resource, namespaced = RESOURCES[kind]
    out = f"{group}/namespaces/{namespace}/{resource}" if namespaced and namespace else f"{group}/{resource}"
    if name:
        out += f"/{name}"
    if sub:
        out += f"/{sub}"
    return out


class Kube:
    def __init__(self, api: k8s_client.ApiClient) -> None:
        self.api = api

    @classmethod
    def connect(cls, kubeconfig: str | None, context: str | None = None) -> "Kube":
        try:
            return cls(k8s_config.new_client_from_config(config_file=kubeconfig, context=context))
        except (k8s_config.ConfigException, OSError) as exc:
            raise BackendUnavailable(f"cannot load kubeconfig {kubeconfig or '(default)'} context "
                                     f"{context or '(current)'}: {exc}; pass --kubeconfig/--context") from None

    def close(self) -> None:
        self.api.close()

    def _call(self, method: str, url: str, *, body: Any = None, query: Mapping[str, Any] | None = None,
              content_type: str = "application/json", timeout: float | None = 30.0) -> Any:
        request = self.api.param_serialize(method, url, query_params=[(k, v) for k, v in (query or {}).items()
                                                                      if v is not None],
                                           header_params={"Accept": "application/json", "Content-Type": content_type},
                                           body=body, auth_settings=["BearerToken"])
        try:
            resp = self.api.call_api(*request, _request_timeout=timeout)
        except urllib3.exceptions.HTTPError as exc:
            raise BackendFailure(f"cannot reach the API server at {self.api.configuration.host} ({type(exc).__name__}); "
                                 "check it with `sched-conformance cluster status` or kubectl") from None
        return resp.response

    def request(self, method: str, url: str, **kw: Any) -> dict[str, Any]:
        resp = self._call(method, url, **kw)
        data = resp.data if hasattr(resp, "data") else resp.read()
        try:
            decoded = json.loads(data) if data else {}
        except ValueError:  # e.g. "404 page not found" for an API group the server does not serve
            decoded = {"message": data[:200].decode(errors="replace") if isinstance(data, bytes) else str(data)[:200]}
        if not 200 <= resp.status < 300:
            raise KubeError(resp.status, str(decoded.get("reason", "")), str(decoded.get("message", data[:200])))
        return decoded

    # --- verbs ----------------------------------------------------------------------------------

    def get(self, url: str) -> dict[str, Any] | None:
        try:
            return self.request("GET", url)
        except KubeError as exc:
            if exc.status == 404:
                return None
            raise

    def list(self, url: str, *, label_selector: str | None = None) -> tuple[list[dict[str, Any]], str]:
        data = self.request("GET", url, query={"labelSelector": label_selector})
        return list(data.get("items") or []), str((data.get("metadata") or {}).get("resourceVersion", ""))

    def create(self, url: str, body: Mapping[str, Any]) -> dict[str, Any]:
        return self.request("POST", url, body=dict(body))

    def merge_patch(self, url: str, body: Mapping[str, Any]) -> dict[str, Any]:
        return self.request("PATCH", url, body=dict(body), content_type="application/merge-patch+json")

    def put(self, url: str, body: Mapping[str, Any]) -> dict[str, Any]:
        return self.request("PUT", url, body=dict(body))

    def delete(self, url: str, *, grace: int | None = None) -> bool:
        """False when it was already gone."""
        body = {"apiVersion": "v1", "kind": "DeleteOptions", "gracePeriodSeconds": grace,
                "propagationPolicy": "Background"}
        try:
            self.request("DELETE", url, body={k: v for k, v in body.items() if v is not None})
        except KubeError as exc:
            if exc.status == 404:
                return False
            raise
        return True

    def delete_collection(self, url: str, *, label_selector: str | None = None, grace: int | None = None) -> None:
        body = {"apiVersion": "v1", "kind": "DeleteOptions", "gracePeriodSeconds": grace}
        self.request("DELETE", url, query={"labelSelector": label_selector},
                     body={k: v for k, v in body.items() if v is not None})

    def watch(self, url: str, *, resource_version: str, label_selector: str | None = None, timeout: float,
              on_open: Callable[[Any], None] = lambda resp: None) -> Iterator[tuple[str, dict[str, Any]]]:
        """(type, object) events after `resource_version` until the server ends the watch at `timeout`.

        `on_open` receives the HTTP response, so another thread can close() it to end the watch early.
        """
        seconds = max(1, int(timeout + 0.999))
        resp = self._call("GET", url, query={"watch": "true", "resourceVersion": resource_version,
                                             "labelSelector": label_selector, "timeoutSeconds": seconds,
                                             "allowWatchBookmarks": "false"}, timeout=seconds + 5)
        if not 200 <= resp.status < 300:
            data = resp.read()
            raise KubeError(resp.status, "", data[:200].decode(errors="replace"))
        on_open(resp)
        try:
            buf = b""
            for chunk in resp.stream(4096, decode_content=True):
                buf += chunk
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    if line.strip():
                        event = json.loads(line)
                        yield str(event.get("type", "")), event.get("object") or {}
        finally:
            resp.close()


__all__ = ["Kube", "KubeError", "RESOURCES", "path"]
