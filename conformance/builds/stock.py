"""The stock binaries (no plugins of the user's): built by harness/build.sh beside the sources on first use.

$SCHED_CONFORMANCE_BIN, when set, is a directory of binaries built elsewhere and is taken as it is.
Otherwise a missing binary is built now (progress on the progress sink); one that exists is used, except
the plugin driver, which build.sh brings up to date first (its stamp makes that a no-op when nothing
changed), since a developer edits the driver with the contracts.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from .. import paths
from ..core.errors import BackendUnavailable
from .script import run_build_script

# build.sh's flags that make each binary.
_FLAGS = {
    "runner": (), "kube-scheduler": (), "vocabulary": ("--no-scheduler",),
    "driver": ("--no-scheduler", "--driver"), "driver-race": ("--no-scheduler", "--race-driver"),
    "kube-apiserver": ("--no-scheduler", "--control-plane"), "etcd": ("--no-scheduler", "--control-plane"),
    "faultproxy": ("--no-scheduler", "--control-plane"),
    **{name: ("--no-scheduler", "--kind") for name in ("kind", "kubectl", "kubelet", "kubeadm",
                                                        "kube-controller-manager", "containerd", "ctr",
                                                        "containerd-shim-runc-v2", "pause")},
}
_NEEDS = {"driver-race": "Go and gcc (-race needs cgo)"}


def stock_binary(name: str, *, refresh: bool = False) -> Path:
    """The stock binary `name`, built now if it is missing (or, with `refresh`, out of date)."""
    given = os.environ.get(paths.BIN_ENV)
    if given:
        binary = Path(given) / name
        if not executable(binary):
            command = " ".join(["harness/build.sh", *_FLAGS[name]])
            raise BackendUnavailable(f"${paths.BIN_ENV} is {given}, which has no executable {name}; build it there "
                                     f"(`{command} --out DIR`) or unset ${paths.BIN_ENV} to let the suite build it")
        return binary
    binary = paths.stock_bin() / name
    if executable(binary) and (not refresh or shutil.which("go") is None):
        return binary
    build_stock(*_FLAGS[name], what=name)
    if not executable(binary):
        raise BackendUnavailable(f"harness/build.sh {' '.join(_FLAGS[name])} ended without making {binary}")
    return binary


def build_stock(*flags: str, what: str = "the stock binaries") -> None:
    """harness/build.sh `flags` in the sources' harness, with progress; one line naming the cause on failure."""
    needs = _NEEDS.get(what, "Go")
    if shutil.which("go") is None:
        raise BackendUnavailable(f"building {what} needs {needs}: `go` is not on PATH; install Go "
                                 f"(https://go.dev/dl) or point ${paths.BIN_ENV} at a directory of prebuilt binaries")
    script = paths.harness() / "build.sh"
    code, output = run_build_script(["bash", script, *flags], prefix=f"sched-conformance build {what}")
    if code != 0:
        errors = [line.strip() for line in output.splitlines()
                  if line.strip() and not line.startswith(("[build.sh", "go: downloading"))]
        cause = next((e for e in errors if ".go:" in e), errors[-1] if errors else "(no output)")
        raise BackendUnavailable(f"building {what} failed: {cause}; run `bash {script} {' '.join(flags)}` to see "
                                 f"the whole output (needs {needs})")


def executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


__all__ = ["build_stock", "executable", "stock_binary"]
