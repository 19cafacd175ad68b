"""How queue.go's `RunTestCoreResourceEnqueue` drives a case, on the reference Scheduler: one profile
with PrioritySort, DefaultBinder and the case's plugins (multiPoint, everything else disabled; the
default profile for a case without EnablePlugins), zero backoff (so a requeued pod lands in activeQ),
the initial objects (nodes, then storage objects, then pods), one `ScheduleOne` per pod, the trigger
through the scheduler's event handlers, then the pods in activeQ.

DeviceClasses are not modelled by the reference's store or plugins (no DeviceClass maps an extended
resource in its Filter); their events go to the queue as upstream's generic handler sends them
(eventhandlers.go buildEvtResHandler: MoveAllToActiveOrBackoffQueue with the old and new class)."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from reference.events import DEVICE_CLASS, ActionType, ClusterEvent, QueueingHint
from reference.plugins import node_declared_features
from reference.plugins.node_declared_features import Feature
from reference.plugins.node_resources_fit_hints import DeviceClass
from reference.scheduler.build import build_scheduler
from reference.scheduler.queue_hints import QueueingHintFunction
from reference.scheduler.scheduler import Scheduler
from reference.types import Node, Pod
from reference.volumes import key_of
from tests.reference.queueing.st import node_update, node_update_status, pod_resize, pod_update

PRE_ENQUEUE, SCHEDULING_CYCLE = "PreEnqueue", "SchedulingCycle"


class Client:
    """The trigger's clientset calls, applied through the scheduler's event handlers."""

    def __init__(self, sched: Scheduler, device_classes: Iterable[DeviceClass] = ()) -> None:
        self.sched = sched
        self.device_classes = {d.name: d for d in device_classes}

    def _pod(self, name: str) -> Pod:
        return next(p for p in self.sched.store.pods.values() if p.name == name)

    def create_node(self, node: Node) -> None:
        self.sched.add_node(node)

    def update_node(self, node: Node) -> None:
        self.sched.update_node(node_update(self.sched.store.nodes[node.name], node))

    def update_node_status(self, node: Node) -> None:
        self.sched.update_node(node_update_status(self.sched.store.nodes[node.name], node))

    def delete_node(self, name: str) -> None:
        self.sched.delete_node(name)

    def create_pod(self, pod: Pod) -> None:
        self.sched.add_pod(pod)

    def update_pod(self, pod: Pod) -> None:
        self.sched.update_pod(pod_update(self._pod(pod.name), pod))

    def resize_pod(self, pod: Pod) -> None:
        self.sched.update_pod(pod_resize(self._pod(pod.name), pod))

    def delete_pod(self, name: str) -> None:
        self.sched.delete_pod(self._pod(name))

    def create(self, obj: Any) -> None:
        """A storage object's Create (PV, PVC, StorageClass, CSINode, CSIDriver, CSIStorageCapacity, ...)."""
        assert self.sched.store.volumes.get(type(obj).__name__, key_of(obj)) is None, f"{key_of(obj)} exists"
        self.sched.put_volume_object(obj)

    def update(self, obj: Any) -> None:
        """A storage object's Update: the whole object replaced."""
        assert self.sched.store.volumes.get(type(obj).__name__, key_of(obj)) is not None, f"no {key_of(obj)}"
        self.sched.put_volume_object(obj)

    def delete(self, obj: Any) -> None:
        self.sched.delete_volume_object(type(obj).__name__, key_of(obj))

    def create_device_class(self, dc: DeviceClass) -> None:
        self.device_classes[dc.name] = dc
        added = ClusterEvent(DEVICE_CLASS, ActionType.ADD)
        self.sched.queue.move_all_to_active_or_backoff(event=added, new=dc)

    def update_device_class(self, dc: DeviceClass) -> None:
        old, self.device_classes[dc.name] = self.device_classes[dc.name], dc
        updated = ClusterEvent(DEVICE_CLASS, ActionType.UPDATE)
        self.sched.queue.move_all_to_active_or_backoff(event=updated, old=old, new=dc)


