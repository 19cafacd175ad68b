"""Mirrors pkg/scheduler/framework/plugins/podtopologyspread/common.go and helper/spread.go.

Selectors are kept as `LabelSelector | None` in the sense of `metav1.LabelSelectorAsSelector`:
None is `labels.Nothing()`, a selector without requirements is `labels.Everything()`. Merged
selectors keep every requirement ANDed, so extra key=value pairs go in as `In` expressions rather
than into `match_labels` (where a clashing key would silently replace the original value).

Feature gates (v1.37.2 defaults): NodeInclusionPolicyInPodTopologySpread is GA and locked on, so
the policies always apply per constraint; MatchLabelKeysInPodTopologySpread is on, so the
scheduler merges `matchLabelKeys` into the selector itself (the API server may have merged them
already under MatchLabelKeysInPodTopologySpreadSelectorMerge; a second merge adds the same
requirement again and changes nothing); TaintTolerationComparisonOperators is off, so
`Toleration.tolerates` is the whole taint check.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Mapping

from ...nodeinfo import PodInfo
from ...selectors import LabelSelectorError, label_selector_as_selector, label_selector_matches, pod_tolerates_taints
from ..node_affinity.selector import RequiredNodeAffinity
from ...types import (NO_EXECUTE, NO_SCHEDULE, LabelSelector, LabelSelectorRequirement, Node, Pod,
                      TopologySpreadConstraint, Workload)

LABEL_HOSTNAME = "kubernetes.io/hostname"
LABEL_TOPOLOGY_ZONE = "topology.kubernetes.io/zone"
DO_NOT_SCHEDULE = "DoNotSchedule"
SCHEDULE_ANYWAY = "ScheduleAnyway"
HONOR = "Honor"
IGNORE = "Ignore"


@dataclass(frozen=True)
class Constraint:
    """`topologySpreadConstraint`: a v1 constraint with its selector resolved and defaults applied."""

    max_skew: int
    topology_key: str
    selector: LabelSelector | None
    min_domains: int = 1
    node_affinity_policy: str = HONOR
    node_taints_policy: str = IGNORE

    def match_node_inclusion_policies(self, pod: Pod, node: Node, required: RequiredNodeAffinity) -> bool:
        """`matchNodeInclusionPolicies`; `required` is `GetRequiredNodeAffinity(pod)`."""
        if self.node_affinity_policy == HONOR and not required.match(node):
            return False
        if self.node_taints_policy == HONOR and not pod_tolerates_taints(pod, node.taints, (NO_SCHEDULE, NO_EXECUTE)):
            return False
        return True


def selector_is_empty(selector: LabelSelector | None) -> bool:
    """`labels.Selector.Empty()`: true only for Everything (Nothing is not empty)."""
    return selector is not None and not selector.match_labels and not selector.match_expressions


def selector_matches(selector: LabelSelector | None, labels: Mapping[str, str]) -> bool:
    return label_selector_matches(selector, labels)


def _in_requirements(labels: Mapping[str, str]) -> tuple[LabelSelectorRequirement, ...]:
    return tuple(LabelSelectorRequirement(k, "In", (v,)) for k, v in sorted(labels.items()))


def merge_label_set_with_selector(match_labels: Mapping[str, str],
                                  selector: LabelSelector | None) -> LabelSelector | None:
    """`mergeLabelSetWithSelector`: Nothing stays Nothing; otherwise AND the pairs in."""
    if selector is None:
        return None
    return LabelSelector(match_labels=dict(selector.match_labels),
                         match_expressions=_in_requirements(match_labels) + selector.match_expressions)


def filter_constraints(constraints: Iterable[TopologySpreadConstraint], pod_labels: Mapping[str, str],
                       action: str) -> list[Constraint]:
    """`filterTopologySpreadConstraints`: the constraints with `action`, selectors resolved; a selector
    `LabelSelectorAsSelector` rejects raises `LabelSelectorError`."""
    result = []
    for c in constraints:
        if c.when_unsatisfiable != action:
            continue
        label_selector_as_selector(c.label_selector)
        selector = c.label_selector
        match_labels = {k: pod_labels[k] for k in c.match_label_keys if k in pod_labels}
        if match_labels:
            selector = merge_label_set_with_selector(match_labels, selector)
        result.append(Constraint(
            max_skew=c.max_skew, topology_key=c.topology_key, selector=selector,
            min_domains=1 if c.min_domains is None else c.min_domains,
            node_affinity_policy=c.node_affinity_policy or HONOR,
            node_taints_policy=c.node_taints_policy or IGNORE))
    return result


# (apiVersion, kind) of the controllers `helper.DefaultSelector` follows.
_CONTROLLERS = {("v1", "ReplicationController"), ("apps/v1", "ReplicaSet"), ("apps/v1", "StatefulSet")}


def default_selector(pod: Pod, workloads: Iterable[Workload]) -> LabelSelector:
    """`helper.DefaultSelector`: matching Services' selectors plus the controlling owner's."""
    in_namespace = [w for w in workloads if w.namespace == pod.namespace]
    label_set: dict[str, str] = {}
    for svc in in_namespace:
        if svc.kind == "Service" and label_selector_matches(svc.selector, pod.labels):
            label_set.update(svc.selector.match_labels)
    owner = next((o for o in pod.owner_references if o.controller), None)
    if owner is None or (owner.api_version, owner.kind) not in _CONTROLLERS:
        return LabelSelector(match_labels=label_set)
    ctrl = next((w for w in in_namespace if w.kind == owner.kind and w.name == owner.name), None)
    if ctrl is None:
        return LabelSelector(match_labels=label_set)
    if owner.kind == "ReplicationController":
        return LabelSelector(match_labels={**label_set, **ctrl.selector.match_labels})
    try:
        label_selector_as_selector(ctrl.selector)
    except LabelSelectorError:  # upstream adds only the requirements of a selector that parses
        return LabelSelector(match_labels=label_set)
    return LabelSelector(match_labels=label_set, match_expressions=(
        _in_requirements(ctrl.selector.match_labels) + ctrl.selector.match_expressions))


def build_default_constraints(defaults: Iterable[TopologySpreadConstraint], pod: Pod,
                              workloads: Iterable[Workload], action: str) -> list[Constraint]:
    """`buildDefaultConstraints`: none unless some workload gives the pod a non-empty selector."""
    constraints = filter_constraints(defaults, pod.labels, action)
    if not constraints:
        return []
    selector = default_selector(pod, workloads)
    if selector_is_empty(selector):
        return []
    return [replace(c, selector=selector) for c in constraints]


def node_labels_match_spread_constraints(node_labels: Mapping[str, str], constraints: Iterable[Constraint]) -> bool:
    return all(c.topology_key in node_labels for c in constraints)


def count_pods_match_selector(pod_infos: Iterable[PodInfo], selector: LabelSelector | None, namespace: str) -> int:
    """Pods of `namespace`, not terminating, matching `selector`; an Everything selector counts 0."""
    if selector_is_empty(selector):
        return 0
    return sum(1 for p in pod_infos
               if p.pod.deletion_timestamp is None and p.pod.namespace == namespace
               and selector_matches(selector, p.pod.labels))


__all__ = [
    "Constraint",
    "DO_NOT_SCHEDULE",
    "HONOR",
    "IGNORE",
    "LABEL_HOSTNAME",
    "LABEL_TOPOLOGY_ZONE",
    "SCHEDULE_ANYWAY",
    "build_default_constraints",
    "count_pods_match_selector",
    "default_selector",
    "filter_constraints",
    "merge_label_set_with_selector",
    "node_labels_match_spread_constraints",
    "selector_is_empty",
    "selector_matches",
]
