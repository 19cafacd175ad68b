"""The reference scheduler: queue, cache, scheduling and binding cycles, failure handling (spec §2-§3).

Binding cycles are generators: they run right after their scheduling cycle and suspend only while
waiting on Permit, so several may overlap, as upstream's binding goroutines do. Time is virtual.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Generator, Iterable, Mapping, Sequence

from ..cycle_state import PODS_TO_ACTIVATE_KEY, CycleState
from ..events import NODE, ActionType, ClusterEvent
from ..framework.runtime import Framework
from ..interfaces import NodeToStatus, NominatingInfo, NominatingMode, QueuedPodInfo
from ..nodeinfo import PodInfo, Snapshot
from ..status import SUCCESS, Code, Status
from ..types import Namespace, Node, Pod, PodCondition, PodDisruptionBudget, Workload
from ..volumes import EVENT_RESOURCES
from .clock import VirtualClock
from .api_server import ClusterStore
from .fit_error import Diagnosis, FitError
from ..framework.cluster_events import (EVENT_ASSIGNED_POD_ADD, EVENT_ASSIGNED_POD_DELETE,
                                        node_scheduling_properties_change, pod_scheduling_properties_change)
from .queue import SchedulingQueue
from .queue_hints import profile_hint_map
from .schedule_one import CLEAR_NOMINATED_NODE, CycleFailure, ScheduleResult, SchedulingAlgorithm

NOTE_LENGTH_LIMIT = 1024
DEFAULT_RUN_DEADLINE = 20 * 60.0


class PodsToActivate:
    """Shared across clones on purpose, as upstream's `PodsToActivate.Clone` returns itself."""

    def __init__(self) -> None:
        self.pods: dict[str, Pod] = {}

    def clone(self) -> "PodsToActivate":
        return self


@dataclass
class _Binding:
    uid: str
    steps: Generator[None, None, None]


@dataclass(frozen=True)
class PodResult:
    """What became of one pod: `phase` is bound, unschedulable, error, gated, waiting or pending."""

    pod: str
    phase: str
    node: str = ""
    attempts: int = 0
    condition_reason: str = ""
    condition_message: str = ""
    nominated_node_name: str = ""


