"""Mirrors the EnqueueExtensions of pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go
(EventsToRegister, isSchedulableAfterNodeChange), v1.37.2."""

from __future__ import annotations

from ...events import NODE, ActionType, ClusterEvent, ClusterEventWithHint, HintResult
from ...types import Node, Pod
from ..hint_util import QUEUE, QUEUE_SKIP, as_objects, queue_on_error
from .selector import LazyErrorNodeSelector, RequiredNodeAffinity


def _match(required: RequiredNodeAffinity, node: Node) -> tuple[bool, str | None]:
    """`RequiredNodeAffinity.Match`: when no valid term matches, a term that does not parse is an error."""
    if required.match(node):
        return True, None
    labels_match = all(node.labels.get(k) == v for k, v in required.node_selector_labels.items())
    if labels_match and required.node_selector is not None and required.node_selector.errors():
        return False, "; ".join(str(e) for e in required.node_selector.errors())
    return False, None


def after_node_change(added_selector: LazyErrorNodeSelector | None, pod: Pod, old: object,
                      new: object) -> HintResult:
    """Queue for a new node that matches, or an update from not matching to matching."""
    original, modified, err = as_objects(Node, old, new)
    if err:
        return queue_on_error(err)
    if added_selector is not None and not added_selector.match(modified):
        return QUEUE_SKIP
    required = RequiredNodeAffinity.of(pod)
    matched, err = _match(required, modified)
    if err:
        return queue_on_error(err)
    if not matched:
        return QUEUE_SKIP
    if original is None:
        return QUEUE
    was_matched, err = _match(required, original)
    if err:
        return queue_on_error(err)
    return QUEUE_SKIP if was_matched else QUEUE


def events_to_register(added_selector: LazyErrorNodeSelector | None) -> list[ClusterEventWithHint]:
    return [ClusterEventWithHint(ClusterEvent(NODE, ActionType.ADD | ActionType.UPDATE_NODE_LABEL),
                                 lambda pod, old, new: after_node_change(added_selector, pod, old, new))]


__all__ = ["after_node_change", "events_to_register"]
