"""Scenario objects other than pods and nodes (PDBs, Services, ReplicaSets, ...) as valid API objects.

The scheduler reads only their selectors (and a PDB's `status.disruptionsAllowed`), but the API
server validates the whole object: controllers get a pod template matching the selector and zero
replicas (so that no controller makes pods), a Service without ports becomes headless.
"""

from __future__ import annotations

import copy
from typing import Any, Mapping

from reference.kinds import VOLUME_KINDS

from ..core.errors import BackendFailure
from .naming import NamespaceMap

_SERVER_SET = ("uid", "resourceVersion", "creationTimestamp", "generation", "managedFields", "selfLink")
_CONTROLLERS = ("ReplicaSet", "StatefulSet", "ReplicationController")

Manifest = dict[str, Any]


class ScenarioNotSupported(BackendFailure):
    """The scenario holds something an API server does not accept; the message names it."""


def refuse_storage(kind: str, where: str) -> None:
    """Storage objects stay off clusters: their PV controller would bind and provision claims and the API
    server resets a PV's phase, a cluster the scenario does not describe (issue 29)."""
    if kind in VOLUME_KINDS:
        raise ScenarioNotSupported(f"{where}: a {kind} is not run on a cluster (its PV controller binds and "
                                   "provisions claims the scenario does not describe); run storage scenarios "
                                   "with --backend reference or upstream")


def clean_meta(m: Mapping[str, Any], labels: Mapping[str, str], annotations: Mapping[str, str] | None = None) -> Manifest:
    """A deep copy without server-set metadata, with `labels` (and `annotations`) added."""
    out = copy.deepcopy(dict(m))
    meta = out.setdefault("metadata", {})
    for key in _SERVER_SET:
        meta.pop(key, None)
    meta["labels"] = {**(meta.get("labels") or {}), **labels}
    if annotations:
        meta["annotations"] = {**(meta.get("annotations") or {}), **annotations}
    return out


def template_labels(selector: Mapping[str, Any]) -> dict[str, str]:
    """Labels that a metav1.LabelSelector (or a plain map) selects: for a controller's pod template."""
    if "matchLabels" not in selector and "matchExpressions" not in selector:
        return {str(k): str(v) for k, v in selector.items()}
    out = {str(k): str(v) for k, v in (selector.get("matchLabels") or {}).items()}
    for expr in selector.get("matchExpressions") or []:
        op, key, values = expr.get("operator"), expr.get("key"), expr.get("values") or []
        if op == "In" and key not in out:
            out[key] = values[0]
        elif op == "Exists" and key not in out:
            out[key] = "sched-conformance"
        elif op == "NotIn" and out.get(key) in values:
            raise ScenarioNotSupported(f"selector {dict(selector)} selects nothing; give it a satisfiable selector")
    return out


def namespaced_object(m: Mapping[str, Any], nsmap: NamespaceMap, labels: Mapping[str, str]) -> tuple[Manifest, Manifest]:
    """(the object to create, a status patch to apply after creating it, or {})."""
    kind = m["kind"]
    obj = clean_meta(m, labels)
    meta = obj["metadata"]
    key = f"{kind} {meta.get('namespace') or 'default'}/{meta.get('name')}"
    meta["namespace"] = nsmap.to_cluster(meta.get("namespace") or "default")
    status = obj.pop("status", None) or {}
    spec = obj.setdefault("spec", {})
    if kind == "Service" and not spec.get("ports"):
        spec["clusterIP"] = "None"
    if kind in _CONTROLLERS:
        selector = spec.get("selector") or {}
        selected = template_labels(selector)
        if not selected:
            raise ScenarioNotSupported(f"{key} has an empty selector, which the API server rejects; give it one")
        if kind != "ReplicationController" and "matchLabels" not in selector and "matchExpressions" not in selector:
            spec["selector"] = {"matchLabels": selector}
        spec["replicas"] = 0
        template = spec.setdefault("template", {})
        template.setdefault("metadata", {})["labels"] = {**(template.get("metadata", {}).get("labels") or {}),
                                                         **selected}
        template.setdefault("spec", {}).setdefault("containers", [{"name": "c0", "image": "sched-conformance.invalid/placeholder:0"}])
    return obj, ({"status": status} if kind == "PodDisruptionBudget" and status else {})


__all__ = ["ScenarioNotSupported", "clean_meta", "namespaced_object", "refuse_storage", "template_labels"]
