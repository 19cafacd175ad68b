"""Broken reference schedulers written per rule and direction (issue 32), each with its witness: a small
hand-made scenario on which it visibly misbehaves.

Which rule and direction each mutant breaks, and what catches it, is recorded once, in the matrix
(conformance/invariants/proofs.py); here live only the hooks and the witnesses, which are test code
(they patch the reference's internals and build scenarios with the invariant tests' kit). The older
mutants of mutants.py/hard_mutants.py/unseen_mutants.py get their witnesses here too, when the matrix names
them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from reference.framework.runtime import Framework
from reference.plugins import node_affinity, node_ports, node_unschedulable, taint_toleration
from reference.plugins.inter_pod_affinity import filtering as ipa_filtering
from reference.plugins.pod_topology_spread import filtering as spread_filtering
from reference.scenario import Scenario
from reference.scheduler.scheduler import Scheduler
from reference.status import SUCCESS, Code, Status

from .hard_mutants import HARD_MUTANTS
from .invariants._kit import config, extender, node, pod, scenario
from .invariants.test_event_rules import HAND as EVENT_WITNESSES
from .invariants.test_event_rules import MUTANTS as EVENT_MUTANTS
from .mutants import MUTANTS, Mutant, _each_framework
from .unseen_mutants import UNSEEN_MUTANTS


@dataclass(frozen=True)
class RuleMutant:
    name: str
    hook: Callable[[Scheduler], None]


TWO_NODES = (node("node-0"), node("node-1"))
PROBES_0_1 = ("Probe0", "Probe1")


def _probes(script: dict, probes=("Probe0",), nodes=(node(),), binder: bool = True) -> Callable[[], Scenario]:
    def build() -> Scenario:
        cfg = config(multi_point=probes)
        if not binder:
            multi = cfg["profiles"][0]["plugins"]["multiPoint"]
            multi["enabled"] = [e for e in multi["enabled"] if e["name"] != "DefaultBinder"]
        return scenario([pod(probes=script)], nodes=nodes, cfg=cfg)
    return build


def _override(fw: Framework, point: str, change: Callable[..., object]) -> None:
    """Wraps the framework's `point` (a `run_*` method): `change(result, *call)` is what it returns."""
    original = getattr(fw, point)
    setattr(fw, point, lambda *call: change(original(*call), *call))


def _first_plugin_only(fw: Framework, point: str, plugins: str) -> None:
    """Wraps the framework's `point` so that its loop sees only the first of its `plugins`."""
    original = getattr(fw, point)

    def run(*call):
        kept = getattr(fw, plugins)
        setattr(fw, plugins, kept[:1])
        try:
            return original(*call)
        finally:
            setattr(fw, plugins, kept)
    setattr(fw, point, run)


# --- filtering ----------------------------------------------------------------------------------

def _filter_stops_after_first_success(fw: Framework) -> None:
    """Too little: the node passes after the first Filter plugin that accepts it; later ones are left out."""
    def run_filter(state, pod, node_info):
        for pl in fw.filter_plugins:
            if pl.name in state.skip_filter_plugins:
                continue
            s = pl.filter(state, pod, node_info)
            return SUCCESS if s.is_success() else s.with_plugin(pl.name)
        return SUCCESS
    fw.run_filter_plugins = run_filter


def _prefilter_success_skips_filter(fw: Framework) -> None:
    """Too much: a probe's PreFilter Success is taken as Skip (its Filter is dropped for the cycle)."""
    def skip_probes(out, state, pod):
        state.skip_filter_plugins = set(state.skip_filter_plugins) | {
            p.name for p in fw.filter_plugins if p.name.startswith("Probe")}
        return out
    _override(fw, "run_pre_filter_plugins", skip_probes)


def _postfilter_never_run(fw: Framework) -> None:
    """Too little: no PostFilter plugin runs although no node is feasible."""
    fw.run_post_filter_plugins = lambda state, pod, statuses: (None, Status.new(Code.UNSCHEDULABLE))


def _filter_rejection_as_error(fw: Framework) -> None:
    """Too much: a Filter rejection of one node fails the whole cycle as an Error."""
    _override(fw, "run_filter_plugins", lambda s, state, pod, node_info: Status.as_status(
        f"node {node_info.name} rejected") if s.is_rejected() else s)


def _postfilter_stops_at_unschedulable(fw: Framework) -> None:
    """Too little: the PostFilter loop stops at the first plugin, even when it returns Unschedulable."""
    _first_plugin_only(fw, "run_post_filter_plugins", "post_filter_plugins")


# --- scoring ------------------------------------------------------------------------------------

def _prescore_error_ignored(fw: Framework) -> None:
    """Too little: a PreScore failure does not fail the cycle."""
    _override(fw, "run_pre_score_plugins", lambda s, *call: SUCCESS)


def _normalize_twice(fw: Framework) -> None:
    """Too much: NormalizeScore runs twice per plugin."""
    for pl in fw.score_plugins:
        ext = pl.score_extensions()
        if ext is None:
            continue

        class Twice:
            def normalize_score(self, state, pod, scores, ext=ext):
                s = ext.normalize_score(state, pod, scores)
                return ext.normalize_score(state, pod, scores) if s.is_success() else s
        pl.score_extensions = lambda twice=Twice(): twice


def _prescore_success_skips_score(fw: Framework) -> None:
    """Too much: a probe's PreScore Success is taken as Skip (its Score is dropped)."""
    def skip_probes(status, state, pod, nodes):
        state.skip_score_plugins = set(state.skip_score_plugins) | {
            p.name for p in fw.score_plugins if p.name.startswith("Probe")}
        return status
    _override(fw, "run_pre_score_plugins", skip_probes)


