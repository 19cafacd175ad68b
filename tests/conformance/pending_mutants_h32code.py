"""Broken reference schedulers for rules read from upstream's code rather than the spec (issue 32, item 3): the
`if`s of schedule_one.go, eventhandlers.go, scheduler.go (buildExtenders) and preemption.go that decide a pod's
fate (no nodes, the nomination a failure leaves, the status patch and the events recorded per outcome, which
extenders are asked and in which order, which updates move pods, which nodes preemption tries). Each with its
witness, a small hand-made scenario on which it visibly misbehaves (the upstream runner agrees with the reference
on every witness); which rule and direction each breaks is in conformance/invariants/proofs.py."""

from __future__ import annotations

import dataclasses
from typing import Callable

from reference.framework.runtime import Framework
from reference.nodeinfo import Snapshot
from reference.scenario import Scenario
from reference.scheduler.fit_error import FitError
from reference.scheduler.schedule_one import CLEAR_NOMINATED_NODE, CycleFailure
from reference.scheduler.scheduler import Scheduler
from reference.status import Code, Status

from .invariants._kit import config, extender, node, pod, scenario
from .invariants.test_event_rules import HAND as _EVENT_WITNESSES
from .mutants import _each_framework
from .pending_witnesses import PENDING_WITNESSES
from .rule_mutants import TWO_NODES, RuleMutant, _probes


# --- schedulePod: ErrNoNodesAvailable ------------------------------------------------------------

def _no_nodes_runs_plugins(sched: Scheduler) -> None:
    """An empty cluster is filtered like any other: PreFilter and PostFilter run, and the FitError counts
    0 nodes, instead of failing at once with ErrNoNodesAvailable."""
    algorithm = sched.algorithm
    original = algorithm.schedule_pod

    def schedule_pod(fw, state, pod):
        snapshot = fw.snapshot()
        if len(snapshot):
            return original(fw, state, pod)
        _, diagnosis = algorithm.find_nodes_that_fit_pod(fw, state, pod, snapshot)
        raise CycleFailure(Status(Code.UNSCHEDULABLE), FitError(0, diagnosis))
    algorithm.schedule_pod = schedule_pod


def _one_node_is_no_nodes(sched: Scheduler) -> None:
    """A cluster of one node is taken for an empty one: ErrNoNodesAvailable although a node exists."""
    algorithm = sched.algorithm
    original = algorithm.schedule_pod

    def schedule_pod(fw, state, pod):
        if len(fw.snapshot()) == 1:
            fw.set_snapshot(Snapshot((), (), {}))
        return original(fw, state, pod)
    algorithm.schedule_pod = schedule_pod


# --- the nomination a failed attempt leaves (schedulingAlgorithm, handleSchedulingFailure) ----------

def _postfilter_nomination_dropped(fw: Framework) -> None:
    """PostFilter's result is dropped: a nomination it made never reaches the pod."""
    original = fw.run_post_filter_plugins

    def run(state, pod, statuses):
        _, status = original(state, pod, statuses)
        return None, status
    fw.run_post_filter_plugins = run


def _postfilter_error_nominates(fw: Framework) -> None:
    """RunPostFilterPlugins, but a plugin that fails with an Error keeps its result, so its nomination is
    applied (upstream returns a nil result with the Error)."""
    def run(state, pod, statuses):
        result, reasons, rejector = None, [], ""
        for pl in fw.post_filter_plugins:
            r, s = pl.post_filter(state, pod, statuses)
            if s.is_success():
                return r, s
            if s.code is Code.UNSCHEDULABLE_AND_UNRESOLVABLE:
                return r, s.with_plugin(pl.name)
            if not s.is_rejected():
                return r, Status.as_status(s.as_error() or "%!w(<nil>)").with_plugin(pl.name)
            if r is not None and r.nominating_info is not None and r.mode.value != 0:
                result = r
            reasons.extend(s.reasons)
            rejector = rejector or pl.name
        return result, Status.new(Code.UNSCHEDULABLE, *reasons).with_plugin(rejector)
    fw.run_post_filter_plugins = run


def _handle_failure_nominating(change: Callable) -> Callable[[Scheduler], None]:
    def hook(sched: Scheduler) -> None:
        original = sched._handle_failure
        sched._handle_failure = lambda fw, qpi, status, fit_error, nominating: original(
            fw, qpi, status, fit_error, change(nominating))
    return hook


