"""Which updates of an object the API server accepts, for the scenario timeline (docs/scenario.md).

`check_change(kind, old, new)` compares two manifests (before and after a merge patch) and raises
`ChangeError(path, message)` for the first change the API server would refuse, or that the timeline
format leaves out. Pod rules follow ValidatePodUpdate (pkg/apis/core/validation): tolerations may
only be added, scheduling gates only removed, and requests only changed through an in-place resize
(here: lowered).
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping, Sequence

from .quantity import resource_value

_IDENTITY = ("apiVersion", "kind", "metadata.name", "metadata.namespace")
_POD_ANY = ("metadata.labels", "metadata.annotations")
_POD_PENDING = ("spec.tolerations", "spec.schedulingGates", "spec.containers")
_NODE = ("metadata.labels", "metadata.annotations", "spec.taints", "spec.unschedulable", "status.allocatable",
         "status.capacity", "status.conditions")
_CLASS = ("metadata.labels",)  # PriorityClass, RuntimeClass: no spec; value, handler, overhead are immutable
_OBJECT = ("metadata.labels", "spec")
# apps/v1 made workload selectors immutable (ValidateReplicaSetUpdate, ValidateStatefulSetUpdate).
_IMMUTABLE_SELECTOR = ("ReplicaSet", "StatefulSet")
_META = ("metadata.labels", "metadata.annotations")
# What the storage kinds' update validation (pkg/apis/core and storage/validation) lets change, and how
# to say so. PV: not its source, volumeMode or a set nodeAffinity (MutablePVNodeAffinity is off); PVC:
# volumeName once (binding), larger requests; CSINode: drivers' allocatable counts
# (MutableCSINodeAllocatableCount, GA); VolumeAttachment: nothing in spec.
_VOLUME_KINDS: dict[str, tuple[tuple[str, ...], str]] = {
    "PersistentVolume": (
        (*_META, "spec.capacity", "spec.accessModes", "spec.claimRef", "spec.storageClassName",
         "spec.persistentVolumeReclaimPolicy", "spec.mountOptions", "spec.nodeAffinity", "status"),
        "labels, annotations, capacity, accessModes, claimRef, storageClassName, a nodeAffinity that was "
        "unset, and status"),
    "PersistentVolumeClaim": (
        (*_META, "spec.volumeName", "spec.resources.requests.storage", "spec.volumeAttributesClassName",
         "status"),
        "labels, annotations, an unset spec.volumeName, a larger storage request, and status"),
    "StorageClass": ((*_META, "allowedTopologies", "mountOptions", "allowVolumeExpansion"),
                     "labels, annotations, allowedTopologies, mountOptions and allowVolumeExpansion"),
    "CSINode": ((*_META, "spec.drivers"), "labels, annotations and the drivers' allocatable counts"),
    "CSIDriver": ((*_META, "spec"),
                  "labels, annotations and spec except attachRequired and volumeLifecycleModes"),
    "CSIStorageCapacity": ((*_META, "capacity", "maximumVolumeSize"),
                           "labels, annotations, capacity and maximumVolumeSize"),
    "VolumeAttachment": (_META, "labels and annotations (its spec is immutable)"),
}


class ChangeError(ValueError):
    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


def check_change(kind: str, old: Mapping[str, Any], new: Mapping[str, Any]) -> None:
    """Raise ChangeError for the first refused change of `old` into `new` (both `kind` manifests)."""
    for path in diff_paths(old, new):
        if _under(path, _IDENTITY):
            raise ChangeError(path, "an update cannot rename or move an object; delete it and create a "
                              "new one")
    if kind == "Pod":
        _check_pod(old, new)
    elif kind == "Node":
        _allow_only(old, new, _NODE, "a Node update may change labels, annotations, spec.taints, "
                    "spec.unschedulable, status.allocatable, status.capacity and status.conditions")
    elif kind in _VOLUME_KINDS:
        allowed, what = _VOLUME_KINDS[kind]
        _check_volume_kind(kind, old, new)
        _allow_only(old, new, allowed, f"a {kind} update may change {what}; delete it and create a new one")
    elif kind in ("PriorityClass", "RuntimeClass"):
        _allow_only(old, new, _CLASS, f"a {kind} update may change only metadata.labels (its other fields "
                    "are immutable); delete the class and create a new one")
    else:
        selectors = (_norm(_get(old, "spec.selector")), _norm(_get(new, "spec.selector")))
        if kind in _IMMUTABLE_SELECTOR and selectors[0] != selectors[1]:
            raise ChangeError("spec.selector", f"is immutable on an apps/v1 {kind} (the API server refuses "
                              f"the change); delete the {kind} and create it with the new selector")
        _allow_only(old, new, _OBJECT, f"a {kind} update may change metadata.labels and spec")


def _check_volume_kind(kind: str, old: Mapping[str, Any], new: Mapping[str, Any]) -> None:
    """The storage kinds' rules beyond which fields may change."""
    fix = f"delete the {kind} and create a new one"
    if kind == "PersistentVolume" and _get(old, "spec.nodeAffinity") and \
            _norm(_get(old, "spec.nodeAffinity")) != _norm(_get(new, "spec.nodeAffinity")):
        raise ChangeError("spec.nodeAffinity", f"is immutable once set (MutablePVNodeAffinity is off); {fix}")
    if kind == "PersistentVolumeClaim":
        if _get(old, "spec.volumeName") and _get(old, "spec.volumeName") != _get(new, "spec.volumeName"):
            raise ChangeError("spec.volumeName", f"is immutable once set; {fix}")
        before, after = (_get(m, "spec.resources.requests.storage") for m in (old, new))
        if before is not None and (after is None or resource_value("storage", after) < resource_value(
                "storage", before)):
            raise ChangeError("spec.resources.requests.storage", "can not be less than the previous value")
    if kind == "CSINode":
        names = [[d.get("name") for d in _list(m, "spec.drivers")] for m in (old, new)]
        strip = [[{k: v for k, v in d.items() if k != "allocatable"} for d in _list(m, "spec.drivers")]
                 for m in (old, new)]
        if names[0] != names[1] or _norm(strip[0]) != _norm(strip[1]):
            raise ChangeError("spec.drivers", f"only the drivers' allocatable counts may change; {fix}")
    if kind == "CSIDriver":
        for path in ("spec.attachRequired", "spec.volumeLifecycleModes"):
            if _norm(_get(old, path)) != _norm(_get(new, path)):
                raise ChangeError(path, f"is immutable; {fix}")