def _one_feasible_node_enough(sched: Scheduler) -> None:
    """Too little of numFeasibleNodesToFind: filtering stops at the first feasible node (upstream finds
    every feasible node below 100 nodes)."""
    algo = sched.algorithm
    original = algo.find_nodes_that_pass_filters

    def find(fw, state, pod, diagnosis, nodes):
        for info in nodes:
            found = original(fw, state, pod, diagnosis, [info])
            if found:
                return found
        return []
    algo.find_nodes_that_pass_filters = find


def _total_zero_without_scoring(sched: Scheduler) -> None:
    """Without Score plugins and extenders every node totals 0 instead of 1."""
    algo = sched.algorithm
    original = algo.prioritize_nodes

    def prioritize(fw, state, pod, nodes):
        scores = original(fw, state, pod, nodes)
        if not fw.has_score_plugins() and not any(e.is_prioritizer() for e in algo.extenders):
            for entry in scores:
                entry.total = 0
        return scores
    algo.prioritize_nodes = prioritize


def _no_scoring_with_two_feasible_nodes(sched: Scheduler) -> None:
    """Too much of the one-node shortcut: with two feasible nodes the scores are dropped and the first
    node filtered wins (the plugins still score, so only the choice shows it)."""
    algo = sched.algorithm
    original = algo.prioritize_nodes

    def prioritize(fw, state, pod, nodes):
        scores = original(fw, state, pod, nodes)
        if len(nodes) == 2:
            for i, entry in enumerate(scores):
                entry.total = 1 if i == 0 else 0
        return scores
    algo.prioritize_nodes = prioritize


def _score_range_too_narrow(fw: Framework) -> None:
    """Too much: a score of 100 (the maximum, legal) fails the range check."""
    import reference.framework.runtime as runtime
    original = fw.run_score_plugins

    def run(state, pod, nodes):
        saved = runtime.MAX_NODE_SCORE
        runtime.MAX_NODE_SCORE = saved - 1
        try:
            return original(state, pod, nodes)
        finally:
            runtime.MAX_NODE_SCORE = saved
    fw.run_score_plugins = run


def _zero_weight_kept_zero(fw: Framework) -> None:
    """Too little: a configured Score weight of 0 stays 0 (upstream counts it as 1). The built framework
    no longer knows the configured weights, so this stands in for it on its witness, which configures
    Probe0 alone with weight 0: Probe0's weight is zeroed (hence no ci search for it: see the matrix)."""
    if "Probe0" in fw.score_weights:
        fw.score_weights["Probe0"] = 0


# --- reserve, permit ----------------------------------------------------------------------------

def _reserve_stops_after_first(fw: Framework) -> None:
    """Too little: only the first Reserve plugin runs, even when it succeeds."""
    _first_plugin_only(fw, "run_reserve_plugins_reserve", "reserve_plugins")


def _reserve_failure_ignored(fw: Framework) -> None:
    """Too little: a Reserve failure does not end the cycle; Permit and binding go on."""
    _override(fw, "run_reserve_plugins_reserve", lambda s, *call: SUCCESS)


def _unreserve_twice(fw: Framework) -> None:
    """Too much: Unreserve runs over all Reserve plugins twice."""
    original = fw.run_reserve_plugins_unreserve
    _override(fw, "run_reserve_plugins_unreserve", lambda _, *call: original(*call))


def _permit_timeout_halved(fw: Framework) -> None:
    """Too early: a Permit wait times out after half its timeout."""
    original = fw.add_waiting_pod
    fw.add_waiting_pod = lambda pod, waits: original(pod, {n: t / 2 for n, t in waits.items()})


# --- binding ------------------------------------------------------------------------------------

def _bind_stops_at_skip(fw: Framework) -> None:
    """Too little: the Bind loop stops at the first plugin, even when it skips."""
    _first_plugin_only(fw, "run_bind_plugins", "bind_plugins")


def _postbind_never_run(fw: Framework) -> None:
    """Too little: PostBind plugins are not called after a successful binding."""
    fw.run_post_bind_plugins = lambda state, pod, node_name: None


# --- queue, capacity, events --------------------------------------------------------------------

def _error_backoff_doubled(sched: Scheduler) -> None:
    """Too late: every backoff lasts twice its duration."""
    queue = sched.queue
    original = queue.backoff_duration
    queue.backoff_duration = lambda count: 2 * original(count)


def _capacity_halved(fw: Framework) -> None:
    """Too little capacity: NodeResourcesFit's Filter sees every node with half its allocatable CPU."""
    for pl in fw.filter_plugins:
        if pl.name == "NodeResourcesFit":
            def run(state, pod, node_info, original=pl.filter):
                half = node_info.clone()
                half.allocatable.milli_cpu //= 2
                return original(state, pod, half)
            pl.filter = run


def _events_truncated_early(sched: Scheduler) -> None:
    """Too much: FailedScheduling messages are cut at 512 characters instead of 1024."""
    store = sched.store
    original = store.record_event

    def record(pod, kind, reason, message, *args, **kwargs):
        if reason == "FailedScheduling" and len(message) > 512:
            message = message[:508] + " ..."
        return original(pod, kind, reason, message, *args, **kwargs)
    store.record_event = record


# --- new mutants for rule directions the matrix had pending (issue 32) ------------------------------

def _recode(plugins, method: str, change: Callable[[Status], Status], *, pair: bool = False) -> None:
    """Wraps each plugin's `method` so that its status goes through `change` (`pair`: it returns (x, status))."""
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
    """The CycleState is emptied between PreFilter and Filter: what PreFilter wrote is lost within the attempt."""
    def clear(out, state, pod):
        kept = {k: v for k, v in state._data.items() if not k.startswith("PreFilter")}
        state._data.clear()
        state._data.update(kept)
        return out
    _override(fw, "run_pre_filter_plugins", clear)


def _ungated_pods_held(sched: Scheduler) -> None:
    """PreEnqueue holds every pod without scheduling gates as if it were gated by SchedulingGates."""
    original = sched.queue._pre_enqueue
    sched.queue._pre_enqueue = lambda pod: (False, "SchedulingGates") if not pod.scheduling_gates \
        else original(pod)


