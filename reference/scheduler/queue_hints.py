"""Queueing hints: the per-profile hint map and `isPodWorthRequeuing`, after upstream
pkg/scheduler/scheduler.go (`buildQueueingHintMap`, `defaultQueueingHintFn`),
framework/runtime/framework.go (`fillEnqueueExtensions`, `defaultEnqueueExtension`) and
backend/queue/scheduling_queue.go (`isEventOfInterest`, `isPodWorthRequeuing`), v1.37.2.

Queueing hints are always on in v1.37. SchedulerPreQueueingHints (beta, on) narrows only for
DynamicResources' ResourceClaim events, which the reference never emits.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from ..events import POD, ClusterEvent, ClusterEventWithHint, QueueingHint, QueueingHintFn
from ..framework.cluster_events import is_wildcard, match_cluster_events, unroll_pod_event, unroll_wildcard_resource
from ..interfaces import Plugin, QueuedPodInfo
from ..types import Pod

# Only plugins at these points may register events (`shouldHaveEnqueueExtensions`).
ENQUEUE_POINTS = ("preEnqueue", "preFilter", "filter", "reserve", "permit")


class QueueingStrategy(enum.IntEnum):
    """Ordered: a higher strategy wins when several events or plugins answer."""

    QUEUE_SKIP = 0
    QUEUE_AFTER_BACKOFF = 1
    QUEUE_IMMEDIATELY = 2


@dataclass(frozen=True)
class QueueingHintFunction:
    plugin_name: str
    fn: QueueingHintFn | None  # None: always Queue


QueueingHintMap = dict[ClusterEvent, list[QueueingHintFunction]]


def plugin_events(plugin: Plugin) -> list[ClusterEventWithHint]:
    """A plugin's registrations; without EnqueueExtensions, every resource with the default hint."""
    register = getattr(plugin, "events_to_register", None)
    if register is None:
        return [ClusterEventWithHint(e) for e in unroll_wildcard_resource()]
    return list(register() or ())


def enqueue_plugins(plugins_by_point: Mapping[str, Iterable[Plugin]]) -> list[Plugin]:
    """Each plugin of the enqueue points once, in point order."""
    seen: dict[str, Plugin] = {}
    for point in ENQUEUE_POINTS:
        for plugin in plugins_by_point.get(point, ()):
            seen.setdefault(plugin.name, plugin)
    return list(seen.values())


def profile_hint_map(fw: Any) -> QueueingHintMap:
    """The hint map of one built profile (a `Framework`)."""
    points = {"preEnqueue": fw.pre_enqueue_plugins, "preFilter": fw.pre_filter_plugins,
              "filter": fw.filter_plugins, "reserve": fw.reserve_plugins, "permit": fw.permit_plugins}
    return build_queueing_hint_map(enqueue_plugins(points))


def build_queueing_hint_map(plugins: Iterable[Plugin]) -> QueueingHintMap:
    """`buildQueueingHintMap`: a Pod registration is unrolled to AssignedPod/UnscheduledPod/TargetPod."""
    hint_map: QueueingHintMap = {}
    for plugin in plugins:
        for registration in plugin_events(plugin):
            fn = QueueingHintFunction(plugin.name, registration.hint)
            event = registration.event
            for e in unroll_pod_event(event) if event.resource == POD else [event]:
                hint_map.setdefault(e, []).append(fn)
    return hint_map


def plugin_to_events(hint_maps: Iterable[QueueingHintMap]) -> dict[str, list[ClusterEvent]]:
    """`buildEventMap`: each plugin's registered events (a gated pod waits only for its gate's)."""
    out: dict[str, list[ClusterEvent]] = {}
    for hint_map in hint_maps:
        for event, fns in hint_map.items():
            for fn in fns:
                out.setdefault(fn.plugin_name, []).append(event)
    return out


def is_event_of_interest(hint_maps: Iterable[QueueingHintMap], event: ClusterEvent) -> bool:
    return is_wildcard(event) or any(match_cluster_events(registered, event)
                                     for hint_map in hint_maps for registered in hint_map)


def _run_hint(fn: QueueingHintFunction, pod: Pod, old: Any, new: Any) -> QueueingHint:
    if fn.fn is None:
        return QueueingHint.QUEUE
    try:
        hint, err = fn.fn(pod, old, new)
    except Exception:  # noqa: BLE001 - a hint that fails is an error, and an error means Queue
        return QueueingHint.QUEUE
    return QueueingHint.QUEUE if err is not None else hint


def is_pod_worth_requeuing(hint_map: QueueingHintMap | None, qpi: QueuedPodInfo, event: ClusterEvent,
                           old: Any, new: Any) -> QueueingStrategy:
    """`isPodWorthRequeuing`: only the rejector plugins' hints count; Queue from a Pending plugin
    skips backoff; an error is Queue; no rejector (an error, not a rejection) means requeue."""
    rejectors = qpi.unschedulable_plugins | qpi.pending_plugins
    if not rejectors:
        return QueueingStrategy.QUEUE_AFTER_BACKOFF
    if is_wildcard(event):
        if new is not None and (not isinstance(new, Pod) or new.effective_uid != qpi.pod.effective_uid):
            return QueueingStrategy.QUEUE_SKIP  # a wildcard aimed at another pod
        return QueueingStrategy.QUEUE_AFTER_BACKOFF
    if hint_map is None:
        return QueueingStrategy.QUEUE_AFTER_BACKOFF  # no profile: upstream logs a bug and requeues
    strategy = QueueingStrategy.QUEUE_SKIP
    for registered, fns in hint_map.items():
        if not match_cluster_events(registered, event):
            continue
        for fn in fns:
            if fn.plugin_name not in rejectors:
                continue
            if _run_hint(fn, qpi.pod, old, new) is QueueingHint.QUEUE_SKIP:
                continue
            if fn.plugin_name in qpi.pending_plugins:
                return QueueingStrategy.QUEUE_IMMEDIATELY
            if not qpi.pending_plugins:
                return QueueingStrategy.QUEUE_AFTER_BACKOFF
            strategy = QueueingStrategy.QUEUE_AFTER_BACKOFF
    return strategy


__all__ = [
    "ENQUEUE_POINTS", "QueueingHintFunction", "QueueingHintMap", "QueueingStrategy", "build_queueing_hint_map",
    "enqueue_plugins", "is_event_of_interest", "is_pod_worth_requeuing", "plugin_events", "plugin_to_events",
    "profile_hint_map",
]
