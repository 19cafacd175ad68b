"""Watches that keep the latest state of a set of objects, for waits with timeouts."""

from __future__ import annotations

import socket
import threading
import time
from typing import Any, Callable

from .kube import Kube, KubeError

WATCH_SECONDS = 30.0
Handler = Callable[[str, dict[str, Any], float], None]


class ObjectWatch:
    """List, then watch `url` in a thread; `objects` maps namespace/name to the latest object.

    Every change calls `on_change(type, object, time)` under the shared `cond`, then notifies it.
    """

    def __init__(self, kube: Kube, url: str, cond: threading.Condition, *, label_selector: str | None = None,
                 on_change: Handler | None = None) -> None:
        self.kube, self.url, self.cond, self.label_selector = kube, url, cond, label_selector
        self.on_change = on_change or (lambda _t, _o, _n: None)
        self.objects: dict[str, dict[str, Any]] = {}
        self.error: Exception | None = None
        self._stop = threading.Event()
        self._resp: Any = None
        self._thread: threading.Thread | None = None

    def start(self) -> "ObjectWatch":
        items, rv = self.kube.list(self.url, label_selector=self.label_selector)
        with self.cond:
            for obj in items:
                self._apply("ADDED", obj, time.time())
        self._thread = threading.Thread(target=self._run, args=(rv,), name=f"watch {self.url}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._resp is not None:
            _interrupt(self._resp)
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _apply(self, kind: str, obj: dict[str, Any], now: float) -> None:
        meta = obj.get("metadata") or {}
        key = f"{meta.get('namespace', '')}/{meta.get('name', '')}"
        if kind == "DELETED":
            self.objects.pop(key, None)
        else:
            self.objects[key] = obj
        self.on_change(kind, obj, now)
        self.cond.notify_all()

    def _run(self, rv: str) -> None:
        while not self._stop.is_set():
            try:
                for kind, obj in self.kube.watch(self.url, resource_version=rv, label_selector=self.label_selector,
                                                 timeout=WATCH_SECONDS, on_open=self._opened):
                    if kind == "ERROR":
                        raise KubeError(int(obj.get("code") or 500), str(obj.get("reason", "")),
                                        str(obj.get("message", "")))
                    rv = str((obj.get("metadata") or {}).get("resourceVersion") or rv)
                    with self.cond:
                        self._apply(kind, obj, time.time())
            except Exception as exc:  # noqa: BLE001 - reported to the waiter, which raises it
                if self._stop.is_set():
                    return
                with self.cond:
                    self.error = exc
                    self.cond.notify_all()
                return

    def _opened(self, resp: Any) -> None:
        self._resp = resp
        if self._stop.is_set():
            _interrupt(resp)


def _interrupt(resp: Any) -> None:
    """End a read another thread is blocked in: close() alone does not wake a blocked recv()."""
    sock = getattr(getattr(resp, "connection", None), "sock", None)
    try:
        if sock is not None:
            sock.shutdown(socket.SHUT_RDWR)
        resp.close()
    except Exception:  # noqa: BLE001 - the stream may already be closed; either way it has ended
        pass


def wait_for(cond: threading.Condition, ready: Callable[[], bool], timeout: float,
             watches: list[ObjectWatch]) -> bool:
    """Wait (holding `cond` between checks) until `ready()` or `timeout`; re-raises a watch's error."""
    deadline = time.monotonic() + timeout
    with cond:
        while True:
            for w in watches:
                if w.error is not None:
                    raise w.error
            if ready():
                return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            cond.wait(min(left, 0.1))


__all__ = ["ObjectWatch", "wait_for"]
