"""The scheduling queue, after upstream `pkg/scheduler/backend/queue/scheduling_queue.go` (+ active_queue.go,
backoff_queue.go; v1.37.2, default feature gates: queueing hints always on, SchedulerPopFromBackoffQ on).

activeQ is ordered by the profile's QueueSort `less`; backoffQ by backoff expiry (aligned to the 1 s
ordering window); pods rejected by plugins may be popped from backoffQ when activeQ is empty, pods that
failed with an error wait out their backoff. Gated pods and pods waiting for a cluster event live in
`unschedulable`. A cluster event moves a pod out of `unschedulable` only when the hint of a plugin that
rejected it says Queue (`queue_hints.is_pod_worth_requeuing`); events seen while a pod is in flight are
replayed when it comes back (`determineSchedulingHintForInFlightPod`).

PreEnqueue runs the plugin that gated the pod last first, then the rest in order (upstream: map order).

Deviations from upstream (none changes which pods an event moves):
- Pod groups (GenericWorkload, off) and PreQueueingHints (only DynamicResources' ResourceClaim
  events, which the reference never emits) are not modelled.
- `flush_unschedulable_leftover` is upstream's 30 s-tick flush; the scheduler's `run_until_idle`
  does not tick it (see scheduler.py).
"""

from __future__ import annotations

import math
from typing import Any, Callable, Iterable, Mapping

from ..events import ClusterEvent
from ..framework.cluster_events import (EVENT_FORCE_ACTIVATE, EVENT_UNSCHEDULABLE_TIMEOUT, is_wildcard,
                                        match_any_cluster_event, pod_scheduling_properties_change)
from ..interfaces import NominatingInfo, QueuedPodInfo
from ..nodeinfo import PodInfo
from ..types import Pod
from .clock import VirtualClock
from .in_flight import InFlight
from .nominator import Nominator
from .queue_hints import (QueueingHintMap, QueueingStrategy, is_event_of_interest, is_pod_worth_requeuing,
                          plugin_to_events)

BACKOFF_ORDERING_WINDOW = 1.0
DEFAULT_POD_MAX_IN_UNSCHEDULABLE_DURATION = 5 * 60.0
# podInitialBackoffDuration and podMaxBackoffDuration's defaults (KubeSchedulerConfiguration v1).
DEFAULT_INITIAL_BACKOFF, DEFAULT_MAX_BACKOFF = 1.0, 10.0

Less = Callable[[QueuedPodInfo, QueuedPodInfo], bool]
PreEnqueue = Callable[[Pod, str], tuple[bool, str]]  # (pod, last gating plugin) -> (admitted, gating plugin)
PreEnqueueCheck = Callable[[Pod], bool]


