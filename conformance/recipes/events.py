"""Scenarios whose cluster changes while the scheduler works, for the event rules: `RejectedThenWoken` (pods
turned down, then an event that lets them in), `EventSteps` (events drawn in steps of chosen kinds: a node
deleted, then wake-ups); held.py holds pods that inter-pod affinity or spreading turned down."""

from __future__ import annotations

from dataclasses import dataclass, replace

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from generators import scenarios, timelines
from generators.pools import DISK, HOSTNAME, NODE_NAMES, SCHEDULING_GATES, TAINT_KEYS, ZONE, ZONES
from reference.scenario import Scenario

# Events that may let a pending pod be scheduled (generators/_timeline.py KINDS names).
WAKE_KINDS = ("ungate-pod", "delete-repeller", "untaint-node", "delete-bound-pod", "lower-requests",
              "add-toleration", "add-node", "relabel-node")


# What turns the workload pods down, simplest first, and the timeline kinds (generators/_timeline.py) whose
# every draw then lets a pod in: a drawn event that applies to these scenarios frees some node for it (a grown
# node: when its cpu grows; memory or the pod count alone is an event the pod's hint must turn away).
BLOCKERS: dict[str, tuple[str, ...]] = {
    "gate": ("ungate-pod",),
    "resources": ("delete-bound-pod", "add-node", "grow-node"),
    "taint": ("untaint-node", "add-toleration", "add-node"),
    "selector": ("relabel-node", "add-node"),
    "unschedulable": ("untaint-node", "add-node"),
}
AFTER_FIRST_TRY = ("idle", 1, 2, 5)  # generators/_timeline.py WHENS but 0
# A nodeSelector no node satisfies until an event relabels or adds one.
_WANTED = {ZONE: ZONES[1], DISK: "ssd"}


def _node(name: str, cpu: str, blocker: str, key: str, effect: str) -> dict:
    alloc = {"cpu": cpu, "memory": "4Gi", "pods": "110"}
    labels = {HOSTNAME: name, ZONE: ZONES[0]}
    spec: dict = {}
    if blocker == "taint":
        spec["taints"] = [{"key": key, "effect": effect}]
    elif blocker == "unschedulable":
        spec["unschedulable"] = True
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": labels}, "spec": spec,
            "status": {"capacity": alloc, "allocatable": alloc}}


def _pod(name: str, cpu: str, *, node: str = "", gated: bool = False, selector: dict | None = None) -> dict:
    spec: dict = {"containers": [{"name": "c0", "image": "registry.k8s.io/pause:3.10",
                                  "resources": {"requests": {"cpu": cpu}}}]}
    if node:
        spec["nodeName"] = node
    if gated:
        spec["schedulingGates"] = [{"name": SCHEDULING_GATES[0]}]
    if selector:
        spec["nodeSelector"] = selector
    meta = {"name": name, "namespace": "default"}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}


