"""Mirrors pkg/scheduler/framework/plugins/nodedeclaredfeatures/nodedeclaredfeatures.go (gate on by default in v1.37.2).

The plugin asks component-helpers/nodedeclaredfeatures which node features a pod needs. In v1.37.2
only pod fields the reference does not model can require one (container restartPolicyRules with
RestartAllContainers, hostNetwork with hostUsers=false, volume mounts with bindMountOptions), so for
every pod the reference can express the requirement set is empty and PreFilter returns Skip, which
also skips Filter, exactly as upstream does for such pods.
"""

from __future__ import annotations

from ..cycle_state import CycleState
from ..events import NODE, TARGET_POD, ActionType, ClusterEvent, ClusterEventWithHint, HintResult
from ..interfaces import FilterPlugin, PreFilterPlugin, PreFilterResult
from ..nodeinfo import NodeInfo
from ..status import SUCCESS, Code, Status
from ..types import Node, Pod
from .hint_util import QUEUE, QUEUE_SKIP, as_objects, queue_on_error

NAME = "NodeDeclaredFeatures"
ERR_REASON_UNSATISFIED_REQUIREMENTS = "node(s) didn't match Pod's required features"
PRE_FILTER_STATE_KEY = "PreFilter" + NAME


def required_features(pod: Pod) -> frozenset[str]:
    """`InferForPodScheduling`: empty for every pod the reference models (see module docstring)."""
    return frozenset()


class NodeDeclaredFeatures(PreFilterPlugin, FilterPlugin):
    NAME = NAME

    def pre_filter(self, state: CycleState, pod: Pod,
                   nodes: list[NodeInfo]) -> tuple[PreFilterResult | None, Status]:
        reqs = required_features(pod)
        if not reqs:
            return None, Status(Code.SKIP)
        state.write(PRE_FILTER_STATE_KEY, reqs)
        return None, SUCCESS

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status:
        if PRE_FILTER_STATE_KEY not in state:
            return Status.as_status(f'error reading "{PRE_FILTER_STATE_KEY}" from cycleState: not found')
        return SUCCESS if not state.read(PRE_FILTER_STATE_KEY) else Status.new(
            Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_UNSATISFIED_REQUIREMENTS)

    def events_to_register(self) -> list[ClusterEventWithHint]:
        return [
            ClusterEventWithHint(ClusterEvent(NODE, ActionType.ADD | ActionType.UPDATE_NODE_DECLARED_FEATURE),
                                 after_node_change),
            ClusterEventWithHint(ClusterEvent(TARGET_POD, ActionType.UPDATE), after_target_pod_update),
        ]


def after_target_pod_update(pod: Pod, old: object, new: object) -> HintResult:
    """Queue when the update changed the features the pod requires."""
    original, modified, err = as_objects(Pod, old, new)
    if err:
        return queue_on_error(err)
    return QUEUE_SKIP if required_features(original) == required_features(modified) else QUEUE


def after_node_change(pod: Pod, old: object, new: object) -> HintResult:
    """Queue for a new node, or one whose declared features changed (nodes declare none here)."""
    original, _, err = as_objects(Node, old, new)
    if err:
        return queue_on_error(err)
    return QUEUE_SKIP if original is not None else QUEUE
