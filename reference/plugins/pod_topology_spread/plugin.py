"""Mirrors pkg/scheduler/framework/plugins/podtopologyspread/plugin.go.

EnqueueExtensions are in hints.py. Not modelled: SignPlugin, which the reference framework has no
interface for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...cycle_state import CycleState, NotFoundError
from ...events import ClusterEventWithHint
from ...interfaces import (FilterPlugin, Handle, NodeScore, PreFilterPlugin, PreFilterResult, PreScorePlugin,
                           ScorePlugin)
from ...nodeinfo import NodeInfo, PodInfo
from ...selectors import LabelSelectorError
from ...status import SUCCESS, Code, Status
from ...types import Pod, TopologySpreadConstraint
from .hints import events_to_register as hint_registrations
from .args import SYSTEM_DEFAULTING, PodTopologySpreadArgs
from .common import (DO_NOT_SCHEDULE, LABEL_HOSTNAME, LABEL_TOPOLOGY_ZONE, SCHEDULE_ANYWAY, Constraint,
                     build_default_constraints, filter_constraints)
from .filtering import PRE_FILTER_STATE_KEY, PreFilterState, cal_pre_filter_state, filter_node
from .scoring import (PRE_SCORE_STATE_KEY, PreScoreState, count_all_nodes, init_pre_score_state, normalize_scores,
                      score_node)

if TYPE_CHECKING:
    from ...nodeinfo import Snapshot

NAME = "PodTopologySpread"

SYSTEM_DEFAULT_CONSTRAINTS: tuple[TopologySpreadConstraint, ...] = (
    TopologySpreadConstraint(max_skew=3, topology_key=LABEL_HOSTNAME, when_unsatisfiable=SCHEDULE_ANYWAY),
    TopologySpreadConstraint(max_skew=5, topology_key=LABEL_TOPOLOGY_ZONE, when_unsatisfiable=SCHEDULE_ANYWAY),
)


def _not_found(key: str, prefix: str = "") -> Status:
    return Status.as_status(f'{prefix}reading "{key}" from cycleState: not found')


class PodTopologySpread(PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin):
    NAME = NAME
    ARGS = PodTopologySpreadArgs

    def __init__(self, args: PodTopologySpreadArgs, handle: Handle) -> None:
        self._handle = handle
        self.system_defaulted = args.defaulting_type == SYSTEM_DEFAULTING
        self.default_constraints = SYSTEM_DEFAULT_CONSTRAINTS if self.system_defaulted else args.default_constraints

    @classmethod
    def new(cls, args: PodTopologySpreadArgs | None, handle: Handle) -> "PodTopologySpread":
        args = args or PodTopologySpreadArgs()
        args.validate("")
        return cls(args, handle)

    def events_to_register(self) -> list[ClusterEventWithHint]:
        return hint_registrations(lambda pod: self.constraints(pod, DO_NOT_SCHEDULE))

    def _snapshot(self) -> "Snapshot":
        return self._handle.snapshot()

    def constraints(self, pod: Pod, action: str) -> list[Constraint]:
        """`getConstraints`: the pod's own constraints with `action`, else the defaults (needing the
        workloads). A bad selector raises `LabelSelectorError` with upstream's wrapping."""
        if pod.topology_spread_constraints:
            try:
                return filter_constraints(pod.topology_spread_constraints, pod.labels, action)
            except LabelSelectorError as err:
                kind = "hard" if action == DO_NOT_SCHEDULE else "soft"
                raise LabelSelectorError(f"obtaining pod's {kind} topology spread constraints: {err}") from None
        if not self.default_constraints:
            return []
        return build_default_constraints(self.default_constraints, pod, self._handle.client.workloads(), action)

    # --- PreFilter / Filter ---------------------------------------------------------------

    def pre_filter(self, state: CycleState, pod: Pod,
                   nodes: list[NodeInfo]) -> tuple[PreFilterResult | None, Status]:
        try:
            constraints = self.constraints(pod, DO_NOT_SCHEDULE)
        except LabelSelectorError as err:
            return None, Status.as_status(f"get constraints from pod: {err}")
        s = cal_pre_filter_state(pod, constraints, nodes)
        if not s.constraints:
            return None, Status.new(Code.SKIP)
        state.write(PRE_FILTER_STATE_KEY, s)
        return None, SUCCESS

    def pre_filter_extensions(self) -> "PodTopologySpread":
        return self

    def _pre_filter_state(self, state: CycleState) -> PreFilterState | Status:
        try:
            return state.read(PRE_FILTER_STATE_KEY)
        except NotFoundError:
            return _not_found(PRE_FILTER_STATE_KEY)

    def add_pod(self, state: CycleState, pod: Pod, to_add: PodInfo, node_info: NodeInfo) -> Status:
        s = self._pre_filter_state(state)
        if isinstance(s, Status):
            return s
        s.update_with_pod(to_add.pod, pod, node_info.node, 1)
        return SUCCESS

    def remove_pod(self, state: CycleState, pod: Pod, to_remove: PodInfo, node_info: NodeInfo) -> Status:
        s = self._pre_filter_state(state)
        if isinstance(s, Status):
            return s
        s.update_with_pod(to_remove.pod, pod, node_info.node, -1)
        return SUCCESS

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status:
        s = self._pre_filter_state(state)
        if isinstance(s, Status):
            return s
        assert node_info.node is not None
        return filter_node(s, pod, node_info.node)

    # --- PreScore / Score -----------------------------------------------------------------

    def pre_score(self, state: CycleState, pod: Pod, nodes: list[NodeInfo]) -> Status:
        all_nodes = self._snapshot().node_info_list
        if not all_nodes:
            return Status.new(Code.SKIP)
        # Only the pod's own constraints require every topology key on a node, so that nodes
        # without a zone label still get hostname spreading from the system defaults.
        require_all = bool(pod.topology_spread_constraints) or not self.system_defaulted
        try:
            constraints = self.constraints(pod, SCHEDULE_ANYWAY)
        except LabelSelectorError as err:
            return Status.as_status(f"calculating preScoreState: {err}")
        s = init_pre_score_state(constraints, nodes, require_all)
        if not s.constraints:
            return Status.new(Code.SKIP)
        count_all_nodes(s, pod, all_nodes, require_all)
        state.write(PRE_SCORE_STATE_KEY, s)
        return SUCCESS

    def _pre_score_state(self, state: CycleState) -> PreScoreState | Status:
        try:
            return state.read(PRE_SCORE_STATE_KEY)
        except NotFoundError:
            return _not_found(PRE_SCORE_STATE_KEY, "error ")

    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> tuple[int, Status]:
        s = self._pre_score_state(state)
        if isinstance(s, Status):
            return 0, s
        return score_node(s, pod, node_info), SUCCESS

    def score_extensions(self) -> "PodTopologySpread":
        return self

    def normalize_score(self, state: CycleState, pod: Pod, scores: list[NodeScore]) -> Status:
        s = self._pre_score_state(state)
        if isinstance(s, Status):
            return s
        normalize_scores(s, scores)
        return SUCCESS


__all__ = ["NAME", "PodTopologySpread", "SYSTEM_DEFAULT_CONSTRAINTS"]
