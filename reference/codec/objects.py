"""Nodes, namespaces, workloads, PodDisruptionBudgets, and reading any supported kind (classes: classes.py)."""

from __future__ import annotations

import datetime
from typing import Any, Callable, Iterable, Mapping

import yaml

from .. import types as t
from ..errors import ManifestError
from ._fields import (Manifest, drop_empty, fmt_resources, get_field, get_list, get_resources, get_str_map,
                      get_strs, read_metadata)
from .classes import priority_class_from_manifest, runtime_class_from_manifest
from .pods import pod_from_manifest
from .selectors import label_selector_to_manifest, opt_selector
from .volumes import VOLUME_READERS

# --- nodes and other objects ---------------------------------------------------------------

def _taint(o: Mapping, path: str) -> t.Taint:
    return t.Taint(key=get_field(o, "key", str, path, ""), value=get_field(o, "value", str, path, ""),
                   effect=get_field(o, "effect", str, path, ""))


def _image(o: Mapping, path: str) -> t.ContainerImage:
    return t.ContainerImage(names=get_strs(o, "names", path), size_bytes=get_field(o, "sizeBytes", int, path, 0))


def node_from_manifest(m: Mapping) -> t.Node:
    """Read a Node manifest; raises `ManifestError` naming the bad field."""
    meta, name = read_metadata(m, "Node")
    spec = get_field(m, "spec", dict, "Node", {})
    status = get_field(m, "status", dict, "Node", {})
    return t.Node(
        name=name,
        uid=get_field(meta, "uid", str, "Node.metadata", ""),
        labels=get_str_map(meta, "labels", "Node.metadata"),
        annotations=get_str_map(meta, "annotations", "Node.metadata"),
        taints=get_list(spec, "taints", "Node.spec", _taint),
        unschedulable=bool(get_field(spec, "unschedulable", bool, "Node.spec", False)),
        capacity=get_resources(status, "capacity", "Node.status"),
        allocatable=get_resources(status, "allocatable", "Node.status"),
        images=get_list(status, "images", "Node.status", _image),
        declared_features=get_strs(status, "declaredFeatures", "Node.status"),
    )


def node_to_manifest(n: t.Node) -> Manifest:
    """Write a Node manifest that `node_from_manifest` reads back to an equal Node."""
    return {
        "apiVersion": "v1", "kind": "Node",
        "metadata": drop_empty({"name": n.name, "uid": n.uid, "labels": dict(n.labels),
                                 "annotations": dict(n.annotations)}),
        "spec": drop_empty({"unschedulable": n.unschedulable or None,
                             "taints": [drop_empty({"key": x.key, "value": x.value, "effect": x.effect})
                                        for x in n.taints]}),
        "status": drop_empty({
            "capacity": fmt_resources(n.capacity), "allocatable": fmt_resources(n.allocatable),
            "images": [drop_empty({"names": list(i.names), "sizeBytes": i.size_bytes}) for i in n.images],
            "declaredFeatures": list(n.declared_features)}),
    }


_SELECTOR_MAP_KINDS = ("Service", "ReplicationController")
WORKLOAD_KINDS = ("Service", "ReplicationController", "ReplicaSet", "StatefulSet")


def workload_from_manifest(m: Mapping) -> t.Workload:
    kind = get_field(m, "kind", str, "object", "")
    meta, name = read_metadata(m, kind or "object")
    spec = get_field(m, "spec", dict, kind, {})
    if kind in _SELECTOR_MAP_KINDS:
        selector = t.LabelSelector(match_labels=get_str_map(spec, "selector", f"{kind}.spec"))
    else:
        selector = opt_selector(spec, "selector", f"{kind}.spec") or t.LabelSelector()
    return t.Workload(kind=kind, name=name, selector=selector,
                      namespace=get_field(meta, "namespace", str, f"{kind}.metadata", t.DEFAULT_NAMESPACE))