# A nil NominatingInfo (PostFilter found nothing) clears the nomination, as a failure does.
_nil_postfilter_result_clears = _handle_failure_nominating(lambda n: CLEAR_NOMINATED_NODE if n is None else n)
# A failure that must clear the nomination (an error, no PostFilter plugins, Reserve/Permit/binding) keeps it.
_failure_keeps_nomination = _handle_failure_nominating(lambda n: None if n is CLEAR_NOMINATED_NODE else n)


# --- events and the status patch per outcome (finishBinding, handleSchedulingFailure, updatePod) ------

def _record_event_unless(drop: Callable[[str], bool], times: int = 1) -> Callable[[Scheduler], None]:
    """The store's event writes without those whose reason `drop` names, FailedScheduling ones `times` times."""
    def hook(sched: Scheduler) -> None:
        original = sched.store.record_event

        def record(pod, type_, reason, message):
            if drop(reason):
                return
            for _ in range(times if reason == "FailedScheduling" else 1):
                original(pod, type_, reason, message)
        sched.store.record_event = record
    return hook


def _scheduled_event_on_failed_bind(sched: Scheduler) -> None:
    """finishBinding records "Scheduled" for a binding that failed too."""
    original = sched._bind

    def bind(fw, state, pod, host):
        status = original(fw, state, pod, host)
        if not status.is_success():
            sched.store.record_event(pod, "Normal", "Scheduled",
                                     f"Successfully assigned {pod.namespace}/{pod.name} to {host}")
        return status
    sched._bind = bind


def _patch_condition(change: Callable) -> Callable[[Scheduler], None]:
    """The store's status patch, with the condition `change(condition, stored condition)` instead."""
    def hook(sched: Scheduler) -> None:
        store = sched.store
        original = store.patch_status

        def patch(pod, condition, nominated):
            if condition is not None:
                condition = change(condition, store.conditions.get(pod.effective_uid))
            return original(pod, condition, nominated)
        store.patch_status = patch
    return hook


def _unchanged_status_repatched(sched: Scheduler) -> None:
    """A status patch that would change nothing is sent anyway (upstream's updatePod makes no call then)."""
    store = sched.store
    original = store.patch_status

    def patch(pod, condition, nominated):
        uid = pod.effective_uid
        stored = store.pods.get(uid)
        unchanged = (condition is None or store.conditions.get(uid) == condition) and (
            nominated is None or (stored is not None and stored.nominated_node_name == nominated))
        if unchanged:
            return store._fault("status", pod, True)
        return original(pod, condition, nominated)
    store.patch_status = patch


def _cut(condition):
    message = condition.message
    if len(message) > 1024:
        message = message[:1020] + " ..."
    return dataclasses.replace(condition, message=message)


# The condition's message is cut to the event's note limit.
_condition_message_truncated = _patch_condition(lambda c, old: _cut(c))
# The condition's message carries more than the status's: a prefix.
_condition_message_decorated = _patch_condition(
    lambda c, old: dataclasses.replace(c, message=f"scheduling failed: {c.message}"))
# Once a condition is written, a changed one is never patched again.
_changed_condition_not_patched = _patch_condition(lambda c, old: old if old is not None else c)


# --- findNodesThatPassExtenders: extenders asked only while nodes remain ------------------------------

def _extender_loop(stop_when_empty: bool = True, first_only: bool = False, failed_wins: bool = False,
                   all_unresolvable: bool = False) -> Callable[[Scheduler], None]:
    """findNodesThatPassExtenders as the reference runs it, but asking extenders once no node is left (not
    `stop_when_empty`), only the first one (`first_only`), letting FailedNodes win over
    FailedAndUnresolvableNodes (`failed_wins`), or taking every failed node as unresolvable."""
    def hook(sched: Scheduler) -> None:
        algorithm = sched.algorithm

        def run(pod, feasible, statuses):
            asked = 0
            for ext in algorithm.extenders:
                if (stop_when_empty and not feasible) or (first_only and asked):
                    break
                if not ext.is_interested(pod):
                    continue
                asked += 1
                try:
                    feasible, failed, unresolvable = ext.filter(pod, feasible)
                except Exception as exc:  # noqa: BLE001 - as the reference
                    if ext.is_ignorable():
                        continue
                    raise CycleFailure(Status.as_status(str(exc))) from None
                for name, msg in unresolvable.items():
                    statuses.set(name, Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, msg))
                for name, msg in failed.items():
                    if failed_wins or name not in unresolvable:
                        code = Code.UNSCHEDULABLE_AND_UNRESOLVABLE if all_unresolvable else Code.UNSCHEDULABLE
                        statuses.set(name, Status.new(code, msg))
            return feasible
        algorithm.find_nodes_that_pass_extenders = run
    return hook


