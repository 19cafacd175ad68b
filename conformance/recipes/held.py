"""`HeldByTopology`: pods that inter-pod affinity or topology spreading alone turns down, then the events
those plugins' queueing hints read (InterPodAffinity, PodTopologySpread EventsToRegister in v1.37.2).

A hint is asked only of a pod its plugin rejected, while the pod waits in the unschedulable pool; the general
scenarios hold such a pod when an event comes in about 1 draw of 35, so the hints were hardly drawn.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from generators import timelines
from generators.pools import HOSTNAME, NODE_NAMES, ZONE, ZONES
from reference.scenario import Scenario
from reference.timeline import TimelineState, timeline_events

from .events import AFTER_FIRST_TRY

# What holds the workload pods, simplest first: their required anti-affinity to the bound pods, the bound
# pods' anti-affinity to them, their required affinity to pods that do not exist, a spread constraint over a
# key no node has, a spread constraint whose domains are fewer than its minDomains (the minimum is then 0).
HOLDS = ("anti-affinity", "existing-anti-affinity", "affinity", "spread-label", "spread-skew")
# The events both plugins register: assigned pods added, relabelled or deleted, the target pod relabelled or
# given a toleration, nodes added, relabelled or deleted; and changes of the objects their selectors read
# (namespaces, Services), which move no pod. Each event's kind is drawn here among those that apply (the
# timeline's own choice would fall mostly on the deletions it lists first), in this order, so draws shrink
# towards a node added.
TOPOLOGY_KINDS = ("add-node", "relabel-node", "add-bound-pod", "relabel-bound-pod", "relabel-pod",
                  "delete-bound-pod", "delete-repeller", "add-toleration", "delete-node", "change-object",
                  "add-object")
_NEEDS_BOUND = ("relabel-bound-pod", "delete-bound-pod")
_NEEDS_NODE = ("add-node", "relabel-node", "add-bound-pod", "delete-node")  # add-node copies one


def _term(app: str, key: str) -> dict:
    return {"labelSelector": {"matchLabels": {"app": app}}, "topologyKey": key}


def _required(term: dict) -> dict:
    return {"requiredDuringSchedulingIgnoredDuringExecution": [term]}


def _pod(name: str, app: str, *, node: str = "", affinity: dict | None = None,
         spread: dict | None = None) -> dict:
    spec: dict = {"containers": [{"name": "c0", "image": "registry.k8s.io/pause:3.10"}]}
    if node:
        spec["nodeName"] = node
    if affinity:
        spec["affinity"] = affinity
    if spread:
        spec["topologySpreadConstraints"] = [spread]
    meta = {"name": name, "namespace": "default", "labels": {"app": app}}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}


def _node(name: str, labelled: bool) -> dict:
    alloc = {"cpu": "2", "memory": "4Gi", "pods": "110"}
    labels = {HOSTNAME: name, **({ZONE: ZONES[0]} if labelled else {})}
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": labels},
            "status": {"capacity": alloc, "allocatable": alloc}}


def _applicable(sc: Scenario, hold: str) -> tuple[str, ...]:
    """The kinds of TOPOLOGY_KINDS that have something to change after `sc`'s timeline (repellers: bound db
    pods, which the anti-affinity hold's term selects; other objects: those the timeline created)."""
    state = TimelineState.of(sc)
    for event in timeline_events(sc):
        state.apply(event)
    bound = [m for (kind, _), m in state.objects.items()
             if kind == "Pod" and (m.get("spec") or {}).get("nodeName")]
    repellers = hold == "anti-affinity" and any(
        (m["metadata"].get("labels") or {}).get("app") == "db" for m in bound)
    have = {"bound": bool(bound), "node": any(kind == "Node" for kind, _ in state.objects),
            "objects": any(kind not in ("Pod", "Node") for kind, _ in state.objects)}
    return tuple(k for k in TOPOLOGY_KINDS if (have["bound"] or k not in _NEEDS_BOUND)
                 and (have["node"] or k not in _NEEDS_NODE) and (repellers or k != "delete-repeller")
                 and (have["objects"] or k != "change-object"))


@dataclass(frozen=True)
class HeldByTopology:
    """The default profile, 1-2 nodes (in one zone, but for `spread-label`) and 1-2 workload pods asking for
    nothing that one hold of `HOLDS` turns down on every node, on the hostname or the zone, then 1-2 events of
    `TOPOLOGY_KINDS` once the scheduler has tried. Shrinks towards one node holding one pod the workload pod's
    anti-affinity repels by hostname, and one node added when the scheduler is idle. `weight`: shares of the
    search's draws (see search.py)."""

    weight: int = 2

    def strategy(self) -> SearchStrategy[Scenario]:
        return st.composite(self._draw)()

    def _draw(self, draw) -> Scenario:
        hold = draw(st.sampled_from(HOLDS))
        key = ZONE if hold == "spread-label" else draw(st.sampled_from((HOSTNAME, ZONE)))
        honour_taints = draw(st.booleans())  # nodeTaintsPolicy: the hint on a toleration added reads it
        names = NODE_NAMES[:draw(st.integers(1, 2))]
        nodes = [_node(n, labelled=hold != "spread-label") for n in names]
        web = {"labelSelector": {"matchLabels": {"app": "web"}}}
        affinity, spread, bound = None, None, []
        if hold == "anti-affinity":
            affinity = {"podAntiAffinity": _required(_term("db", key))}
            bound = [_pod(f"running-{i}", "db", node=n) for i, n in enumerate(names)]
        elif hold == "existing-anti-affinity":
            repel = {"podAntiAffinity": _required(_term("web", key))}
            bound = [_pod(f"running-{i}", "db", node=n, affinity=repel) for i, n in enumerate(names)]
        elif hold == "affinity":  # the workload pods are db pods: no first-pod exception lets them in
            affinity = {"podAffinity": _required(_term("web", key))}
        else:
            spread = {"maxSkew": 1, "topologyKey": key, "whenUnsatisfiable": "DoNotSchedule", **web}
            if hold == "spread-skew":  # a matching pod on each node; a third domain wanted: the minimum is 0
                spread["minDomains"] = 3
                bound = [_pod(f"running-{i}", "web", node=n) for i, n in enumerate(names)]
            if honour_taints:
                spread["nodeTaintsPolicy"] = "Honor"
        app = "db" if hold == "affinity" else "web"
        workload = [_pod(f"pod-{i}", app, affinity=affinity, spread=spread)
                    for i in range(draw(st.integers(1, 2)))]
        sc = Scenario(config=None, nodes=tuple(nodes), pods=tuple(bound), workload=tuple(workload))
        for _ in range(draw(st.integers(1, 2))):
            event = draw(timelines(sc, min_events=1, max_events=1,
                                   kinds=(draw(st.sampled_from(_applicable(sc, hold))),)))
            # Not at 0: the event would come before the first attempt, and no hint would be asked.
            event = tuple({**e, "when": draw(st.sampled_from(AFTER_FIRST_TRY))} for e in event)
            sc = replace(sc, timeline=(*sc.timeline, *event))
        return sc


__all__ = ["HOLDS", "TOPOLOGY_KINDS", "HeldByTopology"]
