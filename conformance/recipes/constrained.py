"""Situations for the outcome-only invariants: small clusters where one hard constraint decides.

The general scenarios carry every feature rarely (a tainted node in one draw of seven, host ports
in one pod of seven), so the binding a rule governs is rare. Here the default profile schedules
1-4 pods on 1-3 nodes where the constraint is always present: tainted nodes and tolerations, node
selectors, an unschedulable node, host ports (sidecars and wildcard IPs included), tight nodes (of 1-2 cores
or 96-192) with init containers, sidecars and overhead, required pod (anti-)affinity, DoNotSchedule spread
constraints shared by pods of one app; and, for liveness, a mix of them that leaves pods pending.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from generators import clusters, node_selector_terms, pod_affinity_terms, pods, taints, tolerations, \
    topology_spread_constraints
from generators.pools import HOST_PORTS, HOSTNAME, POD_LABEL_VALUES, ZONE, ZONES
from reference.scenario import Scenario

FEATURES = ("taints", "selection", "unschedulable", "ports", "resources", "affinity", "spread", "liveness")
_UNSCHEDULABLE_TOLERATION = {"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule"}


def _pick(draw, pool):
    return draw(st.sampled_from(tuple(pool)))


def _chance(draw, percent: int) -> bool:
    """True in about `percent`% of draws; shrinks towards False."""
    return draw(st.integers(0, 99)) >= 100 - percent


def _taint(draw, node: dict) -> None:
    taint = dict(draw(taints()), effect=_pick(draw, ("NoSchedule", "NoExecute")))
    node.setdefault("spec", {})["taints"] = [taint]


def _tolerate(draw, pod: dict) -> None:
    pod["spec"]["tolerations"] = [draw(tolerations())]


def _select(draw, pod: dict, names: list[str]) -> None:
    if _chance(draw, 50):
        key = _pick(draw, (HOSTNAME, ZONE))
        pod["spec"]["nodeSelector"] = {key: _pick(draw, names if key == HOSTNAME else ZONES)}
    else:
        pod["spec"].setdefault("affinity", {})["nodeAffinity"] = {
            "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [draw(node_selector_terms(
                nodes=names))]}}


def _host_port(draw, pod: dict) -> None:
    """One host port on the first container or on a sidecar; the host IP sometimes the wildcard."""
    number = _pick(draw, HOST_PORTS)
    port = {"containerPort": number, "hostPort": number, "protocol": _pick(draw, ("TCP", "TCP", "TCP", "UDP"))}
    ip = _pick(draw, ("", "", "", "0.0.0.0", "127.0.0.1"))
    if ip:
        port["hostIP"] = ip
    spec = pod["spec"]
    for c in (*spec.get("initContainers", ()), *spec["containers"]):
        c.pop("ports", None)
    if _chance(draw, 50):
        spec["initContainers"] = [{"name": "sidecar", "image": "registry.k8s.io/pause:3.10",
                                   "restartPolicy": "Always", "ports": [port]}]
    else:
        spec["containers"][0]["ports"] = [port]


def _cores(milli: int) -> str:
    return str(milli // 1000) if milli % 1000 == 0 else f"{milli}m"


def _requests(draw, pod: dict, scale: int) -> None:
    """CPU asked by containers, init containers or a sidecar (the sum or the max, as upstream counts), `scale`
    times a quarter to one and a half cores."""
    spec = pod["spec"]
    cpu = lambda: {"requests": {"cpu": _cores(scale * _pick(draw, (500, 1000, 1500, 250)))}}  # noqa: E731
    spec["containers"][0]["resources"] = cpu()
    kind = _pick(draw, ("none", "init", "sidecar", "overhead"))
    if kind in ("init", "sidecar"):
        init = {"name": kind, "image": "registry.k8s.io/pause:3.10", "resources": cpu()}
        if kind == "sidecar":
            init["restartPolicy"] = "Always"
        spec["initContainers"] = [init]
    elif kind == "overhead":
        spec.update(runtimeClassName="runc-overhead", overhead={"cpu": "100m", "memory": "64Mi"})


def _labels(draw, pod: dict) -> None:
    pod["metadata"]["labels"] = {"app": _pick(draw, POD_LABEL_VALUES["app"][:2])}


def _pod_affinity(draw, pod: dict) -> None:
    kind = _pick(draw, ("podAntiAffinity", "podAffinity"))
    term = draw(pod_affinity_terms(namespaces=("default",)))
    pod["spec"].setdefault("affinity", {})[kind] = {"requiredDuringSchedulingIgnoredDuringExecution": [term]}


def _prefer_first_node(pod: dict) -> None:
    """Scoring then packs node-0, so the rule, not the scores, has to stop the next pod there."""
    pod["spec"].setdefault("affinity", {})["nodeAffinity"] = {"preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": 100, "preference": {"matchExpressions": [{"key": HOSTNAME, "operator": "In",
                                                             "values": ["node-0"]}]}}]}


def _wait_for(draw, pod: dict) -> None:
    """Required affinity to app=web pods, which come later in the workload: rejected until one binds."""
    key = _pick(draw, (HOSTNAME, ZONE))
    pod["spec"].setdefault("affinity", {})["podAffinity"] = {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": key}]}


def _spread(draw, pod: dict, shared: dict | None) -> dict:
    constraint = shared if shared is not None else dict(draw(topology_spread_constraints()),
                                                         whenUnsatisfiable="DoNotSchedule")
    pod["spec"]["topologySpreadConstraints"] = [copy.deepcopy(constraint)]
    return constraint


@dataclass(frozen=True)
class Constrained:
    """The default profile, 1-3 nodes, 1-4 workload pods, and one hard constraint always in play.
    `weight`: shares of the search's draws against the general scenarios' one (see search.py)."""

    feature: str
    weight: int = 2

    def strategy(self) -> SearchStrategy[Scenario]:
        if self.feature not in FEATURES:
            raise ValueError(f"Constrained(feature={self.feature!r}): use one of {', '.join(FEATURES)}")
        return st.composite(lambda draw: self._draw(draw))()

    def _draw(self, draw) -> Scenario:
        several = self.feature in ("taints", "unschedulable", "affinity", "spread")
        cluster = draw(clusters(min_nodes=2 if several else 1, max_nodes=3, max_pods=2))
        nodes = [copy.deepcopy(n) for n in cluster.nodes]
        bound = [copy.deepcopy(p) for p in cluster.pods]
        names = [n["metadata"]["name"] for n in nodes]
        feature = self.feature
        # Tight nodes of 1-2 cores, or (for resources) the same tightness on the largest machines (96-192 cores).
        scale = (96 if _chance(draw, 50) else 1) if feature == "resources" else 1
        for i, node in enumerate(nodes):
            if feature in ("affinity", "spread") and _chance(draw, 85):
                node["metadata"]["labels"][ZONE] = _pick(draw, ZONES[:2])
            if feature in ("resources", "liveness"):
                node["status"]["allocatable"]["cpu"] = node["status"]["capacity"]["cpu"] = _cores(
                    scale * _pick(draw, (2000, 1000)))
            if feature == "taints" and (i == 0 or _chance(draw, 40)) or feature == "liveness" and _chance(draw, 30):
                _taint(draw, node)
            if feature == "unschedulable" and (i == 0 or _chance(draw, 10)):
                node.setdefault("spec", {})["unschedulable"] = True
        for p in bound:
            if feature == "ports" and _chance(draw, 50):
                _host_port(draw, p)
            if feature in ("affinity", "spread"):
                _labels(draw, p)
        workload, shared = [], None
        # Pairs decide ports and spreading: the simplest draw has two pods, packed on node-0 by scoring.
        pairs = feature in ("ports", "spread")
        for i in range(draw(st.integers(2 if pairs else 1, 4))):
            pod = draw(pods(name=f"pod-{i}", nodes=names, gates=False))
            spec = pod["spec"]
            # Other constraints the pod drew would keep it from binding, where the rule is decided.
            for key in ("affinity",) if feature == "liveness" else (
                    "nodeSelector", "affinity", "topologySpreadConstraints", "tolerations"):
                spec.pop(key, None)
            if feature == "affinity":  # requests at real magnitudes often fit no node: they would decide instead
                for c in (*spec.get("initContainers", ()), *spec["containers"]):
                    c.pop("resources", None)
            if feature in ("taints", "unschedulable") and _chance(draw, 40):
                spec["tolerations"] = [_UNSCHEDULABLE_TOLERATION] if feature == "unschedulable" and _chance(
                    draw, 50) else [draw(tolerations())]
            if feature == "selection":
                _select(draw, pod, names)
            if feature == "ports" or feature == "liveness" and _chance(draw, 20):
                _host_port(draw, pod)
            if pairs and not _chance(draw, 40):
                _prefer_first_node(pod)
            if feature in ("resources", "liveness"):
                _requests(draw, pod, scale)
            if feature in ("affinity", "spread"):
                _labels(draw, pod)
            if feature == "affinity":
                _pod_affinity(draw, pod)
            if feature == "liveness":
                if i == 0 and _chance(draw, 50):
                    _wait_for(draw, pod)
                elif i > 0 and _chance(draw, 50):
                    pod["metadata"]["labels"] = {"app": "web"}
            if feature == "spread":
                shared = _spread(draw, pod, None if _chance(draw, 30) else shared)
            workload.append(pod)
        return Scenario(config=None, nodes=tuple(nodes), pods=tuple(bound), objects=cluster.objects,
                        workload=tuple(workload))


def _pod(name: str, cpu: str, priority: int, *, node: str = "", app: str = "", never: bool = False) -> dict:
    """A pod of the pool's priority classes (as admission fills them in) asking for `cpu` only."""
    classes = {100: "low-priority", 1000: "high-priority-nonpreempting" if never else "high-priority"}
    spec: dict = {"priorityClassName": classes[priority], "priority": priority, "containers": [
        {"name": "c0", "image": "registry.k8s.io/pause:3.10", "resources": {"requests": {"cpu": cpu}}}]}
    if never:
        spec["preemptionPolicy"] = "Never"
    if node:
        spec["nodeName"] = node
    meta: dict = {"name": name, "namespace": "default"}
    if app:
        meta["labels"] = {"app": app}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}


