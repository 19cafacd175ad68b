"""Mirrors pkg/scheduler/framework/plugins/interpodaffinity/scoring.go."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping

from ...interfaces import MAX_NODE_SCORE, NodeScore
from ...nodeinfo import AffinityTerm, PodInfo, WeightedAffinityTerm
from ...types import Node, Pod
from .terms import term_matches

PRE_SCORE_STATE_KEY = "PreScoreInterPodAffinity"

ScoreMap = dict[str, dict[str, int]]


@dataclass
class PreScoreState:
    """topology key -> value -> summed weights; the incoming pod's preferred terms are merged."""

    pod_info: PodInfo
    namespace_labels: Mapping[str, str] | None = None
    topology_score: ScoreMap = field(default_factory=dict)

    def clone(self) -> "PreScoreState":
        """Upstream shares the state: Score never writes it."""
        return self


def _process_term(m: ScoreMap, term: AffinityTerm, weight: int, pod: Pod, ns_labels: Mapping[str, str] | None,
                  node: Node, multiplier: int) -> None:
    if term_matches(term, pod, ns_labels) and term.topology_key in node.labels:
        values = m.setdefault(term.topology_key, {})
        value = node.labels[term.topology_key]
        values[value] = values.get(value, 0) + weight * multiplier


def _process_terms(m: ScoreMap, terms: Iterable[WeightedAffinityTerm], pod: Pod,
                   ns_labels: Mapping[str, str] | None, node: Node, multiplier: int) -> None:
    for t in terms:
        _process_term(m, t.term, t.weight, pod, ns_labels, node, multiplier)


def process_existing_pod(m: ScoreMap, state: PreScoreState, existing: PodInfo, node: Node,
                         hard_pod_affinity_weight: int) -> None:
    """`processExistingPod`: both pods' preferences (and the existing pod's hard affinity) in `m`."""
    if not node.labels:
        return
    incoming = state.pod_info
    _process_terms(m, incoming.preferred_affinity_terms, existing.pod, None, node, 1)
    _process_terms(m, incoming.preferred_anti_affinity_terms, existing.pod, None, node, -1)
    if hard_pod_affinity_weight > 0:
        for t in existing.required_affinity_terms:
            _process_term(m, t, hard_pod_affinity_weight, incoming.pod, state.namespace_labels, node, 1)
    _process_terms(m, existing.preferred_affinity_terms, incoming.pod, state.namespace_labels, node, 1)
    _process_terms(m, existing.preferred_anti_affinity_terms, incoming.pod, state.namespace_labels, node, -1)


def score_node(state: PreScoreState, node: Node) -> int:
    """The sum of the node's domains' scores; negative means anti-affinity dominates."""
    return sum(values.get(node.labels[key], 0) for key, values in state.topology_score.items()
               if key in node.labels)


def normalize_scores(state: PreScoreState, scores: list[NodeScore]) -> None:
    """Min-max scaling to [0, 100], truncated; all equal scores become 0."""
    if not state.topology_score or not scores:
        return
    lo = min(s.score for s in scores)
    diff = max(s.score for s in scores) - lo
    for s in scores:
        s.score = int(float(MAX_NODE_SCORE) * (float(s.score - lo) / float(diff))) if diff > 0 else 0


__all__ = ["PRE_SCORE_STATE_KEY", "PreScoreState", "normalize_scores", "process_existing_pod", "score_node"]
