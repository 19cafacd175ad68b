"""Comparable views of PodTopologySpread's cycle states, for expectations written like upstream's
`preFilterState{...}` / `preScoreState{...}` literals.

Selectors compare as sets of requirements (a `matchLabels` pair equals a one-value `In`), as
upstream's `labels.Selector` values do; critical paths with equal counts compare in name order,
as upstream's `criticalPaths` comparer does.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from reference.plugins.pod_topology_spread.common import Constraint
from reference.plugins.pod_topology_spread.filtering import MAX_INT32, PreFilterState
from reference.plugins.pod_topology_spread.scoring import PreScoreState
from reference.types import LabelSelector


def canonical_selector(s: LabelSelector | None) -> frozenset | None:
    if s is None:
        return None
    reqs = {(k, "In", frozenset({v})) for k, v in s.match_labels.items()}
    reqs |= {(r.key, r.operator, frozenset(r.values)) for r in s.match_expressions}
    return frozenset(reqs)


def Tsc(*, max_skew: int, topology_key: str, selector: LabelSelector | None, min_domains: int,
        node_affinity_policy: str, node_taints_policy: str) -> tuple:
    return (max_skew, topology_key, canonical_selector(selector), min_domains, node_affinity_policy,
            node_taints_policy)


def _tsc_of(c: Constraint) -> tuple:
    return Tsc(max_skew=c.max_skew, topology_key=c.topology_key, selector=c.selector, min_domains=c.min_domains,
               node_affinity_policy=c.node_affinity_policy, node_taints_policy=c.node_taints_policy)


def _sorted_paths(p: tuple[tuple[str, int], tuple[str, int]]) -> tuple:
    (v0, n0), (v1, n1) = p
    if n0 == n1 and v0 > v1:
        v0, v1 = v1, v0
    return (v0, n0), (v1, n1)


def new_critical_paths() -> tuple:
    return ("", MAX_INT32), ("", MAX_INT32)


def PFS(*, constraints: Iterable[tuple] = (), critical_paths: Iterable[tuple] = (),
        tp_value_to_match_num: Iterable[Mapping[str, int]] = ()) -> dict[str, Any]:
    return {"constraints": list(constraints), "critical_paths": [_sorted_paths(p) for p in critical_paths],
            "tp_value_to_match_num": [dict(m) for m in tp_value_to_match_num]}


def pre_filter_state_view(s: PreFilterState) -> dict[str, Any]:
    return PFS(constraints=[_tsc_of(c) for c in s.constraints],
               critical_paths=[p.as_tuples() for p in s.critical_paths],
               tp_value_to_match_num=s.tp_value_to_match_num)


def PSS(*, constraints: Iterable[tuple] = (), ignored_nodes: Iterable[str] = (),
        topology_value_to_pod_counts: Iterable[Mapping[str, int]] = (),
        topology_normalizing_weight: Iterable[float] = ()) -> dict[str, Any]:
    return {"constraints": list(constraints), "ignored_nodes": set(ignored_nodes),
            "topology_value_to_pod_counts": [dict(m) for m in topology_value_to_pod_counts],
            "topology_normalizing_weight": list(topology_normalizing_weight)}


def pre_score_state_view(s: PreScoreState) -> dict[str, Any]:
    return PSS(constraints=[_tsc_of(c) for c in s.constraints], ignored_nodes=s.ignored_nodes,
               topology_value_to_pod_counts=s.topology_value_to_pod_counts,
               topology_normalizing_weight=s.topology_normalizing_weight)
