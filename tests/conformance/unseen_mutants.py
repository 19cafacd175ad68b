"""Broken schedulers written apart from the invariants (the detection-power issue): each breaks one
documented framework rule that the first 39 mutants (mutants.py) leave alone.

Each names the invariant expected to catch it; `benchmarks/detection.py` runs every invariant against
each of them to count how many the ci profile catches at all.
"""

from __future__ import annotations

from reference.framework.cluster_events import EVENT_FORCE_ACTIVATE
from reference.framework.runtime import Framework
from reference.scheduler.scheduler import Scheduler
from reference.status import SUCCESS, Code, Status, wrap_error

from .mutants import Mutant, _each_framework


def _prefilter_stops_at_unschedulable(fw: Framework) -> None:
    """RunPreFilterPlugins before kubernetes#119770: an Unschedulable PreFilter returns at once, so
    later PreFilter plugins never run."""
    original = fw.run_pre_filter_plugins

    def run(state, pod):
        plugins = fw.pre_filter_plugins
        for pl in plugins:
            def pre_filter(state, pod, nodes, pl=pl, inner=pl.pre_filter):
                result, s = inner(state, pod, nodes)
                if s.code is Code.UNSCHEDULABLE:
                    raise _Stop(result, s.with_plugin(pl.name))
                return result, s
            pl.pre_filter = pre_filter
        try:
            return original(state, pod)
        except _Stop as stop:
            return None, stop.status, set()
        finally:
            for pl in plugins:
                del pl.pre_filter
    fw.run_pre_filter_plugins = run


class _Stop(Exception):
    def __init__(self, result, status) -> None:
        super().__init__(status.message())
        self.result, self.status = result, status


def _postfilter_stops_at_rejection(fw: Framework) -> None:
    """Returns from PostFilter at the first Unschedulable instead of asking the next plugin."""
    def run(state, pod, statuses):
        for pl in fw.post_filter_plugins:
            r, s = pl.post_filter(state, pod, statuses)
            if s.is_success():
                return r, s
            return None, s.with_plugin(pl.name) if s.is_rejected() else Status.as_status(s.as_error() or "")
        return None, Status(Code.UNSCHEDULABLE)
    fw.run_post_filter_plugins = run


def _permit_stops_at_wait(fw: Framework) -> None:
    """The first Wait ends the Permit loop: later Permit plugins are never asked."""
    def run(state, pod, node_name):
        for pl in fw.permit_plugins:
            s, timeout = pl.permit(state, pod, node_name)
            if s.is_success():
                continue
            if s.is_wait():
                return {pl.name: timeout}, Status(Code.WAIT)
            if s.is_rejected():
                return {}, s.with_plugin(pl.name)
            return {}, wrap_error('running Permit plugin "{plugin}": {err}', pl.name, s)
        return {}, SUCCESS
    fw.run_permit_plugins = run


def _prebind_ignores_preflight_skip(fw: Framework) -> None:
    """Runs every PreBind plugin, also those that returned Skip at PreBindPreFlight."""
    original = fw.run_pre_bind_plugins

    def run(state, pod, node_name):
        state.skip_pre_bind_plugins = set()
        return original(state, pod, node_name)
    fw.run_pre_bind_plugins = run


def _filter_error_as_rejection(fw: Framework) -> None:
    """A Filter error rejects only that node (as Unschedulable) instead of failing the cycle."""
    original = fw.run_filter_plugins

    def run(state, pod, node_info):
        s = original(state, pod, node_info)
        if s.code is Code.ERROR:
            return Status.new(Code.UNSCHEDULABLE, s.message()).with_plugin(s.plugin)
        return s
    fw.run_filter_plugins = run


def _score_error_counts_zero(fw: Framework) -> None:
    """A Score plugin's failure on a node counts as score 0 instead of failing the cycle."""
    for pl in fw.score_plugins:
        def score(state, pod, info, original=pl.score):
            value, s = original(state, pod, info)
            return (value, s) if s.is_success() else (0, SUCCESS)
        pl.score = score


def _reserve_error_ignored(fw: Framework) -> None:
    """A Reserve error (not a rejection) is logged and the cycle goes on to Permit."""
    original = fw.run_reserve_plugins_reserve

    def run(state, pod, node_name):
        s = original(state, pod, node_name)
        return SUCCESS if s.code is Code.ERROR else s
    fw.run_reserve_plugins_reserve = run


def _prebind_failure_still_binds(fw: Framework) -> None:
    """A PreBind failure is logged and binding goes on."""
    original = fw.run_pre_bind_plugins

    def run(state, pod, node_name):
        original(state, pod, node_name)
        return SUCCESS
    fw.run_pre_bind_plugins = run


