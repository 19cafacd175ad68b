"""Broken reference schedulers for issue 32's pending rule directions of binding, the queue, preemption and
extenders (helper h32d), with their witnesses: small hand-made scenarios on which each visibly misbehaves.
Which rule and direction each breaks, and what catches it, is recorded in conformance/invariants/proofs.py."""

from __future__ import annotations

import dataclasses
from typing import Callable

from reference.framework.runtime import Framework
from reference.scenario import Scenario
from reference.scheduler.schedule_one import CycleFailure, ScheduleResult
from reference.scheduler.scheduler import Scheduler
from reference.status import Status

from .invariants._kit import config, extender, node, pod, scenario
from .invariants.test_event_rules import FREED
from .invariants.test_event_rules import scenario as timeline_scenario
from .mutants import _default_preemption, _each_framework
from .pending_witnesses import _pdb_witness
from .rule_mutants import RuleMutant, _defaults, _probes
from .test_timeline_reference import pod as timeline_pod

# --- binding ------------------------------------------------------------------------------------


def _all_bind_skip_is_error(fw: Framework) -> None:
    """Every Bind plugin skipping fails the binding as an error (event, SchedulerError condition) instead
    of the silent retry after the error backoff."""
    original = fw.run_bind_plugins

    def run(state, pod, node_name):
        status = original(state, pod, node_name)
        return Status.as_status("all bind plugins skipped") if status.is_skip() else status
    fw.run_bind_plugins = run


def _binding_failure_moves_nothing(sched: Scheduler) -> None:
    """A failed binding cycle moves no unschedulable pod (the room it held is not announced)."""
    original = sched._handle_binding_failure

    def handle(*call):
        move, sched.queue.move_all_to_active_or_backoff = sched.queue.move_all_to_active_or_backoff, \
            lambda *a, **k: None
        try:
            original(*call)
        finally:
            sched.queue.move_all_to_active_or_backoff = move
    sched._handle_binding_failure = handle


def _binding_rejection_moves_itself(sched: Scheduler) -> None:
    """A binding cycle rejected by plugins moves its own pod too, as an error would: it retries without an
    event."""
    from reference.framework.cluster_events import EVENT_ASSIGNED_POD_DELETE
    original = sched._handle_binding_failure

    def handle(fw, state, qpi, pod, host, failure):
        original(fw, state, qpi, pod, host, failure)
        sched.queue.move_all_to_active_or_backoff(event=EVENT_ASSIGNED_POD_DELETE, old=pod)
    sched._handle_binding_failure = handle


def _nominated_after_wait(sched: Scheduler) -> None:
    """The binding cycle patches nominatedNodeName only once Permit allowed the pod (before PreBind), not
    before it waits."""
    original, reached = sched._binding_steps, sched._reached

    def steps(fw, state, pod, host, to_activate):
        gen = original(fw, state, pod, host, to_activate)
        patch, sched.store.set_nominated_node_name = sched.store.set_nominated_node_name, lambda *a: None
        try:
            first = next(gen)  # up to the wait: no patch
        except StopIteration as done:
            return done.value
        finally:
            sched.store.set_nominated_node_name = patch
        yield first
        return (yield from gen)

    def reach(point, pod, host):
        if point == "prebind" and pod.effective_uid in sched.assumed:
            sched.store.set_nominated_node_name(pod, host)
        reached(point, pod, host)
    sched._binding_steps = steps
    sched._reached = reach


def _nominated_without_wait(sched: Scheduler) -> None:
    """nominatedNodeName is patched in every binding cycle, also when no Permit wait nor PreBind follows."""
    original = sched._binding_steps

    def steps(fw, state, pod, host, to_activate):
        sched.store.set_nominated_node_name(pod, host)
        return (yield from original(fw, state, pod, host, to_activate))
    sched._binding_steps = steps


# --- liveness -----------------------------------------------------------------------------------