def _preenqueue_success_gates(sched: Scheduler) -> None:
    """PreEnqueue: a probe's Success gates the pod too."""
    def pre_enqueue(pod):
        fw = sched.frameworks.get(pod.scheduler_name)
        for pl in fw.pre_enqueue_plugins if fw is not None else ():
            pl.pre_enqueue(pod)
            if pl.name.startswith("Probe"):
                return False, pl.name
        return True, ""
    sched.queue._pre_enqueue = pre_enqueue


def _preenqueue_only_unresolvable_gates(sched: Scheduler) -> None:
    """PreEnqueue: only UnschedulableAndUnresolvable gates; other non-Success codes let the pod in."""
    def pre_enqueue(pod):
        fw = sched.frameworks.get(pod.scheduler_name)
        for pl in fw.pre_enqueue_plugins if fw is not None else ():
            if pl.pre_enqueue(pod).code is Code.UNSCHEDULABLE_AND_UNRESOLVABLE:
                return False, pl.name
        return True, ""
    sched.queue._pre_enqueue = pre_enqueue


def _filters_after_prefilter_rejection(sched: Scheduler) -> None:
    """After a PreFilter rejection the Filter plugins still run on every node (the pod stays rejected)."""
    rejected: set[int] = set()  # the CycleStates whose PreFilter rejected the pod
    for fw in sched.frameworks.values():
        def note(out, state, pod):
            if out[1].is_rejected():
                rejected.add(id(state))
            return out
        _override(fw, "run_pre_filter_plugins", note)
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
    rejected: set[int] = set()
    for fw in sched.frameworks.values():
        def note(out, state, pod):
            if out[1].is_rejected():
                rejected.add(id(state))
            return out
        _override(fw, "run_pre_filter_plugins", note)
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
            pl.score = lambda st, p, info, score=pl.score: (0, SUCCESS) if info.name == last else score(st, p, info)
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
    sched.store.bind = lambda pod, node_name: None


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
    """The Filter plugin `plugin` also rejects the nodes where `bad(pod, node_info)` holds, with its own reason."""
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
    sched._unreserve_and_forget = lambda fw, state, pod, host: fw.run_reserve_plugins_unreserve(state, pod, host)


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


RULE_MUTANTS: list[RuleMutant] = [
    RuleMutant("filter-stops-after-first-success", _each_framework(_filter_stops_after_first_success)),
    RuleMutant("prefilter-success-skips-filter", _each_framework(_prefilter_success_skips_filter)),
    RuleMutant("postfilter-never-run", _each_framework(_postfilter_never_run)),
    RuleMutant("filter-rejection-as-error", _each_framework(_filter_rejection_as_error)),
    RuleMutant("postfilter-stops-at-unschedulable", _each_framework(_postfilter_stops_at_unschedulable)),
    RuleMutant("prescore-error-ignored", _each_framework(_prescore_error_ignored)),
    RuleMutant("reserve-failure-ignored", _each_framework(_reserve_failure_ignored)),
    RuleMutant("normalize-twice", _each_framework(_normalize_twice)),
    RuleMutant("prescore-success-skips-score", _each_framework(_prescore_success_skips_score)),
    RuleMutant("no-scoring-with-two-feasible-nodes", _no_scoring_with_two_feasible_nodes),
    RuleMutant("one-feasible-node-enough", _one_feasible_node_enough),
    RuleMutant("total-zero-without-scoring", _total_zero_without_scoring),
    RuleMutant("score-range-too-narrow", _each_framework(_score_range_too_narrow)),
    RuleMutant("zero-weight-kept-zero", _each_framework(_zero_weight_kept_zero)),
    RuleMutant("reserve-stops-after-first", _each_framework(_reserve_stops_after_first)),
    RuleMutant("unreserve-twice", _each_framework(_unreserve_twice)),
    RuleMutant("permit-timeout-halved", _each_framework(_permit_timeout_halved)),
    RuleMutant("bind-stops-at-skip", _each_framework(_bind_stops_at_skip)),
    RuleMutant("postbind-never-run", _each_framework(_postbind_never_run)),
    RuleMutant("error-backoff-doubled", _error_backoff_doubled),
    RuleMutant("capacity-halved", _each_framework(_capacity_halved)),
    RuleMutant("events-truncated-early", _events_truncated_early),
]

_REJECT_NODE_1 = {"Filter": {"byNode": {"node-1": {"code": "Unschedulable"}}}}
_PREFER_NODE_1 = {"Score": {"byNode": {"node-1": {"score": 30}}}}
_REJECT_RESERVE = {"Probe1": {"Reserve": {"code": "Unschedulable"}}}


def _zero_weight_witness() -> Scenario:
    """Probe0 (weight 0, counted as 1) prefers node-1 by 30; Probe1 (weight 1) prefers node-0 by 10."""
    cfg = config(multi_point=())
    cfg["profiles"][0]["plugins"]["multiPoint"]["enabled"] += [{"name": "Probe0", "weight": 0},
                                                               {"name": "Probe1", "weight": 1}]
    script = {"Probe0": _PREFER_NODE_1, "Probe1": {"Score": {"byNode": {"node-0": {"score": 10}}}}}
    return scenario([pod(probes=script)], nodes=TWO_NODES, cfg=cfg)


def _capacity_witness() -> Scenario:
    return scenario([pod(cpu="3")], nodes=(node(cpu="4"),), cfg=config(multi_point=(), defaults=True))


def _normalizing_witness() -> Scenario:
    """Probe0 scores node-1 higher and normalizes the scores the other way round, so node-0 wins."""
    cfg = config(multi_point=("Probe0",))
    cfg["profiles"][0]["pluginConfig"] = [{"name": "Probe0", "args": {"scoreExtensions": True}}]
    script = {"Probe0": {**_PREFER_NODE_1, "NormalizeScore": {"scores": {"node-0": 60, "node-1": 0}}}}
    return scenario([pod(probes=script)], nodes=TWO_NODES, cfg=cfg)


