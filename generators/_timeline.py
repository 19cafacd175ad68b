"""Timelines drawn for a scenario: cluster events relevant to its pending pods, and some that change
nothing for them (format: docs/scenario.md#timeline).

Each event is built from the cluster as the events before it left it (reference/timeline.py's
TimelineState), so every draw is an event the API server accepts, by construction: a bound pod deleted
(its room, or the anti-affinity it repels a pending pod by, goes with it), a node added or relabelled so a
selector matches, or deleted, a taint, a cordon or a scheduling gate removed, a pending pod's requests
lowered or a toleration added to it; and node or pod annotations, which no stock plugin reads. They shrink towards no
event, then fewer, earlier (`idle` first) and simpler ones (the first applicable kind of `KINDS`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Collection, Mapping

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from reference import codec
from reference.resize import halved, lowerable
from reference.scenario import Scenario, pod_key
from reference.selectors import label_selector_matches
from reference.timeline import TimelineEvent, TimelineState, parse_event, timeline_events

from ._draw import Draw, Manifest, elements
from .pools import HOSTNAME, NODE_LABEL_VALUES, NODE_NAMES, TAINT_KEYS

# Virtual times an event may wait for: "idle" (after the scheduler has tried) first, so draws shrink to it.
WHENS: tuple[Any, ...] = ("idle", 0, 1, 2, 5)
NOTE = "example.com/note"  # an annotation no stock plugin reads
State = TimelineState


def _nodes(state: State) -> list[Manifest]:
    return [m for (kind, _), m in sorted(state.objects.items()) if kind == "Node"]


def _pods(state: State, bound: bool) -> list[Manifest]:
    return [m for (kind, _), m in sorted(state.objects.items())
            if kind == "Pod" and bool((m.get("spec") or {}).get("nodeName")) == bound]


def _pending(state: State, workload: set[str]) -> list[Manifest]:
    """The scenario's pods to schedule that still exist (pending in the manifests: the binding is not)."""
    return [m for m in _pods(state, False) if pod_key(m) in workload]


def _ref(op: str, kind: str, m: Mapping[str, Any], **rest: Any) -> Manifest:
    meta = m["metadata"]
    where = {"namespace": meta.get("namespace") or "default"} if kind == "Pod" else {}
    return {"op": op, "kind": kind, **where, "name": meta["name"], **rest}


