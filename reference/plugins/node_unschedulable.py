"""Mirrors pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go."""

from __future__ import annotations

from ..cycle_state import CycleState
from ..events import NODE, TARGET_POD, ActionType, ClusterEvent, ClusterEventWithHint, HintResult
from ..interfaces import FilterPlugin, PreFilterPlugin, PreFilterResult
from ..nodeinfo import NodeInfo
from ..status import SUCCESS, Code, Status
from ..types import NO_SCHEDULE, Node, Pod, Taint
from .hint_util import QUEUE, QUEUE_SKIP, as_objects, queue_on_error

NAME = "NodeUnschedulable"

ERR_REASON_UNSCHEDULABLE = "node(s) were unschedulable"

TAINT_NODE_UNSCHEDULABLE = "node.kubernetes.io/unschedulable"
_UNSCHEDULABLE_TAINT = Taint(key=TAINT_NODE_UNSCHEDULABLE, effect=NO_SCHEDULE)


def tolerates_unschedulable(pod: Pod) -> bool:
    """A pod tolerating the `node.kubernetes.io/unschedulable:NoSchedule` taint also tolerates spec.unschedulable.

    Gt/Lt tolerations never match: TaintTolerationComparisonOperators is off in v1.37.2.
    """
    return any(t.tolerates(_UNSCHEDULABLE_TAINT) for t in pod.tolerations)


class NodeUnschedulable(PreFilterPlugin, FilterPlugin):
    NAME = NAME

    def pre_filter(self, state: CycleState, pod: Pod,
                   nodes: list[NodeInfo]) -> tuple[PreFilterResult | None, Status]:
        """Success, not Skip: only a deferred resize skips, behind InPlacePodVerticalScalingSchedulerPreemption
        (off in v1.37.2)."""
        return None, SUCCESS

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status:
        assert node_info.node is not None
        if not node_info.node.unschedulable or tolerates_unschedulable(pod):
            return SUCCESS
        return Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_UNSCHEDULABLE)

    def events_to_register(self) -> list[ClusterEventWithHint]:
        return [
            ClusterEventWithHint(ClusterEvent(NODE, ActionType.ADD | ActionType.UPDATE_NODE_TAINT), after_node_change),
            ClusterEventWithHint(ClusterEvent(TARGET_POD, ActionType.UPDATE_POD_TOLERATION),
                                 after_target_pod_toleration_change),
        ]


def after_target_pod_toleration_change(pod: Pod, old: object, new: object) -> HintResult:
    """Queue when the updated pod now tolerates the unschedulable taint."""
    _, modified, err = as_objects(Pod, old, new)
    if err:
        return queue_on_error(err)
    return QUEUE if tolerates_unschedulable(modified) else QUEUE_SKIP


def after_node_change(pod: Pod, old: object, new: object) -> HintResult:
    """Queue when a node turned schedulable, or a schedulable node was added."""
    original, modified, err = as_objects(Node, old, new)
    if err:
        return queue_on_error(err)
    if (original is not None and original.unschedulable and not modified.unschedulable) or (
            original is None and not modified.unschedulable):
        return QUEUE
    return QUEUE_SKIP
