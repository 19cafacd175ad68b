"""Pods: manifest <-> `reference.types.Pod`."""

from __future__ import annotations

from typing import Any, Mapping

from .. import types as t
from ..errors import ManifestError
from ._fields import (Manifest, drop_empty, fmt_resources, get_field, get_list, get_resources, get_str_map,
                      get_strs, read_metadata)
from .selectors import affinity_from_manifest, affinity_to_manifest, label_selector_to_manifest, opt_selector

# --- pods ------------------------------------------------------------------------------------

def _toleration(o: Mapping, path: str) -> t.Toleration:
    return t.Toleration(
        key=get_field(o, "key", str, path, ""), operator=get_field(o, "operator", str, path, "Equal"),
        value=get_field(o, "value", str, path, ""), effect=get_field(o, "effect", str, path, ""),
        toleration_seconds=get_field(o, "tolerationSeconds", int, path))


def _spread(o: Mapping, path: str) -> t.TopologySpreadConstraint:
    return t.TopologySpreadConstraint(
        max_skew=get_field(o, "maxSkew", int, path, 0),
        topology_key=get_field(o, "topologyKey", str, path, ""),
        when_unsatisfiable=get_field(o, "whenUnsatisfiable", str, path, ""),
        label_selector=opt_selector(o, "labelSelector", path),
        min_domains=get_field(o, "minDomains", int, path),
        node_affinity_policy=get_field(o, "nodeAffinityPolicy", str, path),
        node_taints_policy=get_field(o, "nodeTaintsPolicy", str, path),
        match_label_keys=get_strs(o, "matchLabelKeys", path))


def _port(o: Mapping, path: str) -> t.ContainerPort:
    return t.ContainerPort(
        container_port=get_field(o, "containerPort", int, path, 0),
        host_port=get_field(o, "hostPort", int, path, 0),
        protocol=get_field(o, "protocol", str, path, "TCP"),
        host_ip=get_field(o, "hostIP", str, path, ""),
        name=get_field(o, "name", str, path, ""))


def _container(o: Mapping, path: str) -> t.Container:
    resources = get_field(o, "resources", dict, path, {})
    return t.Container(
        name=get_field(o, "name", str, path, ""),
        image=get_field(o, "image", str, path, ""),
        requests=get_resources(resources, "requests", f"{path}.resources"),
        limits=get_resources(resources, "limits", f"{path}.resources"),
        ports=get_list(o, "ports", path, _port),
        restart_policy=get_field(o, "restartPolicy", str, path))


def owner_reference(o: Mapping, path: str) -> t.OwnerReference:
    return t.OwnerReference(
        kind=get_field(o, "kind", str, path, ""), name=get_field(o, "name", str, path, ""),
        api_version=get_field(o, "apiVersion", str, path, ""), uid=get_field(o, "uid", str, path, ""),
        controller=bool(get_field(o, "controller", bool, path, False)))


def _condition(o: Mapping, path: str) -> t.PodCondition:
    return t.PodCondition(
        type=get_field(o, "type", str, path, ""), status=get_field(o, "status", str, path, ""),
        reason=get_field(o, "reason", str, path, ""), message=get_field(o, "message", str, path, ""))


def _not_modelled(path: str, why: str) -> ManifestError:
    return ManifestError(f"{path} is not modelled by the reference ({why}); remove it from the manifest")


def _has_quantities(o: Any, *keys: str) -> bool:
    return isinstance(o, Mapping) and any(o.get(k) for k in keys)


def _refuse_unmodelled_resources(spec: Mapping, status: Mapping) -> None:
    """Refuse what changes component-helpers `PodRequests` under v1.37.2's default gates
    (PodLevelResources, InPlacePodVerticalScaling, InPlacePodLevelResourcesVerticalScaling) but
    `reference.resources` does not read; empty values change nothing and pass."""
    if _has_quantities(spec.get("resources"), "requests", "limits"):
        raise _not_modelled("Pod.spec.resources", "pod-level resources replace the containers' sum in requests")
    for key in ("allocatedResources", "resources"):
        if _has_quantities(status, key):
            raise _not_modelled(f"Pod.status.{key}", "pod-level status resources enter the request math")
    for list_key in ("containerStatuses", "initContainerStatuses"):
        for i, cs in enumerate(get_field(status, list_key, list, "Pod.status", [])):
            if _has_quantities(cs, "allocatedResources"):
                raise _not_modelled(f"Pod.status.{list_key}[{i}].allocatedResources",
                                    "allocated resources enter the request math")
            if isinstance(cs, Mapping) and _has_quantities(cs.get("resources"), "requests", "limits"):
                raise _not_modelled(f"Pod.status.{list_key}[{i}].resources",
                                    "actuated resources enter the request math")
    for i, cond in enumerate(get_field(status, "conditions", list, "Pod.status", [])):
        if isinstance(cond, Mapping) and (cond.get("type"), cond.get("reason")) == ("PodResizePending", "Infeasible"):
            raise _not_modelled(f"Pod.status.conditions[{i}] (PodResizePending/Infeasible)",
                                "an infeasible resize drops the spec requests from the request math")


