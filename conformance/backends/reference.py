"""The `reference` backend: the pure-Python scheduler, in-process, on a virtual clock."""

from __future__ import annotations

from typing import Any, Callable

from reference.errors import ReferenceError_
from reference.probe import ProbeTracker, probe_registry
from reference.scenario import Scenario
from reference.scheduler.build import build_scheduler
from reference.scheduler.scheduler import Scheduler
from reference.scheduler.timeline import TimelineRunner, run_scenario

from ..core import scenario_config
from ..core.errors import BackendFailure
from ..core.outcome import Outcome, PodOutcome
from .scenario_io import extender_scripts, with_extender_url

KUBERNETES_VERSION = "v1.37.2"

# A hook that may replace the built scheduler (mutants in tests/ break one rule this way).
SchedulerHook = Callable[[Scheduler], None]


class ReferenceBackend:
    name = "reference"
    capabilities = frozenset({"probes", "extenders", "config-per-scenario", "virtual-time", "preemption",
                              "plugin-list", "queue-attempts", "creation-order", "reference-release",
                              "fault-fail", "fault-vanish", "fault-restart",
                              "fault-lag"})
    kubernetes_version = KUBERNETES_VERSION

    def __init__(self, *, extender_server: Any = None, seed: int = 0, hook: SchedulerHook | None = None,
                 max_attempts: int = 8) -> None:
        self.extender_server = extender_server
        self.seed = seed
        self.hook = hook
        self.max_attempts = max_attempts

    def run(self, scenario: Scenario) -> Outcome:
        tracker = ProbeTracker()
        config = scenario.config or scenario_config.DEFAULT_CONFIG
        if self.extender_server is not None:
            config = with_extender_url(config, self.extender_server.base_url)
        unknown = scenario_config.unknown_plugins(config)
        if unknown:
            raise BackendFailure(f"the reference does not implement plugin {', '.join(sorted(unknown))}; run scenarios "
                                 "with out-of-tree plugins on --backend upstream built with them (--go-plugin)")
        try:
            loaded = scenario_config.load(config)[0]
            plugins = scenario_config.plugin_lists(config)
            sched = build_scheduler(loaded, out_of_tree=probe_registry(tracker), seed=self.seed,
                                    max_attempts=self.max_attempts)
        except ReferenceError_ as exc:
            raise BackendFailure(f"the reference rejects the scheduler config: {exc}") from None
        tracker.use_clock(sched.clock)
        bindings: list[dict[str, Any]] = []
        deleted: list[str] = []

        def prepare(new: Scheduler) -> Scheduler:
            """The first scheduler, and each after a restart fault: the hook, the outcome's observers."""
            if self.hook is not None:
                self.hook(new)
            _observe(new, bindings, deleted)
            return new

        def restarted(store, clock) -> Scheduler:
            return prepare(build_scheduler(loaded, out_of_tree=probe_registry(tracker), seed=self.seed,
                                           max_attempts=self.max_attempts, store=store, clock=clock))

        prepare(sched)
        if self.extender_server is not None:
            self.extender_server.trace = tracker.trace
            self.extender_server.binder = lambda *args: None  # the reference binds after an extender bind
            self.extender_server.set_scripts(extender_scripts(scenario))
        try:
            timeline = run_scenario(sched, scenario, restarted)
        except ReferenceError_ as exc:
            raise BackendFailure(f"the reference cannot run this scenario: {exc}") from None
        return _outcome(timeline.sched, timeline, tracker, bindings, deleted, _built_plugins(sched, plugins))

    def close(self) -> None:
        pass


def _observe(sched: Scheduler, bindings: list[dict[str, Any]], deleted: list[str]) -> None:
    store = sched.store
    on_bound, on_deleted = store.on_pod_bound, store.on_pod_deleted

    def bound(pod):
        bindings.append({"pod": pod.key, "node": pod.node_name, "t": sched.clock.now()})
        on_bound(pod)

    def removed(pod):
        deleted.append(pod.key)
        on_deleted(pod)

    store.on_pod_bound, store.on_pod_deleted = bound, removed


def _built_plugins(sched: Scheduler, configured: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """ListPlugins as the built frameworks hold them (so a broken build shows), in the v1 shape of
    `configured`; the workload points the reference does not build keep their configured lists."""
    out = {}
    for name, fw in sched.frameworks.items():
        lists = dict(configured.get(name, {}))
        for point, names in fw.list_plugins().items():
            weight = (lambda n: fw.score_weights.get(n, 0)) if point == "score" else (lambda n: 0)
            lists[point] = {"enabled": [{"name": n, "weight": weight(n)} for n in names]} if names else {}
        out[name] = lists
    return out


def _outcome(sched: Scheduler, timeline: TimelineRunner, tracker: ProbeTracker, bindings: list, deleted: list,
             plugins: dict) -> Outcome:
    results = sched.results()
    workload = set(timeline.pod_keys)
    pods = {}
    for key in timeline.pod_keys:
        r = results.get(key)
        if r is None:
            pods[key] = PodOutcome("pending")
            continue
        condition = {"status": "False", "reason": r.condition_reason, "message": r.condition_message} \
            if r.condition_reason and r.phase != "bound" else None
        pods[key] = PodOutcome(r.phase, r.node, r.attempts, condition, r.nominated_node_name)
    events = [{"pod": e.pod, "type": e.type, "reason": e.reason, "message": e.message}
              for e in sched.store.events if e.pod in workload]
    return Outcome(backend="reference", kubernetes_version=KUBERNETES_VERSION, pods=pods,
                   bindings=tuple(bindings), deleted=tuple(deleted), events=tuple(events),
                   trace=tuple(tracker.trace.snapshot()), plugins=plugins, timeline=tuple(timeline.applied),
                   faults=tuple(timeline.faults.fired))


__all__ = ["ReferenceBackend", "KUBERNETES_VERSION"]
