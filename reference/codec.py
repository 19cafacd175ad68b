"""The one codec between Kubernetes manifests (dicts / YAML) and `reference.types`."""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping, TypeVar

import yaml

from . import types as t
from .errors import ManifestError
from .quantity import format_resource, resource_value

T = TypeVar("T")
Manifest = dict[str, Any]


def _get(obj: Mapping, key: str, kind: type, path: str, default: Any = None) -> Any:
    value = obj.get(key, default) if isinstance(obj, Mapping) else default
    if value is None:
        return default
    if kind is int and isinstance(value, bool):
        raise ManifestError(f"{path}.{key}: expected an integer, got {value!r}")
    if not isinstance(value, kind):
        expected = {int: "an integer", str: "a string", bool: "a boolean", list: "a list", dict: "a mapping"}[kind]
        raise ManifestError(f"{path}.{key}: expected {expected}, got {value!r}; fix the manifest field")
    return value


def _list(obj: Mapping, key: str, path: str, read: Callable[[Mapping, str], T]) -> tuple[T, ...]:
    items = _get(obj, key, list, path, [])
    return tuple(read(item, f"{path}.{key}[{i}]") for i, item in enumerate(items))


def _strs(obj: Mapping, key: str, path: str) -> tuple[str, ...]:
    return tuple(str(v) for v in _get(obj, key, list, path, []))


def _str_map(obj: Mapping, key: str, path: str) -> dict[str, str]:
    return {str(k): str(v) for k, v in _get(obj, key, dict, path, {}).items()}


def _resources(obj: Mapping, key: str, path: str) -> dict[str, int]:
    return {
        name: resource_value(name, value, f"{path}.{key}.{name}")
        for name, value in _get(obj, key, dict, path, {}).items()
    }


def _drop_empty(d: dict[str, Any], keep: tuple[str, ...] = ()) -> dict[str, Any]:
    """Drop unset fields; `keep` names fields where an empty `{}` means something (a selector)."""
    return {k: v for k, v in d.items() if v is not None and (k in keep or v not in ("", [], {}, ()))}


def _fmt_resources(resources: t.ResourceList) -> dict[str, str]:
    return {name: format_resource(name, v) for name, v in resources.items()}


# --- selectors -------------------------------------------------------------------------------

def _node_req(o: Mapping, path: str) -> t.NodeSelectorRequirement:
    return t.NodeSelectorRequirement(
        key=_get(o, "key", str, path, ""), operator=_get(o, "operator", str, path, ""),
        values=_strs(o, "values", path))


def _node_term(o: Mapping, path: str) -> t.NodeSelectorTerm:
    return t.NodeSelectorTerm(
        match_expressions=_list(o, "matchExpressions", path, _node_req),
        match_fields=_list(o, "matchFields", path, _node_req))


def _label_req(o: Mapping, path: str) -> t.LabelSelectorRequirement:
    return t.LabelSelectorRequirement(
        key=_get(o, "key", str, path, ""), operator=_get(o, "operator", str, path, ""),
        values=_strs(o, "values", path))


def label_selector_from_manifest(o: Mapping | None, path: str = "selector") -> t.LabelSelector | None:
    if o is None:
        return None
    return t.LabelSelector(
        match_labels=_str_map(o, "matchLabels", path),
        match_expressions=_list(o, "matchExpressions", path, _label_req))


def _opt_selector(o: Mapping, key: str, path: str) -> t.LabelSelector | None:
    return label_selector_from_manifest(_get(o, key, dict, path), f"{path}.{key}")


def _req_out(r: t.NodeSelectorRequirement | t.LabelSelectorRequirement) -> Manifest:
    return _drop_empty({"key": r.key, "operator": r.operator, "values": list(r.values)})


def _term_out(term: t.NodeSelectorTerm) -> Manifest:
    return _drop_empty({
        "matchExpressions": [_req_out(r) for r in term.match_expressions],
        "matchFields": [_req_out(r) for r in term.match_fields],
    })


def label_selector_to_manifest(s: t.LabelSelector | None) -> Manifest | None:
    if s is None:
        return None
    return _drop_empty({
        "matchLabels": dict(s.match_labels),
        "matchExpressions": [_req_out(r) for r in s.match_expressions],
    })


# --- affinity --------------------------------------------------------------------------------

