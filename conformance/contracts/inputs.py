"""Generated inputs of one plugin: a snapshot (nodes, bound pods), the pod to schedule, and what a property adds
(another pod, a queue, a cluster event). Built from `generators`, so they shrink as the scenarios do."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from generators import clusters, decorate_node, decorate_pod, nodes, pods
from generators.pools import NODE_NAMES

from .inputs_target import draw_pod_update, lowered_pod, relaxed_pods

Manifest = dict[str, Any]
MAX_NODES = 3


@dataclass(frozen=True)
class PluginInput:
    nodes: tuple[Manifest, ...]
    pods: tuple[Manifest, ...]  # bound to the nodes
    pod: Manifest               # the pod being scheduled

    @property
    def node_names(self) -> list[str]:
        return [n["metadata"]["name"] for n in self.nodes]

    def to_dict(self) -> dict[str, Any]:
        return {"nodes": list(self.nodes), "pods": list(self.pods), "pod": self.pod}


@dataclass(frozen=True)
class WithOther:
    """An input and another pod bound to one of its nodes (added or removed, reserved, nominated)."""
    input: PluginInput
    other: Manifest

    @property
    def node(self) -> str:
        return self.other["spec"]["nodeName"]

    def with_other(self) -> PluginInput:
        return replace(self.input, pods=self.input.pods + (self.other,))

    def to_dict(self) -> dict[str, Any]:
        return {**self.input.to_dict(), "other": self.other}


@dataclass(frozen=True)
class QueuedPods:
    """Pods as the scheduling queue holds them: times in nanoseconds after a fixed epoch."""
    queued: tuple[Manifest, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"queued": list(self.queued)}


@dataclass(frozen=True)
class WithEvent:
    """An input, a cluster event (a node or an assigned pod added, updated or deleted, or the pod itself updated:
    `target`) and the input after it (`after.pod` is the updated pod)."""
    input: PluginInput
    event: Manifest
    after: PluginInput

    def to_dict(self) -> dict[str, Any]:
        return {**self.input.to_dict(), "event": self.event}


@dataclass(frozen=True)
class WithEvents:
    """An input and several events, each applied to it alone: drawn ones, then every deletion (or resize down) of a
    bound pod and every deletion of a node, and every relaxation of a node or of the pod (the events that free
    room), so one input tries many wake-ups."""
    input: PluginInput
    events: tuple[WithEvent, ...]

    def to_dict(self) -> dict[str, Any]:
        return {**self.input.to_dict(), "events": [e.event for e in self.events]}


# Strategies are built once per set of options: building one is dearer than drawing from it.
_CLUSTERS = clusters(max_nodes=MAX_NODES, max_pods=4, objects=False)


@lru_cache(maxsize=None)
def _pods(**options: Any) -> SearchStrategy[Manifest]:
    return pods(**options)


@lru_cache(maxsize=None)
def _nodes(name: str) -> SearchStrategy[Manifest]:
    return nodes(name=name)


class _Vocabulary:
    """The user's vocabulary (generators.Domain) the inputs carry, set once per session by `use_domain`."""
    domain: Any = None


def use_domain(domain: Any) -> None:
    """Decorate every drawn input with `domain` (the plugins' own labels, taints, resources), or stop (None)."""
    _Vocabulary.domain = domain or None


@st.composite
def plugin_inputs(draw: Any) -> PluginInput:
    """A cluster of 1 to 3 nodes with up to 4 bound pods and a pod to schedule; shrinks towards one empty node
    and the simplest pod. With a domain (`use_domain`), some of its vocabulary is drawn onto them."""
    cluster = draw(_CLUSTERS)
    names = tuple(n["metadata"]["name"] for n in cluster.nodes)
    inp = PluginInput(cluster.nodes, cluster.pods, draw(_pods(name="pod-0", nodes=names, gates=False)))
    domain = _Vocabulary.domain
    if domain is None:
        return inp
    return PluginInput(tuple(decorate_node(draw, n, domain) for n in inp.nodes),
                       tuple(decorate_pod(draw, p, domain, pending=False) for p in inp.pods),
                       decorate_pod(draw, inp.pod, domain, pending=True))