# --- updates of an assumed pod (eventhandlers.go updatePodInSchedulingQueue, skipPodSchedule) -----------

def _assumed_pod_updates_queued(sched: Scheduler) -> None:
    """An update of an assumed pod (waiting at Permit) is not dropped: it reaches the queue, which records it as
    the in-flight pod's own event, so a rejection that follows sends the pod to backoff instead of waiting."""
    original = sched._update_pending_pod

    def update(old, new):
        assumed, sched.assumed = sched.assumed, {}
        try:
            original(old, new)
        finally:
            sched.assumed = assumed
    sched._update_pending_pod = update


def _pending_pod_updates_ignored(sched: Scheduler) -> None:
    """Every pending pod's update is dropped as if the pod were assumed: its own changes never requeue it."""
    sched._update_pending_pod = lambda old, new: None


# --- preemption.go findCandidates: the dry run tries only the nodes found Unschedulable ----------------------

def _candidates_remapped(old: Code, new: Code) -> Callable[[Framework], None]:
    """DefaultPreemption's candidates looked for as if every `old` filter status were `new`."""
    def patch(fw: Framework) -> None:
        from reference.interfaces import NodeToStatus
        plugin = next((p for p in fw.post_filter_plugins if p.name == "DefaultPreemption"), None)
        if plugin is None:
            return
        original = plugin.find_candidates

        def remap(s):
            return Status(new, s.reasons).with_plugin(s.plugin) if s is not None and s.code is old else s

        def find(state, all_nodes, pod, statuses):
            copied = NodeToStatus({n: remap(s) for n, s in statuses.items()}, remap(statuses.absent_nodes_status))
            return original(state, all_nodes, pod, copied)
        plugin.find_candidates = find
    return patch


# --- eventhandlers.go deletePodFromSchedulingQueue: a deleted nominated pod frees its node ---------------

def _nominated_pod_deletion_moves_nothing(sched: Scheduler) -> None:
    """Deleting a pending pod nominated to a node moves no pending pod, though lower-priority ones counted it there."""
    original = sched._on_pod_deleted

    def deleted(pod):
        move = sched.queue.move_all_to_active_or_backoff
        if not pod.node_name and pod.nominated_node_name and pod.effective_uid not in sched.assumed:
            sched.queue.move_all_to_active_or_backoff = lambda *args, **kwargs: None
        try:
            original(pod)
        finally:
            sched.queue.move_all_to_active_or_backoff = move
    sched._on_pod_deleted = deleted


# --- findNodesThatPassFilters: nothing to score, so the first feasible node is enough ------------------------

def _scoring_as(has: bool) -> Callable[[Scheduler], None]:
    """`hasScoring` answers `has` whatever the profile and extenders: numNodesToFind is 1 only when it is False."""
    def hook(sched: Scheduler) -> None:
        sched.algorithm._has_scoring = lambda fw: has
    return hook


# --- scheduling_queue.go determineSchedulingHintForInFlightPod: events seen in flight ------------------------

def _in_flight_strategy(strategy: Callable) -> Callable[[Scheduler], None]:
    """The strategy a pod back from a rejected attempt gets, `strategy(qpi, original)`, instead of the one the
    events recorded while it was in flight give."""
    def hook(sched: Scheduler) -> None:
        original = sched.queue._in_flight_strategy
        sched.queue._in_flight_strategy = lambda qpi: strategy(qpi, original)
    return hook


def _ignore_in_flight(qpi, original):
    """Events seen in flight are ignored: a pod with rejector plugins always waits in the pool."""
    from reference.scheduler.queue_hints import QueueingStrategy
    if not qpi.unschedulable_plugins and not qpi.pending_plugins:
        return original(qpi)
    return QueueingStrategy.QUEUE_SKIP