def _pod_term(o: Mapping, path: str) -> t.PodAffinityTerm:
    return t.PodAffinityTerm(
        topology_key=_get(o, "topologyKey", str, path, ""),
        label_selector=_opt_selector(o, "labelSelector", path),
        namespaces=_strs(o, "namespaces", path),
        namespace_selector=_opt_selector(o, "namespaceSelector", path),
        match_label_keys=_strs(o, "matchLabelKeys", path),
        mismatch_label_keys=_strs(o, "mismatchLabelKeys", path))


def _weighted_pod_term(o: Mapping, path: str) -> t.WeightedPodAffinityTerm:
    return t.WeightedPodAffinityTerm(
        weight=_get(o, "weight", int, path, 0),
        term=_pod_term(_get(o, "podAffinityTerm", dict, path, {}), f"{path}.podAffinityTerm"))


def _pod_affinity(o: Mapping | None, path: str) -> t.PodAffinity | None:
    if o is None:
        return None
    return t.PodAffinity(
        required=_list(o, "requiredDuringSchedulingIgnoredDuringExecution", path, _pod_term),
        preferred=_list(o, "preferredDuringSchedulingIgnoredDuringExecution", path, _weighted_pod_term))


def _preferred_node_term(o: Mapping, path: str) -> t.PreferredSchedulingTerm:
    return t.PreferredSchedulingTerm(
        weight=_get(o, "weight", int, path, 0),
        preference=_node_term(_get(o, "preference", dict, path, {}), f"{path}.preference"))


def node_selector_from_manifest(o: Mapping | None, path: str) -> t.NodeSelector | None:
    if o is None:
        return None
    return t.NodeSelector(terms=_list(o, "nodeSelectorTerms", path, _node_term))


def node_affinity_from_manifest(o: Mapping | None, path: str = "nodeAffinity") -> t.NodeAffinity | None:
    if o is None:
        return None
    required = _get(o, "requiredDuringSchedulingIgnoredDuringExecution", dict, path)
    return t.NodeAffinity(
        required=node_selector_from_manifest(required, f"{path}.requiredDuringSchedulingIgnoredDuringExecution"),
        preferred=_list(o, "preferredDuringSchedulingIgnoredDuringExecution", path, _preferred_node_term))


def _affinity(o: Mapping | None, path: str) -> t.Affinity | None:
    if o is None:
        return None
    return t.Affinity(
        node_affinity=node_affinity_from_manifest(_get(o, "nodeAffinity", dict, path), f"{path}.nodeAffinity"),
        pod_affinity=_pod_affinity(_get(o, "podAffinity", dict, path), f"{path}.podAffinity"),
        pod_anti_affinity=_pod_affinity(_get(o, "podAntiAffinity", dict, path), f"{path}.podAntiAffinity"))


def _pod_term_out(term: t.PodAffinityTerm) -> Manifest:
    return _drop_empty({
        "labelSelector": label_selector_to_manifest(term.label_selector),
        "namespaces": list(term.namespaces),
        "namespaceSelector": label_selector_to_manifest(term.namespace_selector),
        "topologyKey": term.topology_key,
        "matchLabelKeys": list(term.match_label_keys),
        "mismatchLabelKeys": list(term.mismatch_label_keys),
    }, keep=("labelSelector", "namespaceSelector"))


def _pod_affinity_out(a: t.PodAffinity | None) -> Manifest | None:
    if a is None:
        return None
    return _drop_empty({
        "requiredDuringSchedulingIgnoredDuringExecution": [_pod_term_out(x) for x in a.required],
        "preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": x.weight, "podAffinityTerm": _pod_term_out(x.term)} for x in a.preferred],
    })


def node_affinity_to_manifest(a: t.NodeAffinity | None) -> Manifest | None:
    if a is None:
        return None
    required = None
    if a.required is not None:
        required = {"nodeSelectorTerms": [_term_out(x) for x in a.required.terms]}
    return _drop_empty({
        "requiredDuringSchedulingIgnoredDuringExecution": required,
        "preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": x.weight, "preference": _term_out(x.preference)} for x in a.preferred],
    })


def _affinity_out(a: t.Affinity | None) -> Manifest | None:
    if a is None:
        return None
    return _drop_empty({
        "nodeAffinity": node_affinity_to_manifest(a.node_affinity),
        "podAffinity": _pod_affinity_out(a.pod_affinity),
        "podAntiAffinity": _pod_affinity_out(a.pod_anti_affinity),
    })


# --- pods ------------------------------------------------------------------------------------

