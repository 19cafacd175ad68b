"""The cluster as it was at a point of a run: the scenario's objects after the timeline events the outcome
says applied before that point (reference/timeline.py's TimelineState) and the objects vanish faults deleted
(`Outcome.faults`), for invariants that judge a binding against the cluster it was made on. A node's change
that a `lag` fault held back counts from when the scheduler saw it (its firing's `seen`).

An outcome orders a binding and an event only by their virtual times (`bindings[].t`, `timeline[].at`), and
the cycle that chose the node ran before its binding was written. So a binding may have been decided on any
state current from the start of the pod's last traced attempt (or the binding itself, without a trace) to
the binding; an event at the same time is taken both ways. On a wall clock (cluster backends) informers see
events late: any state up to the binding, and a little after it, may have been the one the cycle saw.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, Mapping

from reference.faults import Fault
from reference.scenario import pod_key
from reference.timeline import TimelineError, TimelineEvent, TimelineState, timeline_events

# Wall-clock backends: how long after an event's recorded time the scheduler may still act on the old state.
WALL_CLOCK_SLACK = 2.0


class Cluster:
    """`states[k]`: the scenario's objects after the first k applied events; `times[k]`: when event k-1
    applied (`times[0]` is -inf: the scenario's own cluster)."""

    def __init__(self, run) -> None:
        self.run = run
        self.states: list[TimelineState] = [TimelineState.of(run.scenario)]
        self.times: list[float] = [float("-inf")]
        self.applied: list[TimelineEvent] = []  # applied[k]: the event between states[k] and states[k + 1]
        for at, event in self._changes():
            state = TimelineState(())
            state.objects = dict(self.states[-1].objects)
            if event.op == "create" or state.get(event.kind, event.key) is not None:
                state.apply(event)  # (an event naming an object a vanish fault deleted changes nothing)
            self.applied.append(event)
            self.states.append(state)
            self.times.append(at)

    def _changes(self) -> list[tuple[float, TimelineEvent]]:
        """The applied events that changed objects, and the deletions vanish faults made (as deletes, by the
        `object` their firing names), in time order (an event before a firing at the same time)."""
        applied, fired = self.run.outcome.timeline, getattr(self.run.outcome, "faults", ())
        try:
            events = timeline_events(self.run.scenario) if applied or fired else ()
        except TimelineError:
            return []
        changes: list[tuple[float, int, TimelineEvent]] = []
        for entry in applied if events else ():
            index = entry.get("index")
            if isinstance(index, int) and 0 <= index < len(events) and not isinstance(events[index], Fault):
                changes.append((float(entry.get("at") or 0.0), 0, events[index]))
        for firing in fired if events else ():
            deleted = vanished(firing)
            if deleted is not None and isinstance(firing.get("index"), int):
                changes.append((float(firing.get("at") or 0.0), 1,
                                TimelineEvent(firing["index"], None, "delete", *deleted)))
        changes = _seen(changes, fired)
        order = sorted(range(len(changes)), key=lambda i: (changes[i][0], changes[i][1], i))
        return [(changes[i][0], changes[i][2]) for i in order]

    @property
    def changed(self) -> bool:
        """Whether any event applied (else every state query answers the scenario's own cluster)."""
        return len(self.states) > 1

    def during(self, lo: float, hi: float) -> list[int]:
        """The states that may have been current at some time of [lo, hi] (ties taken both ways)."""
        n = len(self.states)
        return [k for k in range(n) if self.times[k] <= hi and (k + 1 == n or self.times[k + 1] >= lo)]

    def at_binding(self, pod: str, t: float | None) -> list[int]:
        """The states the cycle that bound `pod` (its binding written at `t`) may have decided on."""
        if t is None:
            return list(range(len(self.states)))
        if "virtual-time" not in self.run.capabilities:
            return self.during(float("-inf"), t + WALL_CLOCK_SLACK)
        attempts = self.run.attempts(pod)
        records = self.run.records(pod, attempts[-1]) if attempts else []
        starts = [r["t"] for r in records if isinstance(r.get("t"), (int, float))]
        states = self.during(min([t, *starts]), t)
        floor = self.released(pod)
        return [k for k in states if k >= floor] or states

    def released(self, pod: str) -> int:
        """The first state in which `pod` could be scheduled as it is at the end: after the event that created
        it or removed its last scheduling gate (no cycle takes a pod before that, whatever the clock says)."""
        floor = 0
        for k, event in enumerate(self.applied):
            if event.kind != "Pod" or event.key != pod:
                continue
            before, after = self.states[k].get("Pod", pod), self.states[k + 1].get("Pod", pod)
            gated = ((before or {}).get("spec") or {}).get("schedulingGates")
            ungated = gated and not (after or {}).get("spec", {}).get("schedulingGates")
            if after is not None and (before is None or ungated):
                floor = k + 1
        return floor

    def final(self) -> int:
        return len(self.states) - 1

    def manifests(self, k: int, kind: str) -> list[Mapping[str, Any]]:
        return [m for (kd, _), m in self.states[k].objects.items() if kd == kind]

    def pod(self, k: int, key: str) -> Mapping[str, Any] | None:
        return self.states[k].get("Pod", key)

    @cached_property
    def created_pods(self) -> list[Mapping[str, Any]]:
        """Pending pods the applied events created, in order (they are scheduled like workload pods)."""
        seen = {pod_key(m) for m in (*self.run.scenario.pods, *self.run.scenario.workload)}
        out = []
        for state in self.states[1:]:
            for (kind, key), m in state.objects.items():
                if kind == "Pod" and key not in seen and not (m.get("spec") or {}).get("nodeName"):
                    seen.add(key)
                    out.append(m)
        return out

    @cached_property
    def deleted_pods(self) -> set[str]:
        """Pods an applied event deleted (and no later one re-created)."""
        final = self.states[-1]
        return {key for state in self.states[:-1] for (kind, key) in state.objects
                if kind == "Pod" and final.get("Pod", key) is None}


_LAG_OPS = {"create": "add", "update": "update", "delete": "delete"}


def _seen(changes: list[tuple[float, int, TimelineEvent]], fired) -> list[tuple[float, int, TimelineEvent]]:
    """The changes at the times the scheduler saw them: a node's change a `lag` fault held back (its firing
    names the node, the change's op and time) counts from its firing's `seen` on."""
    lags = [f for f in fired if f.get("fault") == "lag" and isinstance(f.get("seen"), (int, float))]
    if not lags:
        return changes
    out = []
    for at, tie, event in changes:
        firing = next((f for f in lags if event.kind == "Node" and f.get("object") == f"Node/{event.name}"
                       and f.get("detail") == _LAG_OPS.get(event.op)
                       and abs(float(f.get("at") or 0.0) - at) < 1e-6), None)
        if firing is not None:
            lags.remove(firing)
            at = float(firing["seen"])
        out.append((at, tie, event))
    return out


def vanished(firing: Mapping[str, Any]) -> tuple[str, str, str] | None:
    """(kind, name, namespace) of the object a vanish firing deleted, from its `object` ("Node/n1",
    "Pod/ns/p"); None for other firings and for a backend that does not name it."""
    kind, _, key = str(firing.get("object") or "").partition("/")
    if firing.get("fault") != "vanish" or kind not in ("Pod", "Node") or not key:
        return None
    namespace, _, name = key.rpartition("/")
    return kind, name, namespace


__all__ = ["Cluster", "WALL_CLOCK_SLACK", "vanished"]
