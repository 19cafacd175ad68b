"""Mirrors pkg/scheduler/framework/plugins/interpodaffinity/plugin.go.

EnqueueExtensions are in hints.py. Not modelled: SignPlugin, which the reference framework has no
interface for.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping

from ...cycle_state import CycleState, NotFoundError
from ...events import ClusterEventWithHint
from ...interfaces import (FilterPlugin, Handle, NodeScore, PreFilterPlugin, PreFilterResult, PreScorePlugin,
                           ScorePlugin)
from ...nodeinfo import NodeInfo, PodInfo, WeightedAffinityTerm
from ...status import SUCCESS, Code, Status
from ...types import Pod
from .hints import events_to_register as hint_registrations
from .args import InterPodAffinityArgs
from .filtering import (PRE_FILTER_STATE_KEY, PreFilterState, existing_anti_affinity_counts, filter_node,
                        incoming_affinity_anti_affinity_counts)
from .scoring import PRE_SCORE_STATE_KEY, PreScoreState, normalize_scores, process_existing_pod, score_node
from .terms import merge_namespaces

NAME = "InterPodAffinity"


def _not_found(prefix: str, key: str) -> Status:
    return Status.as_status(f'{prefix} "{key}" from cycleState: not found')


class InterPodAffinity(PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin):
    NAME = NAME
    ARGS = InterPodAffinityArgs

    def __init__(self, args: InterPodAffinityArgs, handle: Handle) -> None:
        self.args = args
        self._handle = handle

    def events_to_register(self) -> list[ClusterEventWithHint]:
        return hint_registrations()

    @classmethod
    def new(cls, args: InterPodAffinityArgs | None, handle: Handle) -> "InterPodAffinity":
        args = args or InterPodAffinityArgs()
        args.validate("")
        return cls(args, handle)

    def _namespaces(self) -> Mapping[str, Mapping[str, str]]:
        return self._handle.snapshot().namespace_labels

    def _namespace_labels(self, namespace: str) -> Mapping[str, str] | None:
        """`GetNamespaceLabelsSnapshot`: nil (an empty set) for an unknown namespace."""
        labels = self._namespaces().get(namespace)
        return None if labels is None else dict(labels)

    # --- PreFilter / Filter ---------------------------------------------------------------

    def pre_filter(self, state: CycleState, pod: Pod,
                   nodes: list[NodeInfo]) -> tuple[PreFilterResult | None, Status]:
        info = PodInfo.of(pod)
        if info.parse_error is not None:
            return None, Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, f"parsing pod: {info.parse_error}")
        namespaces = self._namespaces()
        info = replace(info,
                       required_affinity_terms=tuple(merge_namespaces(t, namespaces)
                                                     for t in info.required_affinity_terms),
                       required_anti_affinity_terms=tuple(merge_namespaces(t, namespaces)
                                                          for t in info.required_anti_affinity_terms))
        s = PreFilterState(info, self._namespace_labels(pod.namespace))
        s.existing_anti_affinity_counts = existing_anti_affinity_counts(
            pod, s.namespace_labels, self._handle.snapshot().have_pods_with_required_anti_affinity_list())
        s.affinity_counts, s.anti_affinity_counts = incoming_affinity_anti_affinity_counts(info, nodes)
        if (not s.existing_anti_affinity_counts and not info.required_affinity_terms
                and not info.required_anti_affinity_terms):
            return None, Status.new(Code.SKIP)
        state.write(PRE_FILTER_STATE_KEY, s)
        return None, SUCCESS

    def pre_filter_extensions(self) -> "InterPodAffinity":
        return self

    def _pre_filter_state(self, state: CycleState) -> PreFilterState | Status:
        try:
            return state.read(PRE_FILTER_STATE_KEY)
        except NotFoundError:
            return _not_found("error reading", PRE_FILTER_STATE_KEY)

    def add_pod(self, state: CycleState, pod: Pod, to_add: PodInfo, node_info: NodeInfo) -> Status:
        s = self._pre_filter_state(state)
        if isinstance(s, Status):
            return s
        assert node_info.node is not None
        s.update_with_pod(to_add, node_info.node, 1)
        return SUCCESS

    def remove_pod(self, state: CycleState, pod: Pod, to_remove: PodInfo, node_info: NodeInfo) -> Status:
        s = self._pre_filter_state(state)
        if isinstance(s, Status):
            return s
        assert node_info.node is not None
        s.update_with_pod(to_remove, node_info.node, -1)
        return SUCCESS

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status:
        s = self._pre_filter_state(state)
        if isinstance(s, Status):
            return s
        assert node_info.node is not None
        return filter_node(s, node_info.node)

    # --- PreScore / Score -----------------------------------------------------------------

    def pre_score(self, state: CycleState, pod: Pod, nodes: list[NodeInfo]) -> Status:
        a = pod.affinity
        has_constraints = a is not None and (bool(a.pod_affinity and a.pod_affinity.preferred)
                                             or bool(a.pod_anti_affinity and a.pod_anti_affinity.preferred))
        if self.args.ignore_preferred_terms_of_existing_pods and not has_constraints:
            return Status.new(Code.SKIP)
        snapshot = self._handle.snapshot()
        # Without preferred terms of its own, only existing pods with affinity can contribute.
        all_nodes = snapshot.node_info_list if has_constraints else snapshot.have_pods_with_affinity_list()
        info = PodInfo.of(pod)
        if info.parse_error is not None:  # PreFilter has rejected the pod already, unless it is disabled
            return Status.as_status(f"failed to parse pod: {info.parse_error}")
        namespaces = self._namespaces()

        def merged(terms: tuple[WeightedAffinityTerm, ...]) -> tuple[WeightedAffinityTerm, ...]:
            return tuple(replace(t, term=merge_namespaces(t.term, namespaces)) for t in terms)

        info = replace(info, preferred_affinity_terms=merged(info.preferred_affinity_terms),
                       preferred_anti_affinity_terms=merged(info.preferred_anti_affinity_terms))
        s = PreScoreState(info, self._namespace_labels(pod.namespace))
        contributed = False
        for node_info in all_nodes:
            assert node_info.node is not None
            node_scores: dict[str, dict[str, int]] = {}
            for existing in (node_info.pods if has_constraints else node_info.pods_with_affinity):
                process_existing_pod(node_scores, s, existing, node_info.node, self.args.hard_pod_affinity_weight)
            contributed = contributed or bool(node_scores)
            for key, values in node_scores.items():
                merged_values = s.topology_score.setdefault(key, {})
                for value, score in values.items():
                    merged_values[value] = merged_values.get(value, 0) + score
        if not contributed:
            return Status.new(Code.SKIP)
        state.write(PRE_SCORE_STATE_KEY, s)
        return SUCCESS

    def _pre_score_state(self, state: CycleState) -> PreScoreState | Status:
        try:
            return state.read(PRE_SCORE_STATE_KEY)
        except NotFoundError:
            return _not_found("failed to read", PRE_SCORE_STATE_KEY)

    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> tuple[int, Status]:
        s = self._pre_score_state(state)
        if isinstance(s, Status):
            return 0, s
        assert node_info.node is not None
        return score_node(s, node_info.node), SUCCESS

    def score_extensions(self) -> "InterPodAffinity":
        return self

    def normalize_score(self, state: CycleState, pod: Pod, scores: list[NodeScore]) -> Status:
        s = self._pre_score_state(state)
        if isinstance(s, Status):
            return s
        normalize_scores(s, scores)
        return SUCCESS


__all__ = ["InterPodAffinity", "NAME"]
