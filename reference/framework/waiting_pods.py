"""Waiting pods of the Permit phase, after upstream `framework/runtime/waiting_pods_map.go`."""

from __future__ import annotations

from typing import Callable

from ..duration import format_duration
from ..scheduler.clock import Timer, VirtualClock
from ..status import Code, Status
from ..types import Pod

MAX_PERMIT_TIMEOUT = 15 * 60.0


class WaitingPod:
    """A pod held at Permit. The first signal (all allowed, or one reject) wins; later ones are no-ops."""

    def __init__(self, pod: Pod, plugin_timeouts: dict[str, float], clock: VirtualClock,
                 on_signal: Callable[["WaitingPod"], None] = lambda wp: None) -> None:
        self.pod = pod
        self._pending: dict[str, Timer] = {}
        self.signal: Status | None = None
        self._done = False
        self._on_signal = on_signal
        for plugin, timeout in plugin_timeouts.items():
            self._pending[plugin] = clock.after(
                timeout, lambda p=plugin, d=timeout: self.reject(
                    p, f"rejected due to timeout after waiting {format_duration(d)} at plugin {p}"))

    def get_pod(self) -> Pod:
        return self.pod

    def get_pending_plugins(self) -> list[str]:
        return list(self._pending)

    def allow(self, plugin: str) -> None:
        timer = self._pending.pop(plugin, None)
        if timer is not None:
            timer.stop()
        if not self._pending:
            self._send(Status(Code.SUCCESS))
            self._done = True

    def reject(self, plugin: str, message: str) -> bool:
        """Signal Unschedulable; False when the pod was already allowed or stopped."""
        return self._stop_with(Code.UNSCHEDULABLE, plugin, message)

    def preempt(self, plugin: str, message: str) -> bool:
        """Like reject, but with an Error status so the pod is not marked unschedulable."""
        return self._stop_with(Code.ERROR, plugin, message)

    def _stop_with(self, code: Code, plugin: str, message: str) -> bool:
        for timer in self._pending.values():
            timer.stop()
        self._send(Status.new(code, message).with_plugin(plugin))
        if self._done:
            return False
        self._done = True
        return True

    def _send(self, status: Status) -> None:
        if self.signal is None:
            self.signal = status
            self._on_signal(self)


class WaitingPodsMap:
    def __init__(self) -> None:
        self._pods: dict[str, WaitingPod] = {}

    def add(self, wp: WaitingPod) -> None:
        self._pods[wp.pod.effective_uid] = wp

    def remove(self, uid: str) -> None:
        self._pods.pop(uid, None)

    def get(self, uid: str) -> WaitingPod | None:
        return self._pods.get(uid)

    def iterate(self, fn: Callable[[WaitingPod], None]) -> None:
        for wp in list(self._pods.values()):
            fn(wp)

    def __len__(self) -> int:
        return len(self._pods)
