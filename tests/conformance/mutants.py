"""Deliberately broken reference schedulers: each breaks one framework rule on the built instance.

A mutant is a hook for `ReferenceBackend(hook=...)` plus the invariant that must catch it. The
unbroken reference must pass the same invariant (tests/conformance/test_mutants.py checks both).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from reference.cycle_state import CycleState
from reference.framework.runtime import Framework
from reference.scheduler.schedule_one import ScheduleResult
from reference.scheduler.scheduler import Scheduler
from reference.status import SUCCESS, Code, Status


@dataclass(frozen=True)
class Mutant:
    name: str
    invariant: str
    hook: Callable[[Scheduler], None]


def _each_framework(patch: Callable[[Framework], None]) -> Callable[[Scheduler], None]:
    def hook(sched: Scheduler) -> None:
        for fw in sched.frameworks.values():
            patch(fw)
    return hook


# --- reserve ------------------------------------------------------------------------------------

def _forward_unreserve(fw: Framework) -> None:
    def unreserve(state, pod, node_name):
        for pl in fw.reserve_plugins:
            pl.unreserve(state, pod, node_name)
    fw.run_reserve_plugins_unreserve = unreserve


def _unreserve_only_reserved(fw: Framework) -> None:
    def unreserve(state, pod, node_name):
        reserved = state.read("mutant/reserved") if "mutant/reserved" in state else []
        for pl in reversed(reserved):
            pl.unreserve(state, pod, node_name)

    def reserve(state, pod, node_name):
        done = []
        state.write("mutant/reserved", done)
        for pl in fw.reserve_plugins:
            s = pl.reserve(state, pod, node_name)
            if not s.is_success():
                return s.with_plugin(pl.name)
            done.append(pl)
        return SUCCESS
    fw.run_reserve_plugins_unreserve = unreserve
    fw.run_reserve_plugins_reserve = reserve


def _reserve_not_short_circuited(fw: Framework) -> None:
    def reserve(state, pod, node_name):
        first = SUCCESS
        for pl in fw.reserve_plugins:
            s = pl.reserve(state, pod, node_name)
            if first.is_success() and not s.is_success():
                first = s.with_plugin(pl.name)
        return first
    fw.run_reserve_plugins_reserve = reserve


# --- filtering ----------------------------------------------------------------------------------

def _filter_not_short_circuited(fw: Framework) -> None:
    def run_filter(state, pod, node_info):
        first = SUCCESS
        for pl in fw.filter_plugins:
            if pl.name in state.skip_filter_plugins:
                continue
            s = pl.filter(state, pod, node_info)
            if first.is_success() and not s.is_success():
                first = s.with_plugin(pl.name)
        return first
    fw.run_filter_plugins = run_filter


def _prefilter_skip_ignored(fw: Framework) -> None:
    original = fw.run_pre_filter_plugins

    def run(state, pod):
        result = original(state, pod)
        # Out-of-tree plugins only: in-tree plugins that skipped would fail on missing state first.
        state.skip_filter_plugins = {n for n in state.skip_filter_plugins if not n.startswith("Probe")}
        return result
    fw.run_pre_filter_plugins = run


def _prefilter_result_ignored(fw: Framework) -> None:
    original = fw.run_pre_filter_plugins

    def run(state, pod):
        result, status, with_nodes = original(state, pod)
        if result is not None and status.code is Code.UNSCHEDULABLE_AND_UNRESOLVABLE and with_nodes:
            return None, SUCCESS, set()
        return None, status, set()
    fw.run_pre_filter_plugins = run


def _gates_ignored(fw: Framework) -> None:
    fw.pre_enqueue_plugins = [p for p in fw.pre_enqueue_plugins if p.name != "SchedulingGates"]


def _filters_built_in_reverse(fw: Framework) -> None:
    fw.filter_plugins = list(reversed(fw.filter_plugins))


def _capacity_ignored(fw: Framework) -> None:
    fw.filter_plugins = [p for p in fw.filter_plugins if p.name != "NodeResourcesFit"]
    fw.pre_filter_plugins = [p for p in fw.pre_filter_plugins if p.name != "NodeResourcesFit"]


def _cycle_state_reused(sched: Scheduler) -> None:
    original = sched.algorithm.schedule_pod
    kept: dict[str, CycleState] = {}

    def schedule_pod(fw, state, pod):
        previous = kept.get(pod.effective_uid)
        if previous is not None:
            state._data.update(previous._data)
        kept[pod.effective_uid] = state
        return original(fw, state, pod)
    sched.algorithm.schedule_pod = schedule_pod


def _postfilter_with_feasible_node(sched: Scheduler) -> None:
    original = sched.algorithm.schedule_pod

    def schedule_pod(fw, state, pod):
        result = original(fw, state, pod)
        from reference.interfaces import NodeToStatus
        fw.run_post_filter_plugins(state, pod, NodeToStatus())
        return result
    sched.algorithm.schedule_pod = schedule_pod


def _infeasible_node_chosen(sched: Scheduler) -> None:
    """Picks the alphabetically last node of the cluster, feasible or not, when filtering found any."""
    original = sched.algorithm.schedule_pod

    def schedule_pod(fw, state, pod):
        result = original(fw, state, pod)
        last = max(sched.store.nodes)
        return ScheduleResult(last, result.evaluated_nodes, result.feasible_nodes, scores=result.scores)
    sched.algorithm.schedule_pod = schedule_pod


# --- scoring ------------------------------------------------------------------------------------

def _scores_with_one_feasible_node(sched: Scheduler) -> None:
    original = sched.algorithm.schedule_pod

    def schedule_pod(fw, state, pod):
        result = original(fw, state, pod)
        if result.feasible_nodes == 1:
            info = fw.snapshot().get(result.suggested_host)
            sched.algorithm.prioritize_nodes(fw, state, pod, [info])
        return result
    sched.algorithm.schedule_pod = schedule_pod


def _no_score_range_check(fw: Framework) -> None:
    import reference.framework.runtime as runtime
    original = fw.run_score_plugins

    def run(state, pod, nodes):
        saved = runtime.MIN_NODE_SCORE, runtime.MAX_NODE_SCORE
        runtime.MIN_NODE_SCORE, runtime.MAX_NODE_SCORE = -(1 << 62), 1 << 62
        try:
            return original(state, pod, nodes)
        finally:
            runtime.MIN_NODE_SCORE, runtime.MAX_NODE_SCORE = saved
    fw.run_score_plugins = run


def _weights_ignored(fw: Framework) -> None:
    fw.score_weights = {name: 1 for name in fw.score_weights}


def _prescore_skip_ignored(fw: Framework) -> None:
    original = fw.run_pre_score_plugins

    def run(state, pod, nodes):
        status = original(state, pod, nodes)
        state.skip_score_plugins = {n for n in state.skip_score_plugins if not n.startswith("Probe")}
        return status
    fw.run_pre_score_plugins = run


# --- permit -------------------------------------------------------------------------------------

def _permit_timeout_ignored(fw: Framework) -> None:
    original = fw.add_waiting_pod

    def add(pod, waits):
        return original(pod, {name: 10 ** 9 for name in waits})
    fw.add_waiting_pod = add


def _reject_after_wait_leaves_waiting_pod(fw: Framework) -> None:
    def run(state, pod, node_name):
        waits: dict[str, float] = {}
        for pl in fw.permit_plugins:
            s, timeout = pl.permit(state, pod, node_name)
            if s.is_wait():
                waits[pl.name] = timeout
            elif not s.is_success():
                if waits:
                    return waits, Status(Code.WAIT)
                return {}, s.with_plugin(pl.name)
        return (waits, Status(Code.WAIT)) if waits else ({}, SUCCESS)
    fw.run_permit_plugins = run


# --- binding ------------------------------------------------------------------------------------

def _bind_continues_after_success(fw: Framework) -> None:
    def run(state, pod, node_name):
        final = Status(Code.SKIP)
        for pl in fw.bind_plugins:
            s = pl.bind(state, pod, node_name)
            if not s.is_skip() and final.is_skip():
                final = s
        return final
    fw.run_bind_plugins = run


def _postbind_after_failed_bind(fw: Framework) -> None:
    original = fw.run_bind_plugins

    def run(state, pod, node_name):
        status = original(state, pod, node_name)
        if not status.is_success():
            fw.run_post_bind_plugins(state, pod, node_name)
        return status
    fw.run_bind_plugins = run


def _plugins_bind_before_extender(sched: Scheduler) -> None:
    """Asks the Bind plugins first and the binder extender only when every plugin skips."""
    original = sched._bind

    def bind(fw, state, pod, host):
        status = fw.run_bind_plugins(state, pod, host)
        return original(fw, state, pod, host) if status.is_skip() else status
    sched._bind = bind


def _bind_retried_after_success(sched: Scheduler) -> None:
    """Binds once more after every successful binding (a retry after a lost response), against a
    store that, like an API server without the conflict check, accepts the second binding."""
    from dataclasses import replace
    store, original = sched.store, sched._bind

    def store_bind(pod, node_name, bind=store.bind, **options):
        stored = store.pods.get(pod.effective_uid)
        if stored is not None and stored.node_name:
            store.pods[pod.effective_uid] = replace(stored, node_name="")
        return bind(pod, node_name, **options)

    def bind(fw, state, pod, host):
        status = original(fw, state, pod, host)
        if status.is_success():
            original(fw, state, pod, host)
        return status
    store.bind = store_bind
    sched._bind = bind


MUTANTS: list[Mutant] = [
    Mutant("forward-order-unreserve", "unreserve-reverse-order", _each_framework(_forward_unreserve)),
    Mutant("unreserve-only-reserved", "unreserve-reverse-order", _each_framework(_unreserve_only_reserved)),
    Mutant("reserve-not-short-circuited", "reserve-short-circuit", _each_framework(_reserve_not_short_circuited)),
    Mutant("filter-not-short-circuited", "filter-short-circuit", _each_framework(_filter_not_short_circuited)),
    Mutant("prefilter-skip-ignored", "prefilter-skip-pairing", _each_framework(_prefilter_skip_ignored)),
    Mutant("prefilter-result-ignored", "prefilter-result-restricts", _each_framework(_prefilter_result_ignored)),
    Mutant("gates-ignored", "gated-pods-never-prefiltered", _each_framework(_gates_ignored)),
    Mutant("capacity-ignored", "capacity-respected", _each_framework(_capacity_ignored)),
    Mutant("filters-built-in-reverse", "plugin-order-matches-expansion", _each_framework(_filters_built_in_reverse)),
    Mutant("cycle-state-reused", "cycle-state-fresh", _cycle_state_reused),
    Mutant("postfilter-with-feasible-node", "postfilter-only-without-feasible-node", _postfilter_with_feasible_node),
    Mutant("infeasible-node-chosen", "chosen-node-passed-filters", _infeasible_node_chosen),
    Mutant("scores-with-one-feasible-node", "one-feasible-node-no-scoring", _scores_with_one_feasible_node),
    Mutant("no-score-range-check", "score-range-enforced", _each_framework(_no_score_range_check)),
    Mutant("weights-ignored", "chosen-node-has-max-score", _each_framework(_weights_ignored)),
    Mutant("prescore-skip-ignored", "prescore-skip-pairing", _each_framework(_prescore_skip_ignored)),
    Mutant("permit-timeout-ignored", "permit-wait-resolution", _each_framework(_permit_timeout_ignored)),
    Mutant("reject-after-wait-leaves-waiting-pod", "permit-reject-wins",
           _each_framework(_reject_after_wait_leaves_waiting_pod)),
    Mutant("bind-continues-after-success", "bind-first-non-skip", _each_framework(_bind_continues_after_success)),
    Mutant("postbind-after-failed-bind", "postbind-iff-bound", _each_framework(_postbind_after_failed_bind)),
    Mutant("plugins-bind-before-extender", "extender-binder-first", _plugins_bind_before_extender),
    Mutant("bind-retried-after-success", "bound-at-most-once", _bind_retried_after_success),
]

__all__ = ["MUTANTS", "Mutant"]


# --- queue, extenders, outcome, preemption --------------------------------------------------------

def _lower_priority_first(sched: Scheduler) -> None:
    less = sched.queue._less
    sched.queue._less = lambda a, b: less(b, a)


def _errors_backed_off_by_rejections(sched: Scheduler) -> None:
    """Computes every backoff from the count of rejections, so pods that only failed with errors
    retry at once (the counter upstream used before it split error backoff off)."""
    import math
    queue = sched.queue

    def backoff_time(qpi):
        if qpi.backoff_expiration is None:
            count = qpi.unschedulable_count
            qpi.backoff_expiration = math.floor(qpi.timestamp + queue.backoff_duration(count)) if count else -math.inf
        return qpi.backoff_expiration
    queue.backoff_time = backoff_time


def _extender_filter_ignored(sched: Scheduler) -> None:
    """Asks the extenders (so the trace shows their answers) but keeps every node."""
    from reference.interfaces import NodeToStatus
    original = sched.algorithm.find_nodes_that_pass_extenders

    def find(pod, feasible, statuses):
        original(pod, feasible, NodeToStatus())
        return feasible
    sched.algorithm.find_nodes_that_pass_extenders = find


def _extenders_ignorable(value: bool) -> Callable[[Scheduler], None]:
    def hook(sched: Scheduler) -> None:
        for ext in sched.algorithm.extenders:
            ext.ignorable = value
    return hook


def _prioritize_errors_fail(sched: Scheduler) -> None:
    from reference.scheduler.schedule_one import CycleFailure
    errors: list[str] = []
    for ext in sched.algorithm.extenders:
        def prioritize(pod, nodes, original=ext.prioritize):
            try:
                return original(pod, nodes)
            except Exception as exc:
                errors.append(str(exc))
                raise
        ext.prioritize = prioritize
    original = sched.algorithm.prioritize_nodes

    def prioritize_nodes(fw, state, pod, nodes):
        errors.clear()
        scores = original(fw, state, pod, nodes)
        if errors:
            raise CycleFailure(Status.as_status(errors[0]))
        return scores
    sched.algorithm.prioritize_nodes = prioritize_nodes


def _extender_weights_ignored(sched: Scheduler) -> None:
    for ext in sched.algorithm.extenders:
        ext.weight = 1


def _extender_scores_dropped(sched: Scheduler) -> None:
    """Asks the extenders to prioritize but adds nothing to the nodes' totals."""
    for ext in sched.algorithm.extenders:
        def prioritize(pod, nodes, original=ext.prioritize):
            return original(pod, nodes)[0], 0
        ext.prioritize = prioritize


