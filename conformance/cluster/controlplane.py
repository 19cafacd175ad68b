"""`sched-conformance cluster up|down|status`: etcd + kube-apiserver + kube-scheduler on 127.0.0.1.

Findings from harness/README.md that shape the flags: on loopback the apiserver needs
`--endpoint-reconciler-type none`; it must stop before etcd (it ignores SIGTERM for a long time once
etcd is gone). No kube-controller-manager runs, so nobody creates ServiceAccounts or finalizes
namespaces: the cluster backend does both itself.
"""

from __future__ import annotations

import shutil
import ssl
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ..core.errors import BackendUnavailable
from . import kubeconfig, pki, processes
from .local_scheduler import LocalScheduler
from .schedconfig import render
from .state import StateDir, bin_dir, find_binary

ETCD, APISERVER, SCHEDULER = "etcd", "kube-apiserver", "kube-scheduler"
START_TIMEOUT = 60.0
# DefaultTolerationSeconds adds NoExecute tolerations to every pod, which the reference does not;
# TaintNodesByCondition stays on so the backend's removal of the not-ready taint runs here as on kind.
DISABLED_ADMISSION = "DefaultTolerationSeconds"

Progress = Callable[[str], None]


@dataclass(frozen=True)
class ComponentStatus:
    name: str
    pid: int | None
    port: int | None
    running: bool
    log: Path

    def line(self) -> str:
        where = f"pid {self.pid}, 127.0.0.1:{self.port}" if self.pid else "never started"
        state = "running" if self.running else ("crashed or stopped" if self.pid else "not running")
        return f"{self.name:<15} {state:<19} ({where}) log {self.log}"


@dataclass(frozen=True)
class Status:
    components: tuple[ComponentStatus, ...]
    ready: bool
    kubeconfig: Path
    server: str
    start_seconds: float | None

    def lines(self) -> list[str]:
        head = (f"control plane ready at {self.server}; kubeconfig {self.kubeconfig}" if self.ready
                else "control plane not running")
        return [head, *(c.line() for c in self.components)]


class ControlPlane:
    def __init__(self, state: StateDir | None = None, *, binaries: str | Path | None = None,
                 apiserver_port: int | None = None, progress: Progress | None = None, tied: bool = False,
                 scheduler_binary: str | Path | None = None) -> None:
        """`tied`: the processes die with this Python process (for test sessions); `cluster up` leaves
        them running. `scheduler_binary`: a kube-scheduler other than the one in the binaries
        directory (the user's build, conformance/build)."""
        self.state = state or StateDir.default()
        self.tied = tied
        self.bin_dir = bin_dir(binaries)
        self.scheduler_binary = Path(scheduler_binary) if scheduler_binary else None
        self.apiserver_port = apiserver_port
        self.progress = progress or (lambda _msg: None)

    # --- what clients need --------------------------------------------------------------------

    @property
    def kubeconfig(self) -> Path:
        return self.state.kubeconfig

    @property
    def ca_file(self) -> Path:
        return self.state.pki / "ca.crt"

    def scheduler(self) -> LocalScheduler:
        return LocalScheduler(self.state, self.scheduler_binary or find_binary(SCHEDULER, self.bin_dir), tied=self.tied)

    # --- lifecycle ------------------------------------------------------------------------------

    def up(self, *, start_scheduler: bool = True) -> Status:
        """Start what is not running; a second `up` finds everything running and does nothing."""
        with self.state.lock():
            data = self.state.read()
            if data and self._api_alive(data) and self._ready(data):
                self.progress(f"already running at {data['server']}")
            else:
                if data:
                    self.progress("cleaning up after an earlier control plane that is no longer running")
                    self._stop_all(data)
                self._start()
        if start_scheduler:
            sched = self.scheduler()
            if not sched.running():
                sched.ensure(render(None, kubeconfig=str(self.kubeconfig)))
                self.progress("kube-scheduler ready (v1 default config)")
        return self.status()

    def down(self) -> list[str]:
        """Stop the scheduler, then the apiserver, then etcd; fine when nothing (or only part) runs."""
        with self.state.lock():
            data = self.state.read()
            messages = self._stop_all(data)
        return messages or ["control plane not running"]

    def status(self) -> Status:
        data = self.state.read()
        comps = []
        for name in (ETCD, APISERVER, SCHEDULER):
            rec = data.get(name) or {}
            comps.append(ComponentStatus(name, rec.get("pid"), rec.get("port"),
                                         processes.alive(rec.get("pid"), name), self.state.log(name)))
        ready = bool(data) and self._api_alive(data) and self._ready(data)
        return Status(tuple(comps), ready, self.state.kubeconfig, data.get("server", ""), data.get("startSeconds"))

    def running(self) -> bool:
        data = self.state.read()
        return bool(data) and self._api_alive(data) and self._ready(data)

    # --- internals ------------------------------------------------------------------------------

    def _api_alive(self, data: dict[str, Any]) -> bool:
        return all(processes.alive((data.get(n) or {}).get("pid"), n) for n in (ETCD, APISERVER))

    def _ready(self, data: dict[str, Any]) -> bool:
        return _get_ok(data.get("server", "") + "/readyz", data.get("token", ""), self.ca_file)

    def _stop_all(self, data: dict[str, Any]) -> list[str]:
        messages = []
        for name, grace in ((SCHEDULER, 5.0), (APISERVER, 10.0), (ETCD, 10.0)):
            pid = (data.get(name) or {}).get("pid")
            if processes.stop(pid, name, grace):
                messages.append(f"stopped {name} (pid {pid})")
        self.state.clear()
        return messages

    def _start(self) -> None:
        etcd_bin = find_binary(ETCD, self.bin_dir)
        api_bin = find_binary(APISERVER, self.bin_dir)
        find_binary(SCHEDULER, self.bin_dir)
        if self.apiserver_port and processes.port_taken(self.apiserver_port):
            raise BackendUnavailable(f"port 127.0.0.1:{self.apiserver_port} is taken; pass another --port "
                                     "or stop what listens there")
        begin = time.monotonic()
        self.state.prepare()
        shutil.rmtree(self.state.etcd_data, ignore_errors=True)
        keys = pki.generate()
        files = {"ca.crt": keys.ca_cert, "apiserver.crt": keys.serving_cert, "apiserver.key": keys.serving_key,
                 "sa.pub": keys.sa_public, "sa.key": keys.sa_private,
                 "tokens.csv": pki.token_auth_csv(keys.token).encode()}
        for fname, content in files.items():
            (self.state.pki / fname).write_bytes(content)
            (self.state.pki / fname).chmod(0o600)
        client, peer = processes.free_port(), processes.free_port()
        api_port = self.apiserver_port or processes.free_port()
        server = f"https://127.0.0.1:{api_port}"
        kubeconfig.write(self.state.kubeconfig, kubeconfig.build(server, keys.ca_cert, keys.token))
        data: dict[str, Any] = {"server": server, "token": keys.token}

        log = self.state.log(ETCD)
        pid = processes.spawn(_etcd_args(etcd_bin, self.state.etcd_data, client, peer), log, tied=self.tied)
        data[ETCD] = {"pid": pid, "port": client}
        self.state.write(data)
        waited = processes.wait_until(lambda: _get_ok(f"http://127.0.0.1:{client}/health", "", None), pid=pid,
                                      binary=ETCD, what=ETCD, log=log, timeout=START_TIMEOUT)
        self.progress(f"etcd ready on 127.0.0.1:{client} ({waited:.1f} s)")

        log = self.state.log(APISERVER)
        pid = processes.spawn(_apiserver_args(api_bin, self.state.pki, client, api_port), log, tied=self.tied)
        data[APISERVER] = {"pid": pid, "port": api_port}
        self.state.write(data)
        waited = processes.wait_until(lambda: _get_ok(server + "/readyz", keys.token, self.ca_file), pid=pid,
                                      binary=APISERVER, what=APISERVER, log=log, timeout=START_TIMEOUT)
        data["startSeconds"] = round(time.monotonic() - begin, 2)
        self.state.write(data)
        self.progress(f"kube-apiserver ready at {server} ({waited:.1f} s); kubeconfig {self.state.kubeconfig}")


