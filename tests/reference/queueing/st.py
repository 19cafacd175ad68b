"""`st.MakePod()` / `st.MakeNode()` as queue.go uses them (pkg/scheduler/testing/wrappers.go), on the
builders of tests/reference/plugins/_spread_builders.py, and the API server's update semantics the
table's triggers rely on (an Update keeps the status, an UpdateStatus keeps the spec)."""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable, Mapping

from reference.quantity import resource_value
from reference.types import (Container, ContainerPort, Node, NodeAffinity, NodeSelector, NodeSelectorRequirement,
                             NodeSelectorTerm, Pod, Taint, Toleration)
from tests.reference.plugins._spread_builders import REQUIRED, NodeBuilder, PodBuilder, make_label_selector

NAMESPACE = "ns"
MATCH_EXPRESSIONS, MATCH_FIELDS = "MatchExpressions", "MatchFields"
DO_NOT_SCHEDULE = "DoNotSchedule"
NO_SCHEDULE = "NoSchedule"
TAINT_NODE_NOT_READY = "node.kubernetes.io/not-ready"
__all__ = ["DO_NOT_SCHEDULE", "MATCH_EXPRESSIONS", "MATCH_FIELDS", "NO_SCHEDULE", "REQUIRED", "TAINT_NODE_NOT_READY",
           "exists", "make_node", "make_pod", "taint"]


def _quantities(m: Mapping[str, str]) -> dict[str, int]:
    return {k: resource_value(k, v) for k, v in m.items()}


def exists(key: str):
    """`st.MakeLabelSelector().Exists(key).Obj()`."""
    return make_label_selector().exists(key).obj()


def taint(key: str, effect: str = NO_SCHEDULE, value: str = "") -> Taint:
    return Taint(key=key, effect=effect, value=value)


class Pods(PodBuilder):
    def __init__(self) -> None:
        super().__init__()
        self._set(namespace=NAMESPACE)

    def name(self, name: str) -> "Pods":
        return self._set(name=name, uid=name)

    def _container(self, requests: Mapping[str, str] = (), ports: Iterable[ContainerPort] = ()) -> "Pods":
        containers = self._fields.get("containers", ())
        c = Container(f"con{len(containers)}", requests=_quantities(dict(requests)), ports=tuple(ports))
        return self._set(containers=containers + (c,))

    def container(self, image: str) -> "Pods":
        return self._container()

    def req(self, requests: Mapping[str, str]) -> "Pods":
        return self._container(requests)

    res = req  # requests and limits alike; only requests matter here

    def container_port(self, *ports: tuple[int, int]) -> "Pods":
        """`ContainerPort([]v1.ContainerPort{{ContainerPort: c, HostPort: h}})`."""
        return self._container(ports=[ContainerPort(container_port=c, host_port=h) for c, h in ports])

    def volume(self, volume: Mapping) -> "Pods":
        return self._set(volumes=self._fields.get("volumes", ()) + (dict(volume),))

    def pvc(self, name: str) -> "Pods":
        """`PVC(name)`: a volume of that name backed by the claim of that name."""
        return self.volume({"name": name, "persistentVolumeClaim": {"claimName": name}})

    def scheduling_gates(self, gates: Iterable[str]) -> "Pods":
        return self._set(scheduling_gates=tuple(gates))

    def toleration(self, key: str) -> "Pods":
        return self._set(tolerations=self._fields.get("tolerations", ()) + (Toleration(key=key, operator="Exists"),))

    def tolerations(self, tolerations: Iterable[Toleration]) -> "Pods":
        return self._set(tolerations=tuple(tolerations))

    def node_affinity_in(self, key: str, values: Iterable[str], kind: str = MATCH_EXPRESSIONS) -> "Pods":
        req = NodeSelectorRequirement(key, "In", tuple(values))
        term = NodeSelectorTerm(match_fields=(req,)) if kind == MATCH_FIELDS else NodeSelectorTerm(
            match_expressions=(req,))
        return self._set_node_selector(NodeSelector((term,)))

    def _set_node_selector(self, selector: NodeSelector) -> "Pods":
        return self._set(affinity=replace(self._affinity(), node_affinity=NodeAffinity(required=selector)))


class Nodes(NodeBuilder):
    def __init__(self) -> None:
        super().__init__()
        self._allocatable: dict[str, int] = {"pods": 32}  # MakeNode() calls Capacity(nil)
        self._unschedulable = False
        self._declared_features: tuple[str, ...] = ()

    def capacity(self, resources: Mapping[str, str]) -> "Nodes":
        """Capacity and allocatable alike; 32 pods unless given."""
        self._allocatable = {"pods": 32, **_quantities(resources)}
        return self

    def unschedulable(self, value: bool) -> "Nodes":
        self._unschedulable = value
        return self

    def declared_features(self, *names: str) -> "Nodes":
        """`Status.DeclaredFeatures` (sorted, as the kubelet writes them)."""
        self._declared_features = tuple(sorted(names))
        return self

    def obj(self) -> Node:
        return replace(super().obj(), allocatable=dict(self._allocatable), capacity=dict(self._allocatable),
                       unschedulable=self._unschedulable, declared_features=self._declared_features)


def make_pod() -> Pods:
    return Pods()


def make_node() -> Nodes:
    return Nodes()


# --- the API server's halves of an update ------------------------------------------------------

def node_update(old: Node, new: Node) -> Node:
    """`Nodes().Update`: spec and metadata from `new`, status (allocatable, declared features) kept."""
    return replace(new, allocatable=old.allocatable, capacity=old.capacity,
                   declared_features=old.declared_features)


def node_update_status(old: Node, new: Node) -> Node:
    """`Nodes().UpdateStatus`: status and metadata from `new`, spec (taints, unschedulable) kept."""
    return replace(new, taints=old.taints, unschedulable=old.unschedulable)


def pod_update(old: Pod, new: Pod) -> Pod:
    """`Pods().Update`: spec and metadata from `new`, status (nomination) kept."""
    return replace(new, nominated_node_name=old.nominated_node_name, conditions=old.conditions)


def pod_resize(old: Pod, new: Pod) -> Pod:
    """`Pods().UpdateResize`: only the containers' resources change."""
    return replace(old, containers=new.containers)