def pod_from_manifest(m: Mapping) -> t.Pod:
    """Read a Pod manifest; raises `ManifestError` naming the bad field."""
    meta, name = read_metadata(m, "Pod")
    spec = get_field(m, "spec", dict, "Pod", {})
    status = get_field(m, "status", dict, "Pod", {})
    _refuse_unmodelled_resources(spec, status)
    path = "Pod.spec"
    return t.Pod(
        name=name,
        namespace=get_field(meta, "namespace", str, "Pod.metadata", t.DEFAULT_NAMESPACE),
        uid=get_field(meta, "uid", str, "Pod.metadata", ""),
        labels=get_str_map(meta, "labels", "Pod.metadata"),
        annotations=get_str_map(meta, "annotations", "Pod.metadata"),
        owner_references=get_list(meta, "ownerReferences", "Pod.metadata", owner_reference),
        deletion_timestamp=get_field(meta, "deletionTimestamp", str, "Pod.metadata"),
        containers=get_list(spec, "containers", path, _container),
        init_containers=get_list(spec, "initContainers", path, _container),
        overhead=get_resources(spec, "overhead", path),
        priority=get_field(spec, "priority", int, path),
        priority_class_name=get_field(spec, "priorityClassName", str, path, ""),
        preemption_policy=get_field(spec, "preemptionPolicy", str, path),
        runtime_class_name=get_field(spec, "runtimeClassName", str, path, ""),
        node_name=get_field(spec, "nodeName", str, path, ""),
        node_selector=get_str_map(spec, "nodeSelector", path),
        affinity=affinity_from_manifest(get_field(spec, "affinity", dict, path), f"{path}.affinity"),
        tolerations=get_list(spec, "tolerations", path, _toleration),
        topology_spread_constraints=get_list(spec, "topologySpreadConstraints", path, _spread),
        scheduling_gates=tuple(get_field(g, "name", str, f"{path}.schedulingGates", "")
                               for g in get_field(spec, "schedulingGates", list, path, [])),
        scheduler_name=get_field(spec, "schedulerName", str, path, t.DEFAULT_SCHEDULER_NAME),
        volumes=tuple(get_field(spec, "volumes", list, path, [])),
        resource_claims=tuple(get_field(spec, "resourceClaims", list, path, [])),
        nominated_node_name=get_field(status, "nominatedNodeName", str, "Pod.status", ""),
        phase=get_field(status, "phase", str, "Pod.status", ""),
        conditions=get_list(status, "conditions", "Pod.status", _condition),
    )


def _container_out(c: t.Container) -> Manifest:
    resources = drop_empty({"requests": fmt_resources(c.requests), "limits": fmt_resources(c.limits)})
    ports = [drop_empty({
        "containerPort": p.container_port, "hostPort": p.host_port or None,
        "protocol": p.protocol, "hostIP": p.host_ip, "name": p.name}) for p in c.ports]
    return drop_empty({"name": c.name, "image": c.image, "resources": resources, "ports": ports,
                        "restartPolicy": c.restart_policy})


def _spread_out(c: t.TopologySpreadConstraint) -> Manifest:
    return drop_empty({
        "maxSkew": c.max_skew, "topologyKey": c.topology_key, "whenUnsatisfiable": c.when_unsatisfiable,
        "labelSelector": label_selector_to_manifest(c.label_selector), "minDomains": c.min_domains,
        "nodeAffinityPolicy": c.node_affinity_policy, "nodeTaintsPolicy": c.node_taints_policy,
        "matchLabelKeys": list(c.match_label_keys)}, keep=("labelSelector",))


def _toleration_out(x: t.Toleration) -> Manifest:
    return drop_empty({"key": x.key, "operator": x.operator, "value": x.value, "effect": x.effect,
                        "tolerationSeconds": x.toleration_seconds})


def pod_to_manifest(p: t.Pod) -> Manifest:
    """Write a Pod manifest that `pod_from_manifest` reads back to an equal Pod."""
    metadata = drop_empty({
        "name": p.name, "namespace": p.namespace, "uid": p.uid, "labels": dict(p.labels),
        "annotations": dict(p.annotations), "deletionTimestamp": p.deletion_timestamp,
        "ownerReferences": [drop_empty({"apiVersion": o.api_version, "kind": o.kind, "name": o.name,
                                         "uid": o.uid, "controller": o.controller or None})
                            for o in p.owner_references],
    })
    spec = drop_empty({
        "schedulerName": p.scheduler_name, "nodeName": p.node_name,
        "priority": p.priority, "priorityClassName": p.priority_class_name,
        "preemptionPolicy": p.preemption_policy, "runtimeClassName": p.runtime_class_name,
        "initContainers": [_container_out(c) for c in p.init_containers],
        "containers": [_container_out(c) for c in p.containers],
        "overhead": fmt_resources(p.overhead), "nodeSelector": dict(p.node_selector),
        "affinity": affinity_to_manifest(p.affinity),
        "tolerations": [_toleration_out(x) for x in p.tolerations],
        "topologySpreadConstraints": [_spread_out(c) for c in p.topology_spread_constraints],
        "schedulingGates": [{"name": g} for g in p.scheduling_gates],
        "volumes": list(p.volumes), "resourceClaims": list(p.resource_claims),
    })
    manifest: Manifest = {"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": spec}
    status = drop_empty({
        "nominatedNodeName": p.nominated_node_name, "phase": p.phase,
        "conditions": [drop_empty({"type": c.type, "status": c.status, "reason": c.reason, "message": c.message})
                       for c in p.conditions],
    })
    if status:
        manifest["status"] = status
    return manifest
