"""Timeline faults on the local control plane (issue 31, docs/scenario.md "Faults"), through its proxy.

The proxy (fault_proxy.py) sees the scheduler's API calls, not its extension points, so the local control
plane injects what a call shows:
- `fail` on every call (bind, status, evict, event); each HTTP request is one call, as each client call is
  in the upstream runner (client-go's events broadcaster writes an isomorphic event's repeats as one series
  PATCH, later, so there are fewer event calls than Eventf calls, as on any real cluster);
- `restart` at `bind`: the binding call (the runner fires it before the Bind plugins, DefaultBinder's call
  here); the call is never forwarded, the old scheduler is killed, and a new one starts from the API server;
- `vanish` at `prebind`: taken at the binding call, which is that point as the API server sees it while the
  pod's PreBind plugins skip it (VolumeBinding and DynamicResources for a pod without claims): the object is
  deleted, then the binding is forwarded.
Reserve, Permit and the preemption victim (its DELETE does not name the preemptor) show no call: refused.
"""

from __future__ import annotations

import queue
import threading
import time
from typing import Any, Callable, Mapping

from reference.faults import CALLS, Fault, is_fault
from reference.scenario import Scenario

from ..core.errors import BackendFailure
from ..core.scenario_config import plugin_lists
from .collector import ARRIVAL
from .fault_proxy import FaultProxy
from .naming import NamespaceMap
from .requeue import FLUSH, backoff
from .schedconfig import API_VERSION

CAPABILITIES = frozenset({"fault-fail", "fault-vanish", "fault-restart"})
DETAILS = {"fail": CALLS, "vanish": ("prebind",), "restart": ("bind",)}
QUIET_PREBIND = ("VolumeBinding", "DynamicResources")  # they skip a pod without volume or resource claims
POLL = 0.2


def refuse_unobservable(scenario: Scenario) -> None:
    """One line for a fault whose stand-in, the binding call, is not the point it names in this scenario:
    an extender binds (its call bypasses the proxy), another Bind plugin, or a PreBind plugin that acts."""
    for i, entry in enumerate(scenario.timeline):
        if not is_fault(entry) or not (entry["op"] != "fail" or entry.get("call") == "bind"):
            continue
        problem = _binding_problem(scenario, strict=entry["op"] != "fail", prebind=entry["op"] == "vanish")
        if problem:
            raise BackendFailure(f"scenario.timeline[{i}]: the local control plane sees this {entry['op']} "
                                 f"fault at the scheduler's binding call, but {problem}; run it on --backend "
                                 "upstream or reference")


def _binding_problem(scenario: Scenario, *, strict: bool, prebind: bool) -> str:
    config = scenario.config or {}
    for k, ext in enumerate(config.get("extenders") or ()):
        if isinstance(ext, Mapping) and ext.get("bindVerb"):
            return f"config.extenders[{k}] binds (bindVerb), past the proxy"
    if not strict:
        return ""
    try:
        lists = plugin_lists({"apiVersion": API_VERSION, "kind": "KubeSchedulerConfiguration", **config})
    except Exception:  # noqa: BLE001 - a config the scheduler refuses fails the run with its own message
        return ""
    for profile, points in lists.items():
        binders = [e["name"] for e in (points.get("bind") or {}).get("enabled") or ()]
        if binders != ["DefaultBinder"]:
            return f"profile {profile} binds with {', '.join(binders) or 'nothing'}, not DefaultBinder alone"
        acting = [e["name"] for e in (points.get("preBind") or {}).get("enabled") or ()
                  if e["name"] not in QUIET_PREBIND]
        if prebind and acting:
            return f"profile {profile} runs PreBind plugin {acting[0]}, which the point comes before"
    if prebind:
        for pod in (*scenario.pods, *scenario.workload):
            spec = (pod.get("spec") or {}) if isinstance(pod, Mapping) else {}
            claims = spec.get("resourceClaims") or [v for v in spec.get("volumes") or ()
                                                    if "persistentVolumeClaim" in v or "ephemeral" in v]
            if claims:
                name = (pod.get("metadata") or {}).get("name")
                return f"pod {name} has claims, which VolumeBinding's or DynamicResources' PreBind acts on"
    return ""