@st.composite
def with_other(draw: Any) -> WithOther:
    """An input and another pod bound to one of its nodes; shrinks towards the simplest pod on the first node."""
    inp = draw(plugin_inputs())
    node = draw(st.sampled_from(inp.node_names))
    return WithOther(inp, draw(_pods(name="other-0", node_name=node, nodes=tuple(inp.node_names))))


@st.composite
def queued_pods(draw: Any) -> QueuedPods:
    """2 to 5 queued pods with priorities, timestamps 0-3 s apart, attempts and backoff; shrinks towards two
    equal pods queued at the same instant."""
    count = draw(st.integers(2, 5))
    second = 1_000_000_000
    out = []
    for i in range(count):
        out.append({"pod": draw(_pods(name=f"pod-{i}", gates=False)),
                    "timestamp": draw(st.integers(0, 3)) * second,
                    "attempts": draw(st.integers(0, 3)), "unschedulableCount": draw(st.integers(0, 3)),
                    "backoffExpiration": draw(st.integers(0, 3)) * second})
    return QueuedPods(tuple(out))


def _replace(items: tuple[Manifest, ...], name: str, new: Manifest | None) -> tuple[Manifest, ...]:
    out = [new if i["metadata"]["name"] == name else i for i in items]
    return tuple(i for i in out if i is not None)


def _room_freed(inp: PluginInput) -> list[WithEvent]:
    """Every bound pod deleted or, where it has requests to lower, resized down (AssignedPod/UpdatePodScaleDown),
    and every node deleted (with its pods) when another is left."""
    out = [WithEvent(inp, {"kind": "pod", "action": "delete", "old": p},
                     replace(inp, pods=_replace(inp.pods, p["metadata"]["name"], None))) for p in inp.pods]
    for p in inp.pods:
        if (lowered := lowered_pod(p)) is not None:
            out.append(WithEvent(inp, {"kind": "pod", "action": "update", "old": p, "new": lowered},
                                 replace(inp, pods=_replace(inp.pods, p["metadata"]["name"], lowered))))
    if len(inp.nodes) > 1:
        for node in inp.nodes:
            name = node["metadata"]["name"]
            out.append(WithEvent(inp, {"kind": "node", "action": "delete", "old": node},
                                 replace(inp, nodes=_replace(inp.nodes, name, None),
                                         pods=tuple(p for p in inp.pods if p["spec"]["nodeName"] != name))))
    return out


_ROOMY = {"cpu": "64", "memory": "256Gi", "pods": "110"}


def _target(inp: PluginInput, new: Manifest) -> WithEvent:
    """The pod's own update (inputs_target: only what the API server allows on a pending pod)."""
    return WithEvent(inp, {"kind": "pod", "action": "update", "target": True, "old": inp.pod, "new": new},
                     replace(inp, pod=new))


def _relaxations(inp: PluginInput) -> list[WithEvent]:
    """Per node, each update that lifts one kind of constraint on its own: its taints removed, spec.unschedulable
    cleared, allocatable raised, the pod's nodeSelector labels added (only those that change the node); then each
    such update of the pod itself (`relaxed_pods`)."""
    out = []
    selector = (inp.pod.get("spec") or {}).get("nodeSelector") or {}
    for node in inp.nodes:
        spec, status = node.get("spec") or {}, node.get("status") or {}
        labels = node["metadata"].get("labels") or {}
        changes = []
        if spec.get("taints"):
            changes.append({**node, "spec": {k: v for k, v in spec.items() if k != "taints"}})
        if spec.get("unschedulable"):
            changes.append({**node, "spec": {k: v for k, v in spec.items() if k != "unschedulable"}})
        roomy = {**(status.get("allocatable") or {}), **_ROOMY}
        if roomy != status.get("allocatable"):
            changes.append({**node, "status": {**status, "capacity": roomy, "allocatable": roomy}})
        if any(labels.get(k) != v for k, v in selector.items()):
            changes.append({**node, "metadata": {**node["metadata"], "labels": {**labels, **selector}}})
        name = node["metadata"]["name"]
        out += [WithEvent(inp, {"kind": "node", "action": "update", "old": node, "new": new},
                          replace(inp, nodes=_replace(inp.nodes, name, new))) for new in changes]
    return out + [_target(inp, new) for new in relaxed_pods(inp.pod, inp.nodes)]