def _first_profile_for_every_pod(sched: Scheduler) -> None:
    """Looks the profile up by position instead of by spec.schedulerName: every pod gets the first."""
    first = next(iter(sched.frameworks.values()))

    class FirstProfile(dict):
        def get(self, key, default=None):
            return first
    sched.frameworks = FirstProfile(sched.frameworks)


def _normalize_score_skipped(fw: Framework) -> None:
    """Never calls NormalizeScore: raw scores are weighted as they are."""
    for pl in fw.score_plugins:
        pl.score_extensions = lambda: None


def _scores_every_node(fw: Framework) -> None:
    """Scores every node of the snapshot, then picks among the feasible ones only."""
    original = fw.run_score_plugins

    def run(state, pod, nodes):
        names = {n.name for n in nodes}
        scores, status = original(state, pod, fw.snapshot().node_info_list)
        return [s for s in scores if s.name in names], status
    fw.run_score_plugins = run


def _pre_enqueue_error_admits(sched: Scheduler) -> None:
    """Treats a PreEnqueue Error as a logging matter: only rejections gate the pod."""
    def pre_enqueue(pod, *_):
        fw = sched.frameworks.get(pod.scheduler_name)
        if fw is None:
            return True, ""
        for pl in fw.pre_enqueue_plugins:
            s = pl.pre_enqueue(pod)
            if not s.is_success() and s.code is not Code.ERROR:
                return False, pl.name
        return True, ""
    sched.queue._pre_enqueue = pre_enqueue


UNSEEN_MUTANTS: list[Mutant] = [
    Mutant("prefilter-stops-at-unschedulable", "plugins-run-until-stop",
           _each_framework(_prefilter_stops_at_unschedulable)),
    Mutant("postfilter-stops-at-rejection", "plugins-run-until-stop", _each_framework(_postfilter_stops_at_rejection)),
    Mutant("permit-stops-at-wait", "plugins-run-until-stop", _each_framework(_permit_stops_at_wait)),
    Mutant("prebind-ignores-preflight-skip", "plugins-run-until-stop",
           _each_framework(_prebind_ignores_preflight_skip)),
    Mutant("filter-error-as-rejection", "failure-ends-attempt", _each_framework(_filter_error_as_rejection)),
    Mutant("score-error-counts-zero", "failure-ends-attempt", _each_framework(_score_error_counts_zero)),
    Mutant("reserve-error-ignored", "failure-ends-attempt", _each_framework(_reserve_error_ignored)),
    Mutant("prebind-failure-still-binds", "failure-ends-attempt", _each_framework(_prebind_failure_still_binds)),
    Mutant("first-profile-for-every-pod", "calls-match-profile", _first_profile_for_every_pod),
    Mutant("normalize-score-skipped", "score-calls-complete", _each_framework(_normalize_score_skipped)),
    Mutant("scores-every-node", "score-calls-complete", _each_framework(_scores_every_node)),
    Mutant("pre-enqueue-error-admits", "preenqueue-gates", _pre_enqueue_error_admits),
]

__all__ = ["UNSEEN_MUTANTS"]


def _rejected_pods_backed_off_like_errors(sched: Scheduler) -> None:
    """Sends every failed pod to the backoff queue, as if no plugin had rejected it: a rejected pod is
    retried after its backoff without waiting for a cluster event."""
    queue = sched.queue
    original = queue.add_unschedulable_if_not_present

    def add(qpi):
        # as if an event aimed at the pod had arrived while it was in flight
        queue.in_flight.add_events_if_pod_in_flight(qpi.pod.effective_uid, [EVENT_FORCE_ACTIVATE], None, qpi.pod)
        original(qpi)
    queue.add_unschedulable_if_not_present = add


UNSEEN_MUTANTS.append(Mutant("rejected-pods-retried-without-event", "rejected-pod-waits-for-event",
                             _rejected_pods_backed_off_like_errors))


def _extensions_swapped(fw: Framework) -> None:
    """Calls RemovePod where AddPod is meant and the other way round (nominated pods are "removed")."""
    original = fw._run_extension

    def run(which, state, pod, info, node_info):
        return original("RemovePod" if which == "AddPod" else "AddPod", state, pod, info, node_info)
    fw._run_extension = run


UNSEEN_MUTANTS.append(Mutant("add-and-remove-pod-swapped", "remove-pod-only-in-preemption",
                             _each_framework(_extensions_swapped)))
