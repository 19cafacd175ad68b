"""More broken reference schedulers for pending rule directions (issue 32): legal codes, profiles, binding,
hard constraints applied too strictly, PreFilterResult, AddPod/RemovePod, assume, event truncation, preemption
and Score errors. Their witnesses are in pending_witnesses.py."""

from __future__ import annotations

from typing import Callable

from reference.framework.runtime import Framework
from reference.plugins import node_affinity, node_ports, node_unschedulable, taint_toleration
from reference.plugins.inter_pod_affinity import filtering as ipa_filtering
from reference.plugins.pod_topology_spread import filtering as spread_filtering
from reference.scheduler.scheduler import Scheduler
from reference.status import SUCCESS, Code, Status

from .mutants import _each_framework
from .pending_mutants import _filter_plugins_also_score, _recode, _recoded
from .rule_mutants import RuleMutant, _override


def _reserve_skip_succeeds(fw: Framework) -> None:
    """Reserve: a Skip (no legal Reserve code) passes as a Success instead of becoming an Error."""
    _recode(fw.reserve_plugins, "reserve", _recoded(Code.SKIP, Code.SUCCESS))


def _filter_unresolvable_is_error(fw: Framework) -> None:
    """Filter: an UnschedulableAndUnresolvable (legal at Filter) is taken as an Error."""
    _recode(fw.filter_plugins, "filter", _recoded(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, Code.ERROR))


class _FirstProfileForAll(dict):
    """The frameworks by profile name, answering every unknown name with the first profile."""
    def get(self, name, default=None):
        return super().get(name, next(iter(self.values())))

    def __contains__(self, name) -> bool:
        return True


class _FirstProfileOnly(dict):
    """The frameworks by profile name, knowing only the first profile."""
    def get(self, name, default=None):
        return super().get(name, default) if name == next(iter(self)) else default

    def __contains__(self, name) -> bool:
        return name == next(iter(self))


def _unknown_scheduler_name_scheduled(sched: Scheduler) -> None:
    """A pod naming no profile is scheduled by the first profile instead of being left alone."""
    sched.frameworks = _FirstProfileForAll(sched.frameworks)


def _second_profile_dropped(sched: Scheduler) -> None:
    """Pods naming any profile but the first are left alone, as if they named none."""
    sched.frameworks = _FirstProfileOnly(sched.frameworks)


def _permit_skipped(fw: Framework) -> None:
    """Permit does not run: the cycle ends after Reserve as if Permit had allowed the pod."""
    fw.run_permit_plugins = lambda state, pod, node_name: ({}, SUCCESS)


def _bind_not_written(sched: Scheduler) -> None:
    """A Bind plugin's Success never reaches the API server: the binding is not stored."""
    sched.store.bind = lambda pod, node_name, **_: None


def _failed_bind_still_written(fw: Framework) -> None:
    """A failing Bind plugin's binding is written all the same."""
    original = fw.run_bind_plugins

    def run(state, pod, node_name):
        status = original(state, pod, node_name)
        if not status.is_success() and not status.is_skip():
            fw.client.bind(pod, node_name)
        return status
    fw.run_bind_plugins = run


def _plugins_bind_after_extender(sched: Scheduler) -> None:
    """After the binder extender binds, the Bind plugins are asked too."""
    original = sched._bind

    def bind(fw, state, pod, host):
        status = original(fw, state, pod, host)
        if status.is_success() and any(e.is_binder() and e.is_interested(pod) for e in sched.extenders):
            fw.run_bind_plugins(state, pod, host)
        return status
    sched._bind = bind


def _postfilter_message_dropped(fw: Framework) -> None:
    """PostFilter's reasons are left out of the FitError message."""
    def drop(out, state, pod, statuses):
        result, s = out
        return (result, Status(s.code, ()).with_plugin(s.plugin)) if s.reasons else out
    _override(fw, "run_post_filter_plugins", drop)


def _rejects_when(plugin: str, reason: str, bad: Callable) -> Callable[[Scheduler], None]:
    """The Filter plugin `plugin` also rejects, with its own reason, the nodes where `bad(pod, node_info)`."""
    def patch(fw: Framework) -> None:
        for pl in fw.filter_plugins:
            if pl.name == plugin:
                def run(state, pod, node_info, original=pl.filter):
                    if bad(pod, node_info):
                        return Status.new(Code.UNSCHEDULABLE, reason)
                    return original(state, pod, node_info)
                pl.filter = run
    return _each_framework(patch)


