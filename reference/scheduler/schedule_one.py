"""One pod through the scheduling cycle, after upstream `pkg/scheduler/schedule_one.go` (v1.37.2).

`SchedulingAlgorithm` holds the per-scheduler state the cycle needs (round-robin start index,
extenders, seeded randomness); `Scheduler` in `scheduler.py` owns queue, cache and binding cycles.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Sequence

from ..cycle_state import CycleState
from ..framework.runtime import Framework, NodePluginScores
from ..interfaces import NodeToStatus, NominatingInfo, NominatingMode
from ..nodeinfo import NodeInfo, Snapshot
from ..status import Code, Status
from ..types import Pod
from .fit_error import NO_NODES_AVAILABLE_ERROR, Diagnosis, FitError

MIN_FEASIBLE_NODES_TO_FIND = 100
MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5
EXTENDER_SCORE_SCALE = 100 // 10  # MaxNodeScore / MaxExtenderPriority

CLEAR_NOMINATED_NODE = NominatingInfo("", NominatingMode.OVERRIDE)


@dataclass
class ScheduleResult:
    suggested_host: str = ""
    evaluated_nodes: int = 0
    feasible_nodes: int = 0
    nominating_info: NominatingInfo | None = None
    scores: list[NodePluginScores] | None = None


class CycleFailure(Exception):
    """A failed scheduling algorithm: the status, and the FitError when nodes were rejected."""

    def __init__(self, status: Status, fit_error: FitError | None = None,
                 nominating_info: NominatingInfo | None = CLEAR_NOMINATED_NODE) -> None:
        super().__init__(status.message())
        self.status = status
        self.fit_error = fit_error
        self.nominating_info = nominating_info


def num_feasible_nodes_to_find(percentage: int, num_all_nodes: int) -> int:
    """`numFeasibleNodesToFind`: all nodes below 100, else an adaptive percentage, at least 100."""
    if num_all_nodes < MIN_FEASIBLE_NODES_TO_FIND:
        return num_all_nodes
    if percentage == 0:
        percentage = max(50 - num_all_nodes // 125, MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND)
    return max(num_all_nodes * percentage // 100, MIN_FEASIBLE_NODES_TO_FIND)


class SchedulingAlgorithm:
    def __init__(self, extenders: Sequence[Any] = (), *, percentage_of_nodes_to_score: int = 0,
                 seed: int = 0) -> None:
        self.extenders = list(extenders)
        self.percentage_of_nodes_to_score = percentage_of_nodes_to_score
        self.next_start_node_index = 0
        self.random = random.Random(seed)
        self._last_feasible = 0

    # --- schedulePod ---------------------------------------------------------------------------

    def schedule_pod(self, fw: Framework, state: CycleState, pod: Pod) -> ScheduleResult:
        snapshot = fw.snapshot()
        if len(snapshot) == 0:
            raise CycleFailure(Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, (NO_NODES_AVAILABLE_ERROR,),
                                      NO_NODES_AVAILABLE_ERROR))
        feasible, diagnosis = self.find_nodes_that_fit_pod(fw, state, pod, snapshot)
        if not feasible:
            raise CycleFailure(Status(Code.UNSCHEDULABLE), FitError(len(snapshot), diagnosis))
        if len(feasible) == 1:
            return ScheduleResult(feasible[0].name, 1 + len(diagnosis.node_to_status), 1)
        scores = self.prioritize_nodes(fw, state, pod, feasible)
        best = max(s.total for s in scores)
        host = self.random.choice([s.name for s in scores if s.total == best])
        return ScheduleResult(host, len(feasible) + len(diagnosis.node_to_status), len(feasible), scores=scores)

    def find_nodes_that_fit_pod(self, fw: Framework, state: CycleState, pod: Pod,
                                snapshot: Snapshot) -> tuple[list[NodeInfo], Diagnosis]:
        diagnosis = Diagnosis(NodeToStatus(absent_nodes_status=Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE)))
        all_nodes = snapshot.node_info_list
        result, status, with_nodes = fw.run_pre_filter_plugins(state, pod)
        diagnosis.unschedulable_plugins = set(with_nodes)
        if not status.is_success():
            if not status.is_rejected():
                raise CycleFailure(Status.as_status(status.as_error() or ""))
            diagnosis.node_to_status.absent_nodes_status = status
            diagnosis.pre_filter_msg = status.message()
            diagnosis.add_plugin_status(status)
            return [], diagnosis
        if pod.nominated_node_name:
            feasible = self._evaluate_nominated_node(fw, state, pod, snapshot, diagnosis)
            if feasible:
                return feasible, diagnosis
        nodes = all_nodes
        if result is not None and not result.all_nodes():
            # Upstream iterates a Go set here, so this order is unspecified; we keep snapshot order.
            nodes = [n for n in all_nodes if n.name in result.node_names]
            diagnosis.node_to_status.absent_nodes_status = Status.new(
                Code.UNSCHEDULABLE_AND_UNRESOLVABLE, f"node(s) didn't satisfy plugin(s) [{' '.join(sorted(with_nodes))}]")
        try:
            feasible = self.find_nodes_that_pass_filters(fw, state, pod, diagnosis, nodes)
        finally:
            if all_nodes:
                processed = len(diagnosis.node_to_status) + self._last_feasible
                self.next_start_node_index = (self.next_start_node_index + processed) % len(all_nodes)
        after = self.find_nodes_that_pass_extenders(pod, feasible, diagnosis.node_to_status)
        if len(after) != len(feasible):
            diagnosis.unschedulable_plugins.add("Extender")
        return after, diagnosis

    def _evaluate_nominated_node(self, fw: Framework, state: CycleState, pod: Pod, snapshot: Snapshot,
                                 diagnosis: Diagnosis) -> list[NodeInfo]:
        info = snapshot.get(pod.nominated_node_name)
        if info is None:
            return []
        try:
            feasible = self.find_nodes_that_pass_filters(fw, state, pod, diagnosis, [info])
            return self.find_nodes_that_pass_extenders(pod, feasible, diagnosis.node_to_status)
        except CycleFailure:
            return []  # upstream logs the error and falls back to all nodes

    def _has_scoring(self, fw: Framework) -> bool:
        return fw.has_score_plugins() or any(e.is_prioritizer() for e in self.extenders)

    def find_nodes_that_pass_filters(self, fw: Framework, state: CycleState, pod: Pod, diagnosis: Diagnosis,
                                     nodes: list[NodeInfo]) -> list[NodeInfo]:
        """Nodes are evaluated from the round-robin start; evaluation stops at numNodesToFind."""
        self._last_feasible = 0
        if not nodes:
            return []
        percentage = fw.percentage_of_nodes_to_score
        if percentage is None:
            percentage = self.percentage_of_nodes_to_score
        to_find = num_feasible_nodes_to_find(percentage, len(nodes))
        if not any(e.is_filter() for e in self.extenders) and not self._has_scoring(fw):
            to_find = 1
        start = self.next_start_node_index
        ordered = [nodes[(start + i) % len(nodes)] for i in range(len(nodes))]
        if not fw.has_filter_plugins():
            feasible = ordered[:to_find]
            self._last_feasible = len(feasible)
            return feasible
        feasible: list[NodeInfo] = []
        for info in ordered:
            status = fw.run_filter_plugins_with_nominated_pods(state, pod, info)
            if status.code is Code.ERROR:
                self._last_feasible = len(feasible)
                raise CycleFailure(Status.as_status(status.as_error() or ""))
            if status.is_success():
                feasible.append(info)
                if len(feasible) >= to_find:
                    break
            else:
                diagnosis.node_to_status.set(info.name, status)
                diagnosis.add_plugin_status(status)
        self._last_feasible = len(feasible)
        return feasible

    def find_nodes_that_pass_extenders(self, pod: Pod, feasible: list[NodeInfo],
                                       statuses: NodeToStatus) -> list[NodeInfo]:
        for extender in self.extenders:
            if not feasible:
                break
            if not extender.is_interested(pod):
                continue
            try:
                feasible, failed, unresolvable = extender.filter(pod, feasible)
            except Exception as exc:  # noqa: BLE001 - any extender failure is an error unless ignorable
                if extender.is_ignorable():
                    continue
                raise CycleFailure(Status.as_status(str(exc))) from None
            for name, msg in unresolvable.items():
                statuses.set(name, Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, msg))
            for name, msg in failed.items():
                if name not in unresolvable:
                    statuses.set(name, Status.new(Code.UNSCHEDULABLE, msg))
        return feasible

    # --- prioritizeNodes -----------------------------------------------------------------------

    def prioritize_nodes(self, fw: Framework, state: CycleState, pod: Pod,
                         nodes: list[NodeInfo]) -> list[NodePluginScores]:
        if not self.extenders and not fw.has_score_plugins():
            result = [NodePluginScores(n.name) for n in nodes]
            for entry in result:
                entry.total = 1
            return result
        status = fw.run_pre_score_plugins(state, pod, nodes)
        if not status.is_success():
            raise CycleFailure(Status.as_status(status.as_error() or ""))
        scores, status = fw.run_score_plugins(state, pod, nodes)
        if not status.is_success():
            raise CycleFailure(Status.as_status(status.as_error() or ""))
        by_name = {s.name: s for s in scores}
        for extender in self.extenders:
            if not extender.is_interested(pod):
                continue
            try:
                prioritized, weight = extender.prioritize(pod, nodes)
            except Exception:  # noqa: BLE001 - prioritize errors are ignored upstream
                continue
            for host, score in prioritized:
                entry = by_name.get(host)
                if entry is None:
                    continue
                final = score * weight * EXTENDER_SCORE_SCALE
                entry.scores.append((extender.name, final))
                entry.total += final
        return scores


__all__ = ["CLEAR_NOMINATED_NODE", "CycleFailure", "ScheduleResult", "SchedulingAlgorithm",
           "num_feasible_nodes_to_find"]
