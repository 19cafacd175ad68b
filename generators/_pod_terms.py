"""Pod-side terms: label selectors, `pod_affinity_terms()`, `topology_spread_constraints()`.

Selectors name the pod label pools, so terms select the pods scenarios contain. Valid as
core/validation checks them (validatePodAffinityTerm, validateTopologySpreadConstraints).

Pod affinity terms carry no matchLabelKeys/mismatchLabelKeys: the API server folds those into
`labelSelector` when it stores the pod (pod strategy applyMatchLabelKeysAndMismatchLabelKeys) and
the scheduler never reads them, so a scenario using them would mean different things to a
backend with an API server and to one without.
"""

from __future__ import annotations

from typing import Sequence

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from ._draw import Draw, Manifest, elements, flag, pick, subset
from ._node_terms import draw_node_affinity
from .pools import NAMESPACES, POD_LABEL_VALUES, TOPOLOGY_KEYS

_POD_LABEL_KEYS = tuple(POD_LABEL_VALUES)
WHEN_UNSATISFIABLE = ("DoNotSchedule", "ScheduleAnyway")


def draw_label_selector(draw: Draw) -> Manifest:
    """A selector over the pod label pools; sometimes empty (it then selects every pod)."""
    if draw(flag(5)):
        return {}
    key = pick(draw, _POD_LABEL_KEYS)
    if not draw(flag(40)):
        return {"matchLabels": {key: pick(draw, POD_LABEL_VALUES[key])}}
    operator = pick(draw, ("In", "NotIn", "Exists", "DoesNotExist"))
    requirement: Manifest = {"key": key, "operator": operator}
    if operator in ("In", "NotIn"):
        requirement["values"] = subset(draw, POD_LABEL_VALUES[key], min_size=1, max_size=2)
    return {"matchExpressions": [requirement]}


def _selector_keys(selector: Manifest) -> set[str]:
    return set(selector.get("matchLabels", {})) | {r["key"] for r in selector.get("matchExpressions", [])}


def draw_pod_affinity_term(draw: Draw, namespaces: Sequence[str] = NAMESPACES) -> Manifest:
    term: Manifest = {}
    if not draw(flag(5)):  # without a labelSelector the term selects no pod
        term["labelSelector"] = draw_label_selector(draw)
    term["topologyKey"] = pick(draw, TOPOLOGY_KEYS)
    if len(namespaces) > 1 and draw(flag(15)):
        term["namespaces"] = subset(draw, namespaces, min_size=1, max_size=2)
    if draw(flag(10)):
        term["namespaceSelector"] = pick(draw, ({}, {"matchLabels": {"team": "a"}}))
    return term


def pod_affinity_terms(*, namespaces: Sequence[str] = NAMESPACES) -> SearchStrategy[Manifest]:
    """One PodAffinityTerm: a selector over the pod label pools, a topology key (hostname, zone or
    region), and sometimes `namespaces` (from `namespaces`) or a `namespaceSelector`.

    Shrinks towards {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "kubernetes.io/hostname"}.
    """
    if isinstance(namespaces, str) or not namespaces:
        raise ValueError(f"pod_affinity_terms(namespaces={namespaces!r}): pass a non-empty sequence of namespaces")
    namespaces = tuple(namespaces)
    return st.composite(lambda draw: draw_pod_affinity_term(draw, namespaces))()


def _draw_pod_affinity(draw: Draw, namespaces: Sequence[str]) -> Manifest:
    """Required and/or preferred terms (PodAffinity and PodAntiAffinity have the same shape)."""
    out: Manifest = {}
    preferred = draw(flag(50))
    if not preferred or draw(flag(30)):
        out["requiredDuringSchedulingIgnoredDuringExecution"] = elements(
            draw, 1, 2, lambda d, i: draw_pod_affinity_term(d, namespaces), more=30)
    if preferred:
        out["preferredDuringSchedulingIgnoredDuringExecution"] = elements(draw, 1, 2, lambda d, i: {
            "weight": pick(d, (1, 50, 100)), "podAffinityTerm": draw_pod_affinity_term(d, namespaces)}, more=30)
    return out


def draw_affinity(draw: Draw, *, nodes: Sequence[str], namespaces: Sequence[str]) -> Manifest:
    """A pod's `affinity`: at least one of nodeAffinity, podAffinity, podAntiAffinity."""
    kinds = subset(draw, ("nodeAffinity", "podAntiAffinity", "podAffinity"), min_size=1, max_size=3)
    out: Manifest = {}
    for kind in sorted(kinds):
        out[kind] = draw_node_affinity(draw, nodes) if kind == "nodeAffinity" else _draw_pod_affinity(draw, namespaces)
    return out


def draw_spread_constraint(draw: Draw) -> Manifest:
    when = pick(draw, WHEN_UNSATISFIABLE)
    constraint: Manifest = {"maxSkew": pick(draw, (1, 2, 3)), "topologyKey": pick(draw, TOPOLOGY_KEYS),
                            "whenUnsatisfiable": when}
    if not draw(flag(5)):  # without a labelSelector the constraint counts no pod
        constraint["labelSelector"] = selector = draw_label_selector(draw)
        free_keys = [k for k in _POD_LABEL_KEYS if k not in _selector_keys(selector)]
        if free_keys and draw(flag(15)):
            # matchLabelKeys must be valid keys absent from labelSelector (ValidateMatchLabelKeysInTopologySpread).
            constraint["matchLabelKeys"] = subset(draw, free_keys, min_size=1, max_size=2)
    if when == "DoNotSchedule" and draw(flag(20)):
        constraint["minDomains"] = pick(draw, (1, 2, 3))
    if draw(flag(20)):
        constraint["nodeAffinityPolicy"] = pick(draw, ("Honor", "Ignore"))
    if draw(flag(20)):
        constraint["nodeTaintsPolicy"] = pick(draw, ("Ignore", "Honor"))
    return constraint


def draw_spread_constraints(draw: Draw, max_size: int) -> list[Manifest]:
    """Constraints unique by (topologyKey, whenUnsatisfiable), as ValidateSpreadConstraintNotRepeat requires."""
    seen: set[tuple[str, str]] = set()

    def constraint(draw: Draw, i: int) -> Manifest | None:
        c = draw_spread_constraint(draw)
        return None if (c["topologyKey"], c["whenUnsatisfiable"]) in seen else c
    return elements(draw, 1, max_size, constraint, more=30,
                    kept=lambda c: seen.add((c["topologyKey"], c["whenUnsatisfiable"])))


def topology_spread_constraints() -> SearchStrategy[Manifest]:
    """One TopologySpreadConstraint: maxSkew 1-3, a pooled topology key, DoNotSchedule or
    ScheduleAnyway, a selector over the pod label pools, and sometimes matchLabelKeys,
    minDomains (DoNotSchedule only) and node inclusion policies.

    Shrinks towards {"maxSkew": 1, "topologyKey": "kubernetes.io/hostname", "whenUnsatisfiable": "DoNotSchedule",
    "labelSelector": {"matchLabels": {"app": "web"}}}.
    """
    return st.composite(lambda draw: draw_spread_constraint(draw))()


__all__ = ["WHEN_UNSATISFIABLE", "draw_affinity", "draw_label_selector", "draw_pod_affinity_term",
           "draw_spread_constraint", "draw_spread_constraints", "pod_affinity_terms", "topology_spread_constraints"]
