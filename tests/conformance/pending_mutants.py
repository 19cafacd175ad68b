"""Broken reference schedulers for the rule directions the mutant matrix had pending (issue 32): PreFilter,
PostFilter and PreScore codes, PreEnqueue gating, plugins per point, cycle state, cluster events, scoring,
Permit, PreBindPreFlight and PreBind. Their witnesses are in pending_witnesses.py; which rule and direction
each breaks, and what catches it, is in the matrix (conformance/invariants/proofs.py)."""

from __future__ import annotations

from typing import Callable

from reference.framework.runtime import Framework
from reference.scheduler.scheduler import Scheduler
from reference.status import SUCCESS, Code, Status

from .mutants import _each_framework
from .rule_mutants import RuleMutant, _first_plugin_only, _override


def _recode(plugins, method: str, change: Callable[[Status], Status], *, pair: bool = False) -> None:
    """Wraps each plugin's `method` so that its status goes through `change` (`pair`: it returns
    (x, status))."""
    for pl in plugins:
        original = getattr(pl, method)
        if pair:
            def run(*call, original=original):
                out, s = original(*call)
                return out, change(s)
        else:
            def run(*call, original=original):
                return change(original(*call))
        setattr(pl, method, run)


def _recoded(code: Code, to: Code) -> Callable[[Status], Status]:
    return lambda s: Status(to, s.reasons) if s.code is code else s


def _prefilter_unschedulable_stops(fw: Framework) -> None:
    """PreFilter: an Unschedulable stops the loop, as UnschedulableAndUnresolvable does."""
    _recode(fw.pre_filter_plugins, "pre_filter",
            _recoded(Code.UNSCHEDULABLE, Code.UNSCHEDULABLE_AND_UNRESOLVABLE), pair=True)


def _prefilter_unresolvable_continues(fw: Framework) -> None:
    """PreFilter: an UnschedulableAndUnresolvable goes on to the next plugin, as Unschedulable does."""
    _recode(fw.pre_filter_plugins, "pre_filter",
            _recoded(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, Code.UNSCHEDULABLE), pair=True)


def _postfilter_continues_after_success(fw: Framework) -> None:
    """PostFilter: the plugins after the one that stopped the loop (Success, UnschedulableAndUnresolvable) run
    too; the stopping plugin's answer still stands."""
    original = fw.run_post_filter_plugins

    def run(state, pod, statuses):
        kept, seen = fw.post_filter_plugins, []

        class Counted:
            def __init__(self, pl):
                self.name, self._pl = pl.name, pl

            def post_filter(self, *call):
                seen.append(self.name)
                return self._pl.post_filter(*call)
        fw.post_filter_plugins = [Counted(pl) for pl in kept]
        try:
            out = original(state, pod, statuses)
        finally:
            fw.post_filter_plugins = kept
        for pl in kept[len(seen):]:
            pl.post_filter(state, pod, statuses)
        return out
    fw.run_post_filter_plugins = run


def _prescore_skip_is_error(fw: Framework) -> None:
    """PreScore: a Skip fails the cycle as an Error, like any other non-Success."""
    _recode(fw.pre_score_plugins, "pre_score", _recoded(Code.SKIP, Code.ERROR))


def _cycle_state_cleared_after_prefilter(fw: Framework) -> None:
    """The CycleState loses what PreFilter wrote before Filter runs, within the same attempt."""
    def clear(out, state, pod):
        kept = {k: v for k, v in state._data.items() if not k.startswith("PreFilter")}
        state._data.clear()
        state._data.update(kept)
        return out
    _override(fw, "run_pre_filter_plugins", clear)


def _ungated_pods_held(sched: Scheduler) -> None:
    """PreEnqueue holds every pod without scheduling gates as if it were gated by SchedulingGates."""
    original = sched.queue._pre_enqueue
    sched.queue._pre_enqueue = lambda pod, *gate: (False, "SchedulingGates") if not pod.scheduling_gates \
        else original(pod, *gate)


def _preenqueue_success_gates(sched: Scheduler) -> None:
    """PreEnqueue: a probe's Success gates the pod too."""
    def pre_enqueue(pod, *_):
        fw = sched.frameworks.get(pod.scheduler_name)
        for pl in fw.pre_enqueue_plugins if fw is not None else ():
            pl.pre_enqueue(pod)
            if pl.name.startswith("Probe"):
                return False, pl.name
        return True, ""
    sched.queue._pre_enqueue = pre_enqueue


def _preenqueue_only_unresolvable_gates(sched: Scheduler) -> None:
    """PreEnqueue: only UnschedulableAndUnresolvable gates; other non-Success codes let the pod in."""
    def pre_enqueue(pod, *_):
        fw = sched.frameworks.get(pod.scheduler_name)
        for pl in fw.pre_enqueue_plugins if fw is not None else ():
            if pl.pre_enqueue(pod).code is Code.UNSCHEDULABLE_AND_UNRESOLVABLE:
                return False, pl.name
        return True, ""
    sched.queue._pre_enqueue = pre_enqueue