def _weights_witness() -> Scenario:
    """Probe0 (weight 1) prefers node-0 by 30; Probe1 (weight 5) prefers node-1 by 10."""
    cfg = config(multi_point=())
    cfg["profiles"][0]["plugins"]["multiPoint"]["enabled"] += [{"name": "Probe0", "weight": 1},
                                                               {"name": "Probe1", "weight": 5}]
    script = {"Probe0": {"Score": {"byNode": {"node-0": {"score": 30}}}},
              "Probe1": {"Score": {"byNode": {"node-1": {"score": 10}}}}}
    return scenario([pod(probes=script)], nodes=TWO_NODES, cfg=cfg)


def _defaults(*workload, nodes=(node(),), bound=()) -> Callable[[], Scenario]:
    return lambda: scenario(workload, nodes=nodes, cfg=config(multi_point=(), defaults=True), bound=bound)


def _with_spec(manifest: dict, **spec) -> dict:
    return {**manifest, "spec": {**manifest.get("spec", {}), **spec}}


def _long_reason_witness() -> Scenario:
    return _probes({"Probe0": {"Filter": {"code": "Unschedulable", "reasons": ["r" * 600]}}})()


WITNESSES: dict[str, Callable[[], Scenario]] = {
    # mutants.py
    "filter-not-short-circuited": _probes({"Probe0": _REJECT_NODE_1}, PROBES_0_1, TWO_NODES),
    "prefilter-skip-ignored": _probes({"Probe0": {"PreFilter": {"code": "Skip"}}}),
    "postfilter-with-feasible-node": _probes({}),
    "forward-order-unreserve": _probes(_REJECT_RESERVE, PROBES_0_1),
    "unreserve-only-reserved": _probes(_REJECT_RESERVE, PROBES_0_1),
    "reserve-not-short-circuited": _probes({"Probe0": {"Reserve": {"code": "Unschedulable"}}}, PROBES_0_1),
    "scores-with-one-feasible-node": _probes({}),
    "no-score-range-check": _probes({"Probe0": {"Score": {"score": 150}}}, nodes=TWO_NODES),
    "prescore-skip-ignored": _probes({"Probe0": {"PreScore": {"code": "Skip"}}}, nodes=TWO_NODES),
    "permit-timeout-ignored": _probes({"Probe0": {"Permit": {"code": "Wait", "timeout": "1s"}}}),
    "bind-continues-after-success": _probes(
        {"Probe0": {"Bind": {"code": "Success"}}, "Probe1": {"Bind": {"code": "Success"}}}, PROBES_0_1,
        binder=False),
    "postbind-after-failed-bind": _probes({"Probe0": {"Bind": {"code": "Error"}}}, binder=False),
    "prefilter-result-ignored": _probes({"Probe0": {"PreFilter": {"result": ["node-0"]}}}, nodes=TWO_NODES),
    "gates-ignored": _defaults(pod(gates=("example.com/gate",))),
    "capacity-ignored": _defaults(pod(cpu="2"), nodes=(node(cpu="1"),)),
    "filters-built-in-reverse": _probes({}, PROBES_0_1),
    "infeasible-node-chosen": _probes({"Probe0": _REJECT_NODE_1}, nodes=TWO_NODES),
    "weights-ignored": _weights_witness,
    "reject-after-wait-leaves-waiting-pod": _probes(
        {"Probe0": {"Permit": {"code": "Wait", "timeout": "2s", "then": {"signal": "allow",
                                                                         "after": "500ms"}}},
         "Probe1": {"Permit": {"code": "Unschedulable"}}}, PROBES_0_1),
    "lower-priority-popped-first": lambda: scenario([pod("pod-0", priority=1), pod("pod-1", priority=10)],
                                                    cfg=config(multi_point=("Probe0",))),
    "errors-backed-off-by-rejections": _probes({"Probe0": {"PreFilter": {"code": "Error"}}}),
    "pending-not-a-rejection": _probes({"Probe0": {"Reserve": {"code": "Pending"}}}),
    "binding-rejection-is-error": _probes({"Probe0": {"PreBind": {"code": "Unschedulable"}}}),
    "rejections-kept-as-rejections": _probes({"Probe0": {"PreScore": {"code": "Unschedulable"}}},
                                             nodes=TWO_NODES),
    "histogram-unsorted": _probes({"Probe0": {"Filter": {"byNode": {
        "node-0": {"code": "Unschedulable", "reasons": ["a"]},
        "node-1": {"code": "Unschedulable", "reasons": ["b"]}}}}}, nodes=TWO_NODES),
    "postfilter-message-with-period": _probes({"Probe0": {"Filter": {"code": "Unschedulable"},
                                                          "PostFilter": {"code": "Unschedulable",
                                                                         "reasons": ["no victims"]}}}),
    "one-node-fit-error-counts-all-nodes": _probes({"Probe0": {"Reserve": {"code": "Unschedulable"}}},
                                                   nodes=TWO_NODES),
    "equal-priority-victims": _defaults(pod("pod-1", cpu="1", priority=10), nodes=(node(cpu="1"),),
                                        bound=(pod("pod-0", cpu="1", priority=10, on="node-0"),)),
    "bind-retried-after-success": _probes({}),
    # hard_mutants.py
    "taints-ignored": _defaults(pod(), nodes=(_with_spec(node(), taints=[{"key": "k",
                                                                          "effect": "NoSchedule"}]),)),
    "unschedulable-ignored": _defaults(pod(), nodes=(_with_spec(node(), unschedulable=True),)),
    "node-affinity-ignored": _defaults(_with_spec(pod(), nodeSelector={"zone": "a"})),
    "never-policy-ignored": _defaults(pod("pod-1", cpu="1", priority=10, policy="Never"),
                                      nodes=(node(cpu="1"),),
                                      bound=(pod("pod-0", cpu="1", priority=1, on="node-0"),)),
    "victims-not-reprieved": _defaults(pod("pod-2", cpu="1", priority=10), nodes=(node(cpu="2"),),
                                       bound=(pod("pod-0", cpu="1", priority=1, on="node-0"),
                                              pod("pod-1", cpu="1", priority=1, on="node-0"))),
    # unseen_mutants.py
    "prebind-failure-still-binds": _probes({"Probe0": {"PreBind": {"code": "Unschedulable"}}}),
    "score-error-counts-zero": _probes({"Probe0": {"Score": {"code": "Error"}}}, nodes=TWO_NODES),
    "prebind-ignores-preflight-skip": _probes({"Probe0": {"PreBindPreFlight": {"code": "Skip"}}}),
    "normalize-score-skipped": _normalizing_witness,
    "filter-error-as-rejection": _probes({"Probe0": {"Filter": {"byNode": {"node-0": {"code": "Error"}}}}},
                                         nodes=TWO_NODES),
    "permit-stops-at-wait": _probes({"Probe0": {"Permit": {"code": "Wait", "timeout": "2s",
                                                           "then": {"signal": "allow", "after": "500ms"}}},
                                     "Probe1": {"Permit": {"code": "Unschedulable"}}}, PROBES_0_1),
    # this module
    "filter-rejection-as-error": _probes({"Probe0": _REJECT_NODE_1}, nodes=TWO_NODES),
    "postfilter-stops-at-unschedulable": _probes(
        {"Probe0": {"Filter": {"code": "Unschedulable"},
                    "PostFilter": {"code": "Unschedulable"}}}, PROBES_0_1),
    "prescore-error-ignored": _probes({"Probe0": {"PreScore": {"code": "Error"}}}, nodes=TWO_NODES),
    "reserve-failure-ignored": _probes({"Probe0": {"Reserve": {"code": "Unschedulable"}}}),
    "filter-stops-after-first-success": _probes({"Probe1": _REJECT_NODE_1}, PROBES_0_1, TWO_NODES),
    "prefilter-success-skips-filter": _probes({"Probe0": _REJECT_NODE_1}, nodes=TWO_NODES),
    "postfilter-never-run": _probes({"Probe0": {"Filter": {"code": "Unschedulable"}}}),
    "normalize-twice": _normalizing_witness,
    "prescore-success-skips-score": _probes({"Probe0": _PREFER_NODE_1}, nodes=TWO_NODES),
    "no-scoring-with-two-feasible-nodes": _probes({"Probe0": _PREFER_NODE_1}, nodes=TWO_NODES),
    "one-feasible-node-enough": _probes({"Probe0": _PREFER_NODE_1}, nodes=TWO_NODES),
    "total-zero-without-scoring": lambda: scenario([pod(), pod("pod-1")], nodes=TWO_NODES,
                                                   cfg=config({"filter": ["Probe0"]})),
    "score-range-too-narrow": _probes({"Probe0": {"Score": {"score": 100}}}, nodes=TWO_NODES),
    "zero-weight-kept-zero": _zero_weight_witness,
    "reserve-stops-after-first": _probes({}, PROBES_0_1),
    "unreserve-twice": _probes(_REJECT_RESERVE, PROBES_0_1),
    "permit-timeout-halved": _probes({"Probe0": {"Permit": {"code": "Wait", "timeout": "2s",
                                                            "then": {"signal": "allow",
                                                                     "after": "1500ms"}}}}),
    "bind-stops-at-skip": _probes({"Probe0": {"Bind": {"code": "Skip"}},
                                   "Probe1": {"Bind": {"code": "Success"}}},
                                  PROBES_0_1, binder=False),
    "postbind-never-run": _probes({}),
    "error-backoff-doubled": _probes({"Probe0": {"PreFilter": {"code": "Error"}}}),
    "capacity-halved": _capacity_witness,
    "events-truncated-early": _long_reason_witness,
}

