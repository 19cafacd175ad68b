"""The `cluster` backend: scenarios against a real API server (the local control plane or any cluster)."""

from __future__ import annotations

import atexit
import functools
import hashlib
import sys
import threading
import time
from typing import Any, Callable

from reference.faults import Fault, is_fault
from reference.probe.trace import Trace
from reference.scenario import EXTENDER_SCRIPT_ANNOTATION, Scenario

from ..backends.base import refuse_faults
from ..core.errors import BackendFailure, BackendUnavailable
from ..core.outcome import Outcome, PodOutcome
from . import apply, cleanup
from .adapt import Adapter, scenario_namespaces
from .collector import TraceCollector
from .controlplane import ControlPlane
from .custom import CustomResources, read_crds
from .fault_proxy import FaultProxy
from .faults import CAPABILITIES as FAULT_CAPABILITIES, DETAILS as FAULT_DETAILS
from .faults import Restarter, ScenarioFaults, across_restarts, refuse_unobservable
from .kube import Kube, path
from .kubeconfig import read_target
from .local_scheduler import LocalScheduler
from .naming import RUN_LABEL, SCENARIO_LABEL, NamespaceMap, new_run_id
from .observe import awaited_events, events_of, have_events, key_of, phase_of, pod_outcome, trace_of
from .requeue import woken_pod_wait
from .safety import ensure_test_cluster
from .schedconfig import render, scheduler_names
from .state import StateDir
from .timeline import TimelinePlayer
from .watch import ObjectWatch, wait_for

SETTLE = 0.5  # seconds without any change before unsettled-looking pods are taken as they are
EVENT_WAIT = 3.0
SETTLED_PHASES = ("bound", "unschedulable", "error", "gated")