def _unschedulable_pods_placed(sched: Scheduler) -> None:
    """A pod no node takes is placed anyway, on the first node (as if some scheduler never gave up)."""
    original = sched.algorithm.schedule_pod

    def schedule(fw, state, pod):
        try:
            return original(fw, state, pod)
        except CycleFailure as failure:
            nodes = sorted(sched.store.nodes)
            if failure.fit_error is None or not nodes:
                raise
            return ScheduleResult(suggested_host=nodes[0], evaluated_nodes=len(nodes), feasible_nodes=1)
    sched.algorithm.schedule_pod = schedule


# --- preemption ---------------------------------------------------------------------------------


def _pdb_pods_never_victims(fw: Framework) -> None:
    """Preemption never evicts a pod whose PodDisruptionBudget allows no disruption, even where no other
    choice makes room."""
    from reference.plugins.preemption.evaluator import filter_pods_with_pdb_violation
    plugin = _default_preemption(fw)
    if plugin is None:
        return
    original = plugin.select_victims_on_node

    def select(state, preemptor, node_info, all_victims, pdbs):
        violating, _ = filter_pods_with_pdb_violation(all_victims, pdbs)
        kept = {v.effective_uid for v, _ in violating}
        return original(state, preemptor, node_info, [v for v in all_victims if v.effective_uid not in kept],
                        pdbs)
    plugin.select_victims_on_node = select


def _during_preemption(fw: Framework, module: object, name: str, replacement: object) -> None:
    """While the profile's DefaultPreemption preempts, `module.name` is `replacement`."""
    plugin = _default_preemption(fw)
    if plugin is None:
        return
    original = plugin.preempt

    def preempt(state, pod, statuses):
        saved = getattr(module, name)
        setattr(module, name, replacement)
        try:
            return original(state, pod, statuses)
        finally:
            setattr(module, name, saved)
    plugin.preempt = preempt


def _victims_never_evicted(fw: Framework) -> None:
    """The chosen candidate's victims are not evicted (the preemptor is nominated all the same)."""
    import reference.plugins.default_preemption as module
    _during_preemption(fw, module, "prepare_candidate_async", lambda *call: None)


def _pdb_criterion_dropped(fw: Framework) -> None:
    """Choosing among the candidates, the count of PodDisruptionBudget violations is left out."""
    import reference.plugins.default_preemption as module
    from reference.plugins.preemption import evaluator

    def select(candidates):
        plain = [dataclasses.replace(c, victims=dataclasses.replace(c.victims, num_pdb_violations=0))
                 for c in candidates]
        best = evaluator.select_candidate(plain)
        return next((c for c in candidates if best is not None and c.name == best.name), None)

    _during_preemption(fw, module, "select_candidate", select)


def _waiting_victims_deleted(fw: Framework) -> None:
    """A victim waiting at Permit is deleted through the API instead of being rejected in memory."""
    import reference.plugins.preemption.executor as executor

    def delete(handle, victim, plugin_name):
        err = handle.client.add_disruption_target(victim) or handle.client.delete_pod(victim)
        return False, err

    _during_preemption(fw, executor, "preempt_pod", delete)


def _every_waiting_pod_preempted(fw: Framework) -> None:
    """A preemption rejects every pod waiting at Permit on its node, victims or not."""
    plugin = _default_preemption(fw)
    if plugin is None:
        return
    original = plugin.preempt

    def preempt(state, pod, statuses):
        result, status = original(state, pod, statuses)
        node = result.nominating_info.nominated_node_name if result and result.nominating_info else ""
        if status.is_success() and node:
            fw.iterate_over_waiting_pods(
                lambda wp: wp.preempt(plugin.name, "preempted") if wp.get_pod().node_name == node else None)
        return result, status
    plugin.preempt = preempt


def _victim_count_first(fw: Framework) -> None:
    """Choosing among the candidates, the fewest victims count before their priorities."""
    import reference.plugins.default_preemption as module
    from reference.plugins.preemption import evaluator

    def select(candidates):
        fewest = min((len(c.victims.pods) for c in candidates), default=0)
        return evaluator.select_candidate([c for c in candidates if len(c.victims.pods) == fewest])

    _during_preemption(fw, module, "select_candidate", select)


# --- the queue ----------------------------------------------------------------------------------