def diff_paths(old: Any, new: Any, prefix: str = "") -> Iterator[str]:
    """Dotted paths where `old` and `new` differ; mappings are compared key by key, anything else whole.
    A missing key, null, "" and empty lists or mappings count as the same (all mean "unset")."""
    if isinstance(old, Mapping) or isinstance(new, Mapping):
        a = old if isinstance(old, Mapping) else {}
        b = new if isinstance(new, Mapping) else {}
        if any(not isinstance(v, Mapping) and _norm(v) is not None for v in (old, new)):
            yield prefix  # a mapping against a set scalar or list
            return
        for key in dict.fromkeys((*a, *b)):
            yield from diff_paths(a.get(key), b.get(key), f"{prefix}.{key}" if prefix else str(key))
    elif _norm(old) != _norm(new):
        yield prefix


def _check_pod(old: Mapping[str, Any], new: Mapping[str, Any]) -> None:
    node = _get(old, "spec.nodeName") or ""
    for path in diff_paths(old, new):
        if _under(path, _POD_ANY):
            continue
        if path == "spec.nodeName":
            raise ChangeError(path, "a pod's node cannot change (the API server refuses it); delete the pod "
                              "and create it bound to the other node")
        field = next((f for f in _POD_PENDING if _under(path, (f,))), None)
        if field is None:
            raise ChangeError(path, "cannot change on a Pod (the API server refuses it); a pod update may "
                              "change labels and annotations, and on a pending pod add tolerations, remove "
                              "schedulingGates and lower container requests")
        if node:
            raise ChangeError(field, f"only a pending pod's {field.split('.')[1]} may change and this pod is "
                              f"bound to node {node!r}; change only its labels and annotations")
    if node:
        return
    _check_tolerations(_list(old, "spec.tolerations"), _list(new, "spec.tolerations"))
    _check_gates(_list(old, "spec.schedulingGates"), _list(new, "spec.schedulingGates"))
    _check_containers(_list(old, "spec.containers"), _list(new, "spec.containers"))


def _check_tolerations(old: Sequence[Any], new: Sequence[Any]) -> None:
    for toleration in old:
        if toleration not in new:
            raise ChangeError("spec.tolerations", f"removes toleration {dict(toleration)}; tolerations may "
                              "only be added (the API server refuses removals); keep every existing "
                              "toleration")


def _check_gates(old: Sequence[Any], new: Sequence[Any]) -> None:
    names = [g.get("name") for g in old if isinstance(g, Mapping)]
    for gate in new:
        name = gate.get("name") if isinstance(gate, Mapping) else gate
        if name not in names:
            raise ChangeError("spec.schedulingGates", f"adds gate {name!r}; scheduling gates may only be "
                              "removed (the API server refuses additions)")


def _check_containers(old: Sequence[Any], new: Sequence[Any]) -> None:
    if [c.get("name") for c in old] != [c.get("name") for c in new]:
        raise ChangeError("spec.containers", "containers cannot be added, removed, renamed or reordered; "
                          "repeat the list and lower only resources.requests")
    for j, (a, b) in enumerate(zip(old, new)):
        where = f"spec.containers[{j}]"
        for path in diff_paths(a, b):
            if not _under(path, ("resources.requests",)):
                raise ChangeError(f"{where}.{path}", "cannot change on a pod; only resources.requests may be "
                                  "lowered (an in-place resize)")
        before, after = _get(a, "resources.requests") or {}, _get(b, "resources.requests") or {}
        if set(before) != set(after):
            raise ChangeError(f"{where}.resources.requests", "a resize cannot add or remove a resource "
                              "request; lower the existing values")
        for name, value in after.items():
            if resource_value(name, value) > resource_value(name, before[name]):
                raise ChangeError(f"{where}.resources.requests.{name}", f"raises {before[name]} to {value}; "
                                  "requests may only be lowered (an in-place resize); lower it, or delete "
                                  "the pod and create a new one")


def _allow_only(old: Mapping[str, Any], new: Mapping[str, Any], allowed: tuple[str, ...], fix: str) -> None:
    for path in diff_paths(old, new):
        if not _under(path, allowed):
            raise ChangeError(path, "cannot change (the API server refuses it, or the timeline leaves it "
                              f"out); {fix}")


def _under(path: str, prefixes: tuple[str, ...]) -> bool:
    return any(path == p or path.startswith(p + ".") for p in prefixes)


def _get(m: Any, path: str) -> Any:
    for part in path.split("."):
        m = m.get(part) if isinstance(m, Mapping) else None
    return m


def _list(m: Mapping[str, Any], path: str) -> list[Any]:
    value = _get(m, path)
    return list(value) if isinstance(value, list) else []


def _norm(value: Any) -> Any:
    return None if value in (None, "", [], {}) else value


__all__ = ["ChangeError", "check_change", "diff_paths"]