def _patch_failure_handler(sched: Scheduler, before=None, after=None) -> None:
    original = sched._handle_failure

    def handle(fw, qpi, status, fit_error, nominating):
        if before is not None:
            status = before(status, fit_error)
        original(fw, qpi, status, fit_error, nominating)
        if after is not None:
            after(qpi.pod.effective_uid, status, fit_error)
    sched._handle_failure = handle


def _postfilter_message_with_period(sched: Scheduler) -> None:
    """The spec's `.[ <postfilter msg>.]`: upstream's FitError.Error adds no period after it."""
    def before(status, fit_error):
        if fit_error is None or not fit_error.diagnosis.post_filter_msg:
            return status
        fit_error.diagnosis.post_filter_msg += "."
        return fit_error.as_status(status.code)
    _patch_failure_handler(sched, before=before)


def _histogram_unsorted(sched: Scheduler) -> None:
    """Lists the reason histogram in reverse order."""
    def before(status, fit_error):
        if fit_error is None or fit_error.diagnosis.pre_filter_msg:
            return status
        head, sep, rest = fit_error.message().partition(": ")
        body, dot, tail = rest.partition(".")
        entries = body.split(", ")
        if not dot or len(entries) < 2:
            return status
        wrong = f"{head}{sep}{', '.join(reversed(entries))}{dot}{tail}"
        return Status(status.code, (wrong,), error=wrong)
    _patch_failure_handler(sched, before=before)


