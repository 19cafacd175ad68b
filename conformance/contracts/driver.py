"""The plugin driver process (harness/driver): one plugin of a build's scheduler, called directly over JSON lines."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import threading
from collections import deque
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from ..core.errors import ConformanceError


class DriverError(ConformanceError):
    """The driver refused a request (bad config, unknown plugin, a call it cannot make); one line."""


class DriverCrash(ConformanceError):
    """The driver process died; `output` is the end of its stderr (a race report, a fatal error)."""

    def __init__(self, message: str, output: str) -> None:
        super().__init__(message)
        self.output = output


class UnknownPlugin(DriverError):
    def __init__(self, message: str, plugins: Sequence[str]) -> None:
        super().__init__(message)
        self.plugins = tuple(plugins)


# The race detector stops the process at the first race, so a report is tied to the request that raced. Its default
# second of sleep at exit (for goroutines still reporting) would only delay closing: the driver exits when no call runs.
RACE_ENV = {"GORACE": "halt_on_error=1 exitcode=66 atexit_sleep_ms=0"}
STDERR_LINES = 200


class PluginDriver:
    """One driver process with one plugin initialised (`start`); `run(calls)` returns one result per call.

    `watch`: the driver digests each call's inputs before and after it and names those it changed (`mutated`);
    that is most of a call's cost, so properties that do not read `mutated` turn it off (`watching`)."""

    def __init__(self, binary: Path, *, config: Mapping[str, Any] | None, plugin: str, race: bool = False) -> None:
        self.binary, self.config, self.plugin, self.race = Path(binary), config, plugin, race
        self._proc: subprocess.Popen | None = None
        self._drainer: threading.Thread | None = None
        self._stderr: deque[str] = deque(maxlen=STDERR_LINES)
        self._id = 0
        self.info: dict[str, Any] = {}
        self.watch = True

    @property
    def points(self) -> frozenset[str]:
        return frozenset(self.info.get("points") or ())

    def start(self) -> PluginDriver:
        from ..builds.coverage import driver_env
        env = {**os.environ, **(RACE_ENV if self.race else {}), **driver_env(self.binary)}
        self._proc = subprocess.Popen([str(self.binary)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, bufsize=1, env=env)
        self._drainer = threading.Thread(target=self._drain, daemon=True)
        self._drainer.start()
        self.info = self._request({"init": {"config": self.config, "plugin": self.plugin}})
        return self

    def _drain(self) -> None:
        assert self._proc is not None and self._proc.stderr is not None
        for line in self._proc.stderr:
            self._stderr.append(line)

    @contextlib.contextmanager
    def watching(self, watch: bool) -> Iterator[PluginDriver]:
        before, self.watch = self.watch, watch
        try:
            yield self
        finally:
            self.watch = before

    def run(self, calls: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        body: dict[str, Any] = {"calls": list(calls)} if self.watch else {"watch": False, "calls": list(calls)}
        results = self._request(body)["results"]
        for i, result in enumerate(results):
            if result.get("error"):
                raise DriverError(f"call {i} ({calls[i].get('point')}): {result['error']}")
        return results

    def _request(self, body: dict[str, Any]) -> dict[str, Any]:
        if self._proc is None:
            self.start()
        assert self._proc is not None and self._proc.stdin is not None and self._proc.stdout is not None
        self._id += 1
        try:
            self._proc.stdin.write(json.dumps({"id": self._id, **body}) + "\n")
            self._proc.stdin.flush()
            line = self._proc.stdout.readline()
        except (BrokenPipeError, OSError):
            line = ""
        if not line:
            code = self._proc.wait(timeout=10)
            self._proc = None
            output = self.stderr_tail()
            raise DriverCrash(f"the plugin driver ({self.binary.name}) exited with status {code}", output)
        response = json.loads(line)
        if "error" in response:
            if "plugins" in response:
                raise UnknownPlugin(response["error"], response["plugins"])
            raise DriverError(response["error"])
        return response

    def stderr_tail(self) -> str:
        # The drain thread may still be reading the last lines of a process that just exited.
        return "".join(self._stderr)

    def restart(self) -> None:
        self.close()
        self._stderr.clear()
        self.start()

    def close(self) -> None:
        if self._proc is not None:
            proc, self._proc = self._proc, None
            if proc.stdin:
                proc.stdin.close()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            # Closed, not left to the garbage collector: its ResourceWarning is an error under `-W error`.
            drainer, self._drainer = self._drainer, None
            if drainer is not None:
                drainer.join(timeout=5)
            for stream in (proc.stdout, proc.stderr if drainer is None or not drainer.is_alive() else None):
                if stream is not None:
                    stream.close()


__all__ = ["DriverCrash", "DriverError", "PluginDriver", "RACE_ENV", "UnknownPlugin"]