# --- witnesses for the older mutants the matrix had left pending (issue 32) -----------------------

ZONE = "topology.kubernetes.io/zone"


def _labelled(manifest: dict, **labels) -> dict:
    return {**manifest, "metadata": {**manifest["metadata"], "labels": labels}}


def _zoned(*zones: str) -> tuple[dict, ...]:
    return tuple(_labelled(node(f"node-{i}"), **{"kubernetes.io/hostname": f"node-{i}", ZONE: z})
                 for i, z in enumerate(zones))


def _extenders(script: dict, *extenders: dict, nodes=TWO_NODES) -> Callable[[], Scenario]:
    """One pod scripted for the suite's extender server; Probe0 at PreFilter and Reserve (no Score plugin,
    so the extenders' scores alone choose)."""
    points = {"preFilter": ["Probe0"], "reserve": ["Probe0"]}
    return lambda: scenario([pod(extenders=script)], nodes=nodes, cfg=config(points, extenders=extenders))


_PRIORITIZERS = (extender("ext-0", verbs=("prioritize",), weight=5),
                 extender("ext-1", verbs=("prioritize",), weight=1))
# ext-0 prefers node-0 by 5 x 10 x 1 = 50, ext-1 node-1 by 1 x 10 x 3 = 30.
_PRIORITIES = {"ext-0": {"prioritize": {"scores": {"node-0": 1}}},
               "ext-1": {"prioritize": {"scores": {"node-1": 3}}}}


def _ported(name: str, *, sidecar: bool = False) -> dict:
    port = {"containerPort": 8080, "hostPort": 8080, "protocol": "TCP"}
    manifest = pod(name)
    if sidecar:
        manifest["spec"]["initContainers"] = [{"name": "side", "image": "registry.k8s.io/pause:3.10",
                                               "restartPolicy": "Always", "ports": [port]}]
    else:
        manifest["spec"]["containers"][0]["ports"] = [port]
    return manifest


