"""Mirrors pkg/scheduler/framework/plugins/interpodaffinity/plugin.go (mergeAffinityTermNamespacesIfNotEmpty).

Also `AffinityTerm.Matches` and `podMatchesAllAffinityTerms` (filtering.go) as the plugin uses them.

matchLabelKeys / mismatchLabelKeys: in v1.37.2 the scheduler never reads them. The API server
merges them into `labelSelector` when the pod is created (pkg/registry/core/pod/strategy.go
`applyMatchLabelKeysAndMismatchLabelKeys`, gate MatchLabelKeysInPodAffinity, GA and locked on),
and `framework.NewPodInfo` only parses `labelSelector`. The reference mirrors the scheduler side:
pods reach it as stored by the API server, so the keys are ignored here.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping

from ...nodeinfo import AffinityTerm
from ...selectors import label_selector_matches
from ...types import Pod


def term_matches(term: AffinityTerm, pod: Pod, namespace_labels: Mapping[str, str] | None) -> bool:
    """`AffinityTerm.Matches`: nil namespace labels are an empty set, which an empty selector matches."""
    in_namespace = pod.namespace in term.namespaces or label_selector_matches(
        term.namespace_selector, namespace_labels or {})
    return in_namespace and label_selector_matches(term.selector, pod.labels)


def merge_namespaces(term: AffinityTerm, namespaces: Mapping[str, Mapping[str, str]]) -> AffinityTerm:
    """Unroll a non-empty namespaceSelector into `namespaces`; the selector becomes Nothing (None).

    An empty selector (all namespaces) stays, so it keeps matching every namespace.
    """
    sel = term.namespace_selector
    if sel is not None and not sel.match_labels and not sel.match_expressions:
        return term
    selected = {name for name, labels in namespaces.items() if label_selector_matches(sel, labels)}
    return replace(term, namespaces=term.namespaces | selected, namespace_selector=None)


def pod_matches_all_affinity_terms(terms: tuple[AffinityTerm, ...] | list[AffinityTerm], pod: Pod) -> bool:
    """True if `terms` is non-empty and `pod` matches each (namespaces already merged)."""
    return bool(terms) and all(term_matches(t, pod, None) for t in terms)


__all__ = ["merge_namespaces", "pod_matches_all_affinity_terms", "term_matches"]