def _pre_enqueue_on_backoff_exit(sched: Scheduler) -> None:
    """PreEnqueue runs when a pod leaves backoffQ instead of when it enters it (SchedulerPopFromBackoffQ off
    in one half only)."""
    queue = sched.queue
    admit, to_active = queue._admit, queue._move_to_active

    def to_backoff(qpi):
        queue.unschedulable.pop(qpi.pod.effective_uid, None)
        (queue.error_backoff if qpi.consecutive_errors_count else queue.backoff).append(qpi)
        return True

    def move_to_active(qpi, *, from_backoff=False):
        if from_backoff and not admit(qpi):
            return False
        return to_active(qpi, from_backoff=from_backoff)
    queue._move_to_backoff = to_backoff
    queue._move_to_active = move_to_active


def _pre_enqueue_on_backoff_entry_and_exit(sched: Scheduler) -> None:
    """PreEnqueue runs when a pod enters backoffQ and again when it leaves."""
    queue = sched.queue
    admit, to_active = queue._admit, queue._move_to_active

    def move_to_active(qpi, *, from_backoff=False):
        if from_backoff and not admit(qpi):
            return False
        return to_active(qpi, from_backoff=from_backoff)
    queue._move_to_active = move_to_active


def _hints_always_skip(sched: Scheduler) -> None:
    """Every queueing hint answers Skip: no cluster event moves a rejected pod."""
    from reference.scheduler.queue_hints import QueueingStrategy
    sched.queue._worth_requeuing = lambda qpi, event, old, new: QueueingStrategy.QUEUE_SKIP


def _hints_always_queue(sched: Scheduler) -> None:
    """Every cluster event requeues every rejected pod, whatever its rejectors register and hint."""
    from reference.scheduler.queue_hints import QueueingStrategy
    sched.queue._interesting = lambda event: True
    sched.queue._worth_requeuing = lambda qpi, event, old, new: QueueingStrategy.QUEUE_AFTER_BACKOFF


def _flush_after_ten_seconds(sched: Scheduler) -> None:
    """Pods are flushed from the unschedulable pool after 10 s instead of 5 minutes (checked whenever time
    advances)."""
    clock, queue = sched.clock, sched.queue
    queue.max_in_unschedulable = 10.0
    advance = clock.advance_to

    def advance_to(when):
        advance(when)
        queue.flush_unschedulable_leftover()
    clock.advance_to = advance_to


# --- deleted pods -------------------------------------------------------------------------------


def _deleted_waiting_pod_kept_waiting(sched: Scheduler) -> None:
    """Deleting a pod that waits at Permit leaves it waiting (until its timeout or a signal)."""
    for fw in sched.frameworks.values():
        fw.reject_waiting_pod = lambda uid: False


def _any_deletion_rejects_waiting_pods(sched: Scheduler) -> None:
    """Any pod's deletion rejects every pod waiting at Permit, not only the deleted one."""
    original = sched._on_pod_deleted

    def deleted(pod):
        original(pod)
        for fw in sched.frameworks.values():
            fw.iterate_over_waiting_pods(lambda wp: wp.reject("", "removed"))
    sched._on_pod_deleted = deleted


def _gone_pods_requeued(sched: Scheduler) -> None:
    """A pod deleted during its attempt is requeued all the same, and attempted again from the queue's
    copy."""
    original_failure, original_one = sched._handle_failure, sched._schedule_one

    def handle(fw, qpi, status, fit_error, nominating):
        gone = sched.store.get_pod(qpi.pod.effective_uid) is None
        original_failure(fw, qpi, status, fit_error, nominating)
        if gone:
            sched.queue.add_unschedulable_if_not_present(qpi)

    def schedule_one(qpi):
        uid = qpi.pod.effective_uid
        if sched.store.get_pod(uid) is None:
            sched.store.pods[uid] = qpi.pod  # as upstream would: the popped copy, not the store's
            try:
                return original_one(qpi)
            finally:
                sched.store.pods.pop(uid, None)
        return original_one(qpi)
    sched._handle_failure = handle
    sched._schedule_one = schedule_one


def _failed_pods_dropped(sched: Scheduler) -> None:
    """A pod whose attempt failed is not requeued, as if it had been deleted meanwhile."""
    original = sched._handle_failure

    def handle(fw, qpi, status, fit_error, nominating):
        original(fw, qpi, status, fit_error, nominating)
        sched.queue.delete(qpi.pod)
    sched._handle_failure = handle