def _taints(node: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return list((node.get("spec") or {}).get("taints") or ())


# --- each kind: (state, pending pods) -> the choices it can make, then the event for one of them ---------

def _delete_bound(draw: Draw, state: State, pending: list[Manifest]) -> Manifest | None:
    bound = _pods(state, True)
    return _ref("delete", "Pod", draw(st.sampled_from(bound))) if bound else None


def _repels(pending: Mapping[str, Any], bound: Mapping[str, Any]) -> bool:
    """Whether a required anti-affinity term of `pending` selects `bound` (namespaces: the term's, else the
    pending pod's own; a namespaceSelector counts as selecting every namespace)."""
    pod, other = codec.pod_from_manifest(pending), codec.pod_from_manifest(bound)
    anti = pod.affinity.pod_anti_affinity if pod.affinity is not None else None
    for term in anti.required if anti is not None else ():
        namespaces = term.namespaces or ((pod.namespace,) if term.namespace_selector is None else ())
        if (not namespaces or other.namespace in namespaces) and label_selector_matches(
                term.label_selector, other.labels):
            return True
    return False


def _delete_repeller(draw: Draw, state: State, pending: list[Manifest]) -> Manifest | None:
    repellers = [b for b in _pods(state, True) if any(_repels(p, b) for p in pending)]
    return _ref("delete", "Pod", draw(st.sampled_from(repellers))) if repellers else None


def _wanted_labels(draw: Draw, pending: list[Manifest]) -> dict[str, str]:
    """A pending pod's nodeSelector, else one pool label."""
    selectors = [dict((p.get("spec") or {}).get("nodeSelector") or {}) for p in pending]
    selectors = [s for s in selectors if s and HOSTNAME not in s]
    if selectors:
        return draw(st.sampled_from(selectors))
    key = draw(st.sampled_from(sorted(NODE_LABEL_VALUES)))
    return {key: draw(st.sampled_from(NODE_LABEL_VALUES[key]))}


def _add_node(draw: Draw, state: State, pending: list[Manifest]) -> Manifest | None:
    nodes = _nodes(state)
    names = {n["metadata"]["name"] for n in nodes}
    free = [n for n in NODE_NAMES if n not in names]
    if not nodes or not free:
        return None
    like = draw(st.sampled_from(nodes))
    labels = {**(like["metadata"].get("labels") or {}), **_wanted_labels(draw, pending), HOSTNAME: free[0]}
    spec = {k: v for k, v in (like.get("spec") or {}).items() if k not in ("taints", "unschedulable")}
    new = {**like, "metadata": {"name": free[0], "labels": labels}, "spec": spec}
    return {"op": "create", "object": new}


def _delete_node(draw: Draw, state: State, pending: list[Manifest]) -> Manifest | None:
    nodes = _nodes(state)
    return _ref("delete", "Node", draw(st.sampled_from(nodes))) if nodes else None


def _relabel_node(draw: Draw, state: State, pending: list[Manifest]) -> Manifest | None:
    nodes = _nodes(state)
    if not nodes:
        return None
    node = draw(st.sampled_from(nodes))
    return _ref("update", "Node", node, patch={"metadata": {"labels": _wanted_labels(draw, pending)}})


def _untaint_node(draw: Draw, state: State, pending: list[Manifest]) -> Manifest | None:
    tainted = [n for n in _nodes(state) if _taints(n) or (n.get("spec") or {}).get("unschedulable")]
    if not tainted:
        return None
    node = draw(st.sampled_from(tainted))
    taints = _taints(node)
    drop = draw(st.integers(0, len(taints)))  # len(taints): all of them
    kept = [t for i, t in enumerate(taints) if drop < len(taints) and i != drop]
    return _ref("update", "Node", node, patch={"spec": {"taints": kept, "unschedulable": None}})


def _ungate_pod(draw: Draw, state: State, pending: list[Manifest]) -> Manifest | None:
    gated = [p for p in pending if (p.get("spec") or {}).get("schedulingGates")]
    if not gated:
        return None
    pod = draw(st.sampled_from(gated))
    gates = pod["spec"]["schedulingGates"]
    drop = draw(st.integers(0, len(gates)))  # len(gates): all of them
    kept = [g for i, g in enumerate(gates) if drop < len(gates) and i != drop]
    return _ref("update", "Pod", pod, patch={"spec": {"schedulingGates": kept or None}})


def _lower_requests(draw: Draw, state: State, pending: list[Manifest]) -> Manifest | None:
    """Halve what pods/resize may lower (reference/resize.py: cpu and memory, the QoS class kept)."""
    asking = [p for p in pending if lowerable(p)]
    if not asking:
        return None
    pod = draw(st.sampled_from(asking))
    return _ref("update", "Pod", pod, patch={"spec": {"containers": halved(pod)["spec"]["containers"]}})


def _add_toleration(draw: Draw, state: State, pending: list[Manifest]) -> Manifest | None:
    if not pending:
        return None
    pod = draw(st.sampled_from(pending))
    taints = [t for n in _nodes(state) for t in _taints(n)]
    key = draw(st.sampled_from(sorted({t["key"] for t in taints}) or TAINT_KEYS))
    toleration = {"key": key, "operator": "Exists"}
    old = list(pod["spec"].get("tolerations") or ())
    return _ref("update", "Pod", pod, patch={"spec": {"tolerations": [*old, toleration]}})


def _annotate(kind: str) -> Callable[[Draw, State, list[Manifest]], Manifest | None]:
    def build(draw: Draw, state: State, pending: list[Manifest]) -> Manifest | None:
        objects = _nodes(state) if kind == "Node" else [*pending, *_pods(state, True)]
        if not objects:
            return None
        target = draw(st.sampled_from(objects))
        note = {NOTE: f"v{draw(st.integers(0, 3))}"}
        return _ref("update", kind, target, patch={"metadata": {"annotations": note}})
    return build


# Kinds that apply only to some scenarios come first: a draw that lands on one that does not apply moves on to
# the next, so they take each other's share rather than the always-applicable ones'.
KINDS: dict[str, Callable[[Draw, State, list[Manifest]], Manifest | None]] = {
    "ungate-pod": _ungate_pod,  # first: where a pod is gated, its gate holds it before anything else
    "delete-repeller": _delete_repeller,
    "untaint-node": _untaint_node,
    "delete-bound-pod": _delete_bound,
    "lower-requests": _lower_requests,
    "add-toleration": _add_toleration,
    "add-node": _add_node,
    "relabel-node": _relabel_node,
    "delete-node": _delete_node,
    "annotate-node": _annotate("Node"),
    "annotate-pod": _annotate("Pod"),
}


def _checked_kinds(caller: str, kinds: Collection[str]) -> tuple[str, ...]:
    """`kinds` in KINDS order (empty: all of them); a name not in KINDS is a ValueError naming it."""
    unknown = sorted(set(kinds) - set(KINDS))
    if unknown or isinstance(kinds, str):
        raise ValueError(f"{caller}: {unknown[0] if unknown else kinds!r} is not a timeline event kind; "
                         f"use a collection of {', '.join(KINDS)}")
    return tuple(k for k in KINDS if k in kinds)


def draw_timeline(draw: Draw, scenario: Scenario, max_events: int, kinds: tuple[str, ...] = (),
                  min_events: int = 0, idle_only: bool = False) -> tuple[Manifest, ...]:
    """`min_events` (where some kind applies) to `max_events` events for `scenario`, each valid after the ones
    before it, of `kinds` (names of
    KINDS, in its order; empty: all), after the events `scenario.timeline` already holds (it returns the new
    ones only); with `idle_only`, every event waits for idle (none races a cycle on a wall clock)."""
    state = TimelineState.of(scenario)
    for event in timeline_events(scenario):
        state.apply(event)
    workload = {pod_key(m) for m in scenario.workload}
    whens = [w for w in WHENS if w == "idle" or (not idle_only and w < scenario.deadline)]
    events: list[Manifest] = []

    def build(draw: Draw, i: int) -> Manifest | None:
        pending = _pending(state, workload)
        # The kinds that apply now, tried in KINDS order from a drawn one (so each draw finds one).
        names = list(kinds or KINDS)
        start = draw(st.integers(0, len(names) + 2))
        if start >= len(names):  # a gated pod's ungating 4 times as often as any other kind
            gated = "ungate-pod" in names and any((p.get("spec") or {}).get("schedulingGates") for p in pending)
            start = names.index("ungate-pod") if gated else draw(st.integers(0, len(names) - 1))
        for name in names[start:] + names[:start]:
            body = KINDS[name](draw, state, pending)
            if body is not None:
                return {"when": draw(st.sampled_from(whens)), **body}
        return None

    def kept(event: Manifest) -> None:
        parsed: TimelineEvent = parse_event(len(scenario.timeline) + len(events), event, scenario.deadline)
        state.apply(parsed)
        events.append(event)
    elements(draw, min_events, max_events, build, kept=kept)
    return tuple(events)


def timelines(scenario: Scenario, *, max_events: int = 2, kinds: Collection[str] = (),
              min_events: int = 0, idle_only: bool = False) -> SearchStrategy[tuple[Manifest, ...]]:
    """Timelines for `scenario` (see the module docstring): `min_events` (where some kind applies) to `max_events`
    events of `kinds` (names of KINDS; empty: all), to follow the events it already has; shrinks towards
    `min_events`. `idle_only`: every event at `when: idle` (for a backend on a wall clock)."""
    if not isinstance(max_events, int) or max_events < 0:
        raise ValueError(f"timelines(max_events={max_events!r}): use 0 or more")
    if not isinstance(min_events, int) or not 0 <= min_events <= max_events:
        raise ValueError(f"timelines(min_events={min_events!r}): use 0 to max_events ({max_events})")
    chosen = _checked_kinds("timelines(kinds=...)", kinds)
    return st.composite(lambda draw: draw_timeline(draw, scenario, max_events, chosen, min_events, idle_only))()


def with_timeline(scenarios: SearchStrategy[Scenario], *, max_events: int = 2, min_events: int = 0,
                  idle_only: bool = False) -> SearchStrategy[Scenario]:
    """`scenarios`, each with a timeline drawn for it (see the module docstring; at least `min_events`
    events, all at `when: idle` with `idle_only`); shrinks the scenario first, then the timeline towards
    `min_events` events (default none)."""
    if not isinstance(max_events, int) or max_events < 1:
        raise ValueError(f"with_timeline(max_events={max_events!r}): use 1 or more")
    if not isinstance(min_events, int) or not 0 <= min_events <= max_events:
        raise ValueError(f"with_timeline(min_events={min_events!r}): use 0 to max_events ({max_events})")
    return scenarios.flatmap(lambda sc: timelines(sc, max_events=max_events, min_events=min_events,
                                                  idle_only=idle_only).map(
        lambda events: replace(sc, timeline=events)))


__all__ = ["KINDS", "WHENS", "draw_timeline", "timelines", "with_timeline"]
