"""Mirrors pkg/scheduler/framework/plugins/queuesort/priority_sort.go."""

from __future__ import annotations

from ..interfaces import QueuedPodInfo, QueueSortPlugin

NAME = "PrioritySort"


def less(a: QueuedPodInfo, b: QueuedPodInfo) -> bool:
    """Higher priority first; at equal priority the earlier queue timestamp."""
    pa, pb = a.pod.effective_priority, b.pod.effective_priority
    return pa > pb or (pa == pb and a.timestamp < b.timestamp)


class PrioritySort(QueueSortPlugin):
    NAME = NAME

    def less(self, a: QueuedPodInfo, b: QueuedPodInfo) -> bool:
        return less(a, b)
