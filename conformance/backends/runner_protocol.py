"""The `harness/bin/runner` process and its JSON-lines protocol (documented in harness/cmd/runner/main.go).

One request per line on stdin, one response per line on stdout, matched by `id`. A reader thread
answers waiting callers in any order, so an extender's `bind` request can be answered while a
scenario request is still running. stderr is drained into a bounded tail for error messages.
"""

from __future__ import annotations

import collections
import itertools
import json
import subprocess
import threading
from pathlib import Path
from typing import IO, Any, Sequence

from ..core.errors import BackendFailure

STDERR_TAIL_LINES = 40
# A Go panic's message and the first frames of the panicking goroutine.
PANIC_LINES = 12


class RunnerProcess:
    """A started runner; `request` is safe from several threads."""

    def __init__(self, binary: Path, args: Sequence[str] = ()) -> None:
        self.binary = binary
        from ..builds.coverage import runner_args
        self._proc = subprocess.Popen([str(binary), *args, *runner_args(binary)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1)
        self._ids = itertools.count(1)
        self._write_lock = threading.Lock()
        self._lock = threading.Lock()
        self._waiting: dict[int, _Slot] = {}
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_TAIL_LINES)
        self._panic: list[str] = []
        assert self._proc.stdout is not None and self._proc.stderr is not None
        self._threads = [threading.Thread(target=self._read_stdout, args=(self._proc.stdout,), daemon=True,
                                          name="runner-stdout"),
                         threading.Thread(target=self._read_stderr, args=(self._proc.stderr,), daemon=True,
                                          name="runner-stderr")]
        for t in self._threads:
            t.start()

    @property
    def pid(self) -> int:
        return self._proc.pid

    @property
    def alive(self) -> bool:
        return self._proc.poll() is None

    def stderr_tail(self, lines: int = 8) -> str:
        """The Go panic, when the runner panicked; else the last lines of its stderr."""
        with self._lock:
            tail = list(self._panic) or list(self._stderr)[-lines:]
        return " | ".join(line.strip() for line in tail if line.strip()) or "(empty)"

    def request(self, payload: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send `payload` with a fresh id and wait for its response; BackendFailure if the runner dies or stalls."""
        rid = next(self._ids)
        slot = _Slot()
        with self._lock:
            self._waiting[rid] = slot
        line = json.dumps({"id": rid, **payload}) + "\n"
        try:
            with self._write_lock:
                assert self._proc.stdin is not None
                self._proc.stdin.write(line)
                self._proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            self._forget(rid)
            raise self._died("while receiving a request") from None
        if not slot.event.wait(timeout):
            self._forget(rid)
            if not self.alive:
                raise self._died("before answering")
            self.close(kill=True)
            raise BackendFailure(f"the upstream runner did not answer within {timeout:g}s and was killed; "
                                 f"stderr tail: {self.stderr_tail()}")
        if slot.response is None:
            raise self._died("before answering")
        return slot.response

    def close(self, *, kill: bool = False) -> None:
        """Close stdin (the runner finishes and exits), or kill it; wait for it either way."""
        if self._proc.poll() is None:
            try:
                if kill:
                    self._proc.kill()
                else:
                    assert self._proc.stdin is not None
                    self._proc.stdin.close()
                self._proc.wait(timeout=30)
            except (OSError, subprocess.TimeoutExpired):
                self._proc.kill()
                self._proc.wait()
        for t in self._threads:
            t.join(timeout=5)
        for stream in (self._proc.stdin, self._proc.stdout, self._proc.stderr):
            if stream is not None and not stream.closed:
                try:
                    stream.close()
                except OSError:
                    pass

    # --- internals ------------------------------------------------------------------------------

    def _died(self, when: str) -> BackendFailure:
        code = self._proc.poll()
        if code is None:
            self._proc.wait(timeout=5)
            code = self._proc.returncode
        for t in self._threads:
            t.join(timeout=5)
        return BackendFailure(f"the upstream runner exited with status {code} {when}; it restarts for the next "
                              f"scenario; stderr tail: {self.stderr_tail()}")

    def _forget(self, rid: int) -> None:
        with self._lock:
            self._waiting.pop(rid, None)

    def _read_stdout(self, stream: IO[str]) -> None:
        for line in stream:
            try:
                response = json.loads(line)
                rid = response["id"]
            except (ValueError, KeyError, TypeError):
                with self._lock:
                    self._stderr.append(f"(unreadable stdout line) {line[:200]}")
                continue
            with self._lock:
                slot = self._waiting.pop(rid, None)
            if slot is not None:
                slot.response = response
                slot.event.set()
        with self._lock:  # EOF: the runner is gone; wake everyone still waiting
            slots, self._waiting = list(self._waiting.values()), {}
        for slot in slots:
            slot.event.set()

    def _read_stderr(self, stream: IO[str]) -> None:
        for line in stream:
            with self._lock:
                self._stderr.append(line)
                if self._panic and len(self._panic) < PANIC_LINES:
                    self._panic.append(line)
                elif not self._panic and line.startswith(("panic: ", "fatal error: ")):
                    self._panic.append(line)


class _Slot:
    __slots__ = ("event", "response")

    def __init__(self) -> None:
        self.event = threading.Event()
        self.response: dict[str, Any] | None = None


__all__ = ["RunnerProcess", "STDERR_TAIL_LINES"]