class Scheduler:
    def __init__(self, frameworks: Mapping[str, Framework], *, store: ClusterStore | None = None,
                 clock: VirtualClock | None = None, extenders: Sequence[Any] = (),
                 percentage_of_nodes_to_score: int = 0, pod_initial_backoff_seconds: float = 1,
                 pod_max_backoff_seconds: float = 10, seed: int = 0,
                 nominated_node_name_for_expectation: bool = True, max_attempts: int = 8) -> None:
        self.clock = clock or VirtualClock()
        self.store = store or ClusterStore()
        self.store.clock = self.clock.now
        self.store.on_pod_bound = self._on_pod_bound
        self.store.on_pod_deleted = self._on_pod_deleted
        self.store.on_pod_status_patched = self._on_pod_status_patched
        self.frameworks = dict(frameworks)
        first = next(iter(self.frameworks.values()))
        self.queue = SchedulingQueue(self.clock, first.queue_sort_plugins[0].less, self._pre_enqueue,
                                     initial_backoff=pod_initial_backoff_seconds,
                                     max_backoff=pod_max_backoff_seconds,
                                     hint_maps={name: profile_hint_map(fw) for name, fw in self.frameworks.items()})
        for fw in self.frameworks.values():
            fw.nominator = self.queue
            fw.activator = self.queue.activate
            fw._clock = self.clock
            fw._client = self.store
        self.algorithm = SchedulingAlgorithm(extenders, percentage_of_nodes_to_score=percentage_of_nodes_to_score,
                                             seed=seed)
        self.extenders = list(extenders)
        self.nominated_node_name_for_expectation = nominated_node_name_for_expectation
        self.max_attempts = max_attempts
        self.assumed: dict[str, Pod] = {}
        self._bindings: list[_Binding] = []
        self._attempts: dict[str, int] = {}
        self._parked: dict[str, QueuedPodInfo] = {}

    # --- public API: cluster changes (upstream eventhandlers.go) --------------------------------

    def add_node(self, node: Node) -> None:
        """`addNodeToCache`: Node/Add."""
        self.store.nodes[node.name] = node
        self.queue.move_all_to_active_or_backoff(event=ClusterEvent(NODE, ActionType.ADD), new=node)

    def update_node(self, node: Node) -> None:
        """`updateNodeInCache`: one event per changed scheduling property (none: no move)."""
        old = self.store.nodes.get(node.name)
        if old is None:
            self.add_node(node)
            return
        self.store.nodes[node.name] = node
        for event in node_scheduling_properties_change(node, old):
            self.queue.move_all_to_active_or_backoff(event=event, old=old, new=node)

    def delete_node(self, name: str) -> None:
        """`deleteNodeFromCache`: Node/Delete with the deleted node as the old object."""
        node = self.store.nodes.pop(name, None)
        if node is not None:
            self.queue.move_all_to_active_or_backoff(event=ClusterEvent(NODE, ActionType.DELETE), old=node)

    def add_namespace(self, namespace: Namespace) -> None:
        """No default plugin registers Namespace, PDB or workload events, so upstream has no handler for
        them and these changes move no pod (plugins read them at their next attempt)."""
        self.store.namespaces[namespace.name] = namespace

    def update_namespace(self, namespace: Namespace) -> None:
        self.store.namespaces[namespace.name] = namespace

    def delete_namespace(self, name: str) -> None:
        self.store.namespaces.pop(name, None)

    def add_pdb(self, pdb: PodDisruptionBudget) -> None:
        self.store.pdbs.append(pdb)

    def update_pdb(self, pdb: PodDisruptionBudget) -> None:
        self.store.pdbs = [pdb if _same(p, pdb) else p for p in self.store.pdbs]

    def delete_pdb(self, namespace: str, name: str) -> None:
        self.store.pdbs = [p for p in self.store.pdbs if (p.namespace, p.name) != (namespace, name)]

    def add_workload(self, workload: Workload) -> None:
        self.store.workload_objects.append(workload)

    def update_workload(self, workload: Workload) -> None:
        self.store.workload_objects = [workload if _same(w, workload) else w
                                       for w in self.store.workload_objects]

    def delete_workload(self, kind: str, namespace: str, name: str) -> None:
        self.store.workload_objects = [w for w in self.store.workload_objects
                                       if (w.kind, w.namespace, w.name) != (kind, namespace, name)]

    def put_volume_object(self, obj: Any) -> None:
        """A storage object (PV, PVC, StorageClass, CSINode, ...) created or updated: its informer's
        Add or Update event (buildEvtResHandler), whatever changed."""
        old = self.store.volumes.put(obj)
        action = ActionType.ADD if old is None else ActionType.UPDATE
        event = ClusterEvent(EVENT_RESOURCES[type(obj).__name__], action)
        self.queue.move_all_to_active_or_backoff(event=event, old=old, new=obj)

    def delete_volume_object(self, kind: str, key: str) -> None:
        """Its informer's Delete event, with the deleted object as the old one."""
        old = self.store.volumes.remove(kind, key)
        if old is not None:
            event = ClusterEvent(EVENT_RESOURCES[kind], ActionType.DELETE)
            self.queue.move_all_to_active_or_backoff(event=event, old=old)

    def add_pod(self, pod: Pod) -> None:
        """`addPod`: a bound pod joins the cache (AssignedPod/Add); an unbound one for a known
        profile joins the queue."""
        if not pod.uid:
            pod = replace(pod, uid=pod.key)
        self.store.pods[pod.uid] = pod
        if pod.node_name:
            self.queue.move_all_to_active_or_backoff(event=EVENT_ASSIGNED_POD_ADD, new=pod)
        elif pod.scheduler_name in self.frameworks:
            self.queue.add(pod)

    def update_pod(self, pod: Pod) -> None:
        """`updatePod`: a bound pod's changes are AssignedPod events; a pod that became bound is an
        AssignedPod/Add and leaves the queue; a pending pod's update goes to the queue (its own
        TargetPod events, PreEnqueue again), and a changed nomination is the old node's deletion."""
        uid = pod.effective_uid
        old = self.store.pods.get(uid)
        if old is None:
            raise KeyError(f"pod {pod.key} does not exist; add it with add_pod first")
        self.store.pods[uid] = pod
        if old.node_name:
            for event in pod_scheduling_properties_change(pod, old, False):
                self.queue.move_all_to_active_or_backoff(event=event, old=old, new=pod)
        elif pod.node_name:
            self.queue.move_all_to_active_or_backoff(event=EVENT_ASSIGNED_POD_ADD, new=pod)
            self.queue.delete(old)
        elif pod.scheduler_name in self.frameworks:
            self._update_pending_pod(old, pod)

    def delete_pod(self, pod: Pod) -> None:
        """Someone else deleted the pod (an informer event, not a write of the plugins' client)."""
        stored = self.store.pods.pop(pod.effective_uid, None)
        if stored is not None:
            self._on_pod_deleted(stored)

    # --- public API: running ------------------------------------------------------------------

    def run_until_idle(self, deadline: float = DEFAULT_RUN_DEADLINE,
                       on_idle: Callable[[], bool] | None = None) -> None:
        """Schedule until nothing can progress before `deadline` virtual seconds from now.

        The run ends when activeQ is empty, no binding cycle is able to proceed, and no timer or error
        backoff is due before the deadline. Pods waiting for a cluster event stay in unschedulablePods
        (the 5-minute leftover flush is not simulated while idle). At that point, if the scheduler is
        also `idle()`, `on_idle` may change the cluster (a timeline's idle event) and return True to
        keep the run going.
        """
        end = self.clock.now() + deadline
        while True:
            self.clock.fire_due()
            if self._resume_bindings():
                continue
            qpi = self.queue.pop()
            if qpi is not None:
                self._schedule_one(qpi)
                continue
            candidates = [t for t in (self.clock.next_deadline(), self.queue.next_backoff_expiry()) if t is not None]
            if not candidates or min(candidates) > end:
                if on_idle is not None and self.idle() and on_idle():
                    continue
                return
            self.clock.advance_to(min(candidates))

    def idle(self) -> bool:
        """No cycle under way: no binding cycle (nor a pod waiting on Permit), no assumed pod, no pod in
        activeQ or a backoff queue. Pods in unschedulablePods do not count."""
        return not self._bindings and not self.assumed and self.queue.pending_count() == 0

    def schedule_one(self) -> bool:
        """`ScheduleOne`: pop one pod and run its scheduling cycle (its binding cycle runs until it first
        waits); False when no pod could be popped."""
        qpi = self.queue.pop()
        if qpi is None:
            return False
        self._schedule_one(qpi)
        return True

    def results(self) -> dict[str, PodResult]:
        """Per pod key (namespace/name): the outcome of every pod the scheduler was asked to place."""
        out: dict[str, PodResult] = {}
        waiting = {uid for fw in self.frameworks.values() for uid in _waiting_uids(fw)}
        for uid, pod in self.store.pods.items():
            if uid not in self._attempts and not self._queued(uid) and not pod.node_name:
                continue
            if pod.node_name and uid not in self._attempts:
                continue  # pre-bound pod, not scheduled by us
            cond = self.store.conditions.get(uid)
            if pod.node_name:
                phase = "bound"
            elif uid in waiting or uid in self.assumed:
                phase = "waiting"
            elif uid in self.queue.unschedulable and self.queue.unschedulable[uid].gating_plugin:
                phase = "gated"
            elif cond is not None:
                phase = "unschedulable" if cond.reason == "Unschedulable" else "error"
            else:
                phase = "pending"
            out[pod.key] = PodResult(pod.key, phase, pod.node_name, self._attempts.get(uid, 0),
                                     cond.reason if cond else "", cond.message if cond else "",
                                     pod.nominated_node_name)
        return out

    def _queued(self, uid: str) -> bool:
        q = self.queue
        return uid in q.unschedulable or any(x.pod.effective_uid == uid for x in (*q.active, *q.backoff,
                                                                                   *q.error_backoff))

    # --- scheduling cycle ----------------------------------------------------------------------

    def _pre_enqueue(self, pod: Pod, gating_plugin: str = "") -> tuple[bool, str]:
        """`runPreEnqueuePluginsForPod`: the plugin that gated the pod last time runs first."""
        fw = self.frameworks.get(pod.scheduler_name)
        if fw is None:
            return True, ""
        plugins = sorted(fw.pre_enqueue_plugins, key=lambda pl: pl.name != gating_plugin)
        for pl in plugins:
            if not pl.pre_enqueue(pod).is_success():
                return False, pl.name
        return True, ""

    def _snapshot(self) -> Snapshot:
        pods = [p for p in self.store.pods.values() if p.node_name]
        pods += [p for uid, p in self.assumed.items() if not self.store.pods.get(uid, p).node_name]
        return Snapshot(self.store.nodes.values(), pods, self.store.namespace_labels())

    def _schedule_one(self, qpi: QueuedPodInfo) -> None:
        uid = qpi.pod.effective_uid
        stored = self.store.get_pod(uid)
        if stored is None or stored.node_name:
            self.queue.done(uid)
            return
        if qpi.attempts > self.max_attempts:
            self.queue.done(uid)
            self._parked[uid] = qpi
            return
        qpi.pod_info = PodInfo.of(stored)
        pod = stored
        fw = self.frameworks.get(pod.scheduler_name)
        if fw is None:
            self.queue.done(uid)
            return
        if pod.deletion_timestamp is not None:
            self.store.record_event(pod, "Warning", "FailedScheduling",
                                    f"skip schedule deleting pod: {pod.namespace}/{pod.name}")
            self.queue.done(uid)
            return
        if uid in self.assumed:
            self.queue.done(uid)
            return
        self._attempts[uid] = qpi.attempts
        state = CycleState()
        to_activate = PodsToActivate()
        state.write(PODS_TO_ACTIVATE_KEY, to_activate)
        fw.set_snapshot(self._snapshot())
        try:
            result = self._scheduling_cycle(fw, state, qpi, to_activate)
        except CycleFailure as failure:
            status = failure.fit_error.as_status(failure.status.code) if failure.fit_error else failure.status
            self._handle_failure(fw, qpi, status, failure.fit_error, failure.nominating_info)
            return
        binding = _Binding(uid, self._binding_cycle(fw, state, result, qpi, to_activate))
        self._bindings.append(binding)
        self._step(binding)

    def _scheduling_cycle(self, fw: Framework, state: CycleState, qpi: QueuedPodInfo,
                          to_activate: PodsToActivate) -> ScheduleResult:
        pod = qpi.pod
        try:
            result = self.algorithm.schedule_pod(fw, state, pod)
        except CycleFailure as failure:
            if failure.fit_error is None:
                raise
            if not fw.has_post_filter_plugins():
                raise CycleFailure(Status(Code.UNSCHEDULABLE), failure.fit_error) from None
            pf_result, pf_status = fw.run_post_filter_plugins(state, pod, failure.fit_error.diagnosis.node_to_status)
            failure.fit_error.diagnosis.post_filter_msg = pf_status.message()
            nominating = pf_result.nominating_info if pf_result is not None else None
            raise CycleFailure(Status(Code.UNSCHEDULABLE), failure.fit_error, nominating) from None
        host = result.suggested_host
        assumed = replace(pod, node_name=host)
        self.assumed[assumed.effective_uid] = assumed
        self.queue.delete_nominated_pod_if_exists(assumed)
        self._reached("reserve", assumed, host)
        status = fw.run_reserve_plugins_reserve(state, assumed, host)
        if not status.is_success():
            self._unreserve_and_forget(fw, state, assumed, host)
            raise self._single_node_failure(status, host)
        self._reached("permit", assumed, host)
        waits, status = fw.run_permit_plugins(state, assumed, host)
        if status.is_wait():
            fw.add_waiting_pod(assumed, waits)
        elif not status.is_success():
            self._unreserve_and_forget(fw, state, assumed, host)
            raise self._single_node_failure(status, host)
        if to_activate.pods:
            self.queue.activate(to_activate.pods.values())
            to_activate.pods = {}
        return result

    def _reached(self, point: str, pod: Pod, host: str) -> None:
        """The framework is about to run `point` for `pod`: a timeline fault may fire there."""
        if self.store.faults is not None:
            self.store.faults.reached(point, pod, host)

    @staticmethod
    def _single_node_failure(status: Status, host: str, plugins: set[str] | None = None) -> CycleFailure:
        """Reserve/Permit/WaitOnPermit rejections become a one-node FitError; errors stay errors."""
        if not status.is_rejected():
            return CycleFailure(status)
        diagnosis = Diagnosis(NodeToStatus(absent_nodes_status=Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE)))
        diagnosis.node_to_status.set(host, status)
        if plugins is None:
            diagnosis.add_plugin_status(status)
        else:
            diagnosis.unschedulable_plugins = plugins
        return CycleFailure(Status(status.code), FitError(1, diagnosis))

    def _unreserve_and_forget(self, fw: Framework, state: CycleState, pod: Pod, host: str) -> None:
        fw.run_reserve_plugins_unreserve(state, pod, host)
        self.assumed.pop(pod.effective_uid, None)

    # --- binding cycle -------------------------------------------------------------------------

    def _binding_cycle(self, fw: Framework, state: CycleState, result: ScheduleResult, qpi: QueuedPodInfo,
                       to_activate: PodsToActivate) -> Generator[None, None, None]:
        uid = qpi.pod.effective_uid
        host = result.suggested_host
        # The assumed pod as the cycle made it (a deletion may have forgotten it since).
        pod = self.assumed.get(uid) or replace(qpi.pod, node_name=host)
        try:
            status = yield from self._binding_steps(fw, state, pod, host, to_activate)
        except CycleFailure as failure:
            self._handle_binding_failure(fw, state, qpi, pod, host, failure)
            return
        if not status.is_success():
            self._handle_binding_failure(fw, state, qpi, pod, host, CycleFailure(status))

    def _binding_steps(self, fw: Framework, state: CycleState, pod: Pod, host: str,
                       to_activate: PodsToActivate) -> Generator[None, None, Status]:
        uid = pod.effective_uid
        preflight: Status | None = None
        if self.nominated_node_name_for_expectation:
            preflight = fw.run_pre_bind_pre_flights(state, pod, host)
            if preflight.code is Code.ERROR or preflight.is_rejected():
                return preflight
            if preflight.is_success() or fw.will_wait_on_permit(pod):
                self.store.set_nominated_node_name(pod, host)
        waiting = fw.get_waiting_pod(uid)
        if waiting is not None:
            while waiting.signal is None:
                yield
            fw.waiting_pods.remove(uid)
            signal = waiting.signal
            if not signal.is_success():
                if signal.is_rejected():
                    raise self._single_node_failure(signal, host, plugins={signal.plugin})
                raise CycleFailure(Status.as_status(f"waiting on permit for pod: {signal.as_error()}"))
        self.queue.done(uid)
        self._reached("prebind", pod, host)
        status = fw.run_pre_bind_plugins(state, pod, host)
        if not status.is_success():
            return status
        self._reached("bind", pod, host)
        status = self._bind(fw, state, pod, host)
        if not status.is_success():
            return status
        fw.run_post_bind_plugins(state, pod, host)
        if to_activate.pods:
            self.queue.activate(to_activate.pods.values())
        return SUCCESS

    def _bind(self, fw: Framework, state: CycleState, pod: Pod, host: str) -> Status:
        status: Status | None = None
        for extender in self.extenders:
            if not extender.is_binder() or not extender.is_interested(pod):
                continue
            try:
                extender.bind(pod, host)
            except Exception as exc:  # noqa: BLE001 - an extender bind error fails binding unless ignorable
                if extender.is_ignorable():
                    continue
                status = Status.as_status(str(exc))
                break
            status = SUCCESS
            if self.store.get_pod(pod.effective_uid) is not None:
                self.store.bind(pod, host)
            break
        if status is None:
            status = fw.run_bind_plugins(state, pod, host)
        if status.is_success():
            self.assumed.pop(pod.effective_uid, None)
            self.store.record_event(pod, "Normal", "Scheduled",
                                    f"Successfully assigned {pod.namespace}/{pod.name} to {host}")
        return status

    def _handle_binding_failure(self, fw: Framework, state: CycleState, qpi: QueuedPodInfo, pod: Pod,
                                host: str, failure: CycleFailure) -> None:
        self._unreserve_and_forget(fw, state, pod, host)
        status = failure.fit_error.as_status(failure.status.code) if failure.fit_error else failure.status
        if status.is_rejected():
            self._handle_failure(fw, qpi, status, failure.fit_error, CLEAR_NOMINATED_NODE)
            self.queue.move_all_to_active_or_backoff(lambda p: p.effective_uid != pod.effective_uid,
                                                     EVENT_ASSIGNED_POD_DELETE, pod)
        else:
            self.queue.move_all_to_active_or_backoff(event=EVENT_ASSIGNED_POD_DELETE, old=pod)
            self._handle_failure(fw, qpi, status, failure.fit_error, CLEAR_NOMINATED_NODE)

    def _step(self, binding: _Binding) -> bool:
        """Advance a binding cycle; True when it finished."""
        try:
            next(binding.steps)
        except StopIteration:
            self._bindings.remove(binding)
            return True
        return False

    def _resume_bindings(self) -> bool:
        progressed = False
        for binding in list(self._bindings):
            wp = next((fw.get_waiting_pod(binding.uid) for fw in self.frameworks.values()
                       if fw.get_waiting_pod(binding.uid) is not None), None)
            if wp is None or wp.signal is not None:
                progressed |= self._step(binding)
        return progressed

    # --- failure handling ----------------------------------------------------------------------

    def _handle_failure(self, fw: Framework, qpi: QueuedPodInfo, status: Status, fit_error: FitError | None,
                        nominating: NominatingInfo | None) -> None:
        """`handleSchedulingFailure`: requeue, nominate, event, PodScheduled condition."""
        uid = qpi.pod.effective_uid
        reason = "Unschedulable" if status.is_rejected() else "SchedulerError"
        if fit_error is not None:
            qpi.unschedulable_plugins = set(fit_error.diagnosis.unschedulable_plugins)
            qpi.pending_plugins = set(fit_error.diagnosis.pending_plugins)
        else:
            qpi.unschedulable_plugins, qpi.pending_plugins = set(), set()
        cached = self.store.get_pod(uid)
        if cached is None or cached.node_name:
            self.queue.done(uid)
        else:
            qpi.pod_info = PodInfo.of(cached)
            self.queue.add_unschedulable_if_not_present(qpi)
        self.queue.add_nominated_pod(qpi.pod_info, nominating)
        message = status.as_error()
        if message is None:
            return
        truncated = message if len(message) <= NOTE_LENGTH_LIMIT else message[:NOTE_LENGTH_LIMIT - 4] + " ..."
        self.store.record_event(qpi.pod, "Warning", "FailedScheduling", truncated)
        if cached is None:
            return  # the status patch of a deleted pod fails upstream; only the event remains
        # Not an update event (deviation, ARCHITECTURE.md), as in the upstream runner. A failed patch is
        # logged and ignored ("Error updating pod").
        override = nominating is not None and nominating.mode is NominatingMode.OVERRIDE
        self.store.patch_status(cached, PodCondition("PodScheduled", "False", reason, message),
                                nominating.nominated_node_name if override else None)

    # --- cluster events ------------------------------------------------------------------------

    def _on_pod_bound(self, pod: Pod) -> None:
        """The binding's update: `addAssignedPodToCache` (AssignedPod/Add), then the queue forgets it."""
        self.store.conditions.pop(pod.effective_uid, None)
        self.queue.move_all_to_active_or_backoff(event=EVENT_ASSIGNED_POD_ADD, new=pod)
        self.queue.delete(pod)

    def _on_pod_status_patched(self, old: Pod, new: Pod) -> None:
        """The scheduler's own status patch (nominatedNodeName) of a pending pod refreshes the queue only:
        the upstream runner never delivers it as an update (deviation: ARCHITECTURE.md)."""
        if new.node_name or new.effective_uid in self.assumed:
            return
        self.queue.update_status(old, new)

    def _update_pending_pod(self, old: Pod, new: Pod) -> None:
        """`updatePodInSchedulingQueue`: assumed pods are skipped; a nomination that changed away
        from a node frees it for pods of lower or equal priority (AssignedPod/Delete of the old pod)."""
        if new.effective_uid in self.assumed:
            return
        self.queue.update(new, old)
        if old.nominated_node_name and old.nominated_node_name != new.nominated_node_name:
            self.queue.move_all_to_active_or_backoff(le_priority_precheck(old), EVENT_ASSIGNED_POD_DELETE, old)

    def _on_pod_deleted(self, pod: Pod) -> None:
        """`deletePod`: a bound pod leaves the cache (AssignedPod/Delete); a pending one leaves the
        queue, and an assumed one is forgotten as a deleted assigned pod; a nominated one frees its
        node for pods of lower or equal priority."""
        uid = pod.effective_uid
        if pod.node_name:
            self.queue.move_all_to_active_or_backoff(event=EVENT_ASSIGNED_POD_DELETE, old=pod)
            return
        self.queue.delete(pod)
        assumed = self.assumed.get(uid)
        if assumed is not None:
            for fw in self.frameworks.values():
                fw.reject_waiting_pod(uid)
            self.assumed.pop(uid, None)
            self.queue.move_all_to_active_or_backoff(event=EVENT_ASSIGNED_POD_DELETE, old=assumed)
        elif pod.nominated_node_name:
            self.queue.move_all_to_active_or_backoff(le_priority_precheck(pod), EVENT_ASSIGNED_POD_DELETE, pod)


def le_priority_precheck(pod: Pod):
    """`getLEPriorityPreCheck`: only pods of priority lower than or equal to `pod`'s."""
    priority = pod.priority or 0
    return lambda other: (other.priority or 0) <= priority


def _same(a: PodDisruptionBudget | Workload, b: PodDisruptionBudget | Workload) -> bool:
    return (type(a), getattr(a, "kind", ""), a.namespace, a.name) == (type(b), getattr(b, "kind", ""),
                                                                        b.namespace, b.name)


def _waiting_uids(fw: Framework) -> Iterable[str]:
    uids: list[str] = []
    fw.iterate_over_waiting_pods(lambda wp: uids.append(wp.get_pod().effective_uid))
    return uids


__all__ = ["PodResult", "PodsToActivate", "Scheduler"]
