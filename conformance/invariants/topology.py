"""Rules over topology domains, judged from the outcome alone: required inter-pod (anti-)affinity and
topology spread with DoNotSchedule. Both count pods across nodes, so they are judged on bounds of
what the scheduler saw (judge.py): counts that only grow with more pods on the fewest pods it
certainly saw, counts it needs on the most pods it may have seen.
"""

from __future__ import annotations

import json
from itertools import combinations

from reference.plugins.inter_pod_affinity.filtering import (
    ERR_REASON_AFFINITY_RULES_NOT_MATCH, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
    ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH, PRE_FILTER_STATE_KEY as AFFINITY_STATE, TopologyCounts,
    _node_matches_affinity, _node_satisfies_anti_affinity, _node_satisfies_existing_anti_affinity)
from reference.plugins.inter_pod_affinity.terms import pod_matches_all_affinity_terms
from reference.plugins.pod_topology_spread.common import DO_NOT_SCHEDULE, count_pods_match_selector
from reference.plugins.pod_topology_spread.filtering import (
    PRE_FILTER_STATE_KEY as SPREAD_STATE, CriticalPaths, PreFilterState, filter_node)
from reference.nodeinfo import PodInfo
from reference.status import SUCCESS, Code, Status
from reference.types import Pod

from ..recipes.constrained import Constrained
from .base import invariant
from .judge import Judge
from .run import Run

AFFINITY, SPREAD = "InterPodAffinity", "PodTopologySpread"


def _affinity(run: Run, pod: str, kind: str) -> list:
    affinity = ((run.pods[pod].get("spec") or {}).get("affinity") or {}).get(kind) or {}
    return affinity.get("requiredDuringSchedulingIgnoredDuringExecution") or []


def _short(value) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _affinity_state(judge: Judge, key: str, pod: Pod, others: list[Pod]):
    """The plugin's PreFilter state on `others`; None when it skips; a Status when it fails."""
    state, status = judge.prefilter(key, AFFINITY, pod, judge.snapshot(others))
    if not status.is_success():
        return status
    if AFFINITY in state.skip_filter_plugins:
        return None
    return state.read(AFFINITY_STATE) if AFFINITY_STATE in state else Status.as_status("PreFilter did not run")


def _anti_verdict(judge: Judge):
    """Only the anti-affinity half of InterPodAffinity's Filter (it only grows stricter with more pods)."""
    def verdict(key: str, node: str, others: list[Pod]) -> Status | None:
        if judge.filter_plugin(key, AFFINITY) is None:
            return None
        s = _affinity_state(judge, key, judge.pod(key), others)
        if s is None or isinstance(s, Status):
            return SUCCESS if s is None else s
        if not _node_satisfies_anti_affinity(s, judge.nodes[node]):
            return Status.new(Code.UNSCHEDULABLE, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH)
        if not _node_satisfies_existing_anti_affinity(s, judge.nodes[node]):
            return Status.new(Code.UNSCHEDULABLE, ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH)
        return SUCCESS
    return verdict


def _affinity_fails(judge: Judge, key: str, node: str) -> bool:
    """Whether the pod's required affinity rejects `node` for every state the scheduler may have seen:
    no matching pod in the node's domain even among all it may have seen, and the first-pod exception
    (no matching pod anywhere, the pod matching its own terms) ruled out by a pod it surely saw."""
    pod = judge.pod(key)
    high = _affinity_state(judge, key, pod, [p for p in judge.possible if p.key != key])
    low = _affinity_state(judge, key, pod, judge.definite)
    if high is None or isinstance(high, Status) or isinstance(low, Status):
        return False
    terms = high.pod_info.required_affinity_terms
    floating = [p for p in judge.floating if p.key != key and pod_matches_all_affinity_terms(terms, p)]
    state = high.clone()
    own = pod_matches_all_affinity_terms(terms, pod)
    if floating or (own and (low is None or not low.affinity_counts)):
        # Only a missing topology label is certain: a matching pod may have been anywhere, or none at all.
        state.affinity_counts = TopologyCounts()
        if floating and not own:
            return not all(t.topology_key in judge.nodes[node].labels for t in terms)
    return not _node_matches_affinity(state, judge.nodes[node])


@invariant("pod-affinity-respected",
           "With InterPodAffinity filtering, every bound pod's required pod affinity is satisfied in its node's "
           "topology domain, and no two bound pods violate a required anti-affinity term of either.",
           "interpodaffinity/filtering.go PreFilter, Filter (satisfyPodAffinity, satisfyPodAntiAffinity, "
           "satisfyExistingPodsAntiAffinity)", requires=(),
           situation=Constrained("affinity"),
           rules=("inter-pod-affinity", "nominated-pods-two-passes", "extensions-on-cloned-state"))
def pod_affinity_respected(run: Run) -> None:
    judge = Judge.timeless(run)
    if judge is None:
        return
    placed = [k for k in judge.placed if judge.judgeable(k)]
    for key in placed:
        if judge.filter_plugin(key, AFFINITY) is None:
            continue
        node = judge.placed[key]
        if _affinity(run, key, "podAffinity") or _affinity(run, key, "podAntiAffinity") or any(
                PodInfo.of(p).required_anti_affinity_terms for p in judge.possible):
            run.exercise()
        if _affinity(run, key, "podAffinity") and _affinity_fails(judge, key, node):
            raise run.violation(f"{key} was bound to {node} but no pod matching its required "
                                f"pod affinity {_short(_affinity(run, key, 'podAffinity'))} is in the node's domain "
                                f"(node labels {_short(judge.nodes[node].labels)})", pod=key, plugin=AFFINITY,
                                status=ERR_REASON_AFFINITY_RULES_NOT_MATCH, expected="a matching pod in the domain",
                                actual=sorted(p.key for p in judge.possible if p.node_name))
    verdict = _anti_verdict(judge)
    for group in [[k] for k in placed] + [list(pair) for pair in combinations(placed, 2)]:
        statuses = judge.group_rejected(AFFINITY, group, judge.definite, verdict)
        if statuses:
            where = {k: judge.placed[k] for k in group}
            terms = {k: _affinity(run, k, "podAntiAffinity") for k in group if _affinity(run, k, "podAntiAffinity")}
            raise run.violation(f"{' and '.join(group)} (on {_short(where)}) break required "
                                f"anti-affinity {_short(terms) if terms else 'of a pod already bound'}: whichever was "
                                "scheduled last must have been rejected", pod=group[-1], plugin=AFFINITY,
                                status=statuses[group[-1]].message(), expected="no matching pod in the term's domain",
                                actual=where)


