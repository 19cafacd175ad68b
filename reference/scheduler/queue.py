"""The scheduling queue, after upstream `pkg/scheduler/backend/queue/` (v1.37.2, default feature gates).

activeQ is ordered by the profile's QueueSort `less`; backoffQ by backoff expiry (aligned to the 1 s
ordering window, SchedulerPopFromBackoffQ); pods rejected by plugins may be popped from backoffQ when
activeQ is empty, pods that failed with an error wait out their backoff. Gated pods and pods waiting
for a cluster event live in `unschedulable`.

Known simplification: queueing hints are modelled coarsely. Any cluster event that happened while a
pod was in flight, and any later cluster event, requeues a rejected pod (as if every rejector
plugin's hint said Queue); upstream asks each rejector plugin's hint function.
"""

from __future__ import annotations

import math
from typing import Callable, Iterable

from ..interfaces import NominatingInfo, NominatingMode, QueuedPodInfo
from ..nodeinfo import PodInfo
from ..types import Pod
from .clock import VirtualClock

BACKOFF_ORDERING_WINDOW = 1.0
DEFAULT_POD_MAX_IN_UNSCHEDULABLE_DURATION = 5 * 60.0

Less = Callable[[QueuedPodInfo, QueuedPodInfo], bool]
PreEnqueue = Callable[[Pod], tuple[bool, str]]  # -> (admitted, gating plugin)