def _always_in_flight(qpi, original):
    """Every rejected pod goes to backoff, as if an event had come while it was in flight."""
    from reference.scheduler.queue_hints import QueueingStrategy
    return QueueingStrategy.QUEUE_AFTER_BACKOFF


# --- eventhandlers.go updateNodeInCache: a node update moves pods only for a changed scheduling property ----

def _every_node_update_moves(sched: Scheduler) -> None:
    """A node update that changes none of its scheduling properties (only its capacity) moves pods all the same."""
    from reference.events import NODE, ActionType, ClusterEvent
    original = sched.update_node

    def update(node):
        old = sched.store.nodes.get(node.name)
        original(node)
        if old is not None and not _property_events(node, old):
            sched.queue.move_all_to_active_or_backoff(event=ClusterEvent(NODE, ActionType.UPDATE_NODE_LABEL),
                                                      old=old, new=node)
    sched.update_node = update


def _property_events(new, old):
    from reference.framework.cluster_events import node_scheduling_properties_change
    return node_scheduling_properties_change(new, old)


def _node_annotations_ignored(sched: Scheduler) -> None:
    """A node's annotation change is not an event: it moves no pod (upstream: UpdateNodeAnnotation)."""
    original = sched.update_node

    def update(node):
        old = sched.store.nodes.get(node.name)
        if old is not None and dataclasses.replace(old, annotations=node.annotations) == node:
            sched.store.nodes[node.name] = node
            return
        original(node)
    sched.update_node = update


def _extenders_ordered(key: Callable) -> Callable[[Scheduler], None]:
    """The extenders asked in the order `key` sorts them (stable) instead of ignorable ones last."""
    def hook(sched: Scheduler) -> None:
        ordered = sorted(sched.extenders, key=key)
        sched.extenders[:] = ordered
        sched.algorithm.extenders[:] = ordered
    return hook


NEW_RULE_MUTANTS_H32CODE: list[RuleMutant] = [
    RuleMutant("no-nodes-runs-plugins", _no_nodes_runs_plugins),
    RuleMutant("one-node-is-no-nodes", _one_node_is_no_nodes),
    RuleMutant("postfilter-nomination-dropped", _each_framework(_postfilter_nomination_dropped)),
    RuleMutant("postfilter-error-nominates", _each_framework(_postfilter_error_nominates)),
    RuleMutant("nil-postfilter-result-clears", _nil_postfilter_result_clears),
    RuleMutant("failure-keeps-nomination", _failure_keeps_nomination),
    RuleMutant("no-scheduled-event", _record_event_unless(lambda reason: reason == "Scheduled")),
    RuleMutant("scheduled-event-on-failed-bind", _scheduled_event_on_failed_bind),
    RuleMutant("failed-scheduling-event-dropped", _record_event_unless(lambda r: r == "FailedScheduling")),
    RuleMutant("failed-scheduling-event-twice", _record_event_unless(lambda r: False, times=2)),
    RuleMutant("condition-message-truncated", _condition_message_truncated),
    RuleMutant("condition-message-decorated", _condition_message_decorated),
    RuleMutant("changed-condition-not-patched", _changed_condition_not_patched),
    RuleMutant("unchanged-status-repatched", _unchanged_status_repatched),
    RuleMutant("extender-filter-asked-without-nodes", _extender_loop(stop_when_empty=False, first_only=False)),
    RuleMutant("extender-filter-first-only", _extender_loop(first_only=True)),
    RuleMutant("extender-failed-over-unresolvable", _extender_loop(failed_wins=True)),
    # A node an extender only failed is taken as unresolvable: preemption no longer tries it.
    RuleMutant("extender-failed-as-unresolvable", _extender_loop(all_unresolvable=True)),
    # In URL order (config order for ext-0, ext-1, ...): an ignorable extender asked before a later non-ignorable.
    RuleMutant("ignorable-extenders-in-config-order", _extenders_ordered(lambda e: e.name)),
    # Every extender but the ignorable ones moved to the tail: the non-ignorable ones come last.
    RuleMutant("assumed-pod-updates-queued", _assumed_pod_updates_queued),
    RuleMutant("pending-pod-updates-ignored", _pending_pod_updates_ignored),
    # Nodes found UnschedulableAndUnresolvable are dry-run too.
    RuleMutant("preemption-tries-unresolvable-nodes", _each_framework(
        _candidates_remapped(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, Code.UNSCHEDULABLE))),
    # Nodes found Unschedulable are left out as if unresolvable: preemption finds no candidate.
    RuleMutant("preemption-skips-unschedulable-nodes", _each_framework(
        _candidates_remapped(Code.UNSCHEDULABLE, Code.UNSCHEDULABLE_AND_UNRESOLVABLE))),
    RuleMutant("nominated-pod-deletion-moves-nothing", _nominated_pod_deletion_moves_nothing),
    RuleMutant("every-node-update-moves", _every_node_update_moves),
    RuleMutant("node-annotations-ignored", _node_annotations_ignored),
    # Every node is filtered although nothing scores them (numNodesToFind stays the node count).
    RuleMutant("filters-every-node-without-scoring", _scoring_as(True)),
    # Filtering stops at the first feasible node although Score plugins would rank several.
    RuleMutant("first-feasible-node-with-scoring", _scoring_as(False)),
    RuleMutant("in-flight-events-ignored", _in_flight_strategy(_ignore_in_flight)),
    RuleMutant("in-flight-event-always-assumed", _in_flight_strategy(_always_in_flight)),
    RuleMutant("ignorable-extenders-first", _extenders_ordered(lambda e: not e.is_ignorable())),
]


