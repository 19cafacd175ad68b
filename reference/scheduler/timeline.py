"""A scenario's timeline applied to the reference scheduler (format: docs/scenario.md).

Timed events are timers on the scheduler's virtual clock; idle events apply when the run would
otherwise end with the scheduler idle. Each event is armed only once the previous one has applied,
so events apply in list order, a timed event whose time has passed applies right away.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .. import codec
from ..errors import FrameworkError
from ..faults import Fault
from ..kinds import VOLUME_KINDS
from ..scenario import Scenario
from ..timeline import TimelineEvent, TimelineState, timeline_events
from ..types import Pod
from .build import populate
from .faults import FaultInjector, Restarted
from .restart import SchedulerFactory, restart
from .scheduler import Scheduler


class TimelineRunner:
    """Applies `scenario.timeline` to `sched`; `applied` holds `{"index", "at"}` per applied event (a fault
    entry applies when it is armed), `faults.fired` each firing of a fault. `factory` builds the scheduler
    after a restart fault; `sched` is always the current one."""

    def __init__(self, sched: Scheduler, scenario: Scenario, factory: SchedulerFactory | None = None) -> None:
        self.sched = sched
        self.factory = factory
        self.events = timeline_events(scenario)
        self.faults = FaultInjector(sched.clock.now)
        self.faults.delete_pod = self._vanish_pod
        self.faults.delete_node = lambda name: self.sched.delete_node(name)
        if any(isinstance(e, Fault) for e in self.events):
            sched.store.faults = self.faults
        self.state = TimelineState.of(scenario) if self.events else TimelineState(())
        self.applied: list[dict[str, Any]] = []
        # The pods reported like workload pods: the scenario's, plus pending pods the timeline creates,
        # minus the pods it deletes.
        self.pod_keys: list[str] = scenario.workload_keys()
        self._next = 0
        self._start = 0.0

    def start(self) -> None:
        """Time 0 of the timeline is now."""
        self._start = self.faults.start = self.sched.clock.now()
        self._arm()

    def run(self, deadline: float) -> None:
        """Run until idle or `deadline` virtual seconds from now, through scheduler restarts."""
        end = self.sched.clock.now() + deadline
        while True:
            try:
                self.sched.run_until_idle(deadline=end - self.sched.clock.now(), on_idle=self.on_idle)
                return
            except Restarted as exc:
                if self.factory is None:
                    raise FrameworkError(f"timeline[{exc.fault.index}] restarts the scheduler, but the run has "
                                     "no factory to build the new one; pass factory=") from None
                self.sched = restart(self.sched, self.factory)

    def on_idle(self) -> bool:
        """The scheduler is idle: apply the next event if it waits for that; True when one applied."""
        if self._next >= len(self.events) or self.events[self._next].when is not None:
            return False
        self._apply_next()
        return True

    def _arm(self) -> None:
        if self._next < len(self.events):
            when = self.events[self._next].when
            if when is not None:
                self.sched.clock.after(self._start + when - self.sched.clock.now(), self._apply_next)

    def _apply_next(self) -> None:
        event = self.events[self._next]
        self._next += 1
        self.applied.append({"index": event.index, "at": self.sched.clock.now() - self._start})
        if isinstance(event, Fault):
            self.faults.arm(event)
            self._arm()
            return
        manifest = self.state.apply(event)
        if event.kind == "Pod":
            self._pod(event, manifest)
        elif event.kind == "Node":
            self._node(event, manifest)
        else:
            self._object(event, manifest)
        self._arm()

    def _pod(self, event: TimelineEvent, manifest: dict[str, Any] | None) -> None:
        sched = self.sched
        if event.op == "create":
            assert manifest is not None
            pod = codec.pod_from_manifest(manifest)
            sched.add_pod(pod)
            if not pod.node_name and pod.key not in self.pod_keys:
                self.pod_keys.append(pod.key)
            return
        # The scheduler may have bound the pod, or preemption deleted it, since the scenario began.
        stored = next((p for p in sched.store.pods.values() if p.key == event.key), None)
        if event.op == "delete":
            if event.key in self.pod_keys:
                self.pod_keys.remove(event.key)
            if stored is not None:
                sched.delete_pod(stored)
        elif stored is not None:
            assert manifest is not None
            sched.update_pod(_with_runtime_fields(codec.pod_from_manifest(manifest), stored))

    def _vanish_pod(self, key: str) -> None:
        """A vanish fault deletes the pod through the API server, as a timeline delete does."""
        if key in self.pod_keys:
            self.pod_keys.remove(key)
        stored = next((p for p in self.sched.store.pods.values() if p.key == key), None)
        if stored is not None:
            self.sched.delete_pod(stored)

    def _node(self, event: TimelineEvent, manifest: dict[str, Any] | None) -> None:
        if event.op == "delete":
            self.sched.delete_node(event.name)
            return
        assert manifest is not None
        node = codec.node_from_manifest(manifest)
        (self.sched.add_node if event.op == "create" else self.sched.update_node)(node)

    def _object(self, event: TimelineEvent, manifest: dict[str, Any] | None) -> None:
        """Namespaces, PDBs, pod-selecting workloads and storage objects reach the store (the latter with
        their informer events); the scheduler never reads PriorityClasses or RuntimeClasses (admission
        copied them into the pods)."""
        sched, kind, op = self.sched, event.kind, event.op
        if kind == "Namespace":
            if op == "delete":
                sched.delete_namespace(event.name)
            else:
                ns = codec.namespace_from_manifest(manifest)
                (sched.add_namespace if op == "create" else sched.update_namespace)(ns)
        elif kind == "PodDisruptionBudget":
            if op == "delete":
                sched.delete_pdb(event.namespace, event.name)
            else:
                pdb = codec.pdb_from_manifest(manifest)
                (sched.add_pdb if op == "create" else sched.update_pdb)(pdb)
        elif kind in VOLUME_KINDS:
            if op == "delete":
                sched.delete_volume_object(kind, event.key)
            else:
                sched.put_volume_object(codec.from_manifest(manifest))
        elif kind in codec.WORKLOAD_KINDS:
            if op == "delete":
                sched.delete_workload(kind, event.namespace, event.name)
            else:
                workload = codec.workload_from_manifest(manifest)
                (sched.add_workload if op == "create" else sched.update_workload)(workload)


def _with_runtime_fields(pod: Pod, stored: Pod) -> Pod:
    """The patched pod keeps what the scheduler and API server wrote since: uid, binding, nomination."""
    return replace(pod, uid=stored.uid, node_name=stored.node_name,
                   nominated_node_name=stored.nominated_node_name)


def run_scenario(sched: Scheduler, scenario: Scenario, factory: SchedulerFactory | None = None) -> TimelineRunner:
    """Populate `sched` with the scenario and run it, applying its timeline, until idle or the deadline;
    `factory` builds the scheduler after a restart fault (the runner's `sched` is then the last one)."""
    populate(sched, scenario)
    runner = TimelineRunner(sched, scenario, factory)
    runner.start()
    runner.run(scenario.deadline)
    return runner


__all__ = ["TimelineRunner", "run_scenario"]