class SchedulingQueue:
    def __init__(self, clock: VirtualClock, less: Less, pre_enqueue: PreEnqueue, *,
                 initial_backoff: float = 1.0, max_backoff: float = 10.0) -> None:
        self._clock = clock
        self._less = less
        self._pre_enqueue = pre_enqueue
        self.initial_backoff = initial_backoff
        self.max_backoff = max_backoff
        self.active: list[QueuedPodInfo] = []
        self.backoff: list[QueuedPodInfo] = []        # rejected by plugins
        self.error_backoff: list[QueuedPodInfo] = []  # failed with an error
        self.unschedulable: dict[str, QueuedPodInfo] = {}
        self.in_flight: dict[str, bool] = {}  # uid -> a cluster event arrived while in flight
        self.scheduling_cycle = 0
        self.move_request_cycle = -1
        self._nominated: dict[str, PodInfo] = {}
        self._nominated_node: dict[str, str] = {}

    # --- entry points ------------------------------------------------------------------------

    def add(self, pod: Pod) -> None:
        qpi = QueuedPodInfo(PodInfo.of(pod), timestamp=self._clock.now())
        self._move_to_active(qpi)

    def update(self, pod: Pod) -> None:
        """A pod spec update: re-evaluate a queued pod (e.g. scheduling gates removed)."""
        uid = pod.effective_uid
        for queue in (self.active, self.backoff, self.error_backoff):
            for i, qpi in enumerate(queue):
                if qpi.pod.effective_uid == uid:
                    queue[i].pod_info = PodInfo.of(pod)
                    return
        qpi = self.unschedulable.pop(uid, None)
        if qpi is not None:
            qpi.pod_info = PodInfo.of(pod)
            if qpi.gating_plugin:
                self._move_to_active(qpi)
            else:
                self._requeue_after_backoff(qpi)

    def update_status(self, old: Pod, new: Pod) -> None:
        """`Update` for a status patch: the queued object and its nomination are refreshed. No queueing
        hint reacts to the generic Pod/Update event such a patch makes, so the pod stays where it is;
        a pod in flight is left alone (upstream only records the event for it)."""
        uid = new.effective_uid
        if uid in self.in_flight:
            return
        for qpi in (*self.active, *self.backoff, *self.error_backoff, *self.unschedulable.values()):
            if qpi.pod.effective_uid == uid:
                qpi.pod_info = PodInfo.of(new)
                self.update_nominated_pod(old, qpi.pod_info)
                return

    def delete(self, pod: Pod) -> None:
        uid = pod.effective_uid
        self.active = [q for q in self.active if q.pod.effective_uid != uid]
        self.backoff = [q for q in self.backoff if q.pod.effective_uid != uid]
        self.error_backoff = [q for q in self.error_backoff if q.pod.effective_uid != uid]
        self.unschedulable.pop(uid, None)
        self.delete_nominated_pod_if_exists(pod)

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
        self.in_flight[qpi.pod.effective_uid] = False
        return qpi

    def done(self, uid: str) -> None:
        self.in_flight.pop(uid, None)

    def add_unschedulable_if_not_present(self, qpi: QueuedPodInfo) -> None:
        uid = qpi.pod.effective_uid
        event_while_in_flight = self.in_flight.pop(uid, False)
        qpi.timestamp = self._clock.now()
        qpi.backoff_expiration = None
        rejected = bool(qpi.unschedulable_plugins or qpi.pending_plugins)
        if rejected:
            qpi.unschedulable_count += 1
            qpi.consecutive_errors_count = 0
        else:
            qpi.consecutive_errors_count += 1
        if not rejected or event_while_in_flight:
            self._requeue_after_backoff(qpi)
        else:
            self.unschedulable[uid] = qpi

    def activate(self, pods: Iterable[Pod]) -> None:
        """Move the named pods from unschedulable or backoff straight to activeQ."""
        uids = {p.effective_uid for p in pods}
        for qpi in [self.unschedulable.pop(u) for u in list(self.unschedulable) if u in uids]:
            self._move_to_active(qpi)
        for queue in (self.backoff, self.error_backoff):
            moved = [q for q in queue if q.pod.effective_uid in uids]
            queue[:] = [q for q in queue if q.pod.effective_uid not in uids]
            for qpi in moved:
                self._move_to_active(qpi, from_backoff=True)

    def move_all_to_active_or_backoff(self, precheck: Callable[[Pod], bool] | None = None) -> None:
        """A cluster event: requeue every rejected pod (gated pods wait for their own update)."""
        for uid in list(self.in_flight):
            self.in_flight[uid] = True
        for uid, qpi in list(self.unschedulable.items()):
            if qpi.gating_plugin or (precheck is not None and not precheck(qpi.pod)):
                continue
            del self.unschedulable[uid]
            self._requeue_after_backoff(qpi)
        self.move_request_cycle = self.scheduling_cycle

    def flush_backoff_completed(self) -> None:
        for queue in (self.backoff, self.error_backoff):
            done = [q for q in queue if not self.is_backing_off(q)]
            queue[:] = [q for q in queue if self.is_backing_off(q)]
            for qpi in done:
                self._move_to_active(qpi, from_backoff=True)

    def flush_unschedulable_leftover(self) -> None:
        now = self._clock.now()
        for uid, qpi in list(self.unschedulable.items()):
            if not qpi.gating_plugin and now - qpi.timestamp > DEFAULT_POD_MAX_IN_UNSCHEDULABLE_DURATION:
                del self.unschedulable[uid]
                self._requeue_after_backoff(qpi)

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

    # --- nominator ---------------------------------------------------------------------------

    def add_nominated_pod(self, info: PodInfo, nominating: NominatingInfo | None) -> None:
        uid = info.pod.effective_uid
        if nominating is not None and nominating.mode is NominatingMode.OVERRIDE:
            node = nominating.nominated_node_name
        else:
            node = info.pod.nominated_node_name
        self.delete_nominated_pod_if_exists(info.pod)
        if node:
            self._nominated[uid] = info
            self._nominated_node[uid] = node

    def update_nominated_pod(self, old: Pod, info: PodInfo) -> None:
        """`UpdateNominatedPod`: an in-memory nomination survives an update only when neither
        object names a node; otherwise the new object's nominatedNodeName decides."""
        uid = old.effective_uid
        nominating = None
        if not old.nominated_node_name and not info.pod.nominated_node_name and uid in self._nominated_node:
            nominating = NominatingInfo(self._nominated_node[uid], NominatingMode.OVERRIDE)
        self.delete_nominated_pod_if_exists(old)
        self.add_nominated_pod(info, nominating)

    def delete_nominated_pod_if_exists(self, pod: Pod) -> None:
        self._nominated.pop(pod.effective_uid, None)
        self._nominated_node.pop(pod.effective_uid, None)

    def nominated_pods_for_node(self, node_name: str) -> list[PodInfo]:
        return [self._nominated[u] for u, n in self._nominated_node.items() if n == node_name]

    def nominated_node(self, pod: Pod) -> str:
        return self._nominated_node.get(pod.effective_uid, "")

    # --- internals ---------------------------------------------------------------------------

    def _move_to_active(self, qpi: QueuedPodInfo, *, from_backoff: bool = False) -> None:
        # SchedulerPopFromBackoffQ: PreEnqueue ran when the pod entered backoffQ (`moveToActiveQ`'s
        # movesFromBackoffQ skips it).
        if from_backoff or self._admit(qpi):
            self.active.append(qpi)

    def _requeue_after_backoff(self, qpi: QueuedPodInfo) -> None:
        if not self.is_backing_off(qpi):
            self._move_to_active(qpi)
        elif self._admit(qpi):  # `moveToBackoffQ` runs PreEnqueue on insertion (SchedulerPopFromBackoffQ)
            (self.error_backoff if qpi.consecutive_errors_count else self.backoff).append(qpi)

    def _admit(self, qpi: QueuedPodInfo) -> bool:
        """PreEnqueue: admitted, or gated into `unschedulable` by the first rejecting plugin."""
        admitted, gate = self._pre_enqueue(qpi.pod)
        if not admitted:
            qpi.gating_plugin = gate
            qpi.unschedulable_plugins = {gate}
            self.unschedulable[qpi.pod.effective_uid] = qpi
            return False
        qpi.gating_plugin = ""
        return True

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


__all__ = ["SchedulingQueue"]
