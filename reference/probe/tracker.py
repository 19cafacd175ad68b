"""State the probes of one scheduler share: the trace, per-pod cycle counters, and the clock."""

from __future__ import annotations

import threading
from typing import Callable

from ..scheduler.clock import VirtualClock
from .trace import Trace


class ProbeTracker:
    def __init__(self, clock: VirtualClock | None = None) -> None:
        self.clock = clock or VirtualClock()
        self.trace = Trace(self.clock.now)
        self._cycles: dict[str, int] = {}
        self._lock = threading.Lock()

    def use_clock(self, clock: VirtualClock) -> None:
        """Follow the scheduler's clock (set once the scheduler is built)."""
        self.clock = clock
        self.trace.clock = clock.now

    def next_cycle(self, pod: str) -> int:
        with self._lock:
            self._cycles[pod] = self._cycles.get(pod, 0) + 1
            return self._cycles[pod]

    def current_cycle(self, pod: str) -> int:
        with self._lock:
            return self._cycles.get(pod, 0)

    def after(self, seconds: float, fn: Callable[[], None]) -> None:
        self.clock.after(seconds, fn)


__all__ = ["ProbeTracker"]
