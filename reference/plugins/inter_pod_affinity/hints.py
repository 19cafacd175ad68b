"""Mirrors the EnqueueExtensions of pkg/scheduler/framework/plugins/interpodaffinity/plugin.go
(EventsToRegister, isSchedulableAfterAssignedPodChange, isSchedulableAfterTargetPodUpdateLabel,
isSchedulableAfterNodeChange), v1.37.2.

Terms are the pod's required terms as `fwk.GetAffinityTerms` builds them; matching passes no
namespace labels, as upstream does.
"""

from __future__ import annotations

from ...events import ASSIGNED_POD, NODE, TARGET_POD, ActionType, ClusterEvent, ClusterEventWithHint, HintResult
from ...nodeinfo import AffinityTerm, PodInfo
from ...types import Node, Pod
from ..hint_util import QUEUE, QUEUE_SKIP, as_objects, queue_on_error
from .terms import pod_matches_all_affinity_terms, term_matches


def _any(terms: tuple[AffinityTerm, ...], pod: Pod) -> bool:
    return any(term_matches(t, pod, None) for t in terms)


def after_assigned_pod_change(pod: Pod, old: object, new: object) -> HintResult:
    """Queue when an added or relabelled pod now matches all the pod's affinity terms, or a pod
    matching its anti-affinity left (relabelled or deleted), or a deleted pod's anti-affinity
    matched the pod."""
    original, modified, err = as_objects(Pod, old, new)
    if err:
        return queue_on_error(err)
    if (modified is not None and not modified.node_name and not modified.nominated_node_name) or (
            original is not None and not original.node_name and not original.nominated_node_name):
        return QUEUE_SKIP
    info = PodInfo.of(pod)
    if info.parse_error:
        return queue_on_error(info.parse_error)
    terms, anti_terms = info.required_affinity_terms, info.required_anti_affinity_terms
    if modified is not None and original is not None:
        if not pod_matches_all_affinity_terms(terms, original) and pod_matches_all_affinity_terms(terms, modified):
            return QUEUE
        if _any(anti_terms, original) and not _any(anti_terms, modified):
            return QUEUE
        return QUEUE_SKIP
    if modified is not None:
        return QUEUE if pod_matches_all_affinity_terms(terms, modified) else QUEUE_SKIP
    if _any(anti_terms, original):
        return QUEUE
    deleted = PodInfo.of(original)
    if deleted.parse_error:
        return queue_on_error(deleted.parse_error)
    return QUEUE if _any(deleted.required_anti_affinity_terms, pod) else QUEUE_SKIP


def after_target_pod_update_label(pod: Pod, old: object, new: object) -> HintResult:
    """Another pod's anti-affinity may have matched the old labels only."""
    return QUEUE


def after_node_change(pod: Pod, old: object, new: object) -> HintResult:
    """Queue when a topology key of an affinity term appears or changes value, or an anti-affinity
    topology key disappears or changes value; any new node for anti-affinity."""
    original, modified, err = as_objects(Node, old, new)
    if err:
        return queue_on_error(err)
    info = PodInfo.of(pod)
    if info.parse_error:
        return queue_on_error(info.parse_error)
    for term in info.required_affinity_terms:
        key = term.topology_key
        if original is None:
            if key in modified.labels:
                return QUEUE
            continue
        if key not in original.labels and key in modified.labels:
            return QUEUE
        if key in original.labels and key in modified.labels and original.labels[key] != modified.labels[key]:
            return QUEUE
    for term in info.required_anti_affinity_terms:
        if original is None:
            return QUEUE
        key = term.topology_key
        if key in original.labels and key not in modified.labels:
            return QUEUE
        if key in original.labels and key in modified.labels and original.labels[key] != modified.labels[key]:
            return QUEUE
    return QUEUE_SKIP


def events_to_register() -> list[ClusterEventWithHint]:
    return [
        ClusterEventWithHint(ClusterEvent(ASSIGNED_POD, ActionType.ADD | ActionType.UPDATE_POD_LABEL
                                          | ActionType.DELETE),
                             after_assigned_pod_change),
        ClusterEventWithHint(ClusterEvent(TARGET_POD, ActionType.UPDATE_POD_LABEL), after_target_pod_update_label),
        ClusterEventWithHint(ClusterEvent(NODE, ActionType.ADD | ActionType.UPDATE_NODE_LABEL), after_node_change),
    ]


__all__ = ["after_assigned_pod_change", "after_node_change", "after_target_pod_update_label", "events_to_register"]
