"""Mirrors the EnqueueExtensions of pkg/scheduler/framework/plugins/podtopologyspread/plugin.go
(EventsToRegister, isSchedulableAfterAssignedPodChange, isSchedulableAfterTargetPodChange,
isSchedulableAfterPodLabelChange, isSchedulableAfterNodeChange), v1.37.2.

`constraints(pod)` is the plugin's `getConstraints(pod)` for DoNotSchedule (its own or the defaults).
"""

from __future__ import annotations

from typing import Callable

from ...events import ASSIGNED_POD, NODE, TARGET_POD, ActionType, ClusterEvent, ClusterEventWithHint, HintResult
from ...selectors import LabelSelectorError
from ...types import Node, Pod
from ..hint_util import QUEUE, QUEUE_SKIP, as_objects, queue_on_error
from .common import HONOR, Constraint, node_labels_match_spread_constraints, selector_matches

Constraints = Callable[[Pod], list[Constraint]]


def _constraints(get: Constraints, pod: Pod) -> tuple[list[Constraint], str | None]:
    try:
        return get(pod), None
    except LabelSelectorError as err:
        return [], str(err)


def _involved(incoming: Pod, with_spreading: Pod) -> bool:
    """`involvedInTopologySpreading`: bound or nominated, in the same namespace."""
    if not incoming.node_name and not incoming.nominated_node_name:
        return False
    return incoming.namespace == with_spreading.namespace


def _label_change(original: Pod, modified: Pod, constraints: list[Constraint]) -> HintResult:
    """`isSchedulableAfterPodLabelChange`: some constraint's selector changed its verdict."""
    if dict(original.labels) == dict(modified.labels):
        return QUEUE_SKIP
    for c in constraints:
        if selector_matches(c.selector, original.labels) != selector_matches(c.selector, modified.labels):
            return QUEUE
    return QUEUE_SKIP


def after_assigned_pod_change(get: Constraints, pod: Pod, old: object, new: object) -> HintResult:
    original, modified, err = as_objects(Pod, old, new)
    if err:
        return queue_on_error(err)
    if (modified is not None and not _involved(modified, pod)) or (
            original is not None and not _involved(original, pod)):
        return QUEUE_SKIP
    constraints, err = _constraints(get, pod)
    if err:
        return queue_on_error(err)
    if modified is not None and original is not None:
        return _label_change(original, modified, constraints)
    changed = modified if modified is not None else original
    return QUEUE if any(selector_matches(c.selector, changed.labels) for c in constraints) else QUEUE_SKIP


def after_target_pod_change(get: Constraints, pod: Pod, old: object, new: object) -> HintResult:
    original, modified, err = as_objects(Pod, old, new)
    if err:
        return queue_on_error(err)
    constraints, err = _constraints(get, pod)
    if err:
        return queue_on_error(err)
    if (tuple(modified.tolerations) != tuple(original.tolerations)
            and any(c.node_taints_policy == HONOR for c in constraints)):
        return QUEUE
    return _label_change(original, modified, constraints)


def after_node_change(get: Constraints, pod: Pod, old: object, new: object) -> HintResult:
    """Queue when a node gains or loses all topology keys, or a matching node's topology values or
    taints change; a new or deleted node only when it carries all the keys."""
    original, modified, err = as_objects(Node, old, new)
    if err:
        return queue_on_error(err)
    constraints, err = _constraints(get, pod)
    if err:
        return queue_on_error(err)
    was = original is not None and node_labels_match_spread_constraints(original.labels, constraints)
    now = modified is not None and node_labels_match_spread_constraints(modified.labels, constraints)
    if original is not None and modified is not None:
        if was != now:
            return QUEUE
        keys_changed = any(original.labels.get(c.topology_key) != modified.labels.get(c.topology_key)
                           for c in constraints)
        if now and (keys_changed or tuple(original.taints) != tuple(modified.taints)):
            return QUEUE
        return QUEUE_SKIP
    if modified is not None:
        return QUEUE if now else QUEUE_SKIP
    return QUEUE if was else QUEUE_SKIP


def events_to_register(get: Constraints) -> list[ClusterEventWithHint]:
    return [
        ClusterEventWithHint(ClusterEvent(ASSIGNED_POD, ActionType.ADD | ActionType.UPDATE_POD_LABEL
                                          | ActionType.DELETE),
                             lambda pod, old, new: after_assigned_pod_change(get, pod, old, new)),
        ClusterEventWithHint(ClusterEvent(TARGET_POD, ActionType.UPDATE_POD_TOLERATION | ActionType.UPDATE_POD_LABEL),
                             lambda pod, old, new: after_target_pod_change(get, pod, old, new)),
        ClusterEventWithHint(ClusterEvent(NODE, ActionType.ADD | ActionType.DELETE | ActionType.UPDATE_NODE_LABEL
                                          | ActionType.UPDATE_NODE_TAINT),
                             lambda pod, old, new: after_node_change(get, pod, old, new)),
    ]


__all__ = ["after_assigned_pod_change", "after_node_change", "after_target_pod_change", "events_to_register"]