def _toleration(o: Mapping, path: str) -> t.Toleration:
    return t.Toleration(
        key=_get(o, "key", str, path, ""), operator=_get(o, "operator", str, path, "Equal"),
        value=_get(o, "value", str, path, ""), effect=_get(o, "effect", str, path, ""),
        toleration_seconds=_get(o, "tolerationSeconds", int, path))


def _spread(o: Mapping, path: str) -> t.TopologySpreadConstraint:
    return t.TopologySpreadConstraint(
        max_skew=_get(o, "maxSkew", int, path, 0),
        topology_key=_get(o, "topologyKey", str, path, ""),
        when_unsatisfiable=_get(o, "whenUnsatisfiable", str, path, ""),
        label_selector=_opt_selector(o, "labelSelector", path),
        min_domains=_get(o, "minDomains", int, path),
        node_affinity_policy=_get(o, "nodeAffinityPolicy", str, path),
        node_taints_policy=_get(o, "nodeTaintsPolicy", str, path),
        match_label_keys=_strs(o, "matchLabelKeys", path))


def _port(o: Mapping, path: str) -> t.ContainerPort:
    return t.ContainerPort(
        container_port=_get(o, "containerPort", int, path, 0),
        host_port=_get(o, "hostPort", int, path, 0),
        protocol=_get(o, "protocol", str, path, "TCP"),
        host_ip=_get(o, "hostIP", str, path, ""),
        name=_get(o, "name", str, path, ""))


def _container(o: Mapping, path: str) -> t.Container:
    resources = _get(o, "resources", dict, path, {})
    return t.Container(
        name=_get(o, "name", str, path, ""),
        image=_get(o, "image", str, path, ""),
        requests=_resources(resources, "requests", f"{path}.resources"),
        limits=_resources(resources, "limits", f"{path}.resources"),
        ports=_list(o, "ports", path, _port),
        restart_policy=_get(o, "restartPolicy", str, path))


def _owner(o: Mapping, path: str) -> t.OwnerReference:
    return t.OwnerReference(
        kind=_get(o, "kind", str, path, ""), name=_get(o, "name", str, path, ""),
        api_version=_get(o, "apiVersion", str, path, ""), uid=_get(o, "uid", str, path, ""),
        controller=bool(_get(o, "controller", bool, path, False)))


def _metadata(m: Mapping, kind: str) -> tuple[Mapping, str]:
    if not isinstance(m, Mapping):
        raise ManifestError(f"a {kind} manifest must be a mapping, got {type(m).__name__}")
    meta = _get(m, "metadata", dict, kind, {})
    name = _get(meta, "name", str, f"{kind}.metadata", "")
    if not name:
        raise ManifestError(f"{kind}.metadata.name is missing; every {kind} needs a name")
    return meta, name


def pod_from_manifest(m: Mapping) -> t.Pod:
    """Read a Pod manifest; raises `ManifestError` naming the bad field."""
    meta, name = _metadata(m, "Pod")
    spec = _get(m, "spec", dict, "Pod", {})
    status = _get(m, "status", dict, "Pod", {})
    path = "Pod.spec"
    return t.Pod(
        name=name,
        namespace=_get(meta, "namespace", str, "Pod.metadata", t.DEFAULT_NAMESPACE),
        uid=_get(meta, "uid", str, "Pod.metadata", ""),
        labels=_str_map(meta, "labels", "Pod.metadata"),
        annotations=_str_map(meta, "annotations", "Pod.metadata"),
        owner_references=_list(meta, "ownerReferences", "Pod.metadata", _owner),
        deletion_timestamp=_get(meta, "deletionTimestamp", str, "Pod.metadata"),
        containers=_list(spec, "containers", path, _container),
        init_containers=_list(spec, "initContainers", path, _container),
        overhead=_resources(spec, "overhead", path),
        priority=_get(spec, "priority", int, path),
        priority_class_name=_get(spec, "priorityClassName", str, path, ""),
        preemption_policy=_get(spec, "preemptionPolicy", str, path),
        node_name=_get(spec, "nodeName", str, path, ""),
        node_selector=_str_map(spec, "nodeSelector", path),
        affinity=_affinity(_get(spec, "affinity", dict, path), f"{path}.affinity"),
        tolerations=_list(spec, "tolerations", path, _toleration),
        topology_spread_constraints=_list(spec, "topologySpreadConstraints", path, _spread),
        scheduling_gates=tuple(
            _get(g, "name", str, f"{path}.schedulingGates", "") for g in _get(spec, "schedulingGates", list, path, [])),
        scheduler_name=_get(spec, "schedulerName", str, path, t.DEFAULT_SCHEDULER_NAME),
        volumes=tuple(_get(spec, "volumes", list, path, [])),
        resource_claims=tuple(_get(spec, "resourceClaims", list, path, [])),
        nominated_node_name=_get(status, "nominatedNodeName", str, "Pod.status", ""),
        phase=_get(status, "phase", str, "Pod.status", ""),
    )


