"""The kind node's own kube-scheduler (a kubeadm static pod), run with each scenario's config.

The node image's kube-scheduler is the harness's, with the probe plugins (kind-node/build-image.sh),
so on kind the suite drives the cluster's real scheduler the way it drives the local one
(local_scheduler.py): the rendered config goes into the node, kubeadm's static pod manifest is
rewritten to run with it, and the kubelet replaces the pod; readiness is asked of the new scheduler
itself (/readyz). Stopping moves the manifest out of the kubelet's directory.
"""

from __future__ import annotations

import subprocess
import time
from typing import Any, Callable, Mapping

import yaml

from ..core.errors import BackendFailure, BackendUnavailable
from .kube import Kube
from .local_scheduler import LocalScheduler, _ready
from .schedconfig import config_hash
from .state import StateDir, bin_dir

MANIFEST = "/etc/kubernetes/manifests/kube-scheduler.yaml"
KUBEADM_MANIFEST = "/etc/kubernetes/kube-scheduler.kubeadm.yaml"  # kubeadm's, kept to derive ours from
STOPPED = "/etc/kubernetes/kube-scheduler.stopped.yaml"
CONFIG_DIR = "/etc/kubernetes/sched-conformance"  # on the node; mounted at the same path in the pod
KUBECONFIG = "/etc/kubernetes/scheduler.conf"      # kubeadm's kubeconfig for the scheduler, in the pod
HASH_ANNOTATION = "sched-conformance.io/config-hash"
START_TIMEOUT = 90.0
# A kubelet that still runs kube-scheduler this long after its manifest left is restarted (see stop()).
KUBELET_NUDGE_AFTER = 10.0
PORT = 10259  # kube-scheduler's secure port
NAMES = ("kube-scheduler", "kube-scheduler-sc")  # kubeadm's static pod's name, and the alternate one

Runner = Callable[..., "subprocess.CompletedProcess[str]"]


def _run(argv: list[str], stdin: str | None = None) -> "subprocess.CompletedProcess[str]":
    return subprocess.run(argv, input=stdin, capture_output=True, text=True, timeout=120, check=False)


def gateway(network: str = "kind", run: Runner = _run) -> str:
    """The IPv4 address at which containers on Docker network `network` reach this machine."""
    out = run(["docker", "network", "inspect", network, "-f", "{{range .IPAM.Config}}{{.Gateway}} {{end}}"])
    ipv4 = [g for g in out.stdout.split() if "." in g]
    if out.returncode != 0 or not ipv4:
        raise BackendUnavailable(f"no IPv4 gateway on Docker network {network!r} ({out.stderr.strip() or out.stdout.strip()}); "
                                 "is the kind cluster up?")
    return ipv4[0]


def scheduler_manifest(kubeadm: Mapping[str, Any], digest: str) -> dict[str, Any]:
    """kubeadm's static pod, running `--config CONFIG_DIR/config-<digest>.yaml` instead of its flags."""
    pod = yaml.safe_load(yaml.safe_dump(dict(kubeadm)))  # a deep copy
    pod["metadata"].setdefault("annotations", {})[HASH_ANNOTATION] = digest
    container = pod["spec"]["containers"][0]
    # kubeadm's startupProbe (first check after 10 s, then every 10 s) holds readiness back that long
    # at every restart; the readinessProbe (every second) alone says when the new config runs.
    container.pop("startupProbe", None)
    container.pop("livenessProbe", None)
    kept = [a for a in container["command"][1:] if a.split("=", 1)[0] in
            ("--authentication-kubeconfig", "--authorization-kubeconfig")]
    # Serving on the node's address too (host network), so that this machine can ask /readyz directly:
    # the kubelet reports the pod Ready up to ~15 s late here.
    container["command"] = [container["command"][0], *kept, "--bind-address=0.0.0.0",
                            f"--config={CONFIG_DIR}/config-{digest}.yaml"]
    mounts = [m for m in container.get("volumeMounts") or [] if m["name"] != "sched-conformance"]
    container["volumeMounts"] = mounts + [{"name": "sched-conformance", "mountPath": CONFIG_DIR, "readOnly": True}]
    volumes = [v for v in pod["spec"].get("volumes") or [] if v["name"] != "sched-conformance"]
    pod["spec"]["volumes"] = volumes + [{"name": "sched-conformance",
                                         "hostPath": {"path": CONFIG_DIR, "type": "DirectoryOrCreate"}}]
    return pod