# --- witnesses -----------------------------------------------------------------------------------

_REJECT_ALL = {"code": "Unschedulable", "reasons": ["no"]}
# A node-0 label change at 5 s: an event every probe (no EnqueueExtensions: every event) requeues for.
_RETRY_AT_5 = ({"when": 5, "op": "update", "kind": "Node", "name": "node-0",
                "patch": {"metadata": {"labels": {"retry": "yes"}}}},)


def _retried(script: dict, retry=_RETRY_AT_5) -> Callable[[], Scenario]:
    """One pod, Probe0 everywhere on two nodes, and a timeline event that gives it a second attempt."""
    def build() -> Scenario:
        return dataclasses.replace(_probes(script, nodes=TWO_NODES)(), timeline=retry)
    return build


_NOMINATED_FIRST = {"Probe0": {"Filter": _REJECT_ALL, "PostFilter": [
    {"code": "Success", "nominate": "node-0"}, {"code": "Unschedulable"}]}}
_NOMINATED_THEN_ERROR = {"Probe0": {"Filter": _REJECT_ALL, "PreFilter": [{}, {"code": "Error", "reasons": ["x"]}],
                                    "PostFilter": {"code": "Success", "nominate": "node-0"}}}
_REJECT_LONG = {"Probe0": {"Filter": {"code": "Unschedulable", "reasons": ["r" * 1100]}}}
# Rejected first (Unschedulable), then an error: the condition's reason changes to SchedulerError.
_REJECT_THEN_ERROR = {"Probe0": {"Filter": _REJECT_ALL, "PreFilter": [{}, {"code": "Error", "reasons": ["x"]}]}}
_TWO_FILTERS = (extender("ext-0"), extender("ext-1"))


def _filter_extenders(script: dict, probes: dict | None = None, extenders=_TWO_FILTERS) -> Callable[[], Scenario]:
    points = {"preFilter": ["Probe0"], "filter": ["Probe0"], "reserve": ["Probe0"]}
    return lambda: scenario([pod(probes=probes or {}, extenders=script)], nodes=TWO_NODES,
                            cfg=config(points, extenders=extenders))


def _updated_while_waiting() -> Scenario:
    """pod-0 waits at Permit until Probe0 rejects it at 2 s; the timeline relabels it at 1 s, while it waits
    (assumed); its second attempt would pass."""
    script = {"Probe0": {"Permit": [{"code": "Wait", "timeout": "10s", "then": {"signal": "reject", "after": "2s"}},
                                    {}]}}
    relabel = {"when": 1, "op": "update", "kind": "Pod", "name": "pod-0",
               "patch": {"metadata": {"labels": {"relabelled": "yes"}}}}
    return dataclasses.replace(_probes(script)(), timeline=(relabel,))


