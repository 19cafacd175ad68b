"""The ordered trace of probe and extender calls (format: docs/probes.md, "The trace")."""

from __future__ import annotations

import threading
from typing import Any, Callable


class Trace:
    """Append-only, thread-safe: the extender server records from its own threads."""

    def __init__(self, clock: Callable[[], float] = lambda: 0.0) -> None:
        self.clock = clock
        self.records: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def record(self, point: str, pod: str, **fields: Any) -> dict[str, Any]:
        """Append `{seq, t, pod, point, **fields}`; fields that are None are left out."""
        with self._lock:
            rec: dict[str, Any] = {"seq": len(self.records), "t": round(self.clock(), 6), "pod": pod,
                                   "point": point}
            rec.update((k, v) for k, v in fields.items() if v is not None)
            self.records.append(rec)
            return rec

    def snapshot(self) -> list[dict[str, Any]]:
        with self._lock:
            return list(self.records)


__all__ = ["Trace"]
