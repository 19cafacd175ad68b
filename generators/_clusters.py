"""`clusters()`: nodes, pods already bound to them, and the objects default plugins read
(ReplicaSets and Services for spreading's system defaults, PodDisruptionBudgets for preemption,
Namespaces for affinity namespace selectors)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from reference import codec
from reference.quantity import PODS
from reference.resources import pod_requests

from ._draw import Draw, Manifest, elements, optional, pick
from ._nodes import draw_node
from ._pods import draw_pod
from .pools import IMAGE_NAMES, NAMESPACE_LABELS, NAMESPACES, NODE_NAMES, POD_LABEL_VALUES


@dataclass(frozen=True)
class Cluster:
    """Node manifests, bound pod manifests, and other objects (Namespace, Service, ReplicaSet, PDB)."""

    nodes: tuple[Manifest, ...]
    pods: tuple[Manifest, ...]
    objects: tuple[Manifest, ...]


@dataclass(frozen=True)
class Owners:
    """ReplicaSets pods may name as controller: their objects, owner references and labels."""

    objects: tuple[Manifest, ...] = ()
    references: tuple[Manifest, ...] = ()
    labels: tuple[dict[str, str], ...] = ()

    def adopt(self, pod: Manifest) -> Manifest:
        """Give an owned pod the labels its ReplicaSet selects, as a real ReplicaSet's pods have."""
        for ref in pod["metadata"].get("ownerReferences", []):
            labels = self.labels[[r["name"] for r in self.references].index(ref["name"])]
            pod["metadata"]["labels"] = {**pod["metadata"].get("labels", {}), **labels}
        return pod


def draw_owners(draw: Draw, enabled: bool) -> Owners:
    app = optional(draw, 25, lambda d: pick(d, POD_LABEL_VALUES["app"])) if enabled else None
    if app is None:
        return Owners()
    labels = {"app": app}
    # replicas 0: nothing recreates pods; the template is required and must match the selector.
    rs = {"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "rs-0", "namespace": "default"},
          "spec": {"replicas": 0, "selector": {"matchLabels": labels},
                   "template": {"metadata": {"labels": labels},
                                "spec": {"containers": [{"name": "c0", "image": IMAGE_NAMES[0]}]}}}}
    ref = {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "rs-0", "uid": "uid-rs-0"}
    return Owners((rs,), (ref,), (labels,))


def draw_services(draw: Draw, enabled: bool) -> list[Manifest]:
    app = optional(draw, 25, lambda d: pick(d, POD_LABEL_VALUES["app"])) if enabled else None
    if app is None:
        return []
    return [{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "svc-0", "namespace": "default"},
             "spec": {"selector": {"app": app}, "ports": [{"port": 80}]}}]


def draw_pdbs(draw: Draw, enabled: bool, pods: Sequence[Manifest]) -> list[Manifest]:
    pdb = optional(draw, 25, lambda d: _draw_pdb(d, pods)) if enabled else None
    return [pdb] if pdb else []


def _draw_pdb(draw: Draw, pods: Sequence[Manifest]) -> Manifest:
    app = pick(draw, POD_LABEL_VALUES["app"])
    budget = pick(draw, (("minAvailable", 1), ("maxUnavailable", 1), ("maxUnavailable", 0), ("minAvailable", "50%")))
    matching = sum(1 for p in pods if p["metadata"]["namespace"] == "default"
                   and p["metadata"].get("labels", {}).get("app") == app)
    allowed = pick(draw, (0, 1, 2))
    # The disruption controller writes status; scenarios carry it, as the scheduler reads it.
    status = {"currentHealthy": matching, "desiredHealthy": max(0, matching - allowed),
              "disruptionsAllowed": allowed, "expectedPods": matching}
    return {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
            "metadata": {"name": "pdb-0", "namespace": "default"},
            "spec": {"selector": {"matchLabels": {"app": app}}, budget[0]: budget[1]}, "status": status}