def _host_ports(pod) -> set[int]:
    return {p.host_port for c in (*pod.containers, *pod.init_containers) for p in c.ports if p.host_port}


def _removepod_while_filtering(fw: Framework) -> None:
    """While filtering, each nominated pod AddPod added is removed again by RemovePod (outside preemption)."""
    original = fw._add_nominated_pods

    def add(pod, state, node_info):
        out = original(pod, state, node_info)
        if not isinstance(out, Status) and out[0]:
            for pi in fw.nominator.nominated_pods_for_node(node_info.name):
                if pi.pod.effective_uid != pod.effective_uid:
                    fw.run_pre_filter_extension_remove_pod(out[1].clone(), pod, pi, out[2].clone())
        return out
    fw._add_nominated_pods = add


def _extender_filter_keeps_first_node(sched: Scheduler) -> None:
    """An interested filter extender leaves only the first of the nodes it passes."""
    algo = sched.algorithm
    original = algo.find_nodes_that_pass_extenders

    def find(pod, feasible, statuses):
        after = original(pod, feasible, statuses)
        asked = any(e.is_interested(pod) and e.is_filter() for e in algo.extenders)
        return after[:1] if asked else after
    algo.find_nodes_that_pass_extenders = find


def _extender_failures_fail_the_cycle(sched: Scheduler) -> None:
    """A filter extender's failed nodes (an answer, not an error) fail the cycle as an error."""
    from reference.scheduler.schedule_one import CycleFailure
    algo = sched.algorithm
    original = algo.find_nodes_that_pass_extenders

    def find(pod, feasible, statuses):
        before = {n.name for n in feasible}
        after = original(pod, feasible, statuses)
        if before - {n.name for n in after}:
            raise CycleFailure(Status.as_status("extender failed a node"))
        return after
    algo.find_nodes_that_pass_extenders = find


def _extender_scores_scaled_by_100(sched: Scheduler) -> None:
    """Extender scores count weight x 100 instead of weight x 10."""
    import reference.scheduler.schedule_one as module
    algo = sched.algorithm
    original = algo.prioritize_nodes

    def prioritize(*call):
        saved, module.EXTENDER_SCORE_SCALE = module.EXTENDER_SCORE_SCALE, 100
        try:
            return original(*call)
        finally:
            module.EXTENDER_SCORE_SCALE = saved
    algo.prioritize_nodes = prioritize


def _rejected_retried_without_event(sched: Scheduler) -> None:
    """A rejected pod goes to backoffQ instead of waiting in unschedulablePods for an event."""
    queue = sched.queue
    original = queue.add_unschedulable_if_not_present

    def add(qpi):
        original(qpi)
        parked = queue.unschedulable.get(qpi.pod.effective_uid)
        if parked is not None and not parked.gating_plugin:
            queue._move_to_backoff(parked)
    queue.add_unschedulable_if_not_present = add


def _one_victim_too_few(fw: Framework) -> None:
    """SelectVictimsOnNode reprieves one victim too many: of two or more victims the last is kept."""
    plugin = next((p for p in fw.post_filter_plugins if p.name == "DefaultPreemption"), None)
    if plugin is None:
        return
    original = plugin.select_victims_on_node

    def select(state, preemptor, node_info, all_victims, pdbs):
        victims, violations, status = original(state, preemptor, node_info, all_victims, pdbs)
        return (victims[:-1] if len(victims) > 1 else victims), violations, status
    plugin.select_victims_on_node = select


def _nominating_postfilter_is_an_error(sched: Scheduler) -> None:
    """A PostFilter that nominates a node turns the failure into an error instead of the FitError."""
    original = sched._handle_failure

    def handle(fw, qpi, status, fit_error, nominating):
        if fit_error is not None and nominating is not None and nominating.nominated_node_name:
            return original(fw, qpi, Status.as_status("nominated"), None, nominating)
        return original(fw, qpi, status, fit_error, nominating)
    sched._handle_failure = handle


