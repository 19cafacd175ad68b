"""Mirrors pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go.

With pkg/scheduler/framework/preemption/{preemption,executor,util}.go in `reference.plugins.preemption`.
Feature gates at their v1.37.2 defaults: GenericWorkload off (no PodGroup victims or PodGroup
preemption), SchedulerAsyncPreemption on (see `preemption.executor`). Not modelled: extenders'
ProcessPreemption (`callExtenders`: the handle does not reach extenders yet) and the random
dry-run offset (`GetOffsetAndNumCandidates` uses offset 0 here).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Mapping, Sequence

from ..cycle_state import CycleState
from ..events import ASSIGNED_POD, ActionType, ClusterEvent, ClusterEventWithHint, HintResult
from ..interfaces import (Handle, NodeToStatus, NominatingInfo, NominatingMode, PostFilterPlugin,
                          PostFilterResult, PreEnqueuePlugin)
from ..nodeinfo import NodeInfo, PodInfo
from ..registry import PluginArgs
from ..scheduler.fit_error import Diagnosis, FitError
from ..status import SUCCESS, Code, Status
from ..types import Pod, PodDisruptionBudget
from . import resource_args as ra
from .hint_util import QUEUE_SKIP
from .preemption.evaluator import (ERR_NO_NODES, dry_run_preemption, filter_pods_with_pdb_violation,
                                   nodes_for_status_code, pod_terminating_by_preemption, select_candidate,
                                   sort_by_importance)
from .preemption.executor import prepare_candidate_async

NAME = "DefaultPreemption"

ERR_NOT_ELIGIBLE_NEVER = "not eligible due to preemptionPolicy=Never."
ERR_NOT_ELIGIBLE_TERMINATING = "not eligible due to a terminating pod on the nominated node."
ERR_NO_VICTIMS = "No preemption victims found for incoming pod"
ERR_NOT_HELPFUL = "Preemption is not helpful for scheduling"
ERR_NO_CANDIDATE = "no candidate node for preemption"
MSG_FOUND = "found a potential placement for pod on node {}, preempting {} victims"


@dataclass(frozen=True)
class DefaultPreemptionArgs(PluginArgs):
    KIND: ClassVar[str] = "DefaultPreemptionArgs"

    min_candidate_nodes_percentage: int = 10
    min_candidate_nodes_absolute: int = 100

    @classmethod
    def from_config(cls, raw: Mapping[str, Any] | None, path: str) -> "DefaultPreemptionArgs":
        o = ra.fields(raw, path, ("minCandidateNodesPercentage", "minCandidateNodesAbsolute"))
        args = cls(ra.typed(o, "minCandidateNodesPercentage", int, path, 10),
                   ra.typed(o, "minCandidateNodesAbsolute", int, path, 100))
        ra.raise_if_any(validate(args, path))
        return args

    def to_config(self) -> dict[str, Any]:
        return {"minCandidateNodesPercentage": self.min_candidate_nodes_percentage,
                "minCandidateNodesAbsolute": self.min_candidate_nodes_absolute}


def validate(args: DefaultPreemptionArgs, path: str) -> list[ra.FieldError]:
    """`ValidateDefaultPreemptionArgs`."""
    pct, absolute = args.min_candidate_nodes_percentage, args.min_candidate_nodes_absolute
    pct_path, abs_path = ra.child(path, "minCandidateNodesPercentage"), ra.child(path, "minCandidateNodesAbsolute")
    errs: list[ra.FieldError] = []
    if pct < 0 or pct > 100:
        errs.append(ra.invalid(pct_path, pct, "not in valid range [0, 100]"))
    if absolute < 0:
        errs.append(ra.invalid(abs_path, absolute, "not in valid range [0, inf)"))
    if pct == 0 and absolute == 0:
        errs += [ra.invalid(pct_path, pct, "cannot be zero at the same time as minCandidateNodesAbsolute"),
                 ra.invalid(abs_path, absolute, "cannot be zero at the same time as minCandidateNodesPercentage")]
    return errs


def calculate_num_candidates(args: DefaultPreemptionArgs, num_nodes: int) -> int:
    """`calculateNumCandidates`: percentage of nodes, at least the absolute minimum, at most all nodes."""
    n = num_nodes * args.min_candidate_nodes_percentage // 100
    return min(max(n, args.min_candidate_nodes_absolute), num_nodes)


class DefaultPreemption(PostFilterPlugin, PreEnqueuePlugin):
    NAME = NAME
    ARGS = DefaultPreemptionArgs

    def __init__(self, args: DefaultPreemptionArgs, handle: Handle) -> None:
        self.args = args
        self.handle = handle

    @classmethod
    def new(cls, args: DefaultPreemptionArgs | None, handle: Handle) -> "DefaultPreemption":
        args = args or DefaultPreemptionArgs()
        ra.raise_if_any(validate(args, ""))
        return cls(args, handle)

    # --- PreEnqueue -----------------------------------------------------------------------------

    def pre_enqueue(self, pod: Pod) -> Status:
        """Upstream gates a pod while its async preemption runs; the reference finishes preemption
        inside PostFilter, so no pod is ever still preempting here."""
        return SUCCESS

    def events_to_register(self) -> list[ClusterEventWithHint]:
        """With SchedulerAsyncPreemption (beta, on): a deleted assigned pod may end a preemption that
        gates a pod, but the plugin leaves the requeueing decision to the pod's other rejectors."""
        return [ClusterEventWithHint(ClusterEvent(ASSIGNED_POD, ActionType.DELETE), after_assigned_pod_deletion)]

    # --- PostFilter -----------------------------------------------------------------------------

    def post_filter(self, state: CycleState, pod: Pod,
                    statuses: NodeToStatus) -> tuple[PostFilterResult | None, Status]:
        result, status = self.preempt(state, pod, statuses)
        msg = status.message()
        if msg:
            return result, Status.new(status.code, "preemption: " + msg)
        return result, status

    def preempt(self, state: CycleState, pod: Pod,
                statuses: NodeToStatus) -> tuple[PostFilterResult | None, Status]:
        """`Evaluator.Preempt` (the preemptor is used as given: no lister re-read)."""
        nominated_status = statuses.get(pod.nominated_node_name)
        ok, msg = self.pod_eligible_to_preempt_others(pod, nominated_status)
        if not ok:
            return None, Status.new(Code.UNSCHEDULABLE, msg)
        all_nodes = self.handle.snapshot().node_info_list
        candidates, node_statuses, err = self.find_candidates(state, all_nodes, pod, statuses)
        if err is not None and not candidates:
            return None, Status.as_status(err)
        if not candidates:
            node_statuses.absent_nodes_status = Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_NOT_HELPFUL)
            fit_error = FitError(len(all_nodes), Diagnosis(node_to_status=node_statuses))
            return (PostFilterResult(NominatingInfo("", NominatingMode.OVERRIDE)),
                    Status.new(Code.UNSCHEDULABLE, fit_error.message()))
        best = select_candidate(candidates)
        if best is None or not best.name:
            return None, Status.new(Code.UNSCHEDULABLE, ERR_NO_CANDIDATE)
        prepare_candidate_async(self.handle, best, pod, NAME)
        return (PostFilterResult(NominatingInfo(best.name, NominatingMode.OVERRIDE)),
                Status.new(Code.SUCCESS, MSG_FOUND.format(best.name, len(best.victims.pods))))

    def find_candidates(self, state: CycleState, all_nodes: list[NodeInfo], pod: Pod, statuses: NodeToStatus):
        """`findCandidates`: dry-run preemption over the nodes whose status is Unschedulable."""
        if not all_nodes:
            return [], None, ERR_NO_NODES
        potential = nodes_for_status_code(statuses, self.handle.snapshot(), Code.UNSCHEDULABLE)
        if not potential:
            return [], NodeToStatus(absent_nodes_status=Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE)), None
        pdbs = self.handle.client.pod_disruption_budgets()
        offset, num = self.get_offset_and_num_candidates(len(potential))
        return dry_run_preemption(self.select_victims_on_node, state, pod, potential, pdbs, offset, num)

    def get_offset_and_num_candidates(self, num_nodes: int) -> tuple[int, int]:
        """Upstream draws the offset with `rand.Int31n(numNodes)`; the reference uses 0."""
        return 0, calculate_num_candidates(self.args, num_nodes)

    def select_victims_on_node(self, state: CycleState, preemptor: Pod, node_info: NodeInfo,
                               all_victims: list[Pod], pdbs: Sequence[PodDisruptionBudget]
                               ) -> tuple[list[Pod], int, Status]:
        """`SelectVictimsOnNode`: remove every lower-priority pod, check the preemptor fits, then
        reprieve (PDB-violating victims first, then the others, most important first)."""
        h = self.handle

        def remove(victim: Pod) -> Status:
            node_info.remove_pod(victim)
            return h.run_pre_filter_extension_remove_pod(state, preemptor, PodInfo.of(victim), node_info)

        def add(victim: Pod) -> Status:
            info = PodInfo.of(victim)
            node_info.add_pod(info)
            return h.run_pre_filter_extension_add_pod(state, preemptor, info, node_info)

        potential = [v for v in all_victims if v.effective_priority < preemptor.effective_priority]
        if not potential:
            return [], 0, Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_NO_VICTIMS)
        for victim in potential:
            s = remove(victim)
            if not s.is_success():
                return [], 0, Status.as_status(s.as_error() or "")
        status = h.run_filter_plugins_with_nominated_pods(state, preemptor, node_info)
        if not status.is_success():
            return [], 0, status
        potential = sort_by_importance(potential)
        violating, non_violating = filter_pods_with_pdb_violation(potential, pdbs)
        victims: list[Pod] = []

        def reprieve(victim: Pod) -> tuple[bool, Status]:
            s = add(victim)
            if not s.is_success():
                return False, s
            fits = h.run_filter_plugins_with_nominated_pods(state, preemptor, node_info).is_success()
            if not fits:
                s = remove(victim)
                if not s.is_success():
                    return False, s
                victims.append(victim)
            return fits, SUCCESS

        num_violating = 0
        for victim, count in violating:
            fits, s = reprieve(victim)
            if not s.is_success():
                return [], 0, Status.as_status(s.as_error() or "")
            if not fits:
                num_violating += count
        for victim in non_violating:
            _, s = reprieve(victim)
            if not s.is_success():
                return [], 0, Status.as_status(s.as_error() or "")
        if violating and non_violating:
            victims = sort_by_importance(victims)
        return victims, num_violating, SUCCESS

    def pod_eligible_to_preempt_others(self, pod: Pod, nominated_node_status: Status | None) -> tuple[bool, str]:
        """`PodEligibleToPreemptOthers`: not with preemptionPolicy Never, nor while a lower-priority
        pod on the nominated node is terminating by preemption (unless that node is now UAU)."""
        if pod.preemption_policy == "Never":
            return False, ERR_NOT_ELIGIBLE_NEVER
        nom = pod.nominated_node_name
        if nom:
            code = nominated_node_status.code if nominated_node_status is not None else Code.SUCCESS
            if code is Code.UNSCHEDULABLE_AND_UNRESOLVABLE:
                return True, ""
            info = self.handle.snapshot().get(nom)
            if info is not None:
                for pi in info.pods:
                    if (pi.pod.effective_priority < pod.effective_priority
                            and pod_terminating_by_preemption(pi.pod)):
                        return False, ERR_NOT_ELIGIBLE_TERMINATING
        return True, ""


def after_assigned_pod_deletion(pod: Pod, old: object, new: object) -> HintResult:
    return QUEUE_SKIP