def _recreated_pod_never_bound(sched: Scheduler) -> None:
    """A pod created again under the name of a pod once bound is never scheduled (bound "at most once" by
    name, not per pod)."""
    bound: set[str] = set()
    on_bound, original = sched.store.on_pod_bound, sched._schedule_one

    def remember(pod):
        bound.add(pod.key)
        on_bound(pod)

    def schedule_one(qpi):
        if qpi.pod.key in bound:
            sched.queue.done(qpi.pod.effective_uid)
            return
        original(qpi)
    sched.store.on_pod_bound = remember
    sched._schedule_one = schedule_one



def _activate_ignored(sched: Scheduler) -> None:
    """Activate (a plugin's PodsToActivate, preemption's re-activation after an error) moves no pod."""
    sched.queue.activate = lambda pods: None
    for fw in sched.frameworks.values():
        fw.activator = sched.queue.activate


def _activate_everything(sched: Scheduler) -> None:
    """Activate moves every pending pod to activeQ, not only the pods it names."""
    queue, original = sched.queue, sched.queue.activate

    def activate(pods):
        pending = (*queue.unschedulable.values(), *queue.backoff, *queue.error_backoff)
        original([*pods, *(q.pod for q in pending)])
    queue.activate = activate
    for fw in sched.frameworks.values():
        fw.activator = activate



# --- extenders ----------------------------------------------------------------------------------


def _extender_interest_ignored(sched: Scheduler) -> None:
    """Extenders with managedResources are asked about every pod, as if every pod requested them."""
    for ext in sched.extenders:
        ext.is_interested = lambda pod: True


def _extender_interest_never(sched: Scheduler) -> None:
    """Extenders with managedResources are asked about no pod, as if none requested them."""
    for ext in sched.extenders:
        ext.is_interested = lambda pod, managed=bool(ext._managed): not managed



def _extender_requests_camel_case(sched: Scheduler) -> None:
    """Requests to extenders name their fields in camelCase (pod, nodes, ...), not upstream's PascalCase."""
    from reference.gofmt import marshal
    from reference.extender_wire import post
    for ext in sched.extenders:
        def send(action, args, ext=ext):
            lowered = {k[:1].lower() + k[1:]: v for k, v in args.items()}
            return post(ext.url_prefix, action, marshal(lowered), timeout=ext.http_timeout_seconds,
                        tls=ext._tls)
        ext._send = send


def _extender_prioritize_invented(sched: Scheduler) -> None:
    """A filtering extender is also asked to prioritize, at a verb its config does not name."""
    for ext in sched.extenders:
        if ext.filter_verb and not ext.prioritize_verb:
            ext.prioritize_verb, ext.weight = "prioritize", ext.weight or 1


NEW_RULE_MUTANTS_H32D: list[RuleMutant] = [
    RuleMutant("all-bind-skip-is-error", _each_framework(_all_bind_skip_is_error)),
    RuleMutant("binding-failure-moves-nothing", _binding_failure_moves_nothing),
    RuleMutant("binding-rejection-moves-itself", _binding_rejection_moves_itself),
    RuleMutant("nominated-after-wait", _nominated_after_wait),
    RuleMutant("nominated-without-wait", _nominated_without_wait),
    RuleMutant("unschedulable-pods-placed", _unschedulable_pods_placed),
    RuleMutant("pdb-pods-never-victims", _each_framework(_pdb_pods_never_victims)),
    RuleMutant("victims-never-evicted", _each_framework(_victims_never_evicted)),
    RuleMutant("pdb-criterion-dropped", _each_framework(_pdb_criterion_dropped)),
    RuleMutant("victim-count-first", _each_framework(_victim_count_first)),
    RuleMutant("pre-enqueue-on-backoff-exit", _pre_enqueue_on_backoff_exit),
    RuleMutant("pre-enqueue-on-backoff-entry-and-exit", _pre_enqueue_on_backoff_entry_and_exit),
    RuleMutant("hints-always-skip", _hints_always_skip),
    RuleMutant("hints-always-queue", _hints_always_queue),
    RuleMutant("flush-after-ten-seconds", _flush_after_ten_seconds),
    RuleMutant("deleted-waiting-pod-kept-waiting", _deleted_waiting_pod_kept_waiting),
    RuleMutant("any-deletion-rejects-waiting-pods", _any_deletion_rejects_waiting_pods),
    RuleMutant("gone-pods-requeued", _gone_pods_requeued),
    RuleMutant("failed-pods-dropped", _failed_pods_dropped),
    RuleMutant("recreated-pod-never-bound", _recreated_pod_never_bound),
    RuleMutant("activate-ignored", _activate_ignored),
    RuleMutant("activate-everything", _activate_everything),
    RuleMutant("waiting-victims-deleted", _each_framework(_waiting_victims_deleted)),
    RuleMutant("every-waiting-pod-preempted", _each_framework(_every_waiting_pod_preempted)),
    RuleMutant("extender-interest-ignored", _extender_interest_ignored),
    RuleMutant("extender-interest-never", _extender_interest_never),
    RuleMutant("extender-requests-camel-case", _extender_requests_camel_case),
    RuleMutant("extender-prioritize-invented", _extender_prioritize_invented),
]

