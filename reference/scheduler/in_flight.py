"""Events seen while pods are in flight, after upstream pkg/scheduler/backend/queue/active_queue.go
(`inFlightPods`, `inFlightEvents`, `clusterEventsForPod`, `done`), v1.37.2.

Upstream keeps one list of pod markers and events; here every entry has a sequence number, and a
pod's events are those recorded after it was popped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from ..events import ClusterEvent


@dataclass(frozen=True)
class RecordedEvent:
    seq: int
    event: ClusterEvent
    old: Any
    new: Any


class InFlight:
    def __init__(self) -> None:
        self._seq = 0
        self._pods: dict[str, int] = {}  # uid -> sequence number when popped
        self._events: list[RecordedEvent] = []

    def __contains__(self, uid: str) -> bool:
        return uid in self._pods

    def __bool__(self) -> bool:
        return bool(self._pods)

    def add_pod(self, uid: str) -> None:
        if uid not in self._pods:  # a duplicate would leak events upstream too; keep the first
            self._seq += 1
            self._pods[uid] = self._seq

    def add_event_if_any_in_flight(self, event: ClusterEvent, old: Any, new: Any) -> bool:
        if not self._pods:
            return False
        self._record(event, old, new)
        return True

    def add_events_if_pod_in_flight(self, uid: str, events: Iterable[ClusterEvent], old: Any, new: Any) -> bool:
        if uid not in self._pods:
            return False
        for event in events:
            self._record(event, old, new)
        return True

    def events_for_pod(self, uid: str) -> list[RecordedEvent] | None:
        """Events recorded since the pod was popped; None when it is not in flight (upstream errors)."""
        start = self._pods.get(uid)
        if start is None:
            return None
        return [e for e in self._events if e.seq > start]

    def done(self, uid: str) -> None:
        """Forget the pod, and every event no remaining in-flight pod can see."""
        if self._pods.pop(uid, None) is None:
            return
        oldest = min(self._pods.values(), default=None)
        self._events = [] if oldest is None else [e for e in self._events if e.seq > oldest]

    def _record(self, event: ClusterEvent, old: Any, new: Any) -> None:
        self._seq += 1
        self._events.append(RecordedEvent(self._seq, event, old, new))


__all__ = ["InFlight", "RecordedEvent"]