class ClusterBackend:
    name = "cluster"

    def __init__(self, *, kubeconfig: str | None = None, context: str | None = None, scheduler_name: str | None = None,
                 allow_any_cluster: bool = False, local: bool = False, control_plane: ControlPlane | None = None,
                 extender_server: Any = None, extender_url: str | None = None, settle: float = SETTLE,
                 fresh_scheduler: bool = False, stop_control_plane: bool = False,
                 progress: Callable[[str], None] | None = None, crds: tuple[Any, ...] = (),
                 cluster_scheduler: Callable[[Kube], Any] | None = None, collector_host: str = "127.0.0.1") -> None:
        """`cluster_scheduler(kube)`: the cluster's own scheduler, driven like the local one (KindScheduler):
        the scenario's profiles and probes apply on that cluster. `collector_host`: where it reaches us."""
        self.progress = progress or (lambda _msg: None)
        self.local = local or control_plane is not None
        self.settle = settle
        self.fresh_scheduler = fresh_scheduler
        self.stop_control_plane = stop_control_plane and self.local
        self.extender_server = extender_server
        self.extender_url = extender_url or (extender_server.base_url if extender_server is not None else None)
        self.notes: list[str] = []
        self._last_config: dict[str, Any] = {}
        crd_manifests = read_crds(crds)  # a bad file is reported before anything starts
        self.collector: TraceCollector | None = None
        self._scheduler = None
        self.proxy: FaultProxy | None = None
        if self.local:
            self.control_plane = control_plane or ControlPlane(progress=self.progress)
            self.control_plane.up(start_scheduler=False)
            kubeconfig, context = str(self.control_plane.kubeconfig), None
            self._scheduler = self.control_plane.scheduler()
            if cluster_scheduler is None:
                self.proxy = self._start_proxy()
        self._restarter = Restarter() if self.proxy is not None else None
        target = read_target(kubeconfig, context)
        self.notes.append(f"target: context {target.context} at {target.server} "
                          f"({ensure_test_cluster(target, allow_any_cluster=allow_any_cluster)})")
        self.kube = Kube.connect(target.path, target.context)
        self.kubernetes_version = str(self.kube.request("GET", "/version").get("gitVersion", ""))
        if cluster_scheduler is not None:
            self._scheduler = cluster_scheduler(self.kube)
            self._scheduler_kubeconfig = self._scheduler.kubeconfig
        elif self.local:
            self._scheduler_kubeconfig = str(self.control_plane.kubeconfig)
        # With a scheduler of ours (local or driven), pods keep the scenario's schedulerName.
        self.scheduler_name = None if self._scheduler is not None else (scheduler_name or "default-scheduler")
        caps = {"preemption", "custom-objects"}
        if self._scheduler is not None:
            caps.add("config-per-scenario")
            # The extender server listens on 127.0.0.1: only a scheduler on this machine reaches it.
            if self.extender_url and self.local:
                caps.add("extenders")
            if self._scheduler.supports_probes():
                caps.add("probes")
                self.collector = TraceCollector(collector_host)
                self.collector.start()
        if self.proxy is not None:
            caps |= FAULT_CAPABILITIES
        if "probes" not in caps:
            self.notes.append("probes: not available (the scheduler has no probe plugins); only outcome-level "
                              "invariants apply")
        self.capabilities = frozenset(caps)
        # One scenario at a time per cluster, whichever process runs it (xdist workers, two sessions):
        # the local control plane's one kube-scheduler is restarted with each scenario's config, and
        # nodes keep the scenario's names (cluster-scoped), so two scenarios at once would collide.
        # Each backend still has its own run id, and cleanup selects only its own run.
        key = "local" if self.local else hashlib.sha256(target.server.encode()).hexdigest()[:12]
        state = self.control_plane.state if self.local else StateDir.default()
        self._one_at_a_time = functools.partial(state.lock, f"scenarios-{key}.lock")
        self.run_id = new_run_id()
        # A driven cluster scheduler (kind) runs on a cluster whose own node is hidden (kind.hide_node).
        self.adapter = Adapter(self.run_id, scheduler_name=self.scheduler_name,
                               guard_foreign_nodes=not self.local and cluster_scheduler is None)
        self._count = 0
        self._closed = False
        swept = cleanup.sweep(self.kube, finalize=self.local, keep=self.run_id)
        if swept:
            self.notes.append(f"removed {len(swept)} object(s) left by earlier interrupted runs")
        self.custom = CustomResources(self.kube)
        self._custom_created: list[Any] = []
        atexit.register(self._close_at_exit)
        if crd_manifests:
            present = self.custom.install(crd_manifests, self.adapter.labels, self.adapter.annotations)
            self.notes.append(f"CRDs: installed {', '.join(self.custom.installed) or 'none'} for this run"
                              + (f"; already there, left as they are: {', '.join(present)}" if present else ""))

    # --- Backend protocol ----------------------------------------------------------------------

    def run(self, scenario: Scenario) -> Outcome:
        if self._closed:
            raise BackendFailure("the cluster backend is closed; create a new one")
        self.check_faults(scenario)
        self._count += 1
        nsmap = NamespaceMap.of(self.run_id, self._count, scenario_namespaces(scenario))
        with self._one_at_a_time():
            try:
                return self._run(scenario, nsmap)
            finally:
                self.custom.delete_all(self._custom_created, f"{RUN_LABEL}={self.run_id},{SCENARIO_LABEL}={self._count}")
                self._custom_created = []
                cleanup.remove_scenario(self.kube, self.run_id, self._count, nsmap.forward.values(),
                                        finalize=self.local)

    def check_faults(self, scenario: Scenario) -> None:
        """Refuse, in one line, a fault this backend cannot inject (conformance/cluster/faults.py)."""
        refuse_faults(scenario, self.name, self.capabilities, FAULT_DETAILS if self.proxy else None)
        if self.proxy is not None:
            refuse_unobservable(scenario)

    def close(self) -> None:
        """Remove everything this run created, stop the collector; the control plane stays up unless
        `stop_control_plane` (it was started for this backend)."""
        if self._closed:
            return
        self._closed = True
        atexit.unregister(self._close_at_exit)
        try:
            cleanup.remove(self.kube, cleanup.find(self.kube, self.run_id), finalize=self.local)
            self.custom.remove_installed()
        finally:
            if self.collector is not None:
                self.collector.stop()
            if self.proxy is not None:
                if not self.stop_control_plane and isinstance(self._scheduler, LocalScheduler):
                    # A scheduler left on our proxy would only see errors: back to the API server itself.
                    direct = {**self._last_config,
                              "clientConnection": {"kubeconfig": self._scheduler_kubeconfig}}
                    with self._one_at_a_time():
                        if self._scheduler.uses(str(self.proxy.kubeconfig)):
                            self._scheduler.ensure(direct)
                self.proxy.stop()
            if self._restarter is not None:
                self._restarter.close()  # after the scheduler it may have started is stopped
            if hasattr(self._scheduler, "restore"):
                self._scheduler.restore()  # a driven cluster scheduler goes back to the cluster's own config
            self.kube.close()
            if self.stop_control_plane:
                self.control_plane.down()

    def _close_at_exit(self) -> None:
        """A run that ends without close() still cleans up; if it cannot, the next start sweeps."""
        try:
            self.close()
        except Exception as exc:  # noqa: BLE001 - at exit there is nobody to raise to
            print(f"sched-conformance: could not remove run {self.run_id} at exit ({type(exc).__name__}); "
                  "`sched-conformance cleanup` or the next run removes it", file=sys.stderr)

    def _start_proxy(self) -> FaultProxy | None:
        """The fault proxy in front of the local API server; without its binary, no faults (a note says
        why)."""
        cp = self.control_plane
        data = cp.state.read()
        try:
            return FaultProxy(cp.state, cp.bin_dir, data["server"], data["token"], cp.ca_file).start()
        except BackendUnavailable as exc:
            self.notes.append(f"faults: not available ({exc})")
            return None

    # --- one scenario ----------------------------------------------------------------------------

    def _finish_deletion(self, namespace: str, name: str) -> None:
        try:
            self.kube.delete(path("Pod", namespace, name), grace=0)
        except Exception:  # noqa: BLE001 - the pod may be gone or the run closing; the outcome shows what happened
            pass

    def _config(self, scenario: Scenario) -> dict[str, Any]:
        """The scenario's config for our scheduler; with faults it connects through the fault proxy."""
        collector = self.collector.url if self.collector else None
        through = self.proxy is not None and any(is_fault(e) for e in scenario.timeline)
        kubeconfig = str(self.proxy.kubeconfig) if through and self.proxy else self._scheduler_kubeconfig
        config = render(scenario.config, kubeconfig=kubeconfig, collector_url=collector,
                        extender_url=self.extender_url)
        self._last_config = config
        if through:
            # The proxy reads the bodies of the calls it selects (a binding's node, an event's pod): JSON, not
            # the protobuf kube-scheduler sends by default; the wire format is the backend's part.
            config["clientConnection"]["contentType"] = "application/json"
        return config

    def _run(self, scenario: Scenario, nsmap: NamespaceMap) -> Outcome:
        plan = self.adapter.plan(scenario, nsmap)
        workload = {f"{p['metadata']['namespace']}/{p['metadata']['name']}" for p in plan.workload}
        state = _Observed(time.time(), self._finish_deletion)
        config = self._config(scenario) if self._scheduler is not None else {}
        faults = None
        if self.proxy is not None and any(is_fault(e) for e in scenario.timeline):
            assert self._restarter is not None and self._scheduler is not None
            start = functools.partial(self._restarter.call, functools.partial(self._scheduler.ensure, config,
                                                                              force=True))
            faults = ScenarioFaults(self.proxy, nsmap, self._scheduler.kill, start, on_fire=state.fired)
        player = TimelinePlayer(self.kube, self.adapter, scenario, nsmap, plan, workload=workload,
                                finalize=self.local, deleted_by_scheduler=lambda key: key in state.deleted,
                                server_version=self.kubernetes_version, arm=faults.arm if faults else None)
        if self._scheduler is not None:
            if self.fresh_scheduler:
                self._scheduler.stop()
            else:
                self._scheduler.ensure(config)
        reporters = set(scheduler_names(scenario.config)) if self._scheduler is not None else {str(self.scheduler_name)}
        apply.setup(self.kube, plan)
        for obj in plan.custom:
            self._custom_created.append(self.custom.create(obj, plan.default_namespace))
        if self.collector is not None:
            self.collector.take(workload)  # nothing of this scenario's can be there yet; be sure
        cond = threading.Condition()
        pods = ObjectWatch(self.kube, path("Pod"), cond, label_selector=f"{RUN_LABEL}={self.run_id},"
                           f"{SCENARIO_LABEL}={self._count}", on_change=state.pod_changed)
        events = [ObjectWatch(self.kube, path("Event", ns), cond, on_change=state.changed)
                  for ns in nsmap.forward.values()]
        watches = [pods, *events]
        extender_trace = Trace(time.time)
        if self.extender_server is not None:
            self.extender_server.trace = extender_trace
            self.extender_server.binder = lambda ns, name, uid, node: apply.bind(self.kube, ns, name, uid, node)
            self.extender_server.set_scripts(_extender_scripts(plan.workload))
        try:
            for w in watches:
                w.start()
            state.start = state.last_change = time.time()
            # Faults at 0 ahead of anything else are armed before the first pod exists, as on virtual time.
            early = []
            while isinstance(player.pending, Fault) and player.pending.when == 0:
                early.append({"index": player.pending.index, "at": 0.0})
                player.apply_next(before_delete=state.external.add)
            if faults is not None:
                faults.start()
            apply.create_workload(self.kube, plan)
            if self._scheduler is not None and self.fresh_scheduler:
                self._scheduler.ensure(config, force=True)
            restarts = faults.restarts if faults is not None else []

            def probe_trace() -> list[dict[str, Any]]:
                return across_restarts(self.collector.peek(player.seen), restarts) if self.collector else []

            def done() -> bool:
                # A workload pod deleted by the scheduler (a preemption victim) is settled: gone.
                if faults is not None and faults.busy:
                    return False  # a restart is under way
                objs = {k: pods.objects.get(k) for k in workload if k not in state.deleted}
                if any(o is None for o in objs.values()):
                    return False
                if all((o or {}).get("spec", {}).get("nodeName") for o in objs.values()):
                    return True
                if faults is not None and time.time() < faults.settles_after():
                    return False  # the pod a fault struck is retried after its backoff
                if time.time() < state.last_event + woken_pod_wait(self.kubernetes_version):
                    return False  # a pod the last event woke may wait out its backoff first (requeue.py)
                records = _by_pod(probe_trace())
                quiet = time.time() - max(state.last_change, self.collector.last_arrival if self.collector else 0)
                return quiet >= self.settle and all(phase_of(o or {}, records.get(k, [])) in SETTLED_PHASES
                                                    for k, o in objs.items())

            applied = early + self._play(player, cond, done, state, state.start + scenario.deadline, watches)
            final = {k: dict(pods.objects.get(k) or {}) for k in workload if k not in state.deleted}
            records = _by_pod(probe_trace())
            wanted = awaited_events(final, records)
            wait_for(cond, lambda: have_events([e for w in events for e in w.objects.values()], wanted),
                     EVENT_WAIT, watches)
            event_objs = [e for w in events for e in w.objects.values()]
        finally:
            for w in watches:
                w.stop()
            if faults is not None:
                faults.stop()
        if faults is not None:
            # A pod a vanish fault deleted leaves the outcome, as one the timeline deletes; not a victim.
            vanished = faults.vanished_pods()
            workload -= vanished
            state.deleted = [k for k in state.deleted if k not in vanished]
        # player.seen: the timeline's deleted pods too
        probe = across_restarts(self.collector.take(player.seen), restarts) if self.collector else []
        records = _by_pod(probe)
        return Outcome(
            backend=self.name, kubernetes_version=self.kubernetes_version,
            pods={nsmap.key_to_scenario(k): pod_outcome(final[k], records.get(k, []), nsmap) if k in final
                  else PodOutcome("pending") for k in sorted(workload)},
            bindings=tuple({"pod": nsmap.key_to_scenario(k), "node": n, "t": round(t - state.start, 6)}
                           for k, n, t in state.bindings),
            deleted=tuple(nsmap.key_to_scenario(k) for k in state.deleted),
            events=tuple(events_of(event_objs, workload, reporters, nsmap)),
            trace=tuple(trace_of(probe, extender_trace.snapshot(), nsmap, state.start)),
            timeline=tuple(applied),
            faults=faults.outcome(state.start) if faults is not None else (),
        )

    def _play(self, player: TimelinePlayer, cond: threading.Condition, idle: Callable[[], bool], state: "_Observed",
              deadline: float, watches: list[ObjectWatch]) -> list[dict[str, Any]]:
        """Apply the timeline in order, each event at its wall-clock offset from the workload's creation or
        when the scheduler is next idle (`idle`: what ends a run), then wait for idle; all by `deadline`.
        Returns the applied events ({"index", "at"}); events not applied by the deadline are not applied."""
        applied: list[dict[str, Any]] = []
        while (event := player.pending) is not None:
            if event.when is None:
                wait_for(cond, idle, deadline - time.time(), watches)
            else:
                wait_for(cond, lambda: False, min(state.start + event.when, deadline) - time.time(), watches)
            if time.time() >= deadline:
                break
            if not player.apply_next(before_delete=state.external.add):
                continue  # not applied (see apply_next): the run is judged without it
            now = time.time()
            with cond:
                state.last_change = state.last_event = now  # a settle period to react, as to any change
            applied.append({"index": event.index, "at": round(now - state.start, 6)})
        wait_for(cond, idle, deadline - time.time(), watches)
        return applied


