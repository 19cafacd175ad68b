"""Shared by the plugins' queueing hints: pkg/scheduler/util `As`, the two answers, and the registrations
of plugins whose hints the reference never asks."""

from __future__ import annotations

from typing import Any

from ..events import ClusterEvent, ClusterEventWithHint, HintResult, QueueingHint

QUEUE: HintResult = (QueueingHint.QUEUE, None)
QUEUE_SKIP: HintResult = (QueueingHint.QUEUE_SKIP, None)


def as_objects(kind: type, old: Any, new: Any) -> tuple[Any, Any, str | None]:
    """`util.As`: both objects of `kind` or None, else an error (which the queue reads as Queue)."""
    for obj in (new, old):
        if obj is not None and not isinstance(obj, kind):
            return None, None, f"expected *{kind.__name__}, but got {type(obj).__name__}"
    return old, new, None


def queue_on_error(err: str) -> HintResult:
    return QueueingHint.QUEUE, err


def without_hints(*events: ClusterEvent) -> list[ClusterEventWithHint]:
    """A plugin's upstream registrations (`EventsToRegister`) whose hints read objects the reference does
    not model (ResourceClaims, ResourceSlices, ...). The plugin rejects no pod here (a pod that needs those
    objects raises NotModelledError), so the queue never asks its hints, and none (always Queue) stands in."""
    return [ClusterEventWithHint(e) for e in events]


__all__ = ["QUEUE", "QUEUE_SKIP", "as_objects", "queue_on_error", "without_hints"]
