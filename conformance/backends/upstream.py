"""The `upstream` backend: the real kube-scheduler (k8s.io/kubernetes as a library) in `harness/bin/runner`.

The runner is started once and reused; it runs each scenario on a fresh fake clientset with the
scenario's config, the Go probe plugins (harness/probe/) and the configured extenders, each scenario
in its own testing/synctest bubble: every timer of the scheduler runs on a virtual clock.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from reference.probe.trace import Trace
from reference.scenario import EXTENDER_URL_PLACEHOLDER, Scenario, pod_key
from reference.timeline import created

from ..builds.stock import executable
from ..core.errors import BackendFailure, BackendUnavailable
from ..core.outcome import Outcome
from .base import refuse_faults
from .reference import KUBERNETES_VERSION
from .runner_protocol import RunnerProcess
from .scenario_io import extender_scripts, with_extender_url

BUILD_HINT = ("the upstream backend needs the runner; build it with `harness/build.sh` (needs Go; the stock one is "
              "built on first use)")
# The runner's own real-time watchdog (-watchdog, 60 s) answers first for a scenario that does not end;
# this also covers process start.
RESPONSE_TIMEOUT = 90.0
BIND_TIMEOUT = 30.0


def default_runner() -> Path:
    """The stock runner: $SCHED_CONFORMANCE_BIN/runner, else harness/bin/runner, built now if missing."""
    from ..builds.stock import stock_binary
    return stock_binary("runner")


class UpstreamBackend:
    name = "upstream"

    def __init__(self, *, extender_server: Any = None, extender_url: str | None = None,
                 runner: str | Path | None = None, runner_args: tuple[str, ...] = (),
                 observe: tuple[str, ...] = ("*",)) -> None:
        self.binary = Path(runner) if runner is not None else default_runner()
        if not executable(self.binary):
            raise BackendUnavailable(f"{BUILD_HINT} (no executable at {self.binary})")
        self.extender_server = extender_server
        self.extender_url = extender_server.base_url if extender_server is not None else extender_url
        self.runner_args = runner_args
        # Plugins whose every call the runner records into the outcome's `observed` ("*": all but the probes).
        self.observe = tuple(observe)
        self._process: RunnerProcess | None = None
        self.restarts = 0
        try:
            hello = self._runner().request({"hello": True}, timeout=RESPONSE_TIMEOUT)
        except BackendFailure as exc:
            raise BackendUnavailable(f"{BUILD_HINT}; {self.binary} does not start: {exc}") from None
        self.kubernetes_version = str(hello.get("kubernetesVersion", ""))
        self.go_version = str(hello.get("goVersion", ""))
        if not hello.get("virtualTime"):
            raise BackendUnavailable(f"{self.binary} runs scenarios in wall time (an old build); rebuild it with "
                                     f"`harness/build.sh`")
        caps = {"probes", "config-per-scenario", "preemption", "plugin-list", "queue-attempts", "creation-order",
                "virtual-time"}
        # The fault ops this runner injects (harness/runner/faults*.go): all on v1.37, fail alone on older
        # releases, none on a runner built before faults.
        caps |= {f"fault-{op}" for op in hello.get("faults") or ()}
        if self.extender_url:
            caps.add("extenders")
        if self.observe:
            caps.add("observed-plugins")
        if same_minor(self.kubernetes_version, KUBERNETES_VERSION):
            caps.add("reference-release")
        self.capabilities = frozenset(caps)

    def layout(self, config: dict[str, Any] | None, kubeconfig: str) -> dict[str, Any]:
        """Per profile, the plugins at each point of `config`'s frameworks, built with Handle.KubeConfig() at
        `kubeconfig`'s API server: for plugins that start their own clients there (runner/layout.go)."""
        response = self._runner().request({"layout": {"config": config, "kubeconfig": kubeconfig}},
                                          timeout=RESPONSE_TIMEOUT)
        if "error" in response:
            raise BackendFailure(f"the upstream scheduler refuses the scenario: {response['error']}")
        return dict(response["plugins"])

    def run(self, scenario: Scenario) -> Outcome:
        refuse_faults(scenario, self.name, self.capabilities)
        if scenario.custom_objects:
            kinds = sorted({m["kind"] for m in scenario.custom_objects})
            raise BackendFailure(f"the upstream backend has no API server for the scenario's customObjects "
                                 f"({', '.join(kinds)}): plugins cannot read them in-process; run with "
                                 "--backend cluster (the local control plane, with --crd FILE for their CRDs)")
        data = scenario.to_dict()
        config = data.get("config")
        if config is not None and _uses_extender_url(config):
            if not self.extender_url:
                raise BackendFailure("the scenario's extenders use ${EXTENDER_URL} but the upstream backend has no "
                                     "extender server; pass extender_server= or extender_url=")
            data["config"] = with_extender_url(config, self.extender_url)
        extender_trace = self._prepare_extenders(scenario)
        if self.observe:
            data["observe"] = list(self.observe)
        response = self._runner().request({"scenario": data}, timeout=RESPONSE_TIMEOUT)
        if response.get("restart"):
            # The runner exits after this answer (a scenario left it unusable); the next one starts fresh.
            # Counted: a runner that restarts after ordinary scenarios costs a process start each.
            self.restarts += 1
            self.close()
        if "error" in response:
            raise BackendFailure(f"the upstream scheduler refuses the scenario: {response['error']}")
        try:
            outcome = dict(response["outcome"])
            if extender_trace is not None:
                outcome["trace"] = merge_traces(outcome.get("trace") or [], response.get("extenderCalls") or [],
                                                extender_trace.snapshot())
            return Outcome.from_dict(outcome)
        except (KeyError, TypeError, ValueError) as exc:
            raise BackendFailure(f"the upstream runner answered something that is not an outcome ({exc}); "
                                 f"rebuild it with `harness/build.sh`") from None

    def close(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            process.close()

    # --- internals ------------------------------------------------------------------------------

    def _runner(self) -> RunnerProcess:
        """The running runner, started (again, after a crash) when needed."""
        if self._process is None or not self._process.alive:
            if self._process is not None:
                self._process.close()
            try:
                self._process = RunnerProcess(self.binary, self.runner_args)
            except OSError as exc:
                self._process = None
                raise BackendFailure(f"cannot start {self.binary}: {exc}; {BUILD_HINT}") from None
        return self._process

    def _prepare_extenders(self, scenario: Scenario) -> Trace | None:
        server = self.extender_server
        if server is None:
            return None
        trace = Trace()
        server.trace = trace
        server.binder = self._bind
        server.set_scripts(extender_scripts(scenario))
        server.set_pod_uids(pod_uids(scenario))
        return trace

    def _bind(self, namespace: str, name: str, uid: str, node: str) -> str | None:
        """The extender server's binder: bind in the running scenario's store, as a binder extender would."""
        process = self._process
        if process is None:
            return "the upstream runner is not running"
        try:
            response = process.request({"bind": {"namespace": namespace, "name": name, "uid": uid, "node": node}},
                                       timeout=BIND_TIMEOUT)
        except BackendFailure as exc:
            return str(exc)
        return response.get("bindError") or response.get("error") or None


def merge_traces(probe: list[Mapping[str, Any]], calls: list[Mapping[str, Any]],
                 extender: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One trace from the runner's probe records and the extender server's, `seq` renumbered.

    The runner marks each extender call it makes (`calls`: extender, verb, pod, the number of probe
    records before it, and its virtual `t`); the server's record of a call goes there, with that `t`.
    The n-th record of an (extender, verb, pod) is the n-th call marked for it; a record without a
    mark (a call the runner did not see) goes last."""
    marks: dict[tuple[str, str, str], list[Mapping[str, Any]]] = {}
    for call in calls:
        marks.setdefault((str(call["extender"]), str(call["verb"]), str(call["pod"])), []).append(call)
    end = len(probe), float(probe[-1]["t"]) if probe else 0.0
    placed = [(i, 1, i, dict(r)) for i, r in enumerate(probe)]
    for i, record in enumerate(extender):
        key = (str(record.get("extender")), str(record.get("point", "")).removeprefix("extender."), str(record.get("pod")))
        mark = marks[key].pop(0) if marks.get(key) else None
        seq, t = (int(mark["seq"]), float(mark["t"])) if mark is not None else end
        placed.append((seq, 0, i, {**record, "t": t}))
    placed.sort(key=lambda x: x[:3])
    return [{**record, "seq": seq} for seq, (_, _, _, record) in enumerate(placed)]


def pod_uids(scenario: Scenario) -> dict[str, str]:
    """Pod UID -> pod key for every pod (the timeline's created pods too), with the UID the runner gives
    a pod without one (harness/runner/scenario.go, decodeManifest), so that the extender server can name
    preemption victims that node-cache-capable requests carry by UID only."""
    uids = {}
    for manifest in (*scenario.pods, *scenario.workload, *created(scenario.timeline, "Pod")):
        key = pod_key(manifest)
        namespace, name = key.split("/", 1)
        uids[(manifest.get("metadata") or {}).get("uid") or f"uid-pod-{namespace}-{name}"] = key
    return uids


def same_minor(a: str, b: str) -> bool:
    """v1.34.3 and v1.34.7 are one minor release; v1.34.3 and v1.37.2 are not."""
    return a.split(".")[:2] == b.split(".")[:2]


def _uses_extender_url(config: Mapping[str, Any]) -> bool:
    return any(EXTENDER_URL_PLACEHOLDER in str(e.get("urlPrefix", "")) for e in config.get("extenders") or [])


__all__ = ["BUILD_HINT", "UpstreamBackend", "default_runner", "merge_traces", "pod_uids"]