@dataclass(frozen=True)
class Case:
    name: str
    plugins: tuple[str, ...] | None
    nodes: tuple[Node, ...]
    pods: tuple[Pod, ...]
    trigger: Callable[[Client], None]
    want: frozenset[str]
    initial_pods: tuple[Pod, ...] = ()
    phase: str = SCHEDULING_CYCLE
    device_classes: tuple[DeviceClass, ...] = ()
    features: tuple[Feature, ...] | None = None
    objects: tuple[Any, ...] = ()


def case(name: str, *, plugins: Iterable[str] | None, nodes: Iterable[Node], pods: Iterable[Pod],
         trigger: Callable[[Client], None], want: Iterable[str] = (), initial_pods: Iterable[Pod] = (),
         phase: str = SCHEDULING_CYCLE, device_classes: Iterable[DeviceClass] = (),
         features: Iterable[Feature] | None = None, objects: Iterable[Any] = ()) -> Case:
    """`plugins`: None for the default profile (a case without EnablePlugins). `features`: the node
    features of nodedeclaredfeatures' framework during the case (None: the reference's own), as queue.go's
    ndftesting.SetFrameworkDuringTest sets them. `objects`: the initial storage objects (PVs, PVCs, ...)."""
    return Case(name, None if plugins is None else tuple(plugins), tuple(nodes), tuple(pods), trigger,
                frozenset(want), tuple(initial_pods), phase, tuple(device_classes),
                None if features is None else tuple(features), tuple(objects))


@contextmanager
def node_features(features: tuple[Feature, ...] | None) -> Iterator[None]:
    saved = node_declared_features.FEATURES
    node_declared_features.FEATURES = saved if features is None else features
    try:
        yield
    finally:
        node_declared_features.FEATURES = saved


def config(plugins: Iterable[str] | None) -> dict | None:
    if plugins is None:
        return None
    enabled = [{"name": n} for n in ("PrioritySort", "DefaultBinder", *plugins)]
    return {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
            "profiles": [{"schedulerName": "default-scheduler",
                          "plugins": {"multiPoint": {"enabled": enabled, "disabled": [{"name": "*"}]}}}]}


def names(infos) -> set[str]:
    return {q.pod.name for q in infos}


def pending(sched: Scheduler) -> set[str]:
    q = sched.queue
    return names(q.active) | names(q.backoff) | names(q.error_backoff) | names(q.unschedulable.values())


def run(c: Case, hints: QueueingHint | None = None) -> set[str]:
    """The pods in activeQ after the trigger; asserts the initial rejection as upstream waits for it.
    `hints`: every plugin's hints replaced by this constant answer (a broken queue for the rows to catch)."""
    with node_features(c.features):
        return _run(c, hints)


def _constant_hints(sched: Scheduler, hint: QueueingHint) -> None:
    answer = (hint, None)
    maps = {name: {event: [QueueingHintFunction(f.plugin_name, lambda pod, old, new: answer) for f in fns]
                   for event, fns in hint_map.items()}
            for name, hint_map in (sched.queue.hint_maps or {}).items()}
    sched.queue.set_hint_maps(maps)


def _run(c: Case, hints: QueueingHint | None = None) -> set[str]:
    sched = build_scheduler(config(c.plugins))
    if hints is not None:
        _constant_hints(sched, hints)
    sched.queue.initial_backoff = sched.queue.max_backoff = 0  # WithPod{Initial,Max}BackoffSeconds(0)
    for n in c.nodes:
        sched.add_node(n)
    for obj in c.objects:
        sched.put_volume_object(obj)
    for p in (*c.initial_pods, *c.pods):
        sched.add_pod(p)
    want_pending = {p.name for p in c.pods}
    if c.phase == PRE_ENQUEUE:
        assert pending(sched) == want_pending and not sched.queue.active
    else:
        assert names(sched.queue.active) == want_pending
        for _ in c.pods:
            sched.schedule_one()
        assert not sched.queue.active, f"pods not rejected: {names(sched.queue.active)}"
        assert pending(sched) == want_pending
    c.trigger(Client(sched, c.device_classes))
    return names(sched.queue.active)
