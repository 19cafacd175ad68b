"""`CycleState`: per-attempt plugin state, after upstream `framework/cycle_state.go`."""

from __future__ import annotations

import copy
from typing import Any

PODS_TO_ACTIVATE_KEY = "kubernetes.io/pods-to-activate"


class NotFoundError(KeyError):
    """`ErrNotFound`: the key was never written in this cycle."""


class CycleState:
    """A key/value store for one scheduling attempt plus the runtime's skip sets."""

    def __init__(self) -> None:
        self._data: dict[str, Any] = {}
        self.skip_filter_plugins: set[str] = set()
        self.skip_score_plugins: set[str] = set()
        self.skip_pre_bind_plugins: set[str] = set()

    def read(self, key: str) -> Any:
        try:
            return self._data[key]
        except KeyError:
            raise NotFoundError(key) from None

    def write(self, key: str, value: Any) -> None:
        self._data[key] = value

    def delete(self, key: str) -> None:
        self._data.pop(key, None)

    def __contains__(self, key: str) -> bool:
        return key in self._data

    def clone(self) -> "CycleState":
        """Clone every value (via its `clone()` when it has one) and the skip sets."""
        other = CycleState()
        other._data = {k: v.clone() if hasattr(v, "clone") else copy.deepcopy(v) for k, v in self._data.items()}
        other.skip_filter_plugins = set(self.skip_filter_plugins)
        other.skip_score_plugins = set(self.skip_score_plugins)
        other.skip_pre_bind_plugins = set(self.skip_pre_bind_plugins)
        return other


__all__ = ["CycleState", "NotFoundError", "PODS_TO_ACTIVATE_KEY"]