def _unresolvable_node_with_room() -> Scenario:
    """node-0 has room but Probe0 finds it UnschedulableAndUnresolvable; node-1 is full with a low-priority pod:
    only node-1 is a preemption candidate."""
    from conformance.invariants.preemption_nodes import _priority_pod
    nodes = (node("node-0", cpu="2"), node("node-1", cpu="2"))
    bound = (_priority_pod("low-0", "1", 100, "node-0"), _priority_pod("low-1", "2", 100, "node-1"))
    preemptor = pod("pod-0", cpu="1", priority=1000,
                    probes={"Probe0": {"Filter": {"byNode": {"node-0": {"code": "UnschedulableAndUnresolvable"}}}}})
    cfg = config({"preFilter": ["Probe0"], "filter": ["Probe0"]}, multi_point=(), defaults=True)
    return scenario([preemptor], nodes=nodes, cfg=cfg, bound=bound)


def _nominated_then_deleted() -> Scenario:
    """pod-a (priority 1000, gated) was created nominated to node-0, which it would fill; pod-b (priority 100)
    counts it there and is rejected; the timeline deletes pod-a at 5 s, which frees node-0 for pod-b."""
    a = pod("pod-a", cpu="1", priority=1000, gates=["example.com/hold"])
    a["status"] = {"nominatedNodeName": "node-0"}
    deletion = {"when": 5, "op": "delete", "kind": "Pod", "name": "pod-a"}
    sc = scenario([a, pod("pod-b", cpu="1", priority=100)], nodes=(node("node-0", cpu="1"),))
    return dataclasses.replace(sc, timeline=(deletion,))


def _rejected_twice_alike() -> Scenario:
    """pod-0 is rejected twice with the same message (a node label change at 5 s retries it); a status fault armed
    at 3 s fails the pod's next status patch, which upstream never sends: the second condition changes nothing."""
    fault = {"when": 3, "op": "fail", "call": "status", "error": "timeout", "pod": "default/pod-0"}
    return dataclasses.replace(_probes({"Probe0": {"Filter": _REJECT_ALL}}, nodes=TWO_NODES)(),
                               timeline=(fault, *_RETRY_AT_5))


def _node_updated(patch: dict) -> Callable[[], Scenario]:
    """pod-0 is rejected by Probe0 at its first attempt only; the timeline patches node-0 at 5 s."""
    update = {"when": 5, "op": "update", "kind": "Node", "name": "node-0", "patch": patch}
    return lambda: dataclasses.replace(_probes({"Probe0": {"Filter": [_REJECT_ALL, {}]}})(), timeline=(update,))


def _extender_failed_full_node() -> Scenario:
    """The default profile and a filter extender that fails node-0 (FailedNodes: Unschedulable), which a pod of low
    priority fills: node-0 stays a preemption candidate, so the preemptor evicts that pod (the dry run asks only
    the Filter plugins)."""
    preemptor = pod("pod-0", cpu="1", priority=1000, extenders={"ext-0": {"filter": {"fail": {"node-0": "no"}}}})
    cfg = config(multi_point=(), defaults=True, extenders=(extender("ext-0"),))
    from conformance.invariants.preemption_nodes import _priority_pod
    return scenario([preemptor], nodes=(node("node-0", cpu="1"),), cfg=cfg,
                    bound=(_priority_pod("low-0", "1", 100, "node-0"),))


def _node_changed_while_waiting() -> Scenario:
    """pod-0 waits at Permit until Probe0 rejects it at 2 s; node-0's labels change at 1 s, while it is in flight;
    its second attempt would pass."""
    script = {"Probe0": {"Permit": [{"code": "Wait", "timeout": "10s", "then": {"signal": "reject", "after": "2s"}},
                                    {}]}}
    relabel = {"when": 1, "op": "update", "kind": "Node", "name": "node-0",
               "patch": {"metadata": {"labels": {"relabelled": "yes"}}}}
    return dataclasses.replace(_probes(script)(), timeline=(relabel,))


