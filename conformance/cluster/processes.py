"""Child processes of the local control plane: start detached with a log, find, stop, wait for ready."""

from __future__ import annotations

import errno
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Callable, Sequence

from ..core.errors import BackendUnavailable


def free_port() -> int:
    """A port on 127.0.0.1 that nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_taken(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError as exc:
            return exc.errno == errno.EADDRINUSE
    return False


# Children this process started: for them poll() is the truth, with no /proc race during exec.
_children: dict[int, tuple[subprocess.Popen, str]] = {}


def spawn(argv: Sequence[str], log: Path, *, tied: bool = False) -> int:
    """Start `argv` in its own session (Ctrl-C in the terminal does not reach it; we stop it ourselves).

    `tied`: the child is killed when this process dies, however it dies (a test session killed by a
    timeout must not leave a control plane behind). Uses `setpriv --pdeathsig` where it exists.
    """
    log.parent.mkdir(parents=True, exist_ok=True)
    wrapper = ["setpriv", "--pdeathsig", "KILL", "--"] if tied and shutil.which("setpriv") else []
    with open(log, "ab") as out:
        out.write(f"--- {time.strftime('%Y-%m-%dT%H:%M:%S')} {' '.join(argv)}\n".encode())
        out.flush()
        proc = subprocess.Popen(wrapper + list(argv), stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True, close_fds=True)
    _children[proc.pid] = (proc, Path(argv[0]).name)
    return proc.pid


def _reap(pid: int) -> None:
    """Collect our own dead child so that it does not linger as a zombie that still looks alive."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass


def alive(pid: int | None, binary: str | os.PathLike[str] | None = None) -> bool:
    """`pid` runs and, where /proc tells, runs `binary` (a recycled pid is not ours)."""
    if not pid:
        return False
    if pid in _children:
        proc, name = _children[pid]
        return proc.poll() is None and (binary is None or Path(binary).name == name)
    _reap(pid)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return False
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        comm, rest = stat.split("(", 1)[1].rsplit(")", 1)
        if rest.split()[0] == "Z":
            return False
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except (OSError, IndexError, ValueError):
        return True
    if binary is None:
        return True
    # comm (15 characters at most) covers the moment during exec when cmdline is still empty; any
    # word of cmdline covers wrappers (`setpriv --pdeathsig KILL -- /path/etcd`, `/bin/sh /path/etcd`).
    name = Path(binary).name
    return comm == name[:15] or name in {Path(a.decode(errors="replace")).name for a in argv}


def stop(pid: int | None, binary: str | os.PathLike[str] | None, grace: float | None) -> bool:
    """SIGTERM, then SIGKILL after `grace` seconds (None: SIGKILL at once, no shutdown of its own); True
    when a running process was stopped."""
    if not alive(pid, binary):
        return False
    assert pid is not None
    steps = ((signal.SIGTERM, grace),) if grace is not None else ()
    for sig, wait in (*steps, (signal.SIGKILL, 10.0)):
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            return True
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if not alive(pid, binary):
                return True
            time.sleep(0.05)
    return not alive(pid, binary)


def last_lines(log: Path, n: int = 3) -> str:
    try:
        lines = [ln.strip() for ln in log.read_text(errors="replace").splitlines() if ln.strip()]
    except OSError:
        return ""
    return " | ".join(lines[-n:])


def wait_until(ready: Callable[[], bool], *, pid: int, binary: str, what: str, log: Path,
               timeout: float, interval: float = 0.05) -> float:
    """Poll `ready` until it is true; fail early if the process dies. Returns the seconds waited."""
    start = time.monotonic()
    while True:
        if ready():
            return time.monotonic() - start
        if not alive(pid, binary):
            tail = last_lines(log)
            hint = _hint(tail)
            raise BackendUnavailable(f"{what} exited during start{hint}: {tail or 'no output'}; see {log}")
        if time.monotonic() - start > timeout:
            raise BackendUnavailable(f"{what} did not become ready in {timeout:.0f} s; see {log}")
        time.sleep(interval)


def _hint(tail: str) -> str:
    if "address already in use" in tail:
        return " (a port it needs is taken; `sched-conformance cluster down`, or free the port)"
    return ""


__all__ = ["alive", "free_port", "last_lines", "port_taken", "spawn", "stop", "wait_until"]