class SchedulingQueue:
    def __init__(self, clock: VirtualClock, less: Less, pre_enqueue: PreEnqueue, *,
                 initial_backoff: float = DEFAULT_INITIAL_BACKOFF, max_backoff: float = DEFAULT_MAX_BACKOFF,
                 hint_maps: Mapping[str, QueueingHintMap] | None = None,
                 max_in_unschedulable: float = DEFAULT_POD_MAX_IN_UNSCHEDULABLE_DURATION) -> None:
        self._clock = clock
        self._less = less
        self._pre_enqueue = pre_enqueue
        self.initial_backoff = initial_backoff
        self.max_backoff = max_backoff
        self.max_in_unschedulable = max_in_unschedulable
        self.set_hint_maps(hint_maps)
        self.active: list[QueuedPodInfo] = []
        self.backoff: list[QueuedPodInfo] = []        # rejected by plugins
        self.error_backoff: list[QueuedPodInfo] = []  # failed with an error
        self.unschedulable: dict[str, QueuedPodInfo] = {}
        self.in_flight = InFlight()
        self.scheduling_cycle = 0
        self.nominator = Nominator()

    def set_hint_maps(self, hint_maps: Mapping[str, QueueingHintMap] | None) -> None:
        """Per scheduler name; None (a queue without profiles) answers every event with Queue."""
        self.hint_maps = None if hint_maps is None else dict(hint_maps)
        self._plugin_events = plugin_to_events((self.hint_maps or {}).values())

    # --- entry points ------------------------------------------------------------------------

    def add(self, pod: Pod) -> None:
        qpi = QueuedPodInfo(PodInfo.of(pod), timestamp=self._clock.now())
        self.nominator.add_nominated_pod(qpi.pod_info, None)
        self._move_to_active(qpi)

    def update(self, pod: Pod, old: Pod | None = None) -> None:
        """`Update` of an unassigned pod (`old` defaults to the queued object): in flight, the change is
        recorded; in activeQ/backoffQ it is refreshed; in `unschedulable` the pod's own update events
        (TargetPod) are asked of its rejectors' hints, and PreEnqueue runs again on a move; elsewhere
        the pod is added."""
        uid = pod.effective_uid
        queued = self._find(uid)
        if old is None:
            old = queued.pod if queued is not None else pod
        events = pod_scheduling_properties_change(pod, old, True)
        if self.in_flight.add_events_if_pod_in_flight(uid, events, old, pod):
            return
        for queue in (self.active, self.backoff, self.error_backoff):
            for qpi in queue:
                if qpi.pod.effective_uid == uid:
                    self._refresh(qpi, old, pod)
                    return
        qpi = self.unschedulable.get(uid)
        if qpi is None:
            self.add(pod)
            return
        self._refresh(qpi, old, pod)
        for event in events:
            strategy = self._worth_requeuing(qpi, event, old, pod)
            if strategy is QueueingStrategy.QUEUE_SKIP:
                continue
            del self.unschedulable[uid]
            if self._requeue(qpi, strategy) != "unschedulable":
                break

    def update_status(self, old: Pod, new: Pod) -> None:
        """The scheduler's own status patch of a pending pod: the queued object and its nomination are
        refreshed, no hint is asked (deviation: ARCHITECTURE.md); a pod in flight is left alone."""
        uid = new.effective_uid
        if uid in self.in_flight:
            return
        qpi = self._find(uid)
        if qpi is not None:
            self._refresh(qpi, old, new)

    def delete(self, pod: Pod) -> None:
        uid = pod.effective_uid
        self.active = [q for q in self.active if q.pod.effective_uid != uid]
        self.backoff = [q for q in self.backoff if q.pod.effective_uid != uid]
        self.error_backoff = [q for q in self.error_backoff if q.pod.effective_uid != uid]
        self.unschedulable.pop(uid, None)
        self.nominator.delete_nominated_pod_if_exists(pod)

    def pop(self) -> QueuedPodInfo | None:
        """Highest activeQ pod; else the head of backoffQ (rejected pods only); else None."""
        self.flush_backoff_completed()
        if self.active:
            qpi = self._pop_min(self.active, self._less)
        elif self.backoff:
            qpi = self._pop_min(self.backoff, self._backoff_less)
        else:
            return None
        self.scheduling_cycle += 1
        qpi.attempts += 1
        if qpi.initial_attempt_timestamp is None:
            qpi.initial_attempt_timestamp = self._clock.now()
        qpi.unschedulable_plugins = set()
        qpi.pending_plugins = set()
        self.in_flight.add_pod(qpi.pod.effective_uid)
        return qpi

    def done(self, uid: str) -> None:
        self.in_flight.done(uid)

    def add_unschedulable_if_not_present(self, qpi: QueuedPodInfo) -> None:
        """`AddUnschedulablePodIfNotPresent`: back from a failed attempt, the events seen in flight decide."""
        uid = qpi.pod.effective_uid
        if uid in self.unschedulable or self._find(uid) is not None:
            self.done(uid)
            return
        qpi.timestamp = self._clock.now()
        qpi.backoff_expiration = None
        if qpi.unschedulable_plugins or qpi.pending_plugins:
            qpi.unschedulable_count += 1
            qpi.consecutive_errors_count = 0
        else:
            qpi.consecutive_errors_count += 1
        self._requeue(qpi, self._in_flight_strategy(qpi))
        self.done(uid)

    def activate(self, pods: Iterable[Pod]) -> None:
        """`Activate`: the named pods from `unschedulable` or backoffQ straight to activeQ (PreEnqueue
        permitting); a pod in flight gets a ForceActivate event aimed at it."""
        for pod in pods:
            uid = pod.effective_uid
            qpi = self.unschedulable.get(uid)
            if qpi is not None:
                self._move_to_active(qpi)
                continue
            moved = self._take(self.backoff, uid) or self._take(self.error_backoff, uid)
            if moved is not None:
                self._move_to_active(moved, from_backoff=True)
                continue
            self.in_flight.add_events_if_pod_in_flight(uid, [EVENT_FORCE_ACTIVATE], None, pod)

    def move_all_to_active_or_backoff(self, precheck: PreEnqueueCheck | None = None,
                                      event: ClusterEvent | None = None, old: Any = None, new: Any = None) -> None:
        """`MoveAllToActiveOrBackoffQueue`: each pod in `unschedulable` (passing `precheck`) whose
        rejectors' hints say Queue for `event` moves; the event is recorded for pods in flight.
        Without an event, a wildcard: every pod is requeued."""
        event = event or EVENT_UNSCHEDULABLE_TIMEOUT
        if not self._interesting(event):
            return
        self._move_pods([q for q in self.unschedulable.values() if precheck is None or precheck(q.pod)],
                        event, old, new)

    def flush_backoff_completed(self) -> None:
        for queue in (self.backoff, self.error_backoff):
            done = [q for q in queue if not self.is_backing_off(q)]
            queue[:] = [q for q in queue if self.is_backing_off(q)]
            for qpi in done:
                self._move_to_active(qpi, from_backoff=True)

    def flush_unschedulable_leftover(self) -> None:
        """`flushUnschedulableEntitiesLeftover`: pods waiting longer than the maximum (5 min), timed
        from their last attempt or last flush, are moved by a wildcard event."""
        now = self._clock.now()
        stale = [q for q in self.unschedulable.values()
                 if now - max(q.timestamp, q.flush_timestamp or -math.inf) > self.max_in_unschedulable]
        for qpi in stale:
            qpi.flush_timestamp = now
        if stale:
            self._move_pods(stale, EVENT_UNSCHEDULABLE_TIMEOUT, None, None)

    def next_unschedulable_flush(self) -> float | None:
        """When the earliest pod in `unschedulable` becomes due for the leftover flush."""
        times = [max(q.timestamp, q.flush_timestamp or -math.inf) + self.max_in_unschedulable
                 for q in self.unschedulable.values()]
        return min(times) if times else None

    # --- backoff -----------------------------------------------------------------------------

    def backoff_duration(self, count: int) -> float:
        """`calculateBackoffDuration`: initial x 2^(count-1), capped at max."""
        if count == 0:
            return 0.0
        return min(self.initial_backoff * 2 ** (count - 1), self.max_backoff)

    def backoff_time(self, qpi: QueuedPodInfo) -> float:
        if self.max_backoff == 0:
            return -math.inf
        count = qpi.consecutive_errors_count or qpi.unschedulable_count
        if count == 0:
            return -math.inf
        if qpi.backoff_expiration is None:
            qpi.backoff_expiration = _align(qpi.timestamp + self.backoff_duration(count))
        return qpi.backoff_expiration

    def is_backing_off(self, qpi: QueuedPodInfo) -> bool:
        return self.backoff_time(qpi) >= _align(self._clock.now())

    def next_backoff_expiry(self) -> float | None:
        """When the earliest error-backoff pod may run again (rejected pods can pop any time)."""
        times = [self.backoff_time(q) for q in self.error_backoff]
        return min(times) + BACKOFF_ORDERING_WINDOW if times else None

    # --- nominator (the queue is the framework's Nominator) ------------------------------------

    def add_nominated_pod(self, info: PodInfo, nominating: NominatingInfo | None) -> None:
        self.nominator.add_nominated_pod(info, nominating)

    def update_nominated_pod(self, old: Pod, info: PodInfo) -> None:
        self.nominator.update_nominated_pod(old, info)

    def delete_nominated_pod_if_exists(self, pod: Pod) -> None:
        self.nominator.delete_nominated_pod_if_exists(pod)

    def nominated_pods_for_node(self, node_name: str) -> list[PodInfo]:
        return self.nominator.nominated_pods_for_node(node_name)

    def nominated_node(self, pod: Pod) -> str:
        return self.nominator.nominated_node(pod)

    # --- requeueing ----------------------------------------------------------------------------

    def _interesting(self, event: ClusterEvent) -> bool:
        return self.hint_maps is None or is_event_of_interest(self.hint_maps.values(), event)

    def _worth_requeuing(self, qpi: QueuedPodInfo, event: ClusterEvent, old: Any, new: Any) -> QueueingStrategy:
        if self.hint_maps is None:
            return QueueingStrategy.QUEUE_AFTER_BACKOFF
        hint_map = self.hint_maps.get(qpi.pod.scheduler_name)
        return is_pod_worth_requeuing(hint_map, qpi, event, old, new)

    def _move_pods(self, pods: list[QueuedPodInfo], event: ClusterEvent, old: Any, new: Any) -> None:
        """`moveEntitiesToActiveOrBackoffQueue`: a gated pod is asked only about its gate's events."""
        for qpi in pods:
            if (qpi.gating_plugin and not is_wildcard(event)
                    and not match_any_cluster_event(event, self._plugin_events.get(qpi.gating_plugin, ()))):
                continue
            strategy = self._worth_requeuing(qpi, event, old, new)
            if strategy is QueueingStrategy.QUEUE_SKIP:
                continue
            self.unschedulable.pop(qpi.pod.effective_uid, None)
            self._requeue(qpi, strategy)
        self.in_flight.add_event_if_any_in_flight(event, old, new)

    def _in_flight_strategy(self, qpi: QueuedPodInfo) -> QueueingStrategy:
        """`determineSchedulingHintForInFlightPod`."""
        if not qpi.unschedulable_plugins and not qpi.pending_plugins:
            return QueueingStrategy.QUEUE_AFTER_BACKOFF
        events = self.in_flight.events_for_pod(qpi.pod.effective_uid)
        if events is None:
            return QueueingStrategy.QUEUE_AFTER_BACKOFF
        strategy = QueueingStrategy.QUEUE_SKIP
        for recorded in events:
            found = self._worth_requeuing(qpi, recorded.event, recorded.old, recorded.new)
            if found is QueueingStrategy.QUEUE_IMMEDIATELY:
                return found
            if found is QueueingStrategy.QUEUE_AFTER_BACKOFF:
                strategy = found
                if not qpi.pending_plugins:
                    return strategy
        return strategy

    def _requeue(self, qpi: QueuedPodInfo, strategy: QueueingStrategy) -> str:
        """`requeueEntityWithQueueingStrategy`: the queue the pod ends in."""
        if strategy is QueueingStrategy.QUEUE_SKIP:
            self.unschedulable[qpi.pod.effective_uid] = qpi
            return "unschedulable"
        if strategy is QueueingStrategy.QUEUE_AFTER_BACKOFF and self.is_backing_off(qpi):
            return "backoff" if self._move_to_backoff(qpi) else "unschedulable"
        return "active" if self._move_to_active(qpi) else "unschedulable"

    def _move_to_active(self, qpi: QueuedPodInfo, *, from_backoff: bool = False) -> bool:
        # PreEnqueue ran when the pod entered backoffQ (SchedulerPopFromBackoffQ).
        if not from_backoff and not self._admit(qpi):
            return False
        self.unschedulable.pop(qpi.pod.effective_uid, None)
        self.active.append(qpi)
        return True

    def _move_to_backoff(self, qpi: QueuedPodInfo) -> bool:
        if not self._admit(qpi):
            return False
        self.unschedulable.pop(qpi.pod.effective_uid, None)
        (self.error_backoff if qpi.consecutive_errors_count else self.backoff).append(qpi)
        return True

    def _admit(self, qpi: QueuedPodInfo) -> bool:
        """PreEnqueue: admitted, or gated into `unschedulable` with the gate among its rejectors."""
        admitted, gate = self._pre_enqueue(qpi.pod, qpi.gating_plugin)
        if not admitted:
            qpi.gating_plugin = gate
            qpi.unschedulable_plugins = qpi.unschedulable_plugins | {gate}
            self.unschedulable[qpi.pod.effective_uid] = qpi
            return False
        qpi.gating_plugin = ""
        return True

    # --- lookups -------------------------------------------------------------------------------

    def _refresh(self, qpi: QueuedPodInfo, old: Pod, new: Pod) -> None:
        qpi.pod_info = PodInfo.of(new)
        self.nominator.update_nominated_pod(old, qpi.pod_info)

    def _find(self, uid: str) -> QueuedPodInfo | None:
        for qpi in (*self.active, *self.backoff, *self.error_backoff, *self.unschedulable.values()):
            if qpi.pod.effective_uid == uid:
                return qpi
        return None

    @staticmethod
    def _take(queue: list[QueuedPodInfo], uid: str) -> QueuedPodInfo | None:
        for i, qpi in enumerate(queue):
            if qpi.pod.effective_uid == uid:
                return queue.pop(i)
        return None

    def _backoff_less(self, a: QueuedPodInfo, b: QueuedPodInfo) -> bool:
        ta, tb = self.backoff_time(a), self.backoff_time(b)
        return ta < tb or (ta == tb and self._less(a, b))

    @staticmethod
    def _pop_min(queue: list[QueuedPodInfo], less: Less) -> QueuedPodInfo:
        best = 0
        for i in range(1, len(queue)):
            if less(queue[i], queue[best]):
                best = i
        return queue.pop(best)

    def pending_count(self) -> int:
        return len(self.active) + len(self.backoff) + len(self.error_backoff)


def _align(t: float) -> float:
    return math.floor(t / BACKOFF_ORDERING_WINDOW) * BACKOFF_ORDERING_WINDOW


__all__ = ["DEFAULT_POD_MAX_IN_UNSCHEDULABLE_DURATION", "PreEnqueueCheck", "SchedulingQueue"]
