"""Mirrors pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go.

Feature gates at their v1.37.2 defaults: TaintTolerationComparisonOperators is off, so Gt/Lt
tolerations never tolerate (`Toleration.tolerates` already says so); InPlacePodVerticalScalingSchedulerPreemption
is off, so PreFilter never skips.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..cycle_state import CycleState, NotFoundError
from ..events import NODE, TARGET_POD, ActionType, ClusterEvent, ClusterEventWithHint, HintResult
from ..interfaces import MAX_NODE_SCORE, FilterPlugin, NodeScore, PreFilterPlugin, PreFilterResult, PreScorePlugin, \
    ScorePlugin
from ..nodeinfo import NodeInfo
from ..status import SUCCESS, Code, Status
from ..types import NO_EXECUTE, NO_SCHEDULE, PREFER_NO_SCHEDULE, Node, Pod, Taint, Toleration
from .hint_util import QUEUE, QUEUE_SKIP, as_objects, queue_on_error
from .helper import default_normalize_score

NAME = "TaintToleration"
PRE_SCORE_STATE_KEY = "PreScore" + NAME
_NOT_FOUND = "not found"  # `fwk.ErrNotFound.Error()`

# Upstream writes this reason inline in Filter; its ErrReasonNotMatch constant is only used by the kubelet.
ERR_REASON_UNTOLERATED = "node(s) had untolerated taint(s)"


def _tolerated(taint: Taint, tolerations: Iterable[Toleration]) -> bool:
    return any(t.tolerates(taint) for t in tolerations)


def find_untolerated_taint(taints: Iterable[Taint], tolerations: tuple[Toleration, ...]) -> Taint | None:
    """The first NoSchedule/NoExecute taint no toleration tolerates (`FindMatchingUntoleratedTaint`)."""
    for taint in taints:
        if taint.effect in (NO_SCHEDULE, NO_EXECUTE) and not _tolerated(taint, tolerations):
            return taint
    return None


def prefer_no_schedule_tolerations(tolerations: Iterable[Toleration]) -> tuple[Toleration, ...]:
    """Tolerations with effect PreferNoSchedule or empty (an empty effect matches every effect)."""
    return tuple(t for t in tolerations if t.effect in ("", PREFER_NO_SCHEDULE))


def count_intolerable_prefer_no_schedule(taints: Iterable[Taint], tolerations: tuple[Toleration, ...]) -> int:
    return sum(1 for taint in taints if taint.effect == PREFER_NO_SCHEDULE and not _tolerated(taint, tolerations))


@dataclass(frozen=True)
class PreScoreState:
    tolerations_prefer_no_schedule: tuple[Toleration, ...]

    def clone(self) -> "PreScoreState":
        return self


class TaintToleration(PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin):
    NAME = NAME

    def pre_filter(self, state: CycleState, pod: Pod,
                   nodes: list[NodeInfo]) -> tuple[PreFilterResult | None, Status]:
        return None, SUCCESS

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status:
        assert node_info.node is not None
        if find_untolerated_taint(node_info.node.taints, pod.tolerations) is None:
            return SUCCESS
        return Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_UNTOLERATED)

    def pre_score(self, state: CycleState, pod: Pod, nodes: list[NodeInfo]) -> Status:
        state.write(PRE_SCORE_STATE_KEY, PreScoreState(prefer_no_schedule_tolerations(pod.tolerations)))
        return SUCCESS

    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> tuple[int, Status]:
        """The number of intolerable PreferNoSchedule taints; NormalizeScore reverses it."""
        assert node_info.node is not None
        try:
            s = state.read(PRE_SCORE_STATE_KEY)
        except NotFoundError:
            return 0, Status.as_status(f'failed to read "{PRE_SCORE_STATE_KEY}" from cycleState: {_NOT_FOUND}')
        return count_intolerable_prefer_no_schedule(node_info.node.taints, s.tolerations_prefer_no_schedule), SUCCESS

    def score_extensions(self) -> "TaintToleration":
        return self

    def normalize_score(self, state: CycleState, pod: Pod, scores: list[NodeScore]) -> Status:
        return default_normalize_score(MAX_NODE_SCORE, True, scores)

    def events_to_register(self) -> list[ClusterEventWithHint]:
        return [
            ClusterEventWithHint(ClusterEvent(NODE, ActionType.ADD | ActionType.UPDATE_NODE_TAINT), after_node_change),
            ClusterEventWithHint(ClusterEvent(TARGET_POD, ActionType.UPDATE_POD_TOLERATION),
                                 after_target_pod_toleration_change),
        ]


def after_node_change(pod: Pod, old: object, new: object) -> HintResult:
    """Queue when the node had an untolerated taint (or is new) and now has none."""
    original, modified, err = as_objects(Node, old, new)
    if err:
        return queue_on_error(err)
    was_untolerated = original is None or find_untolerated_taint(original.taints, pod.tolerations) is not None
    is_untolerated = find_untolerated_taint(modified.taints, pod.tolerations) is not None
    return QUEUE if was_untolerated and not is_untolerated else QUEUE_SKIP


def after_target_pod_toleration_change(pod: Pod, old: object, new: object) -> HintResult:
    return QUEUE