def workload_to_manifest(w: t.Workload) -> Manifest:
    api_version = "v1" if w.kind in _SELECTOR_MAP_KINDS else "apps/v1"
    if w.kind in _SELECTOR_MAP_KINDS:
        selector: Any = dict(w.selector.match_labels)
    else:
        selector = label_selector_to_manifest(w.selector)
    return {"apiVersion": api_version, "kind": w.kind,
            "metadata": {"name": w.name, "namespace": w.namespace}, "spec": {"selector": selector}}


def _rfc3339(value: Any, path: str) -> str:
    """A metav1.Time as text; YAML reads an unquoted timestamp as a datetime."""
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=datetime.timezone.utc)
        return value.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    if not isinstance(value, str):
        raise ManifestError(f"{path}: expected an RFC 3339 time, got {value!r}; fix the manifest field")
    return value


def pdb_from_manifest(m: Mapping) -> t.PodDisruptionBudget:
    meta, name = read_metadata(m, "PodDisruptionBudget")
    spec = get_field(m, "spec", dict, "PodDisruptionBudget", {})
    status = get_field(m, "status", dict, "PodDisruptionBudget", {})
    return t.PodDisruptionBudget(
        name=name, namespace=get_field(meta, "namespace", str, "PodDisruptionBudget.metadata", t.DEFAULT_NAMESPACE),
        selector=opt_selector(spec, "selector", "PodDisruptionBudget.spec"),
        min_available=spec.get("minAvailable"), max_unavailable=spec.get("maxUnavailable"),
        disruptions_allowed=get_field(status, "disruptionsAllowed", int, "PodDisruptionBudget.status", 0),
        disrupted_pods={str(pod): _rfc3339(at, f"PodDisruptionBudget.status.disruptedPods.{pod}") for pod, at in
                        get_field(status, "disruptedPods", dict, "PodDisruptionBudget.status", {}).items()})


def pdb_to_manifest(p: t.PodDisruptionBudget) -> Manifest:
    manifest: Manifest = {
        "apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
        "metadata": {"name": p.name, "namespace": p.namespace},
        "spec": drop_empty({"selector": label_selector_to_manifest(p.selector),
                             "minAvailable": p.min_available, "maxUnavailable": p.max_unavailable}),
    }
    status = drop_empty({"disruptionsAllowed": p.disruptions_allowed or None, "disruptedPods": dict(p.disrupted_pods)})
    if status:
        manifest["status"] = status
    return manifest


def namespace_from_manifest(m: Mapping) -> t.Namespace:
    meta, name = read_metadata(m, "Namespace")
    return t.Namespace(name=name, labels=get_str_map(meta, "labels", "Namespace.metadata"))


def namespace_to_manifest(n: t.Namespace) -> Manifest:
    return {"apiVersion": "v1", "kind": "Namespace",
            "metadata": drop_empty({"name": n.name, "labels": dict(n.labels)})}


_READERS: dict[str, Callable[[Mapping], Any]] = {
    "Pod": pod_from_manifest, "Node": node_from_manifest, "Namespace": namespace_from_manifest,
    "PodDisruptionBudget": pdb_from_manifest, "PriorityClass": priority_class_from_manifest,
    "RuntimeClass": runtime_class_from_manifest,
    **{kind: workload_from_manifest for kind in WORKLOAD_KINDS}, **VOLUME_READERS,
}


def from_manifest(m: Mapping) -> Any:
    """Read any supported object by its `kind`."""
    kind = m.get("kind") if isinstance(m, Mapping) else None
    reader = _READERS.get(kind or "")
    if reader is None:
        raise ManifestError(f"kind {kind!r} is not supported; supported kinds: {', '.join(sorted(_READERS))}")
    return reader(m)


def load_manifests(text: str) -> list[Any]:
    """Read every document of a (multi-document) YAML string into domain objects."""
    try:
        docs = [d for d in yaml.safe_load_all(text) if d is not None]
    except yaml.YAMLError as exc:
        raise ManifestError(f"not valid YAML: {str(exc).splitlines()[0]}") from None
    objects: list[Any] = []
    for doc in docs:
        items: Iterable = doc.get("items", []) if doc.get("kind", "").endswith("List") else [doc]
        objects.extend(from_manifest(item) for item in items)
    return objects