@dataclass(frozen=True)
class RejectedThenWoken:
    """The default profile, 1-2 nodes and 1-2 workload pods that one blocker (`BLOCKERS`) turns down on every
    node (a scheduling gate, nodes filled by bound pods, untolerated taints, a nodeSelector no node matches,
    cordoned nodes), then an event that lets a pod in (mostly once the scheduler has tried), sometimes one
    more event of any kind. Shrinks towards a gated pod on one node, ungated when the scheduler is idle, and
    no second event. `weight`: shares of the search's draws (see search.py); `max_nodes`, `max_pods` (1 or
    2) and `idle_only` (every event at `when: idle`, for a wall clock) narrow it for the differential."""

    weight: int = 4
    max_nodes: int = 2
    max_pods: int = 2
    idle_only: bool = False

    def strategy(self) -> SearchStrategy[Scenario]:
        return st.composite(self._draw)()

    def _draw(self, draw) -> Scenario:
        blocker = draw(st.sampled_from(tuple(BLOCKERS)))
        # Drawn whatever the blocker, so that the choices after them stay in place when the blocker shrinks.
        key, effect = draw(st.sampled_from(TAINT_KEYS)), draw(st.sampled_from(("NoSchedule", "NoExecute")))
        nodes, bound = [], []
        for name in NODE_NAMES[:draw(st.integers(1, self.max_nodes))]:
            cpu = draw(st.sampled_from(("1", "2")))
            nodes.append(_node(name, cpu, blocker, key, effect))
            if blocker == "resources":  # full: the pod fits only once this one goes (or a node comes)
                bound.append(_pod(f"running-{len(bound)}", cpu, node=name))
        chosen = dict([draw(st.sampled_from(tuple(_WANTED.items())))]) if blocker == "selector" else None
        workload = [_pod(f"pod-{i}", draw(st.sampled_from(("1", "500m"))), gated=blocker == "gate",
                         selector=chosen) for i in range(draw(st.integers(1, self.max_pods)))]
        sc = Scenario(config=None, nodes=tuple(nodes), pods=tuple(bound), workload=tuple(workload))
        wake = draw(timelines(sc, min_events=1, max_events=1, kinds=BLOCKERS[blocker]))
        # Not at 0: the event would come before the first attempt, and nothing would have turned the pod down.
        whens = ("idle",) if self.idle_only else AFTER_FIRST_TRY
        wake = tuple({**e, "when": draw(st.sampled_from(whens))} for e in wake)
        sc = replace(sc, timeline=wake)
        return replace(sc, timeline=(*wake, *draw(timelines(sc, max_events=1, idle_only=self.idle_only))))


@dataclass(frozen=True)
class EventSteps:
    """The default profile, 1 to `nodes` nodes, 1-3 workload pods (some gated), and a timeline drawn in
    `steps`: each (kinds, least, most) adds `least` to `most` events of those kinds (where one applies) after
    the events before it. `weight`: shares of the search's draws (see search.py)."""

    steps: tuple[tuple[tuple[str, ...], int, int], ...]
    nodes: int = 2
    weight: int = 2

    def strategy(self) -> SearchStrategy[Scenario]:
        base = scenarios(max_nodes=self.nodes, max_pods=3, probes=0, default_plugins=True, gates=True)

        # One composite, not flatmaps: the steps' choices follow the scenario's in one choice sequence, which
        # the shrinker reduces as a whole (a flatmap redraws the timeline whenever the scenario shrinks).
        def draw(draw):
            sc = draw(base)
            for kinds, least, most in self.steps:
                new = draw(timelines(sc, min_events=least, max_events=most, kinds=kinds))
                sc = replace(sc, timeline=(*sc.timeline, *new))
            return sc
        return st.composite(draw)()


# A node deleted while a pod may still wait, then events that may let the pod in, on a node the scheduler must
# no longer see (exercised 0 times in 100 with events drawn for any scenario).
NODE_GONE_THEN_WOKEN = EventSteps(((("delete-node",), 1, 1), (WAKE_KINDS[:-2], 1, 2)), nodes=3)

# A node updated (in ways that keep every pod's fit) while pods may still wait, then events that let them try
# again: the updated node must still count.
NODE_UPDATED_THEN_WOKEN = EventSteps(((("annotate-node", "relabel-node", "untaint-node"), 1, 1),
                                      (("ungate-pod", "delete-bound-pod", "lower-requests", "add-toleration"),
                                       1, 2)))

# Events that let no pod in (a node annotated or relabelled): a pod turned down must stay down, unretried.
UNHELPFUL_EVENTS = EventSteps(((("annotate-node", "relabel-node", "annotate-pod"), 1, 2),), nodes=2)

__all__ = ["AFTER_FIRST_TRY", "BLOCKERS", "NODE_GONE_THEN_WOKEN", "NODE_UPDATED_THEN_WOKEN", "UNHELPFUL_EVENTS",
           "WAKE_KINDS", "EventSteps", "RejectedThenWoken"]