def _prefilter_message_as_histogram(sched: Scheduler) -> None:
    """Drops the PreFilter message, so a PreFilter rejection is counted once per node in the histogram
    (what FitError.Error's comment warns against)."""
    def before(status, fit_error):
        if fit_error is None or not fit_error.diagnosis.pre_filter_msg:
            return status
        fit_error.diagnosis.pre_filter_msg = ""
        return fit_error.as_status(status.code)
    _patch_failure_handler(sched, before=before)


def _pending_not_a_rejection(sched: Scheduler) -> None:
    """Counts only Unschedulable and UnschedulableAndUnresolvable as rejections when writing the
    condition: Pending (also a rejection upstream) gets SchedulerError."""
    def after(uid, status, fit_error):
        cond = sched.store.conditions.get(uid)
        if cond is not None and status.code is Code.PENDING:
            sched.store.conditions[uid] = type(cond)(cond.type, cond.status, "SchedulerError", cond.message)
    _patch_failure_handler(sched, after=after)


def _binding_rejection_is_error(sched: Scheduler) -> None:
    """Derives the condition reason from the FitError instead of the status code: PreBind and Bind
    rejections (not FitErrors) get SchedulerError."""
    def after(uid, status, fit_error):
        cond = sched.store.conditions.get(uid)
        if cond is not None and fit_error is None and status.is_rejected():
            sched.store.conditions[uid] = type(cond)(cond.type, cond.status, "SchedulerError", cond.message)
    _patch_failure_handler(sched, after=after)