def _extender_scripts(pods: list[dict[str, Any]]) -> dict[str, str]:
    """Cluster pod key -> script text: the extender server sees cluster namespaces."""
    out = {}
    for p in pods:
        script = (p["metadata"].get("annotations") or {}).get(EXTENDER_SCRIPT_ANNOTATION)
        if script:
            out[key_of(p)] = script
    return out


def _by_pod(records: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for r in sorted(records, key=lambda r: r.get("seq", 0)):
        out.setdefault(str(r.get("pod", "")), []).append(r)
    return out


class _Observed:
    """Bindings and deletions as the pod watch saw them, and when anything last changed.

    It also plays the kubelet for pods the scheduler deletes (preemption victims): a graceful
    delete only sets deletionTimestamp, and without a kubelet to confirm, the victim would hold its
    node's resources forever. `finish` removes such a pod with grace period 0.
    """

    def __init__(self, start: float, finish: Callable[[str, str], None]) -> None:
        self.start = start
        self.finish = finish
        self.last_change = start
        self.last_event = 0.0  # when the last timeline event applied
        self.bindings: list[tuple[str, str, float]] = []
        self.deleted: list[str] = []
        self.external: set[str] = set()  # uids of pods the timeline deletes: not the scheduler's deletions
        self._nodes: dict[str, str] = {}

    def changed(self, kind: str, obj: dict[str, Any], now: float) -> None:
        self.last_change = now

    def fired(self, now: float) -> None:
        """A fault fired (a restart: the new scheduler is ready): a settle period to react, as to any
        change."""
        self.last_change = now

    def pod_changed(self, kind: str, obj: dict[str, Any], now: float) -> None:
        self.last_change = now
        key, node = key_of(obj), (obj.get("spec") or {}).get("nodeName") or ""
        terminating = bool((obj.get("metadata") or {}).get("deletionTimestamp"))
        external = (obj.get("metadata") or {}).get("uid") in self.external
        if (kind == "DELETED" or terminating) and key not in self.deleted and not external:
            self.deleted.append(key)
            if kind != "DELETED":
                meta = obj["metadata"]
                threading.Thread(target=self.finish, args=(meta["namespace"], meta["name"]), daemon=True).start()
        elif node and not self._nodes.get(key) and now >= self.start and kind != "ADDED":
            self.bindings.append((key, node, now))
        self._nodes[key] = node


__all__ = ["ClusterBackend", "SETTLE"]