def namespace_objects(pods: Sequence[Manifest]) -> list[Manifest]:
    """The Namespace objects for every namespace pods use other than "default"."""
    used = {p["metadata"].get("namespace", "default") for p in pods} - {"default"}
    return [{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": n, "labels": dict(NAMESPACE_LABELS[n])}}
            for n in NAMESPACES if n in used]


class Capacity:
    """What is left on each node, in the reference's units, as NodeResourcesFit counts it."""

    def __init__(self, nodes: Sequence[Manifest]) -> None:
        self.free = {n["metadata"]["name"]: dict(codec.node_from_manifest(n).allocatable) for n in nodes}

    def fits(self, node: str, requests: dict[str, int]) -> bool:
        free = self.free[node]
        return free.get(PODS, 0) >= 1 and all(v <= free.get(k, 0) for k, v in requests.items() if v > 0)

    def take(self, node: str, requests: dict[str, int]) -> None:
        free = self.free[node]
        for k, v in {**requests, PODS: 1}.items():
            free[k] = free.get(k, 0) - v


def draw_bound_pods(draw: Draw, nodes: Sequence[Manifest], *, max_pods: int, respect_capacity: bool,
                    owners: Owners, namespaces: Sequence[str]) -> list[Manifest]:
    """Pods bound to drawn nodes; with `respect_capacity`, only to nodes they fit on (else dropped)."""
    names = [n["metadata"]["name"] for n in nodes]
    capacity = Capacity(nodes)

    def bound_pod(draw: Draw, i: int) -> tuple[Manifest, dict[str, int]] | None:
        pod = owners.adopt(draw_pod(draw, f"running-{i}", namespaces=namespaces, nodes=names,
                                    owners=owners.references))
        requests = pod_requests(codec.pod_from_manifest(pod))
        candidates = [n for n in names if capacity.fits(n, requests)] if respect_capacity else names
        if not candidates:
            return None
        pod["spec"]["nodeName"] = pick(draw, candidates)
        return pod, requests
    placed = elements(draw, 0, max_pods, bound_pod, kept=lambda p: capacity.take(p[0]["spec"]["nodeName"], p[1]))
    return [pod for pod, _ in placed]


def draw_nodes(draw: Draw, min_nodes: int, max_nodes: int) -> list[Manifest]:
    return elements(draw, min_nodes, max_nodes, lambda d, i: draw_node(d, NODE_NAMES[i]), more=75)


def clusters(*, min_nodes: int = 1, max_nodes: int = 4, max_pods: int = 4, respect_capacity: bool = True,
             objects: bool = True, namespaces: Sequence[str] = NAMESPACES) -> SearchStrategy[Cluster]:
    """Clusters of `min_nodes` to `max_nodes` nodes (node-0, node-1, ...), up to `max_pods` pods bound
    to them (within each node's allocatable if `respect_capacity`), and, if `objects`, sometimes a
    ReplicaSet owning some pods, a Service, a PodDisruptionBudget; plus the Namespace of every
    namespace other than "default" that pods use.

    Shrinks towards one node with ample capacity and nothing else.
    """
    if not 1 <= min_nodes <= max_nodes <= len(NODE_NAMES):
        raise ValueError(f"clusters(min_nodes={min_nodes!r}, max_nodes={max_nodes!r}): "
                         f"need 1 <= min_nodes <= max_nodes <= {len(NODE_NAMES)}")
    if max_pods < 0:
        raise ValueError(f"clusters(max_pods={max_pods!r}): use 0 or more")
    unknown = sorted(set(namespaces) - set(NAMESPACES))
    if unknown or not namespaces:
        raise ValueError(f"clusters(namespaces={namespaces!r}): use a non-empty subset of {NAMESPACES}")
    namespaces = tuple(namespaces)

    @st.composite
    def build(draw: Draw) -> Cluster:
        nodes = draw_nodes(draw, min_nodes, max_nodes)
        owners = draw_owners(draw, objects)
        pods = draw_bound_pods(draw, nodes, max_pods=max_pods, respect_capacity=respect_capacity, owners=owners,
                               namespaces=namespaces)
        extra = [*owners.objects, *draw_services(draw, objects), *draw_pdbs(draw, objects, pods)]
        return Cluster(tuple(nodes), tuple(pods), tuple(namespace_objects(pods) + extra))
    return build()


__all__ = ["Capacity", "Cluster", "Owners", "clusters", "draw_bound_pods", "draw_nodes", "draw_owners",
           "draw_pdbs", "draw_services", "namespace_objects"]