def _etcd_args(binary: Path, data_dir: Path, client: int, peer: int) -> list[str]:
    return [str(binary), "--name", "default", "--data-dir", str(data_dir),
            "--listen-client-urls", f"http://127.0.0.1:{client}", "--advertise-client-urls", f"http://127.0.0.1:{client}",
            "--listen-peer-urls", f"http://127.0.0.1:{peer}", "--initial-advertise-peer-urls", f"http://127.0.0.1:{peer}",
            "--initial-cluster", f"default=http://127.0.0.1:{peer}",
            "--listen-metrics-urls", "", "--unsafe-no-fsync", "--log-level", "warn"]


def _apiserver_args(binary: Path, pki_dir: Path, etcd_port: int, port: int) -> list[str]:
    return [str(binary), "--etcd-servers", f"http://127.0.0.1:{etcd_port}",
            "--bind-address", "127.0.0.1", "--advertise-address", "127.0.0.1", "--secure-port", str(port),
            "--endpoint-reconciler-type", "none",
            "--tls-cert-file", str(pki_dir / "apiserver.crt"), "--tls-private-key-file", str(pki_dir / "apiserver.key"),
            "--token-auth-file", str(pki_dir / "tokens.csv"), "--authorization-mode", "AlwaysAllow",
            "--service-account-issuer", f"https://127.0.0.1:{port}",
            "--service-account-key-file", str(pki_dir / "sa.pub"),
            "--service-account-signing-key-file", str(pki_dir / "sa.key"),
            "--service-cluster-ip-range", "10.0.0.0/24", "--cert-dir", str(pki_dir),
            "--disable-admission-plugins", DISABLED_ADMISSION, "--profiling=false"]


def _get_ok(url: str, token: str, ca_file: Path | None) -> bool:
    if not url.startswith("http"):
        return False
    req = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"} if token else {})
    context = ssl.create_default_context(cafile=str(ca_file)) if ca_file else None
    try:
        with urllib.request.urlopen(req, timeout=2, context=context) as resp:
            return resp.status == 200
    except (OSError, ssl.SSLError):
        return False


__all__ = ["APISERVER", "ETCD", "SCHEDULER", "ComponentStatus", "ControlPlane", "Status"]
