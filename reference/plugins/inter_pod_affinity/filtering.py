"""Mirrors pkg/scheduler/framework/plugins/interpodaffinity/filtering.go.

Feature gates (v1.37.2 defaults): InterPodAffinityHostnameFastPath is alpha and off, so every term
goes through the cluster-wide topology counts; InPlacePodVerticalScalingSchedulerPreemption is
off, so a deferred resize never makes PreFilter skip or Filter pass.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping

from ...nodeinfo import AffinityTerm, NodeInfo, PodInfo
from ...status import SUCCESS, Code, Status
from ...types import Node, Pod
from .terms import pod_matches_all_affinity_terms, term_matches

PRE_FILTER_STATE_KEY = "PreFilterInterPodAffinity"
ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't satisfy existing pods anti-affinity rules"
ERR_REASON_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod affinity rules"
ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod anti-affinity rules"

TopologyPair = tuple[str, str]


class TopologyCounts(dict[TopologyPair, int]):
    """`topologyToMatchedTermCount`: (topology key, value) -> matching pods; zero entries dropped."""

    def update_pair(self, node: Node, key: str, value: int) -> None:
        if key in node.labels:
            pair = (key, node.labels[key])
            self[pair] = self.get(pair, 0) + value
            if self[pair] == 0:
                del self[pair]

    def update_with_affinity_terms(self, terms: Iterable[AffinityTerm], pod: Pod, node: Node, value: int) -> None:
        """Count `pod` once per term, if it matches all of them."""
        terms = list(terms)
        if pod_matches_all_affinity_terms(terms, pod):
            for t in terms:
                self.update_pair(node, t.topology_key, value)

    def update_with_anti_affinity_terms(self, terms: Iterable[AffinityTerm], pod: Pod,
                                        ns_labels: Mapping[str, str] | None, node: Node, value: int) -> None:
        """Count `pod` once per term it matches."""
        for t in terms:
            if term_matches(t, pod, ns_labels):
                self.update_pair(node, t.topology_key, value)

    def clone(self) -> "TopologyCounts":
        return TopologyCounts(self)


@dataclass
class PreFilterState:
    """Counts computed at PreFilter; the incoming pod's terms have their namespaces merged."""

    pod_info: PodInfo
    namespace_labels: Mapping[str, str] | None = None
    existing_anti_affinity_counts: TopologyCounts = field(default_factory=TopologyCounts)
    affinity_counts: TopologyCounts = field(default_factory=TopologyCounts)
    anti_affinity_counts: TopologyCounts = field(default_factory=TopologyCounts)

    def clone(self) -> "PreFilterState":
        return PreFilterState(self.pod_info, self.namespace_labels, self.existing_anti_affinity_counts.clone(),
                              self.affinity_counts.clone(), self.anti_affinity_counts.clone())

    def update_with_pod(self, p: PodInfo, node: Node, multiplier: int) -> None:
        """`updateWithPod`: add (+1) or remove (-1) an existing pod's contribution on `node`."""
        incoming = self.pod_info
        self.existing_anti_affinity_counts.update_with_anti_affinity_terms(
            p.required_anti_affinity_terms, incoming.pod, self.namespace_labels, node, multiplier)
        self.affinity_counts.update_with_affinity_terms(incoming.required_affinity_terms, p.pod, node, multiplier)
        self.anti_affinity_counts.update_with_anti_affinity_terms(
            incoming.required_anti_affinity_terms, p.pod, None, node, multiplier)


def existing_anti_affinity_counts(incoming: Pod, ns_labels: Mapping[str, str] | None,
                                  nodes: Iterable[NodeInfo]) -> TopologyCounts:
    """Existing pods' required anti-affinity terms that the incoming pod matches."""
    counts = TopologyCounts()
    for info in nodes:
        assert info.node is not None
        for existing in info.pods_with_required_anti_affinity:
            counts.update_with_anti_affinity_terms(existing.required_anti_affinity_terms, incoming, ns_labels,
                                                   info.node, 1)
    return counts


def incoming_affinity_anti_affinity_counts(pod_info: PodInfo,
                                           nodes: Iterable[NodeInfo]) -> tuple[TopologyCounts, TopologyCounts]:
    """Existing pods matching all the incoming pod's affinity terms / each anti-affinity term."""
    affinity, anti = TopologyCounts(), TopologyCounts()
    if not pod_info.required_affinity_terms and not pod_info.required_anti_affinity_terms:
        return affinity, anti
    for info in nodes:
        assert info.node is not None
        for existing in info.pods:
            affinity.update_with_affinity_terms(pod_info.required_affinity_terms, existing.pod, info.node, 1)
            anti.update_with_anti_affinity_terms(pod_info.required_anti_affinity_terms, existing.pod, None,
                                                 info.node, 1)
    return affinity, anti


def _node_matches_affinity(state: PreFilterState, node: Node) -> bool:
    """`nodeTopologyMatchesAffinity`; a first pod of a self-affine group may go anywhere with the keys."""
    terms = state.pod_info.required_affinity_terms
    if not terms:
        return True
    pods_exist = True
    for term in terms:
        value = node.labels.get(term.topology_key)
        if value is None:
            return False
        if state.affinity_counts.get((term.topology_key, value), 0) <= 0:
            pods_exist = False
    if pods_exist:
        return True
    return not state.affinity_counts and pod_matches_all_affinity_terms(terms, state.pod_info.pod)


def _node_satisfies_anti_affinity(state: PreFilterState, node: Node) -> bool:
    """`satisfyPodAntiAffinity`."""
    if not state.anti_affinity_counts:
        return True
    return not any(state.anti_affinity_counts.get((t.topology_key, node.labels[t.topology_key]), 0) > 0
                   for t in state.pod_info.required_anti_affinity_terms if t.topology_key in node.labels)


def _node_satisfies_existing_anti_affinity(state: PreFilterState, node: Node) -> bool:
    """`satisfyExistingPodsAntiAffinity`."""
    counts = state.existing_anti_affinity_counts
    return not counts or not any(counts.get(pair, 0) > 0 for pair in node.labels.items())


def filter_node(state: PreFilterState, node: Node) -> Status:
    if not _node_matches_affinity(state, node):
        return Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_AFFINITY_RULES_NOT_MATCH)
    if not _node_satisfies_anti_affinity(state, node):
        return Status.new(Code.UNSCHEDULABLE, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH)
    if not _node_satisfies_existing_anti_affinity(state, node):
        return Status.new(Code.UNSCHEDULABLE, ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH)
    return SUCCESS


__all__ = [
    "ERR_REASON_AFFINITY_RULES_NOT_MATCH",
    "ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH",
    "ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH",
    "PRE_FILTER_STATE_KEY",
    "PreFilterState",
    "TopologyCounts",
    "existing_anti_affinity_counts",
    "filter_node",
    "incoming_affinity_anti_affinity_counts",
]