# --- witnesses ----------------------------------------------------------------------------------

_WAIT_THEN_REJECT = {"code": "Wait", "timeout": "5s", "then": {"signal": "reject", "after": "1s"}}
_WAIT_LONG = {"Probe0": {"Permit": {"code": "Wait", "timeout": "10s"}}}
_WAIT_THEN_ALLOW = {"Probe0": {"Permit": {"code": "Wait", "timeout": "10s",
                                          "then": {"signal": "allow", "after": "2s"}}}}
_ERROR_ONCE = {"Probe0": {"PreFilter": [{"code": "Error"}, {}]}}
_DELETE_P = {"when": 1, "op": "delete", "kind": "Pod", "name": "p"}
_EVICTION_FAILS = {"op": "fail", "call": "evict", "error": "internal"}
# pod-0 must evict the victim to fit on the one node.
_PREEMPTION = _defaults(pod("pod-0", cpu="1", priority=10), nodes=(node(cpu="1"),),
                        bound=(pod("victim", priority=1, cpu="1", on="node-0"),))


def _held_then_released() -> Scenario:
    """pod-0 (profile probe-scheduler) holds the one node's CPU while it waits at Permit, then is rejected;
    pod-1 (the stock default-scheduler), rejected meanwhile for want of room, fits once the failed binding
    cycle announces the room (pod-0 waits for an event)."""
    cfg = config(multi_point=(), defaults=True)
    probed = config(multi_point=("Probe0",), defaults=True)["profiles"][0]
    cfg["profiles"].append({**probed, "schedulerName": "probe-scheduler"})
    held = pod("pod-0", cpu="1", probes={"Probe0": {"Permit": _WAIT_THEN_REJECT}})
    held["spec"]["schedulerName"] = "probe-scheduler"
    return scenario([held, pod("pod-1", cpu="1")], nodes=(node(cpu="1"),), cfg=cfg)


def _pdb_only_choice() -> Scenario:
    """The one node holds a web pod its PodDisruptionBudget keeps: the preemptor must evict it anyway."""
    sc = _pdb_witness()
    return dataclasses.replace(sc, nodes=sc.nodes[:1], pods=sc.pods[:1])


def _pdb_first() -> Scenario:
    """`_pdb_witness` with the budgeted web pod on node-0 of priority 50, the db pod on node-1 of 100: only
    the count of budget violations, which comes first, sends the preemptor to node-1."""
    sc = _pdb_witness()
    web = {**sc.pods[0], "spec": {**sc.pods[0]["spec"], "priority": 50}}
    return dataclasses.replace(sc, pods=(web, *sc.pods[1:]))


def _timeline(events: list, *workload: dict, pods=(), probed: bool = False) -> Callable[[], Scenario]:
    """test_event_rules.py's one node n1, these workload pods and timeline; `probed`: Probe0 beside the
    default plugins."""
    def build() -> Scenario:
        sc = timeline_scenario(list(events), workload=list(workload), pods=list(pods))
        probes = config(multi_point=("Probe0",), defaults=True)
        return dataclasses.replace(sc, config=probes) if probed else sc
    return build