def _anti_affine(name: str, app: str, on: str | None) -> dict:
    term = {"labelSelector": {"matchLabels": {"app": app}}, "topologyKey": ZONE}
    return _labelled(_with_spec(pod(name, on=on), affinity={"podAntiAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": [term]}}), app=app)


def _spread_witness() -> Scenario:
    """node-0 (zone-a) is tainted, node-1 (zone-b) holds a web pod: a second web pod there makes skew 2."""
    nodes = _zoned("zone-a", "zone-b")
    tainted = _with_spec(nodes[0], taints=[{"key": "k", "effect": "NoSchedule"}])
    return _defaults(_spread("pod-1"), nodes=(tainted, nodes[1]), bound=(_spread("running-0", on="node-1"),))()


def _spread(name: str, on: str | None = None) -> dict:
    return _labelled(_with_spec(pod(name, on=on), topologySpreadConstraints=[
        {"maxSkew": 1, "topologyKey": ZONE, "whenUnsatisfiable": "DoNotSchedule",
         "labelSelector": {"matchLabels": {"app": "web"}}}]), app="web")


def _pdb_witness() -> Scenario:
    """node-0 holds a web pod a PodDisruptionBudget keeps, node-1 a db pod: the preemptor must evict on node-1."""
    import dataclasses
    nodes = (node("node-0", cpu="1"), node("node-1", cpu="1"))
    bound = tuple(_labelled(pod(f"running-{i}", priority=100, cpu="1", on=f"node-{i}"), app=app)
                  for i, app in enumerate(("web", "db")))
    pdb = {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
           "metadata": {"name": "pdb-0", "namespace": "default"},
           "spec": {"selector": {"matchLabels": {"app": "web"}}, "maxUnavailable": 0},
           "status": {"currentHealthy": 1, "desiredHealthy": 1, "disruptionsAllowed": 0, "expectedPods": 1}}
    sc = _defaults(pod("pod-0", priority=1000, cpu="1"), nodes=nodes, bound=bound)()
    return dataclasses.replace(sc, objects=(pdb,))


OLDER_WITNESSES: dict[str, Callable[[], Scenario]] = {
    # mutants.py
    "cycle-state-reused": _probes({"Probe0": {"Reserve": [{"code": "Error"}, {}]}}),
    "plugins-bind-before-extender": lambda: scenario(
        [pod(probes={"Probe0": {"Bind": {"code": "Success"}}})],
        cfg=config({"preFilter": ["Probe0"], "bind": {"enabled": [{"name": "Probe0"}],
                                                      "disabled": [{"name": "DefaultBinder"}]}},
                   extenders=(extender(verbs=("filter", "bind")),))),
    "extender-filter-ignored": _extenders({"ext-0": {"filter": {"fail": {"node-0": "no"}}}}, extender(),
                                          nodes=(node(),)),
    "extender-filter-error-skipped": _extenders({"ext-0": {"filter": {"error": "boom"}}}, extender()),
    "ignorable-extender-error-fails": _extenders({"ext-0": {"filter": {"status": 500}}},
                                                 extender(ignorable=True)),
    "prioritize-error-fails": _extenders({"ext-0": {"prioritize": {"status": 500}}},
                                         extender(verbs=("prioritize",))),
    "extender-weights-ignored": _extenders(_PRIORITIES, *_PRIORITIZERS),
    "extender-scores-dropped": _extenders(_PRIORITIES, *_PRIORITIZERS),
    "evict-on-every-candidate": _defaults(pod("preemptor", priority=10, cpu="1"),
                                          nodes=(node("node-0", cpu="1"), node("node-1", cpu="1")),
                                          bound=(pod("victim-0", priority=0, cpu="1", on="node-0"),
                                                 pod("victim-1", priority=0, cpu="1", on="node-1"))),
    # hard_mutants.py
    "pdbs-ignored": _pdb_witness,
    "sidecar-ports-ignored": _defaults(_ported("pod-0"), _ported("pod-1", sidecar=True)),
    "existing-anti-affinity-ignored": _defaults(_labelled(pod("pod-1"), app="web"),
                                                nodes=_zoned("zone-a"),
                                                bound=(_anti_affine("running-0", "web", "node-0"),)),
    "spread-self-not-counted": _spread_witness,
    # pod-0 needs a web pod on its node, which comes next in the queue: only a wake-up lets pod-0 in
    "lost-wakeups": _defaults(_with_spec(pod("pod-0"), affinity={"podAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": [{"labelSelector": {"matchLabels": {"app": "web"}},
                                                            "topologyKey": "kubernetes.io/hostname"}]}}),
                              _labelled(pod("pod-1"), app="web")),
    # tests/conformance/invariants/test_event_rules.py (their hand-made scenarios)
    **{name: (lambda sc=sc: sc) for name, sc in EVENT_WITNESSES.items()},
}
WITNESSES.update(OLDER_WITNESSES)

NEW_WITNESSES: dict[str, Callable[[], Scenario]] = {
    "prefilter-unschedulable-stops": _probes({"Probe0": {"PreFilter": {"code": "Unschedulable"}}}, PROBES_0_1),
    "prefilter-unresolvable-continues": _probes({"Probe0": {"PreFilter": {"code": "UnschedulableAndUnresolvable"}}},
                                                PROBES_0_1),
    "postfilter-continues-after-success": _probes({"Probe0": {"Filter": {"code": "Unschedulable"},
                                                              "PostFilter": {"code": "Success"}}}, PROBES_0_1),
    "prescore-skip-is-error": _probes({"Probe0": {"PreScore": {"code": "Skip"}}}, nodes=TWO_NODES),
    "cycle-state-cleared-after-prefilter": _defaults(pod(cpu="1")),
    "ungated-pods-held": _defaults(pod()),
    "preenqueue-success-gates": _probes({}),
    "preenqueue-only-unresolvable-gates": _probes({"Probe0": {"PreEnqueue": {"code": "Unschedulable"}}}),
    "filters-after-prefilter-rejection": _probes({"Probe0": {"PreFilter": {"code": "Unschedulable"}}}),
    "filter-plugins-also-score": lambda: scenario([pod()], nodes=TWO_NODES, cfg=config({"filter": ["Probe0"]})),
    "last-reserve-plugin-dropped": _probes({}, PROBES_0_1),
}
WITNESSES.update(NEW_WITNESSES)