@st.composite
def with_events(draw: Any) -> WithEvents:
    """An input, 1 to 3 drawn events (see `_event`), a drawn update of the pod itself (`draw_pod_update`), every
    deletion and every one-constraint relaxation of a node or of the pod; shrinks towards one added simple node
    and the pod's labels removed.

    The pod's update is drawn after the other events rather than as one of their kinds: a kind more among them
    drew node additions a third less often, and the wake-ups they find (BrokenZoneOnly's on v1.35: 8 in 300
    examples instead of 30) with them."""
    inp = draw(plugin_inputs())
    drawn = [_event(draw, inp) for _ in range(draw(st.integers(1, 3)))]
    drawn.append(_target(inp, draw_pod_update(draw, inp.pod)))
    return WithEvents(inp, tuple(drawn + _room_freed(inp) + _relaxations(inp)))


def _event(draw: Any, inp: PluginInput) -> WithEvent:
    """A node added, updated (relabelled, retainted, resized) or deleted, an assigned pod added, updated (labels,
    an added toleration, requests lowered: `draw_pod_update`) or deleted; shrinks towards adding a simple node."""
    names = inp.node_names
    kinds = ["node/add", "node/update", "pod/add"]
    if len(inp.nodes) > 1:
        kinds.append("node/delete")
    if inp.pods:
        kinds += ["pod/update", "pod/delete"]
    kind, action = draw(st.sampled_from(kinds)).split("/")
    if kind == "node":
        if action == "add":
            new = draw(_nodes(NODE_NAMES[len(names)]))
            return WithEvent(inp, {"kind": kind, "action": action, "new": new},
                             replace(inp, nodes=inp.nodes + (new,)))
        old = draw(st.sampled_from(inp.nodes))
        name = old["metadata"]["name"]
        if action == "delete":
            return WithEvent(inp, {"kind": kind, "action": action, "old": old},
                             replace(inp, nodes=_replace(inp.nodes, name, None),
                                     pods=tuple(p for p in inp.pods if p["spec"]["nodeName"] != name)))
        new = draw(_nodes(name))
        return WithEvent(inp, {"kind": kind, "action": action, "old": old, "new": new},
                         replace(inp, nodes=_replace(inp.nodes, name, new)))
    if action == "add":
        node = draw(st.sampled_from(names))
        new = draw(_pods(name=f"running-{len(inp.pods) + 10}", node_name=node, nodes=tuple(names)))
        return WithEvent(inp, {"kind": kind, "action": action, "new": new}, replace(inp, pods=inp.pods + (new,)))
    old = draw(st.sampled_from(inp.pods))
    name = old["metadata"]["name"]
    if action == "delete":
        return WithEvent(inp, {"kind": kind, "action": action, "old": old},
                         replace(inp, pods=_replace(inp.pods, name, None)))
    # Only what the API server allows on a bound pod: a whole new pod would change its affinity or requests,
    # events no real cluster sends (and a false lost wake-up when the plugin rightly ignores them).
    new = draw_pod_update(draw, old)
    return WithEvent(inp, {"kind": kind, "action": action, "old": old, "new": new},
                     replace(inp, pods=_replace(inp.pods, name, new)))


__all__ = ["PluginInput", "QueuedPods", "WithEvent", "WithEvents", "WithOther", "plugin_inputs", "queued_pods",
           "with_events", "with_other"]