def _container_out(c: t.Container) -> Manifest:
    resources = _drop_empty({"requests": _fmt_resources(c.requests), "limits": _fmt_resources(c.limits)})
    ports = [_drop_empty({
        "containerPort": p.container_port, "hostPort": p.host_port or None,
        "protocol": p.protocol, "hostIP": p.host_ip, "name": p.name}) for p in c.ports]
    return _drop_empty({"name": c.name, "image": c.image, "resources": resources, "ports": ports,
                        "restartPolicy": c.restart_policy})


def _spread_out(c: t.TopologySpreadConstraint) -> Manifest:
    return _drop_empty({
        "maxSkew": c.max_skew, "topologyKey": c.topology_key, "whenUnsatisfiable": c.when_unsatisfiable,
        "labelSelector": label_selector_to_manifest(c.label_selector), "minDomains": c.min_domains,
        "nodeAffinityPolicy": c.node_affinity_policy, "nodeTaintsPolicy": c.node_taints_policy,
        "matchLabelKeys": list(c.match_label_keys)}, keep=("labelSelector",))


def _toleration_out(x: t.Toleration) -> Manifest:
    return _drop_empty({"key": x.key, "operator": x.operator, "value": x.value, "effect": x.effect,
                        "tolerationSeconds": x.toleration_seconds})


def pod_to_manifest(p: t.Pod) -> Manifest:
    """Write a Pod manifest that `pod_from_manifest` reads back to an equal Pod."""
    metadata = _drop_empty({
        "name": p.name, "namespace": p.namespace, "uid": p.uid, "labels": dict(p.labels),
        "annotations": dict(p.annotations), "deletionTimestamp": p.deletion_timestamp,
        "ownerReferences": [_drop_empty({"apiVersion": o.api_version, "kind": o.kind, "name": o.name,
                                         "uid": o.uid, "controller": o.controller or None})
                            for o in p.owner_references],
    })
    spec = _drop_empty({
        "schedulerName": p.scheduler_name, "nodeName": p.node_name,
        "priority": p.priority, "priorityClassName": p.priority_class_name,
        "preemptionPolicy": p.preemption_policy,
        "initContainers": [_container_out(c) for c in p.init_containers],
        "containers": [_container_out(c) for c in p.containers],
        "overhead": _fmt_resources(p.overhead), "nodeSelector": dict(p.node_selector),
        "affinity": _affinity_out(p.affinity),
        "tolerations": [_toleration_out(x) for x in p.tolerations],
        "topologySpreadConstraints": [_spread_out(c) for c in p.topology_spread_constraints],
        "schedulingGates": [{"name": g} for g in p.scheduling_gates],
        "volumes": list(p.volumes), "resourceClaims": list(p.resource_claims),
    })
    manifest: Manifest = {"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": spec}
    status = _drop_empty({"nominatedNodeName": p.nominated_node_name, "phase": p.phase})
    if status:
        manifest["status"] = status
    return manifest


# --- nodes and other objects ---------------------------------------------------------------

def _taint(o: Mapping, path: str) -> t.Taint:
    return t.Taint(key=_get(o, "key", str, path, ""), value=_get(o, "value", str, path, ""),
                   effect=_get(o, "effect", str, path, ""))


def _image(o: Mapping, path: str) -> t.ContainerImage:
    return t.ContainerImage(names=_strs(o, "names", path), size_bytes=_get(o, "sizeBytes", int, path, 0))


def node_from_manifest(m: Mapping) -> t.Node:
    """Read a Node manifest; raises `ManifestError` naming the bad field."""
    meta, name = _metadata(m, "Node")
    spec = _get(m, "spec", dict, "Node", {})
    status = _get(m, "status", dict, "Node", {})
    return t.Node(
        name=name,
        uid=_get(meta, "uid", str, "Node.metadata", ""),
        labels=_str_map(meta, "labels", "Node.metadata"),
        annotations=_str_map(meta, "annotations", "Node.metadata"),
        taints=_list(spec, "taints", "Node.spec", _taint),
        unschedulable=bool(_get(spec, "unschedulable", bool, "Node.spec", False)),
        capacity=_resources(status, "capacity", "Node.status"),
        allocatable=_resources(status, "allocatable", "Node.status"),
        images=_list(status, "images", "Node.status", _image),
    )