def _eviction_fails_once() -> Scenario:
    """pod-0's preemption fails to delete the victim once: preemption re-activates pod-0."""
    return dataclasses.replace(_PREEMPTION(), timeline=(_EVICTION_FAILS,))


def _activation_beside_rejected_pod() -> Scenario:
    """Every eviction of pod-0's victim fails, so preemption activates pod-0 again and again; pod-1 (profile
    probe-scheduler, rejected once by Probe0) waits meanwhile for a cluster event that never comes."""
    sc = _PREEMPTION()
    probed = config(multi_point=("Probe0",))["profiles"][0]
    cfg = {**sc.config, "profiles": [*sc.config["profiles"], {**probed, "schedulerName": "probe-scheduler"}]}
    waiting = pod("pod-1", probes={"Probe0": {"Filter": [{"code": "Unschedulable"}, {}]}})
    waiting["spec"]["schedulerName"] = "probe-scheduler"
    return dataclasses.replace(sc, config=cfg, workload=(*sc.workload, waiting),
                               timeline=({**_EVICTION_FAILS, "times": 20},))



def _gpu_extender() -> Scenario:
    """ext-0 manages example.com/gpu and fails node-0: pod-0 asks for a GPU (ext-0 sends it to node-1),
    pod-1 does not (ext-0 is not asked about it). Probe0 at PreFilter and Reserve shows the attempts."""
    gpu = pod("pod-0", extenders={"ext-0": {"filter": {"fail": {"node-0": "no"}}}})
    gpu["spec"]["containers"][0]["resources"] = {"requests": {"example.com/gpu": "1"},
                                                 "limits": {"example.com/gpu": "1"}}
    plain = pod("pod-1", extenders={"ext-0": {"filter": {"fail": {"node-0": "no"}}}})
    ext = {**extender(), "managedResources": [{"name": "example.com/gpu"}]}
    cfg = config({"preFilter": ["Probe0"], "reserve": ["Probe0"]}, extenders=(ext,))
    return scenario([gpu, plain], nodes=(node("node-0"), node("node-1")), cfg=cfg)



def _waiting_victim() -> Scenario:
    """victim (priority 1) holds the one node's CPU while it waits at Permit; pod-1 (priority 10), created a
    second later, preempts it."""
    cfg = config(multi_point=("Probe0",), defaults=True)
    victim = pod("victim", cpu="1", priority=1, probes=_WAIT_LONG)
    later = {"when": 1, "op": "create", "object": pod("pod-1", cpu="1", priority=10)}
    sc = scenario([victim], nodes=(node(cpu="1"),), cfg=cfg)
    return dataclasses.replace(sc, timeline=(later,))



def _waiting_bystander() -> Scenario:
    """On a node of 2 CPUs, bystander (priority 20) waits at Permit until allowed at 3s, beside a bound pod
    of priority 1; pod-1 (priority 10), created at 1s, preempts the bound pod only."""
    cfg = config(multi_point=("Probe0",), defaults=True)
    allow = {"Probe0": {"Permit": {"code": "Wait", "timeout": "10s",
                                   "then": {"signal": "allow", "after": "3s"}}}}
    later = {"when": 1, "op": "create", "object": pod("pod-1", cpu="1", priority=10)}
    sc = scenario([pod("bystander", cpu="1", priority=20, probes=allow)], nodes=(node(cpu="2"),), cfg=cfg,
                  bound=(pod("victim", cpu="1", priority=1, on="node-0"),))
    return dataclasses.replace(sc, timeline=(later,))



def _waiting_at_the_deadline() -> Scenario:
    """pod-0 waits at Permit for 10s; the run ends after 5s."""
    return dataclasses.replace(_probes(_WAIT_LONG)(), deadline=5.0)