def _one_node_fit_error_counts_all_nodes(sched: Scheduler) -> None:
    """Reserve, Permit and WaitOnPermit rejections report 0/<cluster size> instead of 0/1."""
    original = sched._single_node_failure

    def failure(status, host, plugins=None):
        result = original(status, host, plugins)
        if result.fit_error is not None:
            result.fit_error.num_all_nodes = len(sched.store.nodes)
        return result
    sched._single_node_failure = failure


def _rejections_kept_as_rejections(fw: Framework) -> None:
    """Passes PreScore and PreBindPreFlight rejections on as they are (an `IsRejected` check at every
    point), so the pod is Unschedulable where upstream turns them into errors (SchedulerError)."""
    from reference.scheduler.schedule_one import CycleFailure
    from reference.status import wrap_error

    def run_pre_score(state, pod, nodes):
        state.skip_score_plugins = set()
        for pl in fw.pre_score_plugins:
            s = pl.pre_score(state, pod, nodes)
            if s.is_skip():
                state.skip_score_plugins.add(pl.name)
            elif s.is_rejected():
                raise CycleFailure(s.with_plugin(pl.name))
            elif not s.is_success():
                return wrap_error('running PreScore plugin "{plugin}": {err}', pl.name, s)
        return SUCCESS

    def run_pre_flights(state, pod, node_name):
        result, skip = Status(Code.SKIP), set()
        for pl in fw.pre_bind_plugins:
            s = pl.pre_bind_pre_flight(state, pod, node_name)
            if s.is_rejected():
                return s.with_plugin(pl.name)
            if s.is_success():
                result = SUCCESS
            elif s.is_skip():
                skip.add(pl.name)
            else:
                return Status.as_status(f'running PreBindPreFlight "{pl.name}": {s.as_error()}')
        state.skip_pre_bind_plugins = skip
        return result
    fw.run_pre_score_plugins = run_pre_score
    fw.run_pre_bind_pre_flights = run_pre_flights