def _weights_2_1_witness(w0: int) -> Callable[[], Scenario]:
    """Probe0 (weight w0) prefers node-0 by 30; Probe1 (weight 1) prefers node-1 by 40 (w0 = 0, counted 1)
    or 80 (w0 = 2)."""
    def build() -> Scenario:
        cfg = config(multi_point=())
        cfg["profiles"][0]["plugins"]["multiPoint"]["enabled"] += [{"name": "Probe0", "weight": w0},
                                                                   {"name": "Probe1", "weight": 1}]
        script = {"Probe0": {"Score": {"byNode": {"node-0": {"score": 30}}}},
                  "Probe1": {"Score": {"byNode": {"node-1": {"score": 40 if w0 == 0 else 80}}}}}
        return scenario([pod(probes=script)], nodes=TWO_NODES, cfg=cfg)
    return build


def _timeline(*events: dict, gates=("example.com/a",)) -> Callable[[], Scenario]:
    """One node n1 and a gated pod p (test_event_rules.py's builders), with these timeline events."""
    from .invariants.test_event_rules import scenario as timeline_scenario
    from .test_timeline_reference import pod as timeline_pod
    return lambda: timeline_scenario(list(events), workload=[timeline_pod(
        "p", schedulingGates=[{"name": g} for g in gates])])


_UNGATE = {"op": "update", "kind": "Pod", "name": "p", "patch": {"spec": {"schedulingGates": None}}}
_WAIT_THEN_ALLOW = {"Permit": {"code": "Wait", "timeout": "2s", "then": {"signal": "allow", "after": "500ms"}}}

NEW_WITNESSES_2: dict[str, Callable[[], Scenario]] = {
    "node-update-drops-node": _timeline(
        {"when": 1, "op": "update", "kind": "Node", "name": "n1", "patch": {"metadata": {"labels": {"a": "b"}}}},
        {"when": 2, **_UNGATE}),
    "one-gate-removed-ungates": _timeline(
        {"when": 1, "op": "update", "kind": "Pod", "name": "p",
         "patch": {"spec": {"schedulingGates": [{"name": "example.com/b"}]}}},
        gates=("example.com/a", "example.com/b")),
    "no-postfilter-after-prefilter-rejection": _probes({"Probe0": {"PreFilter": {"code": "Unschedulable"}}}),
    "last-feasible-node-dropped": _probes({"Probe0": _PREFER_NODE_1}, nodes=TWO_NODES),
    "infeasible-nodes-scored": _probes({"Probe0": _REJECT_NODE_1}, nodes=(*TWO_NODES, node("node-2"))),
    "last-node-not-scored": _probes({"Probe0": _PREFER_NODE_1}, nodes=TWO_NODES),
    "weights-squared": _weights_2_1_witness(2),
    "zero-weight-counted-two": _weights_2_1_witness(0),
    "permit-wait-rejects": _probes({"Probe0": _WAIT_THEN_ALLOW}),
    "permit-continues-after-rejection": _probes({"Probe0": {"Permit": {"code": "Unschedulable"}}}, PROBES_0_1),
    "preflight-success-drops-prebind": _probes({}),
    "preflight-error-skips": _probes({"Probe0": {"PreBindPreFlight": {"code": "Error"}}}),
    "preflight-skip-fails": _probes({"Probe0": {"PreBindPreFlight": {"code": "Skip"}}}),
    "prebind-stops-at-success": _probes({}, PROBES_0_1),
}
WITNESSES.update(NEW_WITNESSES_2)


def _two_profiles(scheduler_name: str) -> Callable[[], Scenario]:
    """Profiles default-scheduler and other-scheduler (Probe0 each); one pod naming `scheduler_name`."""
    def build() -> Scenario:
        cfg = config(multi_point=("Probe0",))
        cfg["profiles"].append({**cfg["profiles"][0], "schedulerName": "other-scheduler"})
        return scenario([_with_spec(pod(), schedulerName=scheduler_name)], cfg=cfg)
    return build


def _ported_on(name: str, port: int) -> dict:
    manifest = pod(name)
    manifest["spec"]["containers"][0]["ports"] = [{"containerPort": port, "hostPort": port, "protocol": "TCP"}]
    return manifest


_BINDER_EXTENDER = config({"preFilter": ["Probe0"], "bind": {"enabled": [{"name": "Probe0"}],
                                                          "disabled": [{"name": "DefaultBinder"}]}},
                          extenders=(extender(verbs=("filter", "bind")),))
_TOLERATES_K = {"tolerations": [{"key": "k", "operator": "Exists", "effect": "NoSchedule"}]}
_TOLERATES_UNSCHEDULABLE = {"tolerations": [{"key": "node.kubernetes.io/unschedulable", "operator": "Exists",
                                             "effect": "NoSchedule"}]}