class ScenarioFaults:
    """One scenario's faults: armed on the proxy as the timeline reaches them, firings followed by a thread
    that carries out restarts (kill the scheduler, lift the fence, start a new one)."""

    def __init__(self, proxy: FaultProxy, nsmap: NamespaceMap, kill: Callable[[], None],
                 start: Callable[[], None], on_fire: Callable[[float], None]) -> None:
        """`kill()` the scheduler; `start()` a new one (after the fence is lifted)."""
        self.proxy, self.nsmap, self.on_fire = proxy, nsmap, on_fire
        self.kill, self.start_scheduler = kill, start
        self.fired: list[dict[str, Any]] = []
        self.restarts: list[tuple[float, float]] = []  # (fired, old scheduler dead), Unix seconds
        self.busy = False  # a restart is under way: the run is not idle
        self._stop = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._follow, name="fault-firings", daemon=True)
        proxy.reset()

    def arm(self, fault: Fault) -> None:
        self.proxy.arm({"index": fault.index, "op": fault.op, "call": fault.call, "error": fault.error,
                        "pod": self.nsmap.key_to_cluster(fault.pod) if fault.pod else "",
                        "occurrence": fault.occurrence, "times": fault.times, "point": fault.point,
                        "object": fault.object})

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Stop following (a restart under way completes first), disarm; raises what the thread met."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        try:
            self._take(self.proxy.firings(len(self.fired)))
        finally:
            self.proxy.reset()
        if self._error is not None:
            raise self._error

    def settles_after(self) -> float:
        """The earliest time the run may settle: after the last failed binding, the backoff of the pod it
        struck (each failed binding doubles it) and the flush have passed; it is retried then."""
        failed = [f for f in self.fired if f.get("fault") == "fail" and f.get("detail") == "bind"]
        if not failed:
            return 0.0
        strikes = sum(1 for f in failed if f.get("pod") == failed[-1].get("pod"))
        return failed[-1]["at"] + backoff(strikes) + FLUSH

    def vanished_pods(self) -> set[str]:
        """Cluster keys of the pods vanish faults deleted."""
        objects = [str(f.get("object") or "") for f in self.fired]
        return {o[len("Pod/"):] for o in objects if o.startswith("Pod/")}

    def outcome(self, start: float) -> tuple[dict[str, Any], ...]:
        """The firings as Outcome.faults records: scenario keys, `at` seconds since `start`."""
        out = []
        for f in self.fired:
            rec = {"index": f["index"], "at": round(max(0.0, f["at"] - start), 6),
                   "pod": self.nsmap.key_to_scenario(f["pod"]), "fault": f["fault"], "detail": f["detail"]}
            kind, _, key = str(f.get("object") or "").partition("/")
            if key:
                rec["object"] = f"{kind}/{self.nsmap.key_to_scenario(key) if kind == 'Pod' else key}"
            out.append(rec)
        return tuple(out)

    def _follow(self) -> None:
        try:
            while not self._stop.is_set():
                self._take(self.proxy.firings(len(self.fired), wait=POLL))
        except BaseException as exc:  # noqa: BLE001 - handed to the run's thread by stop()
            self._error = exc

    def _take(self, new: list[dict[str, Any]]) -> None:
        for f in new:
            self.fired.append(f)
            if f.get("fault") == "restart":
                self.busy = True
                try:
                    self.kill()
                    self.restarts.append((f["at"], time.time()))
                    self.proxy.resume()
                    self.start_scheduler()
                finally:
                    self.busy = False
            self.on_fire(time.time())


def across_restarts(records: list[dict[str, Any]],
                    restarts: list[tuple[float, float]]) -> list[dict[str, Any]]:
    """The collector's probe records of a run with restarts as one trace, as the upstream runner's recorder,
    shared by the scheduler's incarnations, writes it: each new process counts `seq` and each pod's attempts
    from scratch, so its records follow the old ones and continue their attempt numbers; the old process's
    records after the restart fired (it ran on, fenced, until killed) are dropped, as the runner silences
    it."""
    if not restarts:
        return records

    def epoch(r: Mapping[str, Any]) -> int:
        return sum(1 for _, dead in restarts if r.get(ARRIVAL, 0.0) >= dead)

    def silenced(r: Mapping[str, Any]) -> bool:
        return any(fired <= r.get(ARRIVAL, 0.0) < dead for fired, dead in restarts)

    kept = sorted((r for r in records if not silenced(r)), key=lambda r: (epoch(r), r.get("seq", 0)))
    out: list[dict[str, Any]] = []
    offset: dict[str, int] = {}
    last: dict[str, int] = {}
    current = 0
    for n, r in enumerate(kept):
        if epoch(r) != current:
            current, offset = epoch(r), dict(last)
        rec = {**r, "seq": n}
        if isinstance(r.get("attempt"), int):
            rec["attempt"] = r["attempt"] + offset.get(str(r.get("pod")), 0)
            last[str(r.get("pod"))] = max(last.get(str(r.get("pod")), 0), rec["attempt"])
        out.append(rec)
    return out


class Restarter:
    """Runs restarts on one thread that lives as long as the backend: a scheduler started with a parent-death
    signal (processes.spawn, `tied`) dies when the thread that started it ends, so the scheduler a restart
    starts must not be started by a thread that ends with its scenario."""

    def __init__(self) -> None:
        self._jobs: queue.Queue = queue.Queue()
        self._thread = threading.Thread(target=self._serve, name="fault-restarts", daemon=True)
        self._thread.start()

    def call(self, job: Callable[[], None]) -> None:
        """Run `job` there and wait for it; raises what it raised."""
        done, result = threading.Event(), []
        self._jobs.put((job, done, result))
        done.wait()
        if result:
            raise result[0]

    def close(self) -> None:
        self._jobs.put(None)
        self._thread.join()

    def _serve(self) -> None:
        while (item := self._jobs.get()) is not None:
            job, done, result = item
            try:
                job()
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                result.append(exc)
            done.set()


__all__ = ["CAPABILITIES", "DETAILS", "Restarter", "across_restarts", "ScenarioFaults", "refuse_unobservable"]
