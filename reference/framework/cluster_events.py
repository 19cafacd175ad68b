"""Which ClusterEvent a change is, and which registration it matches: after upstream
pkg/scheduler/framework/events.go (`PodSchedulingPropertiesChange`, `NodeSchedulingPropertiesChange`,
the framework's own events) and types.go (`MatchClusterEvents`, `ClusterEventIsWildCard`,
`UnrollPodEvent`, `UnrollWildCardResource`), v1.37.2.

Node fields the reference does not model (conditions, spec.podPreemptionPolicy) never change, so
their extractors never fire; pods carry no
resourceClaimStatuses, so UpdatePodGeneratedResourceClaim never fires either.
"""

from __future__ import annotations

from typing import Callable, Iterable

from ..events import (ASSIGNED_POD, CSI_DRIVER, CSI_NODE, CSI_STORAGE_CAPACITY, DEVICE_CLASS, NODE,
                      PERSISTENT_VOLUME, PERSISTENT_VOLUME_CLAIM, POD, RESOURCE_CLAIM, RESOURCE_SLICE,
                      STORAGE_CLASS, TARGET_POD, UNSCHEDULED_POD, WILDCARD, ActionType, ClusterEvent)
from ..resources import pod_requests
from ..types import Node, Pod

# Labels of the queue's own moves (not events plugins register for).
SCHEDULE_ATTEMPT_FAILURE = "ScheduleAttemptFailure"
BACKOFF_COMPLETE = "BackoffComplete"
FORCE_ACTIVATE = "ForceActivate"
UNSCHEDULABLE_TIMEOUT = "UnschedulableTimeout"

EVENT_ASSIGNED_POD_ADD = ClusterEvent(ASSIGNED_POD, ActionType.ADD)
EVENT_ASSIGNED_POD_UPDATE = ClusterEvent(ASSIGNED_POD, ActionType.UPDATE)
EVENT_ASSIGNED_POD_DELETE = ClusterEvent(ASSIGNED_POD, ActionType.DELETE)
EVENT_UNSCHEDULED_POD_ADD = ClusterEvent(UNSCHEDULED_POD, ActionType.ADD)
EVENT_UNSCHEDULED_POD_UPDATE = ClusterEvent(UNSCHEDULED_POD, ActionType.UPDATE)
EVENT_UNSCHEDULED_POD_DELETE = ClusterEvent(UNSCHEDULED_POD, ActionType.DELETE)
EVENT_TARGET_POD_UPDATE = ClusterEvent(TARGET_POD, ActionType.UPDATE)
# Wildcard events differ only in their label, which matching ignores.
EVENT_UNSCHEDULABLE_TIMEOUT = ClusterEvent(WILDCARD, ActionType.ALL)
EVENT_FORCE_ACTIVATE = ClusterEvent(WILDCARD, ActionType.ALL)


def is_wildcard(event: ClusterEvent) -> bool:
    return event.resource == WILDCARD and event.action_type == ActionType.ALL


def _match_resources(registered: str, incoming: str) -> bool:
    return (registered == WILDCARD or registered == incoming
            or registered == POD and incoming in (ASSIGNED_POD, UNSCHEDULED_POD, TARGET_POD))


def match_cluster_events(registered: ClusterEvent, incoming: ClusterEvent) -> bool:
    """`MatchClusterEvents`: `incoming` is the same as `registered` or more specific (a wildcard
    incoming event matches only a wildcard registration)."""
    return is_wildcard(registered) or (
        _match_resources(registered.resource, incoming.resource)
        and bool(registered.action_type & incoming.action_type)
        and int(incoming.action_type) <= int(registered.action_type))


def match_any_cluster_event(event: ClusterEvent, registered: Iterable[ClusterEvent]) -> bool:
    return any(match_cluster_events(r, event) for r in registered)


def unroll_pod_event(event: ClusterEvent) -> list[ClusterEvent]:
    return [ClusterEvent(r, event.action_type) for r in (ASSIGNED_POD, UNSCHEDULED_POD, TARGET_POD)]


def unroll_wildcard_resource() -> list[ClusterEvent]:
    """What a Filter-ish plugin without EnqueueExtensions registers (`UnrollWildCardResource`)."""
    return [ClusterEvent(r, ActionType.ALL) for r in (
        ASSIGNED_POD, UNSCHEDULED_POD, TARGET_POD, NODE, PERSISTENT_VOLUME, PERSISTENT_VOLUME_CLAIM, CSI_NODE,
        CSI_DRIVER, CSI_STORAGE_CAPACITY, STORAGE_CLASS, RESOURCE_CLAIM, DEVICE_CLASS, RESOURCE_SLICE)]


