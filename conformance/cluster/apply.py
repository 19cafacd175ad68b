"""Creating a Plan's objects on the API server, in the order the scheduler must see them."""

from __future__ import annotations

import uuid
from typing import Any, Mapping

from ..core.errors import BackendFailure
from .adapt import Plan
from .kube import Kube, KubeError, path

OWNER_API_VERSIONS = {"ReplicaSet": "apps/v1", "StatefulSet": "apps/v1", "ReplicationController": "v1",
                      "Service": "v1", "Job": "batch/v1", "DaemonSet": "apps/v1"}


def _create(kube: Kube, obj: Mapping[str, Any], *, exists_ok: bool = False) -> dict[str, Any]:
    meta = obj.get("metadata") or {}
    url = path(obj["kind"], meta.get("namespace"))
    try:
        return kube.create(url, obj)
    except KubeError as exc:
        if exists_ok and exc.status == 409:
            return dict(obj)
        where = f"{meta.get('namespace')}/{meta.get('name')}" if meta.get("namespace") else meta.get("name")
        raise BackendFailure(f"the API server refused {obj['kind']} {where}: {exc.message}") from None


def _patch_status(kube: Kube, kind: str, namespace: str, name: str, patch: Mapping[str, Any]) -> None:
    try:
        kube.merge_patch(path(kind, namespace or None, name, "status"), patch)
    except KubeError as exc:
        raise BackendFailure(f"the API server refused the status of {kind} {namespace}/{name}: {exc.message}") from None


def link_owners(pod: dict[str, Any], uids: Mapping[tuple[str, str, str], str]) -> None:
    """Owner references need apiVersion and uid: the created owner's, else a stable made-up one."""
    ns = pod["metadata"].get("namespace", "")
    for ref in pod["metadata"].get("ownerReferences") or []:
        ref.setdefault("apiVersion", OWNER_API_VERSIONS.get(ref.get("kind", ""), "v1"))
        if not ref.get("uid"):
            key = (ref.get("kind", ""), ns, ref.get("name", ""))
            ref["uid"] = uids.get(key) or str(uuid.uuid5(uuid.NAMESPACE_URL, "/".join(key)))


def setup(kube: Kube, plan: Plan) -> None:
    """Everything before the workload: classes, namespaces (+ default ServiceAccount), objects, nodes, bound pods."""
    for obj in plan.classes:
        _create(kube, obj, exists_ok=True)
    for ns in plan.namespaces:
        create_namespace(kube, ns)
    uids: dict[tuple[str, str, str], str] = {}
    for obj in plan.objects:
        made = _create(kube, obj)
        meta = made.get("metadata") or {}
        uids[(obj["kind"], meta.get("namespace", ""), meta.get("name", ""))] = meta.get("uid", "")
        status = plan.status.get((obj["kind"], meta.get("namespace", ""), meta.get("name", "")))
        if status:
            _patch_status(kube, obj["kind"], meta.get("namespace", ""), meta.get("name", ""), status)
    for node in plan.nodes:
        create_node(kube, node)
    for pod in [*plan.bound_pods, *plan.workload]:
        link_owners(pod, uids)
    for pod in plan.bound_pods:
        _create_pod(kube, plan, pod)


def create_node(kube: Kube, node: Mapping[str, Any]) -> None:
    made = _create(kube, node)
    wanted = node["spec"]["taints"]
    # TaintNodesByCondition adds node.kubernetes.io/not-ready on create; nothing here would lift it.
    if (made.get("spec") or {}).get("taints") != wanted:
        kube.merge_patch(path("Node", name=node["metadata"]["name"]), {"spec": {"taints": wanted}})


def create_namespace(kube: Kube, ns: Mapping[str, Any]) -> None:
    _create(kube, ns)
    # No controller-manager on the local control plane: the ServiceAccount admission needs it to exist.
    _create(kube, {"apiVersion": "v1", "kind": "ServiceAccount", "automountServiceAccountToken": False,
                   "metadata": {"name": "default", "namespace": ns["metadata"]["name"]}}, exists_ok=True)


def create_object(kube: Kube, obj: Mapping[str, Any], status: Mapping[str, Any]) -> None:
    """One object of any kind, as `setup` creates it; `status`: its status subresource patch, or {}."""
    if obj["kind"] == "Node":
        create_node(kube, obj)
        return
    if obj["kind"] == "Namespace":
        create_namespace(kube, obj)
        return
    meta = _create(kube, obj).get("metadata") or {}
    if status:
        _patch_status(kube, obj["kind"], meta.get("namespace", ""), meta.get("name", ""), status)


def _create_pod(kube: Kube, plan: Plan, pod: Mapping[str, Any]) -> None:
    made = _create(kube, pod)
    meta = made.get("metadata") or {}
    status = plan.status.get(("Pod", meta.get("namespace", ""), meta.get("name", "")))
    if status:
        _patch_status(kube, "Pod", meta.get("namespace", ""), meta.get("name", ""), status)


def create_workload(kube: Kube, plan: Plan) -> None:
    for pod in plan.workload:
        _create_pod(kube, plan, pod)


def bind(kube: Kube, namespace: str, name: str, uid: str, node: str) -> str | None:
    """A `pods/binding` create, as an extender's bind verb does; the error text or None."""
    body = {"apiVersion": "v1", "kind": "Binding", "metadata": {"name": name, "namespace": namespace, "uid": uid},
            "target": {"apiVersion": "v1", "kind": "Node", "name": node}}
    try:
        kube.create(path("Pod", namespace, name, "binding"), body)
    except KubeError as exc:
        return exc.message
    return None


__all__ = ["OWNER_API_VERSIONS", "bind", "create_namespace", "create_node", "create_object", "create_workload",
           "link_owners", "setup"]
