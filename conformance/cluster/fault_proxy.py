"""The fault-injecting proxy between the local kube-scheduler and kube-apiserver (harness/cmd/faultproxy).

One per backend, on 127.0.0.1, tied to this process (it dies with it). The scheduler's kubeconfig points at it
(plain HTTP on loopback, no credentials); it forwards to the API server with the control plane's token and
injects the faults armed under /_faults/ (conformance/cluster/faults.py says which).
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Mapping

from ..core.errors import BackendFailure, BackendUnavailable
from . import kubeconfig, processes
from .state import StateDir, find_binary

NAME = "faultproxy"
START_TIMEOUT = 10.0
CONTROL = "/_faults/"


class FaultProxy:
    def __init__(self, state: StateDir, binaries: Path, server: str, token: str, ca_file: Path) -> None:
        self.state = state
        self.binary = find_binary(NAME, binaries)
        self.server, self.token, self.ca_file = server, token, ca_file
        self.pid: int | None = None
        self.port = 0
        self.log = state.log(NAME)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def kubeconfig(self) -> Path:
        """The scheduler's kubeconfig: the proxy, no credentials (the proxy adds the token)."""
        return self.state.scheduler_dir / f"proxy-{self.port}.kubeconfig"

    def start(self) -> "FaultProxy":
        token_file = self.state.pki / f"proxy-{os.getpid()}.token"
        token_file.parent.mkdir(parents=True, exist_ok=True)
        with os.fdopen(os.open(token_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as fh:
            fh.write(self.token)
        self.port = processes.free_port()
        argv = [str(self.binary), "--listen", f"127.0.0.1:{self.port}", "--upstream", self.server,
                "--ca", str(self.ca_file), "--token-file", str(token_file)]
        self.pid = processes.spawn(argv, self.log, tied=True)
        try:
            processes.wait_until(self._healthy, pid=self.pid, binary=str(self.binary), what=NAME,
                                 log=self.log, timeout=START_TIMEOUT)
        except BackendUnavailable:
            self.stop()
            raise
        finally:
            token_file.unlink(missing_ok=True)  # read at start; the proxy keeps it in memory
        kubeconfig.write(self.kubeconfig, {
            "apiVersion": "v1", "kind": "Config", "current-context": NAME, "preferences": {},
            "clusters": [{"name": NAME, "cluster": {"server": self.url}}],
            "users": [{"name": NAME, "user": {}}],
            "contexts": [{"name": NAME, "context": {"cluster": NAME, "user": NAME}}]})
        return self

    def stop(self) -> None:
        processes.stop(self.pid, self.binary, grace=2.0)
        self.pid = None
        if self.port:
            self.kubeconfig.unlink(missing_ok=True)

    def running(self) -> bool:
        return processes.alive(self.pid, self.binary)

    # --- control ------------------------------------------------------------------------------

    def reset(self) -> None:
        """Disarm every fault, forget the firings, lift a fence."""
        self._call("POST", "reset")

    def arm(self, fault: Mapping[str, Any]) -> None:
        self._call("POST", "arm", fault)

    def resume(self) -> None:
        """The old scheduler is gone: let the next one's calls through."""
        self._call("POST", "resume")

    def firings(self, after: int, wait: float = 0.0) -> list[dict[str, Any]]:
        """Firings from number `after` on, waiting up to `wait` seconds for one; `at` is Unix seconds."""
        return list(self._call("GET", f"firings?after={after}&wait={wait:g}", timeout=wait + 5.0) or [])

    def _healthy(self) -> bool:
        try:
            self._call("GET", "healthz", timeout=1.0)
            return True
        except BackendFailure:
            return False

    def _call(self, method: str, what: str, body: Any = None, timeout: float = 5.0) -> Any:
        data = json.dumps(body).encode() if body is not None else (b"" if method == "POST" else None)
        req = urllib.request.Request(self.url + CONTROL + what, data=data, method=method)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                text = resp.read().decode()
        except (OSError, urllib.error.URLError) as exc:
            raise BackendFailure(f"the fault proxy at {self.url} did not answer {method} {CONTROL}{what} "
                                 f"({exc}); see {self.log}") from None
        return json.loads(text) if text.strip().startswith(("[", "{")) else text


__all__ = ["FaultProxy"]
