"""The API-server side of the reference: objects, pod status writes, events, and the plugins' client."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable

from .faults import FaultInjector
from ..types import Namespace, Node, Pod, PodCondition, PodDisruptionBudget, Workload
from ..volumes import VolumeObjects


@dataclass(frozen=True)
class Event:
    type: str      # Normal | Warning
    reason: str    # Scheduled | FailedScheduling | ...
    message: str
    pod: str       # namespace/name
    time: float = 0.0


@dataclass
class ClusterStore:
    """Nodes, pods and the other objects plugins read; `bind`/`delete_pod` are the plugins' writes."""

    nodes: dict[str, Node] = field(default_factory=dict)
    pods: dict[str, Pod] = field(default_factory=dict)  # uid -> pod as stored (nodeName set once bound)
    namespaces: dict[str, Namespace] = field(default_factory=dict)
    pdbs: list[PodDisruptionBudget] = field(default_factory=list)
    workload_objects: list[Workload] = field(default_factory=list)
    volumes: VolumeObjects = field(default_factory=VolumeObjects)  # PVs, PVCs, StorageClasses, CSI objects
    events: list[Event] = field(default_factory=list)
    conditions: dict[str, PodCondition] = field(default_factory=dict)  # uid -> PodScheduled=False as patched
    bind_count: dict[str, int] = field(default_factory=dict)
    clock: Callable[[], float] = lambda: 0.0
    on_pod_bound: Callable[[Pod], None] = lambda pod: None
    on_pod_deleted: Callable[[Pod], None] = lambda pod: None
    on_pod_status_patched: Callable[[Pod, Pod], None] = lambda old, new: None
    # The timeline's armed faults: each of the scheduler's calls below asks it first (a proxy's answer).
    faults: FaultInjector | None = None

    def get_pod(self, uid: str) -> Pod | None:
        return self.pods.get(uid)

    def record_event(self, pod: Pod, type_: str, reason: str, message: str) -> None:
        """An Event write; a failed one is dropped (the events broadcaster does not retry a StatusError)."""
        if self._fault("event", pod) is None:
            self.events.append(Event(type_, reason, message, pod.key, self.clock()))

    def set_nominated_node_name(self, pod: Pod, node_name: str) -> str | None:
        """A `status.nominatedNodeName` patch; one that changes the stored pod is an update event.
        An unchanged one is no call at all (PatchPodStatus skips an empty patch)."""
        return self.patch_status(pod, None, node_name)

    def patch_status(self, pod: Pod, condition: PodCondition | None, nominated: str | None) -> str | None:
        """`updatePod`'s one status patch: the PodScheduled condition and/or the nomination (None: kept)."""
        stored = self.pods.get(pod.effective_uid)
        uid = pod.effective_uid
        changes_condition = condition is not None and self.conditions.get(uid) != condition
        changes_nomination = nominated is not None and (stored is None or stored.nominated_node_name != nominated)
        if not changes_condition and not changes_nomination:
            return None
        error = self._fault("status", pod, True)
        if error:
            return error
        if stored is None:
            return f'pods "{pod.name}" not found'
        if changes_condition:
            self.conditions[uid] = condition
        if changes_nomination:
            patched = replace(stored, nominated_node_name=nominated)
            self.pods[stored.effective_uid] = patched
            self.on_pod_status_patched(stored, patched)
        return None

    # --- ClusterClient -----------------------------------------------------------------------

    def bind(self, pod: Pod, node_name: str, *, retry: bool = False) -> str | None:
        """A `pods/binding` create as the API server does it (pkg/registry/core/pod/storage/storage.go,
        BindingREST.setPodNodeAndMetadata and assignPod): the node is not looked up, refusals are
        Conflicts, and `ClearingNominatedNodeNameAfterBinding` (beta, on since 1.35) clears the nomination.
        `retry`: the caller retries internal errors (DefaultBinder's `util.BindPod`)."""
        error = self._fault("bind", pod, retry)
        if error:
            return error
        stored = self.pods.get(pod.effective_uid)
        if stored is None:
            return f'pods "{pod.name}" not found'
        refusal = _binding_refusal(stored)
        if refusal:
            return f'Operation cannot be fulfilled on pods/binding "{pod.name}": {refusal}'
        bound = replace(stored, node_name=node_name, nominated_node_name="")
        self.pods[bound.effective_uid] = bound
        self.bind_count[bound.effective_uid] = self.bind_count.get(bound.effective_uid, 0) + 1
        self.on_pod_bound(bound)
        return None

    def clear_nominated_node_name(self, pod: Pod) -> str | None:
        return self.set_nominated_node_name(pod, "")

    def add_disruption_target(self, pod: Pod) -> str | None:
        """The DisruptionTarget condition preemption patches onto a victim before deleting it (PatchPodStatus,
        retried); nothing the scheduler reads, so it is not kept."""
        error = self._fault("status", pod, True)
        if error:
            return error
        return None if pod.effective_uid in self.pods else f'pods "{pod.name}" not found'

    def delete_pod(self, pod: Pod) -> str | None:
        """Preemption's DELETE of a victim."""
        error = self._fault("evict", pod)
        if error:
            return error
        stored = self.pods.pop(pod.effective_uid, None)
        if stored is None:
            return f'pods "{pod.name}" not found'
        self.on_pod_deleted(stored)
        return None

    def _fault(self, call: str, pod: Pod, retry: bool = False) -> str | None:
        return self.faults.call(call, pod, retry) if self.faults is not None else None

    def pod_disruption_budgets(self) -> list[PodDisruptionBudget]:
        return list(self.pdbs)

    def workloads(self) -> list[Workload]:
        return list(self.workload_objects)

    def namespace_labels(self) -> dict[str, dict[str, str]]:
        return {name: dict(ns.labels) for name, ns in self.namespaces.items()}


def _binding_refusal(pod: Pod) -> str:
    """setPodNodeAndMetadata's refusals, in its order and words."""
    if pod.deletion_timestamp is not None:
        return f"pod {pod.name} is being deleted, cannot be assigned to a host"
    if pod.node_name:
        return f'pod {pod.name} is already assigned to node "{pod.node_name}"'
    if pod.scheduling_gates:
        return f"pod {pod.name} has non-empty .spec.schedulingGates"
    return ""


__all__ = ["ClusterStore", "Event"]
