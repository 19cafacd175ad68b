"""Fluent builders after upstream `st.MakePod()` / `st.MakeNode()` / `st.MakeLabelSelector()`
(pkg/scheduler/testing/wrappers.go), plus `v1_*` readers for upstream's struct literals written as
manifests, so that ported PodTopologySpread and InterPodAffinity cases read like the Go ones.

Pods and nodes get upstream's zero values: namespace "" and no UID unless set.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Any, Iterable, Mapping

from reference.codec import (label_selector_from_manifest, namespace_from_manifest, node_from_manifest,
                             pod_from_manifest)
from reference.cycle_state import CycleState
from reference.types import (Affinity, LabelSelector, LabelSelectorRequirement, Namespace, Node, NodeAffinity,
                             NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, OwnerReference, Pod,
                             PodAffinity, PodAffinityTerm, Taint, Toleration, TopologySpreadConstraint,
                             WeightedPodAffinityTerm, Workload)
from tests.builders import FakeClient, FakeHandle

REQUIRED, PREFERRED, REQUIRED_PREFERRED = "required", "preferred", "required+preferred"
MAX_INT32 = 2**31 - 1

_unnamed = itertools.count()


class LabelSelectorBuilder:
    def __init__(self) -> None:
        self._labels: dict[str, str] = {}
        self._exprs: list[LabelSelectorRequirement] = []

    def label(self, key: str, value: str) -> "LabelSelectorBuilder":
        self._labels[key] = value
        return self

    def exists(self, key: str) -> "LabelSelectorBuilder":
        self._exprs.append(LabelSelectorRequirement(key, "Exists"))
        return self

    def not_exist(self, key: str) -> "LabelSelectorBuilder":
        self._exprs.append(LabelSelectorRequirement(key, "DoesNotExist"))
        return self

    def in_(self, key: str, values: Iterable[str]) -> "LabelSelectorBuilder":
        self._exprs.append(LabelSelectorRequirement(key, "In", tuple(values)))
        return self

    def not_in(self, key: str, values: Iterable[str]) -> "LabelSelectorBuilder":
        self._exprs.append(LabelSelectorRequirement(key, "NotIn", tuple(values)))
        return self

    def obj(self) -> LabelSelector:
        return LabelSelector(match_labels=dict(self._labels), match_expressions=tuple(self._exprs))


def make_label_selector() -> LabelSelectorBuilder:
    return LabelSelectorBuilder()


def _add_term(affinity: PodAffinity | None, term: PodAffinityTerm, kind: str) -> PodAffinity:
    affinity = affinity or PodAffinity()
    if kind in (REQUIRED, REQUIRED_PREFERRED):
        affinity = replace(affinity, required=affinity.required + (term,))
    if kind in (PREFERRED, REQUIRED_PREFERRED):
        affinity = replace(affinity, preferred=affinity.preferred + (WeightedPodAffinityTerm(1, term),))
    return affinity


class PodBuilder:
    def __init__(self) -> None:
        self._fields: dict[str, Any] = {"name": "", "namespace": ""}

    def _set(self, **kw: Any) -> "PodBuilder":
        self._fields.update(kw)
        return self

    def name(self, name: str) -> "PodBuilder":
        return self._set(name=name)

    def namespace(self, ns: str) -> "PodBuilder":
        return self._set(namespace=ns)

    def uid(self, uid: str) -> "PodBuilder":
        return self._set(uid=uid)

    def label(self, key: str, value: str) -> "PodBuilder":
        return self._set(labels={**self._fields.get("labels", {}), key: value})

    def labels(self, labels: Mapping[str, str]) -> "PodBuilder":
        return self._set(labels={**self._fields.get("labels", {}), **labels})

    def node(self, name: str) -> "PodBuilder":
        return self._set(node_name=name)

    def node_selector(self, m: Mapping[str, str]) -> "PodBuilder":
        return self._set(node_selector=dict(m))

    def terminating(self) -> "PodBuilder":
        return self._set(deletion_timestamp="2024-01-01T00:00:00Z")

    def toleration(self, key: str) -> "PodBuilder":
        return self._set(tolerations=self._fields.get("tolerations", ()) + (Toleration(key=key, operator="Exists"),))

    def owner_reference(self, name: str, gvk: tuple[str, str]) -> "PodBuilder":
        api_version, kind = gvk
        return self._set(owner_references=(OwnerReference(kind=kind, name=name, api_version=api_version,
                                                          controller=True),))

    def spread_constraint(self, max_skew: int, key: str, mode: str, selector: LabelSelector | None,
                          min_domains: int | None, affinity_policy: str | None, taints_policy: str | None,
                          match_label_keys: Iterable[str] | None) -> "PodBuilder":
        c = TopologySpreadConstraint(max_skew, key, mode, selector, min_domains, affinity_policy, taints_policy,
                                     tuple(match_label_keys or ()))
        return self._set(topology_spread_constraints=self._fields.get("topology_spread_constraints", ()) + (c,))

    def _affinity(self) -> Affinity:
        return self._fields.get("affinity") or Affinity()

    def _node_affinity(self, req: NodeSelectorRequirement) -> "PodBuilder":
        selector = NodeSelector((NodeSelectorTerm(match_expressions=(req,)),))
        return self._set(affinity=replace(self._affinity(), node_affinity=NodeAffinity(required=selector)))

    def node_affinity_in(self, key: str, values: Iterable[str], kind: str = "MatchExpressions") -> "PodBuilder":
        assert kind == "MatchExpressions"
        return self._node_affinity(NodeSelectorRequirement(key, "In", tuple(values)))

    def node_affinity_not_in(self, key: str, values: Iterable[str]) -> "PodBuilder":
        return self._node_affinity(NodeSelectorRequirement(key, "NotIn", tuple(values)))

    def pod_affinity(self, topology_key: str, selector: LabelSelector, kind: str) -> "PodBuilder":
        a = self._affinity()
        term = PodAffinityTerm(topology_key=topology_key, label_selector=selector)
        return self._set(affinity=replace(a, pod_affinity=_add_term(a.pod_affinity, term, kind)))

    def pod_anti_affinity(self, topology_key: str, selector: LabelSelector, kind: str) -> "PodBuilder":
        a = self._affinity()
        term = PodAffinityTerm(topology_key=topology_key, label_selector=selector)
        return self._set(affinity=replace(a, pod_anti_affinity=_add_term(a.pod_anti_affinity, term, kind)))

    def pod_affinity_exists(self, key: str, topology_key: str, kind: str) -> "PodBuilder":
        return self.pod_affinity(topology_key, make_label_selector().exists(key).obj(), kind)

    def pod_anti_affinity_exists(self, key: str, topology_key: str, kind: str) -> "PodBuilder":
        return self.pod_anti_affinity(topology_key, make_label_selector().exists(key).obj(), kind)

    def pod_affinity_in(self, key: str, topology_key: str, values: Iterable[str], kind: str) -> "PodBuilder":
        return self.pod_affinity(topology_key, make_label_selector().in_(key, values).obj(), kind)

    def pod_anti_affinity_in(self, key: str, topology_key: str, values: Iterable[str], kind: str) -> "PodBuilder":
        return self.pod_anti_affinity(topology_key, make_label_selector().in_(key, values).obj(), kind)

    def pod_affinity_not_in(self, key: str, topology_key: str, values: Iterable[str], kind: str) -> "PodBuilder":
        return self.pod_affinity(topology_key, make_label_selector().not_in(key, values).obj(), kind)

    def pod_anti_affinity_not_in(self, key: str, topology_key: str, values: Iterable[str], kind: str) -> "PodBuilder":
        return self.pod_anti_affinity(topology_key, make_label_selector().not_in(key, values).obj(), kind)

    def obj(self) -> Pod:
        return Pod(**self._fields)


def make_pod() -> PodBuilder:
    return PodBuilder()


class NodeBuilder:
    def __init__(self) -> None:
        self._name = ""
        self._labels: dict[str, str] = {}
        self._taints: tuple[Taint, ...] = ()

    def name(self, name: str) -> "NodeBuilder":
        self._name = name
        return self

    def label(self, key: str, value: str) -> "NodeBuilder":
        self._labels[key] = value
        return self

    def taints(self, taints: Iterable[Taint]) -> "NodeBuilder":
        self._taints = tuple(taints)
        return self

    def obj(self) -> Node:
        return Node(name=self._name, labels=dict(self._labels), taints=self._taints)


def make_node() -> NodeBuilder:
    return NodeBuilder()


# --- upstream struct literals, written as manifests -------------------------------------------

def _with_defaults(m: Mapping[str, Any], prefix: str) -> dict[str, Any]:
    meta = dict(m.get("metadata") or {})
    meta.setdefault("name", f"{prefix}-{next(_unnamed)}")
    meta.setdefault("namespace", "")
    return {**m, "metadata": meta}


def v1_pod(m: Mapping[str, Any]) -> Pod:
    """A `v1.Pod{...}` literal; unnamed pods get a unique name so they stay distinct."""
    return pod_from_manifest(_with_defaults(m, "unnamed-pod"))


def v1_node(m: Mapping[str, Any]) -> Node:
    return node_from_manifest(_with_defaults(m, "unnamed-node"))


def v1_namespace(m: Mapping[str, Any]) -> Namespace:
    return namespace_from_manifest(m)


def v1_label_selector(m: Mapping[str, Any]) -> LabelSelector | None:
    return label_selector_from_manifest(m)


def v1_taint(m: Mapping[str, Any]) -> Taint:
    return Taint(key=m["key"], effect=m.get("effect", ""), value=m.get("value", ""))


def v1_topology_spread_constraint(m: Mapping[str, Any]) -> TopologySpreadConstraint:
    return TopologySpreadConstraint(max_skew=m.get("maxSkew", 0), topology_key=m.get("topologyKey", ""),
                                    when_unsatisfiable=m.get("whenUnsatisfiable", ""))


def v1_service(m: Mapping[str, Any]) -> Workload:
    meta = m.get("metadata") or {}
    return Workload("Service", meta.get("name", ""), meta.get("namespace", ""),
                    LabelSelector(match_labels=dict((m.get("spec") or {}).get("selector") or {})))


def v1_replica_set(m: Mapping[str, Any]) -> Workload:
    meta = m.get("metadata") or {}
    selector = (m.get("spec") or {}).get("selector")
    if not isinstance(selector, LabelSelector):
        selector = label_selector_from_manifest(selector) or LabelSelector()
    return Workload("ReplicaSet", meta.get("name", ""), meta.get("namespace", ""), selector)


# --- a handle over a snapshot ------------------------------------------------------------------

class SnapshotHandle(FakeHandle):
    """`cache.NewSnapshot(pods, nodes)` plus the informer objects a plugin lists."""

    def __init__(self, pods: Iterable[Pod] = (), nodes: Iterable[Node] = (), workloads: Iterable[Workload] = (),
                 namespaces: Iterable[Namespace] = ()) -> None:
        super().__init__(nodes or (), pods or (), {n.name: n.labels for n in namespaces or ()},
                         FakeClient(workload_objects=list(workloads or ())))


def new_cycle_state() -> CycleState:
    return CycleState()