# --- pods ----------------------------------------------------------------------------------------

def _scale_down(new: Pod, old: Pod) -> bool:
    after = pod_requests(new)
    return any(name not in after or before > after[name] for name, before in pod_requests(old).items())


def _scale_up(new: Pod, old: Pod) -> bool:
    before = pod_requests(old)
    return any(name not in before or after > before[name] for name, after in pod_requests(new).items())


_POD_EXTRACTORS: tuple[tuple[ActionType, Callable[[Pod, Pod], bool]], ...] = (
    (ActionType.UPDATE_POD_LABEL, lambda new, old: dict(new.labels) != dict(old.labels)),
    (ActionType.UPDATE_POD_SCALE_DOWN, _scale_down),
    (ActionType.UPDATE_POD_SCALE_UP, _scale_up),
    (ActionType.UPDATE_POD_SCHEDULING_GATES_ELIMINATED,
     lambda new, old: not new.scheduling_gates and bool(old.scheduling_gates)),
    (ActionType.UPDATE_POD_TOLERATION, lambda new, old: len(new.tolerations) != len(old.tolerations)),
)


def pod_scheduling_properties_change(new: Pod, old: Pod, is_target_pod: bool) -> list[ClusterEvent]:
    """`PodSchedulingPropertiesChange`: one event per changed property, or a generic Update."""
    resource = ASSIGNED_POD if new.node_name else TARGET_POD if is_target_pod else UNSCHEDULED_POD
    events = [ClusterEvent(resource, action) for action, changed in _POD_EXTRACTORS if changed(new, old)]
    return events or [ClusterEvent(resource, ActionType.UPDATE)]


# --- nodes ---------------------------------------------------------------------------------------

_NODE_EXTRACTORS: tuple[tuple[ActionType, Callable[[Node, Node], bool]], ...] = (
    # Only unschedulable -> schedulable is a "taint" change: the other direction cannot help a pod.
    (ActionType.UPDATE_NODE_TAINT, lambda new, old: new.unschedulable != old.unschedulable and not new.unschedulable),
    (ActionType.UPDATE_NODE_ALLOCATABLE, lambda new, old: dict(new.allocatable) != dict(old.allocatable)),
    (ActionType.UPDATE_NODE_LABEL, lambda new, old: dict(new.labels) != dict(old.labels)),
    (ActionType.UPDATE_NODE_TAINT, lambda new, old: tuple(new.taints) != tuple(old.taints)),
    (ActionType.UPDATE_NODE_ANNOTATION, lambda new, old: dict(new.annotations) != dict(old.annotations)),
    # extractNodeFeaturesChange (NodeDeclaredFeatures, on by default)
    (ActionType.UPDATE_NODE_DECLARED_FEATURE,
     lambda new, old: new.declared_features != old.declared_features),
)


def node_scheduling_properties_change(new: Node, old: Node) -> list[ClusterEvent]:
    """`NodeSchedulingPropertiesChange`: one event per changed property, none when nothing the
    scheduler reads changed (UpdateNodeTaint may appear twice, as upstream)."""
    return [ClusterEvent(NODE, action) for action, changed in _NODE_EXTRACTORS if changed(new, old)]


__all__ = [
    "BACKOFF_COMPLETE", "EVENT_ASSIGNED_POD_ADD", "EVENT_ASSIGNED_POD_DELETE", "EVENT_ASSIGNED_POD_UPDATE",
    "EVENT_FORCE_ACTIVATE", "EVENT_TARGET_POD_UPDATE", "EVENT_UNSCHEDULABLE_TIMEOUT", "EVENT_UNSCHEDULED_POD_ADD",
    "EVENT_UNSCHEDULED_POD_DELETE", "EVENT_UNSCHEDULED_POD_UPDATE", "FORCE_ACTIVATE", "SCHEDULE_ATTEMPT_FAILURE",
    "UNSCHEDULABLE_TIMEOUT", "is_wildcard", "match_any_cluster_event", "match_cluster_events",
    "node_scheduling_properties_change", "pod_scheduling_properties_change", "unroll_pod_event",
    "unroll_wildcard_resource",
]
