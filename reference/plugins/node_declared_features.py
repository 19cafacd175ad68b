"""Mirrors pkg/scheduler/framework/plugins/nodedeclaredfeatures/nodedeclaredfeatures.go (gate on by default in v1.37.2).

The plugin asks component-helpers/nodedeclaredfeatures which node features a pod needs (`FEATURES`)
and keeps the nodes that declare all of them (status.declaredFeatures). In v1.37.2 only pod fields
the reference does not model can require one (container restartPolicyRules with RestartAllContainers,
hostNetwork with hostUsers=false, volume mounts with bindMountOptions), so `FEATURES` is empty: for
every pod the reference can express the requirement set is empty and PreFilter returns Skip, which
also skips Filter, exactly as upstream does for such pods. Tests swap in features of their own, as
upstream's ndftesting.SetFrameworkDuringTest does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

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


@dataclass(frozen=True)
class Feature:
    """A feature of nodedeclaredfeatures' framework: its name, and whether a pod needs it to be scheduled
    (`InferForScheduling`)."""

    name: str
    infer_for_scheduling: Callable[[Pod], bool]


# ndf.DefaultFramework's features, as far as the reference models the pod fields they read (see the module
# docstring).
FEATURES: tuple[Feature, ...] = ()


def required_features(pod: Pod) -> frozenset[str]:
    """`InferForPodScheduling`: the `FEATURES` the pod needs."""
    return frozenset(f.name for f in FEATURES if f.infer_for_scheduling(pod))


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
        declared = set(node_info.node.declared_features) if node_info.node is not None else set()
        return SUCCESS if state.read(PRE_FILTER_STATE_KEY) <= declared else Status.new(
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
    """Queue for a new node, or one whose declared features changed."""
    original, modified, err = as_objects(Node, old, new)
    if err:
        return queue_on_error(err)
    return QUEUE_SKIP if original is not None and original.declared_features == modified.declared_features \
        else QUEUE