def _default_preemption(fw: Framework):
    return next((p for p in fw.post_filter_plugins if p.name == "DefaultPreemption"), None)


def _equal_priority_victims(fw: Framework) -> None:
    from dataclasses import replace
    plugin = _default_preemption(fw)
    if plugin is None:
        return
    original = plugin.select_victims_on_node

    def select(state, preemptor, node_info, all_victims, pdbs):
        return original(state, replace(preemptor, priority=preemptor.effective_priority + 1), node_info,
                        all_victims, pdbs)
    plugin.select_victims_on_node = select


def _evict_on_every_candidate(fw: Framework) -> None:
    """Evicts the victims of every candidate node, not only of the chosen one."""
    from reference.plugins.preemption.evaluator import select_candidate
    from reference.plugins.preemption.executor import prepare_candidate_async
    plugin = _default_preemption(fw)
    if plugin is None:
        return
    original = plugin.find_candidates

    def find(state, all_nodes, pod, statuses):
        candidates, node_statuses, err = original(state, all_nodes, pod, statuses)
        best = select_candidate(candidates)
        for candidate in candidates:
            if best is None or candidate.name != best.name:
                prepare_candidate_async(plugin.handle, candidate, pod, plugin.name)
        return candidates, node_statuses, err
    plugin.find_candidates = find


