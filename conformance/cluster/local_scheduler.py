"""The local kube-scheduler process: (re)started only when its rendered config changes."""

from __future__ import annotations

import json
import ssl
import subprocess
import threading
import urllib.request
from pathlib import Path
from typing import Any, Mapping

import yaml

from ..core.errors import BackendFailure, BackendUnavailable
from . import processes
from .schedconfig import config_hash
from .state import StateDir

NAME = "kube-scheduler"
START_TIMEOUT = 30.0
PROBE_CHECK = "Probe0"
_INSECURE = ssl._create_unverified_context()  # the scheduler's in-memory self-signed cert, on loopback


def _ready(port: int, host: str = "127.0.0.1") -> bool:
    try:
        with urllib.request.urlopen(f"https://{host}:{port}/readyz", timeout=1, context=_INSECURE) as resp:
            return resp.status == 200
    except OSError:
        return False


class LocalScheduler:
    """Its pid, port and config hash live in the state dir's state.json under `kube-scheduler`."""

    def __init__(self, state: StateDir, binary: Path, *, tied: bool = False) -> None:
        self.state = state
        self.tied = tied
        self.binary = binary
        self.log = state.log(NAME)

    def _record(self) -> dict[str, Any]:
        return dict(self.state.read().get(NAME) or {})

    def running(self) -> bool:
        return processes.alive(self._record().get("pid"), self.binary)

    def ensure(self, config: Mapping[str, Any], *, force: bool = False) -> bool:
        """Run with `config` (already rendered); True when the process was (re)started.

        `force` restarts even an unchanged scheduler, so that it lists every existing pod at start
        and queues them together, as the reference does with a scenario's workload.
        """
        digest = config_hash(config)
        with self.state.lock():
            rec = self._record()
            # Every kube-scheduler binary has the same name: a different build (the user's) restarts it.
            same_binary = rec.get("binary", str(self.binary)) == str(self.binary)
            if not force and same_binary and rec.get("configHash") == digest \
                    and processes.alive(rec.get("pid"), self.binary):
                return False
            self._stop_locked()
            path = self.state.scheduler_dir / f"config-{digest}.yaml"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(yaml.safe_dump(dict(config), sort_keys=False))
            port = processes.free_port()
            pid = processes.spawn([str(self.binary), "--config", str(path), "--secure-port", str(port),
                                   "--bind-address", "127.0.0.1"], self.log, tied=self.tied)
            self._save({"pid": pid, "port": port, "configHash": digest, "config": str(path),
                        "binary": str(self.binary)})
            try:
                processes.wait_until(lambda: _ready(port), pid=pid, binary=str(self.binary), what=NAME,
                                     log=self.log, timeout=START_TIMEOUT)
            except BackendUnavailable as exc:
                processes.stop(pid, self.binary, grace=1.0)
                self._save(None)
                raise BackendFailure(f"{exc} (config {path})") from None
        return True

    def stop(self) -> bool:
        with self.state.lock():
            return self._stop_locked()

    def uses(self, kubeconfig: str) -> bool:
        """Whether the running scheduler's config connects through `kubeconfig`."""
        try:
            config = yaml.safe_load(Path(self._record()["config"]).read_text())
            return self.running() and config["clientConnection"]["kubeconfig"] == kubeconfig
        except (OSError, KeyError, TypeError, yaml.YAMLError):
            return False

    def kill(self) -> bool:
        """SIGKILL (a restart fault: the old scheduler makes no further call, not even its shutdown's)."""
        with self.state.lock():
            rec = self._record()
            killed = processes.stop(rec.get("pid"), self.binary, grace=None)
            if rec:
                self._save(None)
            return killed

    def _stop_locked(self) -> bool:
        rec = self._record()
        stopped = processes.stop(rec.get("pid"), self.binary, grace=5.0)
        if rec:
            self._save(None)
        return stopped

    def _save(self, rec: dict[str, Any] | None) -> None:
        data = self.state.read()
        if rec is None:
            data.pop(NAME, None)
        else:
            data[NAME] = rec
        self.state.write(data)

    def supports_probes(self) -> bool:
        """Does this binary know the probe plugins? Cached per binary (path, size, mtime)."""
        st = self.binary.stat()
        key = f"{self.binary}:{st.st_size}:{int(st.st_mtime)}"
        cache = self.state.root / "probe-check.json"
        try:
            cached = json.loads(cache.read_text())
            if cached.get("key") == key:
                return bool(cached["probes"])
        except (OSError, ValueError, KeyError):
            pass
        result = probe_check(self.binary, self.state.scheduler_dir)
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_text(json.dumps({"key": key, "probes": result}))
        return result


def probe_check(binary: Path, workdir: Path, timeout: float = 20.0) -> bool:
    """Start `binary` with a config that enables Probe0 against an unreachable server.

    A binary without probes exits at once with `PreFilterPlugin "Probe0" does not exist`; one with
    probes builds its profiles and logs "Starting Kubernetes Scheduler" before it would need the
    server, and is stopped there.
    """
    workdir.mkdir(parents=True, exist_ok=True)
    kubeconfig = workdir / "probe-check.kubeconfig"
    kubeconfig.write_text(yaml.safe_dump({
        "apiVersion": "v1", "kind": "Config", "current-context": "none",
        "clusters": [{"name": "none", "cluster": {"server": "https://127.0.0.1:1"}}],
        "users": [{"name": "none", "user": {}}],
        "contexts": [{"name": "none", "context": {"cluster": "none", "user": "none"}}]}))
    config = workdir / "probe-check.yaml"
    config.write_text(yaml.safe_dump({
        "apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
        "clientConnection": {"kubeconfig": str(kubeconfig)}, "leaderElection": {"leaderElect": False},
        "profiles": [{"schedulerName": "probe-check",
                      "plugins": {"preFilter": {"enabled": [{"name": PROBE_CHECK}]}}}]}))
    proc = subprocess.Popen([str(binary), "--config", str(config), "--secure-port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    # A hung binary prints nothing more; the timer ends the read loop by killing it.
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line.strip())
            if "Starting Kubernetes Scheduler" in line:
                return True
            if PROBE_CHECK in line and "does not exist" in line:
                return False
    finally:
        timer.cancel()
        proc.kill()
        proc.wait()
    raise BackendUnavailable(f"{binary} neither accepted nor rejected plugin {PROBE_CHECK}: "
                             f"{' | '.join(lines[-3:]) or 'no output'}; check that it is a kube-scheduler")


__all__ = ["LocalScheduler", "probe_check"]