WITNESSES_H32CODE: dict[str, Callable[[], Scenario]] = {
    "no-nodes-runs-plugins": _probes({}, nodes=()),
    "one-node-is-no-nodes": _probes({}),
    "postfilter-nomination-dropped": _probes({"Probe0": {"Filter": _REJECT_ALL, "PostFilter": {
        "code": "Success", "nominate": "node-0"}}}, nodes=TWO_NODES),
    "postfilter-error-nominates": _probes({"Probe0": {"Filter": _REJECT_ALL, "PostFilter": {
        "code": "Error", "reasons": ["x"], "nominate": "node-0"}}}, nodes=TWO_NODES),
    "nil-postfilter-result-clears": _retried(_NOMINATED_FIRST),
    "failure-keeps-nomination": _retried(_NOMINATED_THEN_ERROR),
    "no-scheduled-event": _probes({}),
    "scheduled-event-on-failed-bind": _probes({"Probe0": {"Bind": {"code": "Error", "reasons": ["x"]}}},
                                              binder=False),
    "failed-scheduling-event-dropped": _probes({"Probe0": {"Filter": _REJECT_ALL}}),
    "failed-scheduling-event-twice": _probes({"Probe0": {"Filter": _REJECT_ALL}}),
    "condition-message-truncated": _probes(_REJECT_LONG),
    "condition-message-decorated": _probes({"Probe0": {"Filter": _REJECT_ALL}}),
    "changed-condition-not-patched": _retried(_REJECT_THEN_ERROR),
    "unchanged-status-repatched": _rejected_twice_alike,
    # Probe0 rejects both nodes: no node is left for the extenders to filter.
    "extender-filter-asked-without-nodes": _filter_extenders({}, {"Probe0": {"Filter": _REJECT_ALL}}),
    # ext-1 fails both nodes: only asking it keeps the pod off them.
    "extender-filter-first-only": _filter_extenders({"ext-1": {"filter": {"fail": {
        "node-0": "no", "node-1": "no"}}}}),
    "assumed-pod-updates-queued": _updated_while_waiting,
    "in-flight-events-ignored": _node_changed_while_waiting,
    # Rejected once, no event at all: the pod must wait in the pool.
    "in-flight-event-always-assumed": _probes({"Probe0": {"Filter": [_REJECT_ALL, {}]}}),
    # Probe0 filters but does not score; no extenders: node-0, the first feasible node, is the only one filtered.
    "filters-every-node-without-scoring": lambda: scenario(
        [pod()], nodes=TWO_NODES, cfg=config({"preFilter": ["Probe0"], "filter": ["Probe0"]})),
    # Probe0 filters and scores (multiPoint): both nodes must be filtered and scored.
    "first-feasible-node-with-scoring": _probes({"Probe0": {"Score": {"byNode": {"node-1": {"score": 50}}}}},
                                                nodes=TWO_NODES),
    "extender-failed-as-unresolvable": _extender_failed_full_node,
    # Only the capacity changes (allocatable stays): no event, pod-0 waits on.
    "every-node-update-moves": _node_updated({"status": {"capacity": {"cpu": "8"}}}),
    # An annotation changes: UpdateNodeAnnotation, which Probe0 (no EnqueueExtensions) answers with Queue.
    "node-annotations-ignored": _node_updated({"metadata": {"annotations": {"example.com/note": "x"}}}),
    "nominated-pod-deletion-moves-nothing": _nominated_then_deleted,
    "preemption-tries-unresolvable-nodes": _unresolvable_node_with_room,
    "preemption-skips-unschedulable-nodes": lambda: PENDING_WITNESSES["every-pod-never-preempts"](),
    "pending-pod-updates-ignored": lambda: _EVENT_WITNESSES["never-ungates"],
    # ext-0 (ignorable) fails node-0; ext-1 (not ignorable) must filter first, then ext-0 what ext-1 left.
    "ignorable-extenders-in-config-order": _filter_extenders(
        {"ext-0": {"filter": {"fail": {"node-0": "no"}}}}, extenders=(extender("ext-0", ignorable=True),
                                                                  extender("ext-1"))),
    "ignorable-extenders-first": _filter_extenders(
        {"ext-0": {"filter": {"fail": {"node-0": "no"}}}}, extenders=(extender("ext-0", ignorable=True),
                                                                  extender("ext-1"))),
    # ext-0 lists node-0 both as failed and as unresolvable: the unresolvable message counts.
    "extender-failed-over-unresolvable": _filter_extenders({"ext-0": {"filter": {
        "fail": {"node-0": "failed", "node-1": "failed"}, "unresolvable": {"node-0": "unresolvable"}}}}),
}

__all__ = ["NEW_RULE_MUTANTS_H32CODE", "WITNESSES_H32CODE"]
