"""A virtual clock with timers: permit timeouts and backoff happen instantly and deterministically."""

from __future__ import annotations

import heapq
import itertools
from typing import Callable


class Timer:
    def __init__(self, when: float, fn: Callable[[], None]) -> None:
        self.when = when
        self.fn = fn
        self.cancelled = False

    def stop(self) -> None:
        self.cancelled = True


class VirtualClock:
    """Time only moves when the owner calls `advance_to`; due timers fire in time, then FIFO order."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._timers: list[tuple[float, int, Timer]] = []
        self._seq = itertools.count()

    def now(self) -> float:
        return self._now

    def after(self, seconds: float, fn: Callable[[], None]) -> Timer:
        """`time.AfterFunc`: a zero or negative delay fires at the next `fire_due`."""
        timer = Timer(self._now + max(seconds, 0.0), fn)
        heapq.heappush(self._timers, (timer.when, next(self._seq), timer))
        return timer

    def next_deadline(self) -> float | None:
        while self._timers and self._timers[0][2].cancelled:
            heapq.heappop(self._timers)
        return self._timers[0][0] if self._timers else None

    def fire_due(self) -> int:
        """Fire every timer due at the current time; returns how many fired."""
        fired = 0
        while (deadline := self.next_deadline()) is not None and deadline <= self._now:
            _, _, timer = heapq.heappop(self._timers)
            timer.fn()
            fired += 1
        return fired

    def advance_to(self, when: float) -> None:
        self._now = max(self._now, when)