@dataclass(frozen=True)
class Preempting:
    """2-3 nodes of 2 CPUs, each full of low-priority web or db pods (node-0 web only), a
    PodDisruptionBudget over the web pods, and one high-priority pod that fits only by evicting
    (`never`: mostly with preemptionPolicy Never)."""

    never: bool = False
    weight: int = 2

    def strategy(self) -> SearchStrategy[Scenario]:
        return st.composite(lambda draw: self._draw(draw))()

    def _draw(self, draw) -> Scenario:
        nodes, bound = [], []
        for i in range(draw(st.integers(2, 3))):
            name = f"node-{i}"
            alloc = {"cpu": "2", "memory": "4Gi", "pods": "110"}
            nodes.append({"apiVersion": "v1", "kind": "Node",
                          "metadata": {"name": name, "labels": {HOSTNAME: name}},
                          "status": {"capacity": alloc, "allocatable": alloc}})
            for cpu in _pick(draw, (("1", "1"), ("2",), ("500m", "1500m"), ("500m", "500m", "1"))):
                # node-0 holds only budgeted pods: evicting there breaks the budget, elsewhere it may not.
                app = "web" if i == 0 else _pick(draw, ("db", "web"))
                bound.append(_pod(f"running-{len(bound)}", cpu, 100, node=name, app=app))
        web = sum(1 for p in bound if p["metadata"]["labels"]["app"] == "web")
        allowed = _pick(draw, (0, 1))
        pdb = {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
               "metadata": {"name": "pdb-0", "namespace": "default"},
               "spec": {"selector": {"matchLabels": {"app": "web"}}, "maxUnavailable": allowed},
               "status": {"currentHealthy": web, "desiredHealthy": max(0, web - allowed),
                          "disruptionsAllowed": allowed, "expectedPods": web}}
        never = self.never and not _chance(draw, 30)
        workload = [_pod("pod-0", _pick(draw, ("1", "500m", "1500m", "2")), 1000, never=never)]
        if _chance(draw, 20):
            workload.append(_pod("pod-1", _pick(draw, ("500m", "1")), 100, app="db"))
        return Scenario(nodes=tuple(nodes), pods=tuple(bound), objects=(pdb,), workload=tuple(workload))


__all__ = ["Constrained", "FEATURES", "Preempting"]