NEW_WITNESSES_3: dict[str, Callable[[], Scenario]] = {
    "reserve-skip-succeeds": _probes({"Probe0": {"Reserve": {"code": "Skip"}}}),
    "filter-unresolvable-is-error": _probes({"Probe0": {"Filter": {"byNode": {
        "node-1": {"code": "UnschedulableAndUnresolvable"}}}}}, nodes=TWO_NODES),
    "unknown-scheduler-name-scheduled": lambda: scenario([_with_spec(pod(), schedulerName="no-such-scheduler")],
                                                         cfg=config(multi_point=("Probe0",))),
    "second-profile-dropped": _two_profiles("other-scheduler"),
    "permit-skipped": _probes({"Probe0": {"Permit": {"code": "Unschedulable"}}}),
    "bind-not-written": _probes({}),
    "failed-bind-still-written": _probes({"Probe0": {"Bind": {"code": "Error"}}}, binder=False),
    "plugins-bind-after-extender": lambda: scenario([pod(probes={"Probe0": {"Bind": {"code": "Success"}}})],
                                                    cfg=_BINDER_EXTENDER),
    "postfilter-message-dropped": WITNESSES["postfilter-message-with-period"],
    "tolerated-taints-reject": _defaults(_with_spec(pod(), **_TOLERATES_K), nodes=(
        _with_spec(node(), taints=[{"key": "k", "effect": "NoSchedule"}]),)),
    "matching-selector-rejects": _defaults(_with_spec(pod(), nodeSelector={"zone": "a"}),
                                           nodes=(_labelled(node(), **{"kubernetes.io/hostname": "node-0",
                                                                       "zone": "a"}),)),
    "unschedulable-toleration-ignored": _defaults(_with_spec(pod(), **_TOLERATES_UNSCHEDULABLE),
                                                  nodes=(_with_spec(node(), unschedulable=True),)),
    "any-host-ports-conflict": _defaults(_ported_on("pod-0", 8080), _ported_on("pod-1", 9090)),
    "anti-affinity-against-any-pod": _defaults(_anti_affine("pod-0", "web", None), nodes=_zoned("zone-a"),
                                               bound=(_labelled(pod("running-0", on="node-0"), app="db"),)),
    "spread-against-any-pod": _defaults(_spread("pod-0"), nodes=_zoned("zone-a", "zone-b"),
                                        bound=(_labelled(pod("running-0", on="node-0"), app="db"),
                                               _labelled(pod("running-1", on="node-1"), app="db"))),
}
WITNESSES.update(NEW_WITNESSES_3)


def _nominated(second: dict) -> Callable[[], Scenario]:
    """pod-0 (priority 10) is filtered out everywhere once and nominated to node-0 by Probe0's PostFilter;
    pod-1 (priority 1, scripted `second`) is filtered next and sees it there (AddPod)."""
    first = {"Probe0": {"Filter": [{"code": "Unschedulable"}, {}], "PostFilter": {"nominate": "node-0"}}}
    return lambda: scenario([pod("pod-0", priority=10, probes=first), pod("pod-1", priority=1, probes=second)],
                            cfg=config(multi_point=("Probe0",)))


_FULL = dict(nodes=(node("node-0", cpu="1"),), bound=(pod("victim", priority=9, cpu="1", on="node-0"),))

NEW_WITNESSES_4: dict[str, Callable[[], Scenario]] = {
    "prefilter-result-drops-last": _probes({"Probe0": {"PreFilter": {"result": ["node-0", "node-1"]},
                                                       **_PREFER_NODE_1}}, nodes=TWO_NODES),
    "extensions-of-skipped-plugins": _nominated({"Probe0": {"PreFilter": {"code": "Skip"}}}),
    "extensions-never-called": _nominated({}),
    "extension-errors-ignored": _nominated({"Probe0": {"AddPod": {"code": "Error"}}}),
    "extension-success-fails": _nominated({}),
    "nominated-pods-not-added": _nominated({}),
    "assumed-pods-not-counted": lambda: scenario([pod("pod-0", cpu="1", probes={"Probe0": _WAIT_THEN_ALLOW}),
                                    pod("pod-1", cpu="1")], nodes=(node(cpu="1"),),
                                   cfg=config(multi_point=("Probe0",), defaults=True)),
    "rejected-pods-stay-assumed": lambda: scenario(
        [pod("pod-0", cpu="1", probes={"Probe0": {"Permit": {"code": "UnschedulableAndUnresolvable"}}}),
         pod("pod-1", cpu="1")], nodes=(node(cpu="1"),), cfg=config(multi_point=("Probe0",), defaults=True)),
    "events-never-truncated": _probes({"Probe0": {"Filter": {"code": "Unschedulable", "reasons": ["r" * 1100]}}}),
    "adjacent-priority-spared": _defaults(pod("pod-0", cpu="1", priority=10), **_FULL),
    "every-pod-never-preempts": _defaults(pod("pod-0", cpu="1", priority=10), **_FULL),
    "zero-score-is-error": _probes({"Probe0": {"Score": {"score": 0}}}, nodes=TWO_NODES),
}
WITNESSES.update(NEW_WITNESSES_4)

# The mutants of the other modules; their own tests search for them with the invariant each names.
OLDER_MUTANTS: list[Mutant] = MUTANTS + HARD_MUTANTS + UNSEEN_MUTANTS

ALL_HOOKS: dict[str, Callable[[Scheduler], None]] = {m.name: m.hook for m in OLDER_MUTANTS + RULE_MUTANTS
                                                     + NEW_RULE_MUTANTS + NEW_RULE_MUTANTS_2 + NEW_RULE_MUTANTS_3
                                                     + NEW_RULE_MUTANTS_4}
# The event rules' mutants, from their own test module (which searches for them itself).
ALL_HOOKS.update({name: hook for name, (hook, _) in EVENT_MUTANTS.items()})

RULE_MUTANTS += NEW_RULE_MUTANTS + NEW_RULE_MUTANTS_2 + NEW_RULE_MUTANTS_3 + NEW_RULE_MUTANTS_4

__all__ = ["ALL_HOOKS", "OLDER_MUTANTS", "RULE_MUTANTS", "RuleMutant", "WITNESSES"]
