"""Broken reference schedulers for the outcome-only invariants: each breaks one hard constraint, the
queue's wakeups, or a preemption rule, on the built instance only (the judge's own plugins stay intact)."""

from __future__ import annotations

from dataclasses import replace

from reference.framework.runtime import Framework
from reference.scheduler.scheduler import Scheduler

from .mutants import Mutant, _default_preemption, _each_framework


def _without(*names: str):
    def patch(fw: Framework) -> None:
        fw.pre_filter_plugins = [p for p in fw.pre_filter_plugins if p.name not in names]
        fw.filter_plugins = [p for p in fw.filter_plugins if p.name not in names]
    return _each_framework(patch)


def _plugin(fw: Framework, name: str):
    return next((p for p in fw.filter_plugins if p.name == name), None)


def _sidecar_ports_ignored(fw: Framework) -> None:
    """NodePorts reads only the regular containers' ports (the pre-sidecar GetHostPorts)."""
    plugin = next((p for p in fw.pre_filter_plugins if p.name == "NodePorts"), None)
    if plugin is None:
        return
    original = plugin.pre_filter

    def pre_filter(state, pod, nodes):
        return original(state, replace(pod, init_containers=()), nodes)
    plugin.pre_filter = pre_filter


def _init_containers_not_counted(fw: Framework) -> None:
    """NodeResourcesFit sums the regular containers only: no init containers, sidecars or overhead."""
    plugin = next((p for p in fw.pre_filter_plugins if p.name == "NodeResourcesFit"), None)
    if plugin is None:
        return
    original = plugin.pre_filter

    def pre_filter(state, pod, nodes):
        return original(state, replace(pod, init_containers=(), overhead={}), nodes)
    plugin.pre_filter = pre_filter


def _existing_anti_affinity_ignored(fw: Framework) -> None:
    """InterPodAffinity checks only the incoming pod's own terms, not the anti-affinity of pods already there."""
    plugin = _plugin(fw, "InterPodAffinity")
    if plugin is None:
        return
    original = plugin.filter

    def filter_(state, pod, node_info):
        s = plugin._pre_filter_state(state)
        if not hasattr(s, "existing_anti_affinity_counts"):
            return original(state, pod, node_info)
        kept = s.existing_anti_affinity_counts
        s.existing_anti_affinity_counts = type(kept)()
        try:
            return original(state, pod, node_info)
        finally:
            s.existing_anti_affinity_counts = kept
    plugin.filter = filter_


def _spread_self_not_counted(fw: Framework) -> None:
    """PodTopologySpread leaves the incoming pod out of its own domain's count (skew one too low)."""
    from reference.plugins.pod_topology_spread.common import selector_matches
    plugin = _plugin(fw, "PodTopologySpread")
    if plugin is None:
        return
    original = plugin.filter

    def filter_(state, pod, node_info):
        s = plugin._pre_filter_state(state)
        if not hasattr(s, "constraints") or not s.constraints:
            return original(state, pod, node_info)
        value_of = {i: node_info.node.labels.get(c.topology_key) for i, c in enumerate(s.constraints)}
        patched = s.clone()
        for i, c in enumerate(s.constraints):
            v = value_of[i]
            if v is not None and selector_matches(c.selector, pod.labels):
                patched.tp_value_to_match_num[i][v] = patched.tp_value_to_match_num[i].get(v, 0) - 1
        state.write("PreFilterPodTopologySpread", patched)
        try:
            return original(state, pod, node_info)
        finally:
            state.write("PreFilterPodTopologySpread", s)
    plugin.filter = filter_


def _lost_wakeups(sched: Scheduler) -> None:
    """Cluster events never move rejected pods back to the queue: a rejected pod waits forever."""
    sched.queue.move_all_to_active_or_backoff = lambda *args, **kwargs: None


def _never_policy_ignored(fw: Framework) -> None:
    """DefaultPreemption lets a pod with preemptionPolicy Never preempt."""
    plugin = _default_preemption(fw)
    if plugin is None:
        return
    original = plugin.pod_eligible_to_preempt_others

    def eligible(pod, nominated_node_status):
        return original(replace(pod, preemption_policy=None), nominated_node_status)
    plugin.pod_eligible_to_preempt_others = eligible


def _pdbs_ignored(fw: Framework) -> None:
    """DefaultPreemption sees no PodDisruptionBudget: no victim is reprieved or a node preferred for one."""
    plugin = _default_preemption(fw)
    if plugin is None:
        return
    original = plugin.select_victims_on_node

    def select(state, preemptor, node_info, all_victims, pdbs):
        # A start time for all: the reference orders victims without one by the wall clock.
        return original(state, preemptor, node_info, [replace(v, start_time=0.0) for v in all_victims], ())
    plugin.select_victims_on_node = select


def _victims_not_reprieved(fw: Framework) -> None:
    """SelectVictimsOnNode evicts every lower-priority pod on the node once the preemptor fits."""
    plugin = _default_preemption(fw)
    if plugin is None:
        return
    original = plugin.select_victims_on_node

    def select(state, preemptor, node_info, all_victims, pdbs):
        victims, violations, status = original(state, preemptor, node_info.clone(), all_victims, pdbs)
        if not status.is_success():
            return victims, violations, status
        lower = [v for v in all_victims if v.effective_priority < preemptor.effective_priority]
        return lower, violations, status
    plugin.select_victims_on_node = select


HARD_MUTANTS = [
    Mutant("taints-ignored", "taints-tolerated", _without("TaintToleration")),
    Mutant("node-affinity-ignored", "node-selection-respected", _without("NodeAffinity")),
    Mutant("unschedulable-ignored", "unschedulable-nodes-avoided", _without("NodeUnschedulable")),
    Mutant("sidecar-ports-ignored", "host-ports-free", _each_framework(_sidecar_ports_ignored)),
    Mutant("init-containers-not-counted", "capacity-respected", _each_framework(_init_containers_not_counted)),
    Mutant("existing-anti-affinity-ignored", "pod-affinity-respected",
           _each_framework(_existing_anti_affinity_ignored)),
    Mutant("spread-self-not-counted", "topology-spread-respected", _each_framework(_spread_self_not_counted)),
    Mutant("lost-wakeups", "schedulable-pods-bound", _lost_wakeups),
    Mutant("never-policy-ignored", "never-preempting-pods-evict-none", _each_framework(_never_policy_ignored)),
    Mutant("pdbs-ignored", "pdb-kept-when-avoidable", _each_framework(_pdbs_ignored)),
    Mutant("victims-not-reprieved", "preemption-victims-minimal", _each_framework(_victims_not_reprieved)),
]

__all__ = ["HARD_MUTANTS"]