class KindScheduler:
    """Same protocol as LocalScheduler (ensure/stop/supports_probes), on kind cluster `cluster`."""

    kubeconfig = KUBECONFIG

    def __init__(self, cluster: str, kube: Kube, *, state: StateDir | None = None, run: Runner = _run,
                 progress: Callable[[str], None] | None = None) -> None:
        self.node = f"{cluster}-control-plane"
        self.kube = kube
        self.state = state or StateDir.default()
        self.run = run
        self.progress = progress or (lambda _msg: None)
        self._digest: str | None = None
        self._ip: str | None = None
        self._turn = -1  # the index in NAMES of our last pod (-1: none yet)

    def _exec(self, *argv: str, stdin: str | None = None) -> str:
        out = self.run(["docker", "exec", "-i", self.node, *argv], stdin)
        if out.returncode != 0:
            raise BackendFailure(f"`docker exec {self.node} {' '.join(argv)}` failed: {out.stderr.strip()[-300:]}")
        return out.stdout

    def _keep_kubeadm_manifest(self) -> None:
        # The first time, kubeadm's manifest is the one in place; keep it before moving or replacing it.
        # (Without that copy, a stopped manifest is kubeadm's: ours are written only once it exists.)
        self._exec("sh", "-c", f"[ -f {KUBEADM_MANIFEST} ] || cp {MANIFEST} {KUBEADM_MANIFEST} 2>/dev/null || "
                               f"cp {STOPPED} {KUBEADM_MANIFEST}")

    def _kubeadm_manifest(self) -> dict[str, Any]:
        self._keep_kubeadm_manifest()
        return yaml.safe_load(self._exec("cat", KUBEADM_MANIFEST))

    def ensure(self, config: Mapping[str, Any], *, force: bool = False) -> bool:
        """Run with `config` (rendered with `kubeconfig`); True when the pod was replaced."""
        digest = config_hash(config)
        if not force and digest == self._digest:
            return False
        self._exec("sh", "-c", f"mkdir -p {CONFIG_DIR} && cat > {CONFIG_DIR}/config-{digest}.yaml",
                   stdin=yaml.safe_dump(dict(config), sort_keys=False))
        manifest = scheduler_manifest(self._kubeadm_manifest(), digest)
        # Removed, then added: a manifest changed in place takes the kubelet ~19 s to act on here.
        self.stop()
        # The kubelet starts a static pod only once the last one of the same name is fully torn down,
        # up to ~15 s after its process exited; alternating two names lets the next one start as soon
        # as the old process is gone (what stop() waits for).
        self._turn = 1 if self._turn == 0 else 0
        manifest["metadata"]["name"] = NAMES[self._turn]
        # Written beside the kubelet's directory and moved in, so the kubelet never reads half a file.
        self._exec("sh", "-c", f"cat > /etc/kubernetes/kube-scheduler.next.yaml && "
                               f"mv /etc/kubernetes/kube-scheduler.next.yaml {MANIFEST} && rm -f {STOPPED}",
                   stdin=yaml.safe_dump(manifest, sort_keys=False))
        self._digest = None
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            # stop() saw the old process go: whatever answers now runs this config.
            if _ready(PORT, self._address()):
                self._digest = digest
                return True
            time.sleep(0.1)
        logs = self.run(["docker", "exec", self.node, "sh", "-c",
                         "tail -q -n 3 /var/log/pods/kube-system_kube-scheduler-*/kube-scheduler/*.log 2>&1"])
        raise BackendFailure(f"the kind node's kube-scheduler did not become Ready with config {digest} in "
                             f"{START_TIMEOUT:.0f} s (config {CONFIG_DIR}/config-{digest}.yaml on {self.node}); "
                             f"{logs.stdout.strip()[-300:]}")

    def stop(self) -> bool:
        self._keep_kubeadm_manifest()
        self._exec("sh", "-c", f"[ ! -f {MANIFEST} ] || mv {MANIFEST} {STOPPED}")
        self._digest = None
        started = time.monotonic()
        nudged = False
        # Until no kube-scheduler process is left in the node (the kubelet kills it).
        while self.run(["docker", "exec", self.node, "pgrep", "-x", "kube-scheduler"]).returncode == 0:
            waited = time.monotonic() - started
            if waited > START_TIMEOUT:
                raise BackendFailure(f"the kind node's kube-scheduler did not stop in {START_TIMEOUT:.0f} s")
            if not nudged and waited > KUBELET_NUDGE_AFTER:
                # kubeadm restarts the kubelet as `kind create cluster` ends; a manifest removed while it
                # starts can go unnoticed, and the old pod then runs for good (seen once in CI). A restarted
                # kubelet reads the directory afresh and kills the pod it has no manifest for.
                self.progress("the kubelet kept kube-scheduler running without its manifest; restarting it")
                self._exec("systemctl", "restart", "kubelet")
                nudged = True
            time.sleep(0.1)
        return True

    def _address(self) -> str:
        if self._ip is None:
            out = self.run(["docker", "inspect", "-f", "{{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}",
                            self.node])
            ips = out.stdout.split()
            if out.returncode != 0 or not ips:
                raise BackendFailure(f"no IP address for kind node {self.node}: {out.stderr.strip()}")
            self._ip = ips[0]
        return self._ip

    def restore(self) -> None:
        """Put kubeadm's own scheduler back (the cluster as kind made it)."""
        self._exec("sh", "-c", f"if [ -f {KUBEADM_MANIFEST} ]; then cp {KUBEADM_MANIFEST} {MANIFEST}; "
                               f"elif [ -f {STOPPED} ]; then mv {STOPPED} {MANIFEST}; fi; rm -f {STOPPED}")
        self._digest = None
        self._turn = -1

    def supports_probes(self) -> bool:
        # The node image's scheduler is harness/bin's kube-scheduler (build-image.sh copies it in).
        return LocalScheduler(self.state, bin_dir() / "kube-scheduler").supports_probes()


__all__ = ["KindScheduler", "gateway", "scheduler_manifest"]