def _rejected_beside_retrying_pod() -> Scenario:
    """pod-0 is turned down once by Probe0 and waits for an event that never comes; pod-1 fails with an error
    at every attempt, which keeps the scheduler busy (and the virtual clock moving) for a minute."""
    return scenario([pod("pod-0", probes={"Probe0": {"Filter": [{"code": "Unschedulable"}, {}]}}),
                     pod("pod-1", probes={"Probe0": {"PreFilter": {"code": "Error"}}})],
                    cfg=config(multi_point=("Probe0",)))


WITNESSES_H32D: dict[str, Callable[[], Scenario]] = {
    "all-bind-skip-is-error": _probes({"Probe0": {"Bind": {"code": "Skip"}}}, binder=False),
    "binding-failure-moves-nothing": _held_then_released,
    "binding-rejection-moves-itself": _probes({"Probe0": {"Permit": _WAIT_THEN_REJECT}}),
    "nominated-after-wait": _waiting_at_the_deadline,
    # Probe0, the only binder, skips binding and has no PreBind work: nothing patches a nomination.
    "nominated-without-wait": _probes({"Probe0": {"PreBindPreFlight": {"code": "Skip"},
                                                  "Bind": {"code": "Skip"}}}, binder=False),
    "unschedulable-pods-placed": _defaults(pod(cpu="8")),
    "pdb-pods-never-victims": _pdb_only_choice,
    "victims-never-evicted": _PREEMPTION,
    "pdb-criterion-dropped": _pdb_first,
    # node-0 holds two pods of priority 1, node-1 one of priority 5: the preemptor must evict on node-0.
    "victim-count-first": _defaults(pod("pod-0", cpu="2", priority=10),
                                    nodes=(node("node-0", cpu="2"), node("node-1", cpu="2")),
                                    bound=(pod("low-0", cpu="1", priority=1, on="node-0"),
                                           pod("low-1", cpu="1", priority=1, on="node-0"),
                                           pod("mid", cpu="2", priority=5, on="node-1"))),
    "pre-enqueue-on-backoff-exit": _probes(_ERROR_ONCE),
    "pre-enqueue-on-backoff-entry-and-exit": _probes(_ERROR_ONCE),
    "deleted-waiting-pod-kept-waiting": _timeline([_DELETE_P], timeline_pod("p", probe=_WAIT_LONG),
                                                  probed=True),
    "any-deletion-rejects-waiting-pods": _timeline(
        [{"when": 1, "op": "delete", "kind": "Pod", "name": "q"}],
        timeline_pod("p", probe=_WAIT_THEN_ALLOW, cpu="0"),
        pods=(timeline_pod("q", cpu="0", node_name="n1"),), probed=True),
    "gone-pods-requeued": _timeline([_DELETE_P], timeline_pod("p", probe=_WAIT_LONG), probed=True),
    "failed-pods-dropped": lambda: FREED,
    "hints-always-skip": lambda: FREED,
    "flush-after-ten-seconds": _rejected_beside_retrying_pod,
    # p asks for more CPU than n1 has; the node is relabelled, which NodeResourcesFit does not register.
    "hints-always-queue": _timeline([{"when": 1, "op": "update", "kind": "Node", "name": "n1",
                                      "patch": {"metadata": {"labels": {"a": "b"}}}}],
                                    timeline_pod("p", cpu="2")),
    "recreated-pod-never-bound": _timeline(
        [{"when": 1, "op": "delete", "kind": "Pod", "name": "p"},
         {"when": 2, "op": "create", "object": timeline_pod("p")}], timeline_pod("p")),
    "activate-ignored": _eviction_fails_once,
    "activate-everything": _activation_beside_rejected_pod,
    "waiting-victims-deleted": _waiting_victim,
    "every-waiting-pod-preempted": _waiting_bystander,
    "extender-interest-ignored": _gpu_extender,
    "extender-interest-never": _gpu_extender,
    "extender-requests-camel-case": _gpu_extender,
    "extender-prioritize-invented": lambda: scenario(
        [pod(extenders={"ext-0": {"filter": {}}})], nodes=(node("node-0"), node("node-1")),
        cfg=config({"preFilter": ["Probe0"], "reserve": ["Probe0"]}, extenders=(extender(),))),
}

__all__ = ["NEW_RULE_MUTANTS_H32D", "WITNESSES_H32D"]