# --- topology-spread-respected ----------------------------------------------------------------------

def _spread_state(judge: Judge, key: str, others: list[Pod]) -> PreFilterState | None:
    state, status = judge.prefilter(key, SPREAD, judge.pod(key), judge.snapshot(others))
    if not status.is_success() or SPREAD in state.skip_filter_plugins or SPREAD_STATE not in state:
        return None
    return state.read(SPREAD_STATE)


def _peers(judge: Judge, key: str, constraints: list) -> list[str]:
    """Pods bound at the end that the rule treats exactly as this one: same profile, namespace, hard
    constraints (selectors merged with their own labels), node eligibility, and each matched by the
    selectors. Whichever of them was scheduled last saw all the others."""
    pod = judge.pod(key)
    plugin = judge.filter_plugin(key, SPREAD)

    def sign(k: str, p: Pod):
        affinity = p.affinity.node_affinity if p.affinity else None
        return (judge.run.profile_of(k), p.namespace, tuple(sorted(p.node_selector.items())), affinity,
                p.tolerations)
    mine = sign(key, pod)
    out = []
    for k in judge.placed:
        other = judge.pod(k)
        if k == key or not judge.judgeable(k) or sign(k, other) != mine:
            continue
        if plugin.constraints(other, DO_NOT_SCHEDULE) != constraints:
            continue
        if all(count_pods_match_selector([PodInfo.of(other)], c.selector, pod.namespace) for c in constraints):
            out.append(k)
    return out


def _spread_verdict(judge: Judge, key: str, node: str) -> tuple[Status, int] | None:
    """The first hard constraint (index) the pod breaks on `node` on every state it may have seen."""
    plugin = judge.filter_plugin(key, SPREAD)
    pod = judge.pod(key)
    constraints = plugin.constraints(pod, DO_NOT_SCHEDULE) if plugin is not None else []
    if not constraints:
        return None
    own = all(count_pods_match_selector([PodInfo.of(pod)], c.selector, pod.namespace) for c in constraints)
    peers = _peers(judge, key, constraints) if own else []
    high = _spread_state(judge, key, [p for p in judge.possible if p.key != key])
    if high is None:
        return None
    labels = judge.nodes[node].labels
    for i, c in enumerate(constraints):
        value = labels.get(c.topology_key)
        same = [k for k in peers if judge.nodes[judge.placed[k]].labels.get(c.topology_key) == value]
        low = _spread_state(judge, key, [*judge.definite, *(judge.pod(k, judge.placed[k]) for k in same)])
        if low is None:
            return None
        floating = count_pods_match_selector([PodInfo.of(p) for p in judge.floating if p.key != key], c.selector,
                                             pod.namespace)
        counts = {v: n + floating for v, n in high.tp_value_to_match_num[i].items()}
        if value in counts:
            counts[value] = low.tp_value_to_match_num[i].get(value, 0)
        paths = CriticalPaths()
        for v, n in counts.items():
            paths.update(v, n)
        status = filter_node(PreFilterState([c], [paths], [counts]), pod, judge.nodes[node])
        if status.is_rejected():
            return status, i
    return None


@invariant("topology-spread-respected",
           "With PodTopologySpread filtering, no bound pod breaks a DoNotSchedule constraint: its node has the "
           "topology key and the skew (matching pods in its domain, itself included, minus the global minimum, 0 "
           "below minDomains) is at most maxSkew, counting as nodeAffinityPolicy, nodeTaintsPolicy and "
           "matchLabelKeys say.", "podtopologyspread/filtering.go calPreFilterState, Filter; common.go "
           "filterTopologySpreadConstraints, matchNodeInclusionPolicies", requires=(),
           situation=Constrained("spread"),
           rules=("topology-spread",))
def topology_spread_respected(run: Run) -> None:
    judge = Judge.timeless(run)
    if judge is None:
        return
    for key, node in judge.placed.items():
        if not judge.judgeable(key) or judge.filter_plugin(key, SPREAD) is None:
            continue
        plugin = judge.filter_plugin(key, SPREAD)
        if not plugin.constraints(judge.pod(key), DO_NOT_SCHEDULE):
            continue
        run.exercise()
        verdict = _spread_verdict(judge, key, node)
        if verdict is not None:
            status, i = verdict
            spec = (run.pods[key].get("spec") or {}).get("topologySpreadConstraints") or []
            hard = [c for c in spec if c.get("whenUnsatisfiable") == DO_NOT_SCHEDULE]
            term = hard[i] if i < len(hard) else "the profile's default constraint"
            raise run.violation(f"{key} was bound to {node} (labels "
                                f"{_short(judge.nodes[node].labels)}) although constraint {_short(term)} rejects it "
                                "for every state the scheduler may have seen", pod=key, plugin=SPREAD,
                                status=status.message(), expected="skew <= maxSkew",
                                actual={n: sorted(p.key for p in judge.possible if p.node_name == n) for n in judge.nodes})
