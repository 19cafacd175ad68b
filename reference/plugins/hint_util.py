"""Shared by the plugins' queueing hints: pkg/scheduler/util `As` and the two answers."""

from __future__ import annotations

from typing import Any

from ..events import HintResult, QueueingHint

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


__all__ = ["QUEUE", "QUEUE_SKIP", "as_objects", "queue_on_error"]
