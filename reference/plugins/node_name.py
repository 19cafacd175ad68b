"""Mirrors pkg/scheduler/framework/plugins/nodename/node_name.go."""

from __future__ import annotations

from ..cycle_state import CycleState
from ..events import NODE, ActionType, ClusterEvent, ClusterEventWithHint
from ..interfaces import FilterPlugin, PreFilterPlugin, PreFilterResult
from ..nodeinfo import NodeInfo
from ..status import SUCCESS, Code, Status
from ..types import Pod

NAME = "NodeName"

ERR_REASON = "node(s) didn't match the requested node name"


def fits(pod: Pod, node_info: NodeInfo) -> bool:
    """`Fits`: no spec.nodeName, or the node's name."""
    return not pod.node_name or pod.node_name == node_info.name


class NodeName(PreFilterPlugin, FilterPlugin):
    NAME = NAME

    def pre_filter(self, state: CycleState, pod: Pod,
                   nodes: list[NodeInfo]) -> tuple[PreFilterResult | None, Status]:
        """A pod with spec.nodeName is evaluated on that node only (other nodes become UAU)."""
        if pod.node_name:
            return PreFilterResult(frozenset({pod.node_name})), SUCCESS
        return None, SUCCESS

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status:
        if fits(pod, node_info):
            return SUCCESS
        return Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON)

    def events_to_register(self) -> list[ClusterEventWithHint]:
        """No hint: a Node/Add always retries the pod with backoff (upstream registers none either)."""
        return [ClusterEventWithHint(ClusterEvent(NODE, ActionType.ADD))]
