"""Mirrors pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go.

Feature gate InPlacePodVerticalScalingSchedulerPreemption is off in v1.37.2, so there is no
Skip for pods with a deferred resize. A nil and an empty `nodeSelector` / preferred-terms list
are the same here (the API server's protobuf round trip makes them nil upstream too).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...cycle_state import CycleState, NotFoundError
from ...events import ClusterEventWithHint
from ...interfaces import MAX_NODE_SCORE, FilterPlugin, Handle, NodeScore, PreFilterPlugin, PreFilterResult, \
    PreScorePlugin, ScorePlugin
from ...nodeinfo import NodeInfo
from ...status import SUCCESS, Code, Status
from ...types import Node, Pod
from ..helper import default_normalize_score
from . import hints
from .args import NodeAffinityArgs
from .selector import (
    LazyErrorNodeSelector,
    NodeAffinityParseError,
    PreferredSchedulingTerms,
    RequiredNodeAffinity,
    new_node_selector,
    new_preferred_scheduling_terms,
)

NAME = "NodeAffinity"
PRE_SCORE_STATE_KEY = "PreScore" + NAME
PRE_FILTER_STATE_KEY = "PreFilter" + NAME

ERR_REASON_POD = "node(s) didn't match Pod's node affinity/selector"
ERR_REASON_ENFORCED = "node(s) didn't match scheduler-enforced node affinity"
ERR_REASON_CONFLICT = "pod affinity terms conflict"

_OBJECT_NAME_FIELD = "metadata.name"


@dataclass(frozen=True)
class PreFilterState:
    required: RequiredNodeAffinity

    def clone(self) -> "PreFilterState":
        return self


@dataclass(frozen=True)
class PreScoreState:
    preferred: PreferredSchedulingTerms | None

    def clone(self) -> "PreScoreState":
        return self


def required_node_names(pod: Pod) -> frozenset[str] | None:
    """Node names the required terms pin the pod to via `metadata.name In`, or None for no restriction.

    Within a term the sets intersect (ANDed); across terms they unite (ORed); a term without
    such a field allows every node. An empty result means the terms conflict.
    """
    na = pod.affinity.node_affinity if pod.affinity else None
    if na is None or na.required is None:
        return None
    names: set[str] = set()
    for term in na.required.terms:
        term_names: set[str] | None = None
        for r in term.match_fields:
            if r.key == _OBJECT_NAME_FIELD and r.operator == "In":
                term_names = set(r.values) if term_names is None else term_names & set(r.values)
        if term_names is None:
            return None
        names |= term_names
    return frozenset(names)


def pod_preferred_terms(pod: Pod) -> PreferredSchedulingTerms | None:
    """`getPodPreferredNodeAffinity`; raises NodeAffinityParseError for broken terms."""
    na = pod.affinity.node_affinity if pod.affinity else None
    if na is None or not na.preferred:
        return None
    return new_preferred_scheduling_terms(na.preferred)


class NodeAffinity(PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin):
    NAME = NAME
    ARGS = NodeAffinityArgs

    def __init__(self, args: NodeAffinityArgs | None = None) -> None:
        args = args or NodeAffinityArgs()
        args.validate("")
        added = args.added_affinity
        self._added_selector: LazyErrorNodeSelector | None = None
        self._added_preferred: PreferredSchedulingTerms | None = None
        if added is not None and added.required is not None:
            self._added_selector = new_node_selector(added.required)
        if added is not None and added.preferred:
            self._added_preferred = new_preferred_scheduling_terms(added.preferred)

    @classmethod
    def new(cls, args: NodeAffinityArgs | None, handle: Handle) -> "NodeAffinity":
        return cls(args)

    def pre_filter(self, state: CycleState, pod: Pod,
                   nodes: list[NodeInfo]) -> tuple[PreFilterResult | None, Status]:
        na = pod.affinity.node_affinity if pod.affinity else None
        no_node_affinity = na is None or na.required is None
        if no_node_affinity and self._added_selector is None and not pod.node_selector:
            return None, Status.new(Code.SKIP)
        state.write(PRE_FILTER_STATE_KEY, PreFilterState(RequiredNodeAffinity.of(pod)))
        if no_node_affinity or not na.required.terms:  # type: ignore[union-attr]
            return None, SUCCESS
        names = required_node_names(pod)
        if names is None:
            return None, SUCCESS
        if not names:
            return None, Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_CONFLICT)
        return PreFilterResult(names), SUCCESS

    def events_to_register(self) -> list[ClusterEventWithHint]:
        return hints.events_to_register(self._added_selector)

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status:
        node = _node(node_info)
        if self._added_selector is not None and not self._added_selector.match(node):
            return Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_ENFORCED)
        try:
            required = state.read(PRE_FILTER_STATE_KEY).required
        except NotFoundError:
            # PreFilter disabled: compute here, like upstream's fallback.
            required = RequiredNodeAffinity.of(pod)
        if not required.match(node):
            return Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_POD)
        return SUCCESS

    def pre_score(self, state: CycleState, pod: Pod, nodes: list[NodeInfo]) -> Status:
        try:
            preferred = pod_preferred_terms(pod)
        except NodeAffinityParseError as err:
            return Status.as_status(str(err))
        if preferred is None and self._added_preferred is None:
            return Status.new(Code.SKIP)
        state.write(PRE_SCORE_STATE_KEY, PreScoreState(preferred))
        return SUCCESS

    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> tuple[int, Status]:
        node = _node(node_info)
        count = self._added_preferred.score(node) if self._added_preferred is not None else 0
        try:
            preferred = state.read(PRE_SCORE_STATE_KEY).preferred
        except NotFoundError:
            # PreScore disabled: compute here, like upstream's fallback.
            try:
                preferred = pod_preferred_terms(pod)
            except NodeAffinityParseError as err:
                return 0, Status.as_status(str(err))
        if preferred is not None:
            count += preferred.score(node)
        return count, SUCCESS

    def score_extensions(self) -> "NodeAffinity":
        return self

    def normalize_score(self, state: CycleState, pod: Pod, scores: list[NodeScore]) -> Status:
        return default_normalize_score(MAX_NODE_SCORE, False, scores)


def _node(node_info: NodeInfo) -> Node:
    assert node_info.node is not None, "Filter and Score only see NodeInfos with a node"
    return node_info.node


__all__ = [
    "ERR_REASON_CONFLICT",
    "ERR_REASON_ENFORCED",
    "ERR_REASON_POD",
    "NAME",
    "NodeAffinity",
    "NodeAffinityArgs",
    "required_node_names",
]