def _prefilter_rejections(sched: Scheduler) -> set[int]:
    """The ids of the CycleStates whose PreFilter rejected the pod, filled as the scheduler runs."""
    rejected: set[int] = set()
    for fw in sched.frameworks.values():
        def note(out, state, pod):
            if out[1].is_rejected():
                rejected.add(id(state))
            return out
        _override(fw, "run_pre_filter_plugins", note)
    return rejected


def _filters_after_prefilter_rejection(sched: Scheduler) -> None:
    """After a PreFilter rejection the Filter plugins still run on every node (the pod stays rejected)."""
    rejected = _prefilter_rejections(sched)
    algo = sched.algorithm
    original = algo.find_nodes_that_fit_pod

    def find(fw, state, pod, snapshot):
        feasible, diagnosis = original(fw, state, pod, snapshot)
        if id(state) in rejected:
            rejected.discard(id(state))
            for info in snapshot.node_info_list:
                fw.run_filter_plugins(state, pod, info)
        return feasible, diagnosis
    algo.find_nodes_that_fit_pod = find


def _filter_plugins_also_score(fw: Framework) -> None:
    """A probe configured at Filter is also called at Score, where its profile did not enable it."""
    for pl in fw.filter_plugins:
        if pl.name.startswith("Probe") and pl not in fw.score_plugins:
            fw.score_plugins = [*fw.score_plugins, pl]
            fw.score_weights.setdefault(pl.name, 1)


def _last_reserve_plugin_dropped(fw: Framework) -> None:
    """The last configured Reserve plugin is left out of the Reserve loop."""
    fw.reserve_plugins = fw.reserve_plugins[:-1]


def _node_update_drops_node(sched: Scheduler) -> None:
    """A node's update removes it from the scheduler's cache, as a deletion would."""
    original = sched.update_node

    def update(node):
        original(node)
        sched.store.nodes.pop(node.name, None)
    sched.update_node = update


def _one_gate_removed_ungates(sched: Scheduler) -> None:
    """A pending pod's update that removes one of its scheduling gates removes them all."""
    from dataclasses import replace as replaced
    original = sched.update_pod

    def update(pod):
        old = sched.store.pods.get(pod.effective_uid)
        if old is not None and pod.scheduling_gates and len(pod.scheduling_gates) < len(old.scheduling_gates):
            pod = replaced(pod, scheduling_gates=())
        original(pod)
    sched.update_pod = update


def _no_postfilter_after_prefilter_rejection(sched: Scheduler) -> None:
    """A PreFilter rejection also keeps PostFilter from running."""
    rejected = _prefilter_rejections(sched)
    for fw in sched.frameworks.values():
        original = fw.run_post_filter_plugins

        def post_filter(state, pod, statuses, original=original):
            if id(state) in rejected:
                rejected.discard(id(state))
                return None, Status.new(Code.UNSCHEDULABLE)
            return original(state, pod, statuses)
        fw.run_post_filter_plugins = post_filter


def _last_feasible_node_dropped(sched: Scheduler) -> None:
    """Of two or more feasible nodes, the last one found is dropped as if a Filter had rejected it."""
    algo = sched.algorithm
    original = algo.find_nodes_that_fit_pod

    def find(fw, state, pod, snapshot):
        feasible, diagnosis = original(fw, state, pod, snapshot)
        return (feasible[:-1] if len(feasible) > 1 else feasible), diagnosis
    algo.find_nodes_that_fit_pod = find


def _infeasible_nodes_scored(fw: Framework) -> None:
    """Score plugins are also called on the nodes the Filter plugins rejected (their scores are dropped)."""
    original = fw.run_score_plugins

    def run(state, pod, nodes):
        names = {n.name for n in nodes}
        for info in fw.snapshot().node_info_list:
            if info.name not in names:
                for pl in fw.score_plugins:
                    if pl.name not in state.skip_score_plugins:
                        pl.score(state, pod, info)
        return original(state, pod, nodes)
    fw.run_score_plugins = run


def _last_node_not_scored(fw: Framework) -> None:
    """Score plugins leave the last feasible node out: it gets 0 without a call."""
    original = fw.run_score_plugins

    def run(state, pod, nodes):
        last = nodes[-1].name if len(nodes) > 1 else None
        kept = {pl.name: pl.score for pl in fw.score_plugins}
        for pl in fw.score_plugins:
            pl.score = lambda st, p, info, score=pl.score: \
                (0, SUCCESS) if info.name == last else score(st, p, info)
        try:
            return original(state, pod, nodes)
        finally:
            for pl in fw.score_plugins:
                pl.score = kept[pl.name]
    fw.run_score_plugins = run


def _weights_squared(fw: Framework) -> None:
    """Score weights are applied twice (a weight w counts w x w)."""
    for name, weight in list(fw.score_weights.items()):
        fw.score_weights[name] = weight * weight


