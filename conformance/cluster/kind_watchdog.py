"""Delete a kind cluster when the process that created it dies, however it dies.

A kind cluster is a set of Docker containers: nothing ties them to the test session or the command
that made them. The watchdog is a small process in its own session (Ctrl-C in the terminal does
not reach it) that blocks reading a pipe whose only writer is this process; when this process
exits, is killed, or crashes, the pipe closes and the watchdog runs `kind delete cluster`.
"""

from __future__ import annotations

import subprocess
import sys

_CODE = """
import subprocess, sys
sys.stdin.buffer.read()  # returns at EOF: the creator has exited
subprocess.run([sys.argv[1], "delete", "cluster", "--name", sys.argv[2]], capture_output=True, timeout=300)
"""

_alive: list["Watchdog"] = []  # keeps the pipes open for as long as this process lives


class Watchdog:
    def __init__(self, proc: "subprocess.Popen[bytes]") -> None:
        self.proc = proc

    @classmethod
    def start(cls, name: str, kind: str) -> "Watchdog":
        proc = subprocess.Popen([sys.executable, "-c", _CODE, kind, name], stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        dog = cls(proc)
        _alive.append(dog)
        return dog

    def fire(self, timeout: float = 300) -> None:
        """Delete the cluster now (closing the pipe) and wait until it is gone."""
        if self in _alive:
            _alive.remove(self)
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            self.proc.stdin.close()
        self.proc.wait(timeout)


__all__ = ["Watchdog"]