MUTANTS += [
    Mutant("lower-priority-popped-first", "queue-priority-order", _lower_priority_first),
    Mutant("errors-backed-off-by-rejections", "error-backoff-respected", _errors_backed_off_by_rejections),
    Mutant("extender-filter-ignored", "extender-filter-respected", _extender_filter_ignored),
    Mutant("ignorable-extender-error-fails", "ignorable-extender-errors-tolerated", _extenders_ignorable(False)),
    Mutant("extender-filter-error-skipped", "extender-filter-error-fails", _extenders_ignorable(True)),
    Mutant("prioritize-error-fails", "extender-prioritize-errors-tolerated", _prioritize_errors_fail),
    Mutant("extender-weights-ignored", "extender-scores-scaled", _extender_weights_ignored),
    Mutant("extender-scores-dropped", "extender-scores-scaled", _extender_scores_dropped),
    Mutant("one-node-fit-error-counts-all-nodes", "fit-error-message", _one_node_fit_error_counts_all_nodes),
    Mutant("prefilter-message-as-histogram", "fit-error-message", _prefilter_message_as_histogram),
    Mutant("histogram-unsorted", "fit-error-message", _histogram_unsorted),
    Mutant("postfilter-message-with-period", "fit-error-message", _postfilter_message_with_period),
    Mutant("rejections-kept-as-rejections", "condition-classification",
           _each_framework(_rejections_kept_as_rejections)),
    Mutant("binding-rejection-is-error", "condition-classification", _binding_rejection_is_error),
    Mutant("pending-not-a-rejection", "condition-classification", _pending_not_a_rejection),
    Mutant("equal-priority-victims", "preemption-evicts-lower-priority-only",
           _each_framework(_equal_priority_victims)),
    Mutant("evict-on-every-candidate", "preemptor-nominated", _each_framework(_evict_on_every_candidate)),
]


# --- real magnitudes: bugs only nodes larger than today's small draws show (issue 30) --------------

def _fit_skipped_on_large_nodes(fw: Framework) -> None:
    """NodeResourcesFit's Filter takes a shortcut: a node of more than 16 cores fits any pod."""
    for pl in fw.filter_plugins:
        if pl.name == "NodeResourcesFit":
            def run(state, pod, node_info, original=pl.filter):
                return SUCCESS if node_info.allocatable.milli_cpu > 16_000 else original(state, pod, node_info)
            pl.filter = run


MAGNITUDE_MUTANTS: list[Mutant] = [
    Mutant("fit-skipped-on-large-nodes", "capacity-respected", _each_framework(_fit_skipped_on_large_nodes)),
]
MUTANTS += MAGNITUDE_MUTANTS