def _zero_weight_counted_two(fw: Framework) -> None:
    """A Score weight of 0 counts as 2 instead of 1; on its witness Probe0 alone has weight 0 (as for
    zero-weight-kept-zero, the built framework no longer knows the configured weights)."""
    if "Probe0" in fw.score_weights:
        fw.score_weights["Probe0"] = 2


def _permit_wait_rejects(fw: Framework) -> None:
    """Permit: a Wait is taken as a rejection (the pod is rejected instead of waiting)."""
    def change(out, state, pod, node_name):
        waits, s = out
        return ({}, Status(Code.UNSCHEDULABLE, s.reasons)) if s.is_wait() else out
    _override(fw, "run_permit_plugins", change)


def _permit_continues_after_rejection(fw: Framework) -> None:
    """Permit: the plugins after a rejecting one still run (the rejection still stands)."""
    original = fw.run_permit_plugins

    def run(state, pod, node_name):
        waits, s = original(state, pod, node_name)
        if s.is_rejected():
            names = [pl.name for pl in fw.permit_plugins]
            for pl in fw.permit_plugins[names.index(s.plugin) + 1:] if s.plugin in names else ():
                pl.permit(state, pod, node_name)
        return waits, s
    fw.run_permit_plugins = run


def _preflight_success_drops_prebind(fw: Framework) -> None:
    """A PreBindPreFlight Success removes the plugin's PreBind too, as a Skip does."""
    def drop(status, state, pod, node_name):
        state.skip_pre_bind_plugins = {pl.name for pl in fw.pre_bind_plugins}
        return status
    _override(fw, "run_pre_bind_pre_flights", drop)


def _preflight_error_skips(fw: Framework) -> None:
    """A PreBindPreFlight Error is taken as a Skip: binding goes on without the plugin's PreBind."""
    _recode(fw.pre_bind_plugins, "pre_bind_pre_flight", _recoded(Code.ERROR, Code.SKIP))


def _preflight_skip_fails(fw: Framework) -> None:
    """A PreBindPreFlight Skip fails binding as an Error."""
    _recode(fw.pre_bind_plugins, "pre_bind_pre_flight", _recoded(Code.SKIP, Code.ERROR))


def _prebind_stops_at_success(fw: Framework) -> None:
    """PreBind: the loop stops after the first plugin, even when it succeeds."""
    _first_plugin_only(fw, "run_pre_bind_plugins", "pre_bind_plugins")


NEW_RULE_MUTANTS_2: list[RuleMutant] = [
    RuleMutant("node-update-drops-node", _node_update_drops_node),
    RuleMutant("one-gate-removed-ungates", _one_gate_removed_ungates),
    RuleMutant("no-postfilter-after-prefilter-rejection", _no_postfilter_after_prefilter_rejection),
    RuleMutant("last-feasible-node-dropped", _last_feasible_node_dropped),
    RuleMutant("infeasible-nodes-scored", _each_framework(_infeasible_nodes_scored)),
    RuleMutant("last-node-not-scored", _each_framework(_last_node_not_scored)),
    RuleMutant("weights-squared", _each_framework(_weights_squared)),
    RuleMutant("zero-weight-counted-two", _each_framework(_zero_weight_counted_two)),
    RuleMutant("permit-wait-rejects", _each_framework(_permit_wait_rejects)),
    RuleMutant("permit-continues-after-rejection", _each_framework(_permit_continues_after_rejection)),
    RuleMutant("preflight-success-drops-prebind", _each_framework(_preflight_success_drops_prebind)),
    RuleMutant("preflight-error-skips", _each_framework(_preflight_error_skips)),
    RuleMutant("preflight-skip-fails", _each_framework(_preflight_skip_fails)),
    RuleMutant("prebind-stops-at-success", _each_framework(_prebind_stops_at_success)),
]


NEW_RULE_MUTANTS: list[RuleMutant] = [
    RuleMutant("prefilter-unschedulable-stops", _each_framework(_prefilter_unschedulable_stops)),
    RuleMutant("prefilter-unresolvable-continues", _each_framework(_prefilter_unresolvable_continues)),
    RuleMutant("postfilter-continues-after-success", _each_framework(_postfilter_continues_after_success)),
    RuleMutant("prescore-skip-is-error", _each_framework(_prescore_skip_is_error)),
    RuleMutant("cycle-state-cleared-after-prefilter", _each_framework(_cycle_state_cleared_after_prefilter)),
    RuleMutant("ungated-pods-held", _ungated_pods_held),
    RuleMutant("preenqueue-success-gates", _preenqueue_success_gates),
    RuleMutant("preenqueue-only-unresolvable-gates", _preenqueue_only_unresolvable_gates),
    RuleMutant("filters-after-prefilter-rejection", _filters_after_prefilter_rejection),
    RuleMutant("filter-plugins-also-score", _each_framework(_filter_plugins_also_score)),
    RuleMutant("last-reserve-plugin-dropped", _each_framework(_last_reserve_plugin_dropped)),
]

__all__ = ["NEW_RULE_MUTANTS", "NEW_RULE_MUTANTS_2"]
