"""Inputs with the API objects that own or select their pods: Services, ReplicaSets, StatefulSets and
ReplicationControllers (the driver puts them in the scheduler's informers). PodTopologySpread's system-default
constraints spread a pod with the pods its Services and owner select, so without them its default path is never
taken."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from generators.pools import POD_LABEL_VALUES
from .inputs import Manifest, PluginInput, WithOther, plugin_inputs, with_other

OWNER_KINDS = ("ReplicaSet", "StatefulSet")
_API = {"Service": "v1", "ReplicationController": "v1", "ReplicaSet": "apps/v1", "StatefulSet": "apps/v1"}


@dataclass(frozen=True)
class WithObjects(PluginInput):
    """A plugin input whose snapshot also holds `objects` (calls.snapshot sends them)."""
    objects: tuple[Manifest, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "objects": list(self.objects)}


def _object(kind: str, name: str, namespace: str, selector: dict[str, str]) -> Manifest:
    spec: dict[str, Any] = {"selector": dict(selector)}
    if kind in OWNER_KINDS:
        spec = {"selector": {"matchLabels": dict(selector)},
                "template": {"metadata": {"labels": dict(selector)}, "spec": {"containers": [
                    {"name": "c0", "image": "registry.k8s.io/pause:3.10"}]}}}
        if kind == "StatefulSet":
            spec["serviceName"] = name
    elif kind == "ReplicationController":
        spec["template"] = {"metadata": {"labels": dict(selector)}, "spec": {"containers": [
            {"name": "c0", "image": "registry.k8s.io/pause:3.10"}]}}
    return {"apiVersion": _API[kind], "kind": kind, "metadata": {"name": name, "namespace": namespace}, "spec": spec}


def _owned(pod: Manifest, owner: Manifest) -> Manifest:
    """The pod with `owner` as its controller (what DefaultSelector follows for ReplicaSets and StatefulSets)."""
    meta = owner["metadata"]
    ref = {"apiVersion": owner["apiVersion"], "kind": owner["kind"], "name": meta["name"],
           "uid": f"uid-{owner['kind'].lower()}-{meta['namespace']}-{meta['name']}", "controller": True}
    return {**pod, "metadata": {**pod["metadata"], "ownerReferences": [ref]}}


def _with_objects(draw: Any, inp: PluginInput) -> WithObjects:
    kinds = draw(st.lists(st.sampled_from(("Service", "ReplicaSet", "StatefulSet", "ReplicationController")),
                          max_size=2, unique=True))
    pod = inp.pod
    namespace = pod["metadata"].get("namespace", "default")
    objects = []
    for i, kind in enumerate(kinds):
        key = draw(st.sampled_from(sorted(POD_LABEL_VALUES)))
        labels = pod["metadata"].get("labels") or {}
        value = labels.get(key) or draw(st.sampled_from(POD_LABEL_VALUES[key]))
        obj = _object(kind, f"{kind.lower()}-{i}", namespace, {key: value})
        objects.append(obj)
        if kind in OWNER_KINDS and not pod["metadata"].get("ownerReferences"):
            pod = {**pod, "metadata": {**pod["metadata"], "labels": {**labels, key: value}}}
            pod = _owned(pod, obj)
    return WithObjects(inp.nodes, inp.pods, pod, tuple(objects))


@st.composite
def plugin_inputs_with_objects(draw: Any) -> WithObjects:
    """`plugin_inputs` and up to two Services, ReplicaSets, StatefulSets or ReplicationControllers selecting a
    label of the pod (an owner also owns it); shrinks towards no objects."""
    return _with_objects(draw, draw(plugin_inputs()))


@st.composite
def with_other_and_objects(draw: Any) -> WithOther:
    """`with_other` whose input carries objects as `plugin_inputs_with_objects`; shrinks towards no objects."""
    ex = draw(with_other())
    return replace(ex, input=_with_objects(draw, ex.input))


__all__ = ["WithObjects", "plugin_inputs_with_objects", "with_other_and_objects"]
