"""Label and node selector matching, after apimachinery `labels` and component-helpers `nodeaffinity`."""

from __future__ import annotations

from typing import Mapping

from .types import LabelSelector, NodeAffinity, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, Node, Pod


def _requirement_matches(labels: Mapping[str, str], key: str, operator: str, values: tuple[str, ...]) -> bool:
    present = key in labels
    if operator == "In":
        return present and labels[key] in values
    if operator == "NotIn":
        return not present or labels[key] not in values
    if operator == "Exists":
        return present
    if operator == "DoesNotExist":
        return not present
    if operator in ("Gt", "Lt"):
        if not present or len(values) != 1:
            return False
        try:
            have, want = int(labels[key]), int(values[0])
        except ValueError:
            return False
        return have > want if operator == "Gt" else have < want
    return False


def label_selector_matches(selector: LabelSelector | None, labels: Mapping[str, str]) -> bool:
    """`metav1.LabelSelectorAsSelector(s).Matches`: nil selects nothing, empty selects everything."""
    if selector is None:
        return False
    if any(labels.get(k) != v for k, v in selector.match_labels.items()):
        return False
    return all(_requirement_matches(labels, r.key, r.operator, r.values) for r in selector.match_expressions)


def _field_matches(node: Node, r: NodeSelectorRequirement) -> bool:
    if r.key != "metadata.name" or len(r.values) != 1:
        return False
    if r.operator == "In":
        return node.name == r.values[0]
    if r.operator == "NotIn":
        return node.name != r.values[0]
    return False


def node_selector_term_matches(term: NodeSelectorTerm, node: Node) -> bool:
    """An empty term matches no node; otherwise every expression and field must match."""
    if not term.match_expressions and not term.match_fields:
        return False
    return all(_requirement_matches(node.labels, r.key, r.operator, r.values) for r in term.match_expressions) and all(
        _field_matches(node, r) for r in term.match_fields)


def node_selector_matches(selector: NodeSelector, node: Node) -> bool:
    """Terms are ORed."""
    return any(node_selector_term_matches(term, node) for term in selector.terms)


def required_node_affinity_matches(pod: Pod, node: Node) -> bool:
    """`nodeaffinity.GetRequiredNodeAffinity(pod).Match(node)`: nodeSelector AND required affinity."""
    if any(node.labels.get(k) != v for k, v in pod.node_selector.items()):
        return False
    affinity: NodeAffinity | None = pod.affinity.node_affinity if pod.affinity else None
    if affinity is None or affinity.required is None:
        return True
    return node_selector_matches(affinity.required, node)


def pod_tolerates_taints(pod: Pod, taints, effects: tuple[str, ...]) -> bool:
    """True if every taint with one of `effects` is tolerated by some toleration of the pod."""
    return all(
        any(tol.tolerates(taint) for tol in pod.tolerations) for taint in taints if taint.effect in effects)


__all__ = [
    "label_selector_matches",
    "node_selector_matches",
    "node_selector_term_matches",
    "pod_tolerates_taints",
    "required_node_affinity_matches",
]