NEW_RULE_MUTANTS_5: list[RuleMutant] = [
    RuleMutant("removepod-while-filtering", _each_framework(_removepod_while_filtering)),
    RuleMutant("extender-filter-keeps-first-node", _extender_filter_keeps_first_node),
    RuleMutant("extender-failures-fail-the-cycle", _extender_failures_fail_the_cycle),
    RuleMutant("extender-scores-scaled-by-100", _extender_scores_scaled_by_100),
    RuleMutant("rejected-retried-without-event", _rejected_retried_without_event),
    RuleMutant("disabled-score-plugin-runs", _each_framework(_filter_plugins_also_score)),
    RuleMutant("one-victim-too-few", _each_framework(_one_victim_too_few)),
    RuleMutant("nominating-postfilter-is-an-error", _nominating_postfilter_is_an_error),
]


NEW_RULE_MUTANTS_3: list[RuleMutant] = [
    RuleMutant("reserve-skip-succeeds", _each_framework(_reserve_skip_succeeds)),
    RuleMutant("filter-unresolvable-is-error", _each_framework(_filter_unresolvable_is_error)),
    RuleMutant("unknown-scheduler-name-scheduled", _unknown_scheduler_name_scheduled),
    RuleMutant("second-profile-dropped", _second_profile_dropped),
    RuleMutant("permit-skipped", _each_framework(_permit_skipped)),
    RuleMutant("bind-not-written", _bind_not_written),
    RuleMutant("failed-bind-still-written", _each_framework(_failed_bind_still_written)),
    RuleMutant("plugins-bind-after-extender", _plugins_bind_after_extender),
    RuleMutant("postfilter-message-dropped", _each_framework(_postfilter_message_dropped)),
    RuleMutant("tolerated-taints-reject", _rejects_when(
        "TaintToleration", taint_toleration.ERR_REASON_UNTOLERATED,
        lambda pod, info: any(t.effect == "NoSchedule" for t in info.node.taints))),
    RuleMutant("matching-selector-rejects", _rejects_when(
        "NodeAffinity", node_affinity.ERR_REASON_POD, lambda pod, info: bool(pod.node_selector))),
    RuleMutant("unschedulable-toleration-ignored", _rejects_when(
        "NodeUnschedulable", node_unschedulable.ERR_REASON_UNSCHEDULABLE,
        lambda pod, info: info.node.unschedulable)),
    RuleMutant("any-host-ports-conflict", _rejects_when(
        "NodePorts", node_ports.ERR_REASON,
        lambda pod, info: bool(_host_ports(pod)) and any(_host_ports(pi.pod) for pi in info.pods))),
    RuleMutant("anti-affinity-against-any-pod", _rejects_when(
        "InterPodAffinity", ipa_filtering.ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
        lambda pod, info: bool(pod.affinity and pod.affinity.pod_anti_affinity) and bool(info.pods))),
    RuleMutant("spread-against-any-pod", _rejects_when(
        "PodTopologySpread", spread_filtering.ERR_REASON_CONSTRAINTS_NOT_MATCH,
        lambda pod, info: bool(pod.topology_spread_constraints) and bool(info.pods))),
]


def _prefilter_result_drops_last(fw: Framework) -> None:
    """A PreFilterResult restricts Filter to its node names but the last one (sorted)."""
    def shrink(out, state, pod):
        result, status, with_nodes = out
        if result is not None and not result.all_nodes() and len(result.node_names) > 1:
            from dataclasses import replace as replaced
            result = replaced(result, node_names=frozenset(sorted(result.node_names)[:-1]))
        return result, status, with_nodes
    _override(fw, "run_pre_filter_plugins", shrink)


def _extensions_of_skipped_plugins(fw: Framework) -> None:
    """AddPod/RemovePod are called on the plugins that skipped PreFilter too."""
    original = fw._run_extension

    def run(which, state, pod, info, node_info):
        skipped = state.skip_filter_plugins
        state.skip_filter_plugins = set()
        try:
            return original(which, state, pod, info, node_info)
        finally:
            state.skip_filter_plugins = skipped
    fw._run_extension = run


def _extensions_never_called(fw: Framework) -> None:
    """AddPod/RemovePod are not called, as if every plugin had skipped PreFilter."""
    fw._run_extension = lambda which, state, pod, info, node_info: SUCCESS


def _extension_errors_ignored(fw: Framework) -> None:
    """An AddPod/RemovePod failure is ignored: filtering goes on as if it had succeeded."""
    original = fw._run_extension
    fw._run_extension = lambda *call: (original(*call), SUCCESS)[1]


def _extension_success_fails(fw: Framework) -> None:
    """An AddPod/RemovePod call fails the cycle as an Error even when it succeeds."""
    original = fw._run_extension

    def run(which, state, pod, info, node_info):
        s = original(which, state, pod, info, node_info)
        return Status.as_status(f"running {which}: mutant") if s.is_success() else s
    fw._run_extension = run