def node_to_manifest(n: t.Node) -> Manifest:
    """Write a Node manifest that `node_from_manifest` reads back to an equal Node."""
    return {
        "apiVersion": "v1", "kind": "Node",
        "metadata": _drop_empty({"name": n.name, "uid": n.uid, "labels": dict(n.labels),
                                 "annotations": dict(n.annotations)}),
        "spec": _drop_empty({"unschedulable": n.unschedulable or None,
                             "taints": [_drop_empty({"key": x.key, "value": x.value, "effect": x.effect})
                                        for x in n.taints]}),
        "status": _drop_empty({
            "capacity": _fmt_resources(n.capacity), "allocatable": _fmt_resources(n.allocatable),
            "images": [_drop_empty({"names": list(i.names), "sizeBytes": i.size_bytes}) for i in n.images]}),
    }


_SELECTOR_MAP_KINDS = ("Service", "ReplicationController")
WORKLOAD_KINDS = ("Service", "ReplicationController", "ReplicaSet", "StatefulSet")


def workload_from_manifest(m: Mapping) -> t.Workload:
    kind = _get(m, "kind", str, "object", "")
    meta, name = _metadata(m, kind or "object")
    spec = _get(m, "spec", dict, kind, {})
    if kind in _SELECTOR_MAP_KINDS:
        selector = t.LabelSelector(match_labels=_str_map(spec, "selector", f"{kind}.spec"))
    else:
        selector = _opt_selector(spec, "selector", f"{kind}.spec") or t.LabelSelector()
    return t.Workload(kind=kind, name=name, selector=selector,
                      namespace=_get(meta, "namespace", str, f"{kind}.metadata", t.DEFAULT_NAMESPACE))


def workload_to_manifest(w: t.Workload) -> Manifest:
    api_version = "v1" if w.kind in _SELECTOR_MAP_KINDS else "apps/v1"
    if w.kind in _SELECTOR_MAP_KINDS:
        selector: Any = dict(w.selector.match_labels)
    else:
        selector = label_selector_to_manifest(w.selector)
    return {"apiVersion": api_version, "kind": w.kind,
            "metadata": {"name": w.name, "namespace": w.namespace}, "spec": {"selector": selector}}


def pdb_from_manifest(m: Mapping) -> t.PodDisruptionBudget:
    meta, name = _metadata(m, "PodDisruptionBudget")
    spec = _get(m, "spec", dict, "PodDisruptionBudget", {})
    status = _get(m, "status", dict, "PodDisruptionBudget", {})
    return t.PodDisruptionBudget(
        name=name, namespace=_get(meta, "namespace", str, "PodDisruptionBudget.metadata", t.DEFAULT_NAMESPACE),
        selector=_opt_selector(spec, "selector", "PodDisruptionBudget.spec"),
        min_available=spec.get("minAvailable"), max_unavailable=spec.get("maxUnavailable"),
        disruptions_allowed=_get(status, "disruptionsAllowed", int, "PodDisruptionBudget.status", 0))


def pdb_to_manifest(p: t.PodDisruptionBudget) -> Manifest:
    manifest: Manifest = {
        "apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
        "metadata": {"name": p.name, "namespace": p.namespace},
        "spec": _drop_empty({"selector": label_selector_to_manifest(p.selector),
                             "minAvailable": p.min_available, "maxUnavailable": p.max_unavailable}),
    }
    if p.disruptions_allowed:
        manifest["status"] = {"disruptionsAllowed": p.disruptions_allowed}
    return manifest


def namespace_from_manifest(m: Mapping) -> t.Namespace:
    meta, name = _metadata(m, "Namespace")
    return t.Namespace(name=name, labels=_str_map(meta, "labels", "Namespace.metadata"))


def namespace_to_manifest(n: t.Namespace) -> Manifest:
    return {"apiVersion": "v1", "kind": "Namespace",
            "metadata": _drop_empty({"name": n.name, "labels": dict(n.labels)})}


_READERS: dict[str, Callable[[Mapping], Any]] = {
    "Pod": pod_from_manifest, "Node": node_from_manifest, "Namespace": namespace_from_manifest,
    "PodDisruptionBudget": pdb_from_manifest,
    **{kind: workload_from_manifest for kind in WORKLOAD_KINDS},
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