def _nominated_pods_not_added(fw: Framework) -> None:
    """Filtering does not add the nominated pods (no AddPod while filtering)."""
    fw._add_nominated_pods = lambda pod, state, node_info: (False, state, node_info)


def _assumed_pods_not_counted(sched: Scheduler) -> None:
    """The snapshot leaves out assumed pods: a pod waiting at Permit does not count against its node."""
    from reference.nodeinfo import Snapshot
    sched._snapshot = lambda: Snapshot(sched.store.nodes.values(),
                                       [p for p in sched.store.pods.values() if p.node_name],
                                       sched.store.namespace_labels())


def _rejected_pods_stay_assumed(sched: Scheduler) -> None:
    """A pod rejected after Reserve is unreserved but not forgotten: it still counts against its node."""
    def unreserve(fw, state, pod, host):
        fw.run_reserve_plugins_unreserve(state, pod, host)
    sched._unreserve_and_forget = unreserve


def _events_never_truncated(sched: Scheduler) -> None:
    """FailedScheduling messages are never truncated."""
    import reference.scheduler.scheduler as module
    original = sched._handle_failure

    def handle(*call, **kwargs):
        saved, module.NOTE_LENGTH_LIMIT = module.NOTE_LENGTH_LIMIT, 10 ** 9
        try:
            return original(*call, **kwargs)
        finally:
            module.NOTE_LENGTH_LIMIT = saved
    sched._handle_failure = handle


def _adjacent_priority_spared(fw: Framework) -> None:
    """Preemption spares the pods one priority below the preemptor, as if they were its equals."""
    from dataclasses import replace as replaced
    plugin = next((p for p in fw.post_filter_plugins if p.name == "DefaultPreemption"), None)
    if plugin is None:
        return
    original = plugin.select_victims_on_node

    def select(state, preemptor, node_info, all_victims, pdbs):
        return original(state, replaced(preemptor, priority=preemptor.effective_priority - 1), node_info,
                        all_victims, pdbs)
    plugin.select_victims_on_node = select


def _every_pod_never_preempts(fw: Framework) -> None:
    """Every pod is treated as preemptionPolicy Never."""
    from dataclasses import replace as replaced
    plugin = next((p for p in fw.post_filter_plugins if p.name == "DefaultPreemption"), None)
    if plugin is None:
        return
    original = plugin.pod_eligible_to_preempt_others
    plugin.pod_eligible_to_preempt_others = lambda pod, status: original(
        replaced(pod, preemption_policy="Never"), status)


def _zero_score_is_error(fw: Framework) -> None:
    """Score: a (legal) score of 0 fails the cycle as an Error."""
    _recode_score = lambda score, s: (score, Status.as_status("score 0")) if s.is_success() and score == 0 \
        else (score, s)
    for pl in fw.score_plugins:
        def run(*call, original=pl.score):
            return _recode_score(*original(*call))
        pl.score = run


NEW_RULE_MUTANTS_4: list[RuleMutant] = [
    RuleMutant("prefilter-result-drops-last", _each_framework(_prefilter_result_drops_last)),
    RuleMutant("extensions-of-skipped-plugins", _each_framework(_extensions_of_skipped_plugins)),
    RuleMutant("extensions-never-called", _each_framework(_extensions_never_called)),
    RuleMutant("extension-errors-ignored", _each_framework(_extension_errors_ignored)),
    RuleMutant("extension-success-fails", _each_framework(_extension_success_fails)),
    RuleMutant("nominated-pods-not-added", _each_framework(_nominated_pods_not_added)),
    RuleMutant("assumed-pods-not-counted", _assumed_pods_not_counted),
    RuleMutant("rejected-pods-stay-assumed", _rejected_pods_stay_assumed),
    RuleMutant("events-never-truncated", _events_never_truncated),
    RuleMutant("adjacent-priority-spared", _each_framework(_adjacent_priority_spared)),
    RuleMutant("every-pod-never-preempts", _each_framework(_every_pod_never_preempts)),
    RuleMutant("zero-score-is-error", _each_framework(_zero_score_is_error)),
]

__all__ = ["NEW_RULE_MUTANTS_3", "NEW_RULE_MUTANTS_4", "NEW_RULE_MUTANTS_5"]
