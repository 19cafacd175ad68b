"""The event rules: what a scheduler owes the pending pods when the cluster changes under it (a scenario's
timeline, docs/scenario.md#timeline), judged from the outcome and the cluster at each point (cluster.py).

A pod rejected by a stock plugin waits in the unschedulable pool until an event that plugin registers
(its EventsToRegister) comes and its QueueingHint says the event may help; the 5-minute flush is far
beyond any deadline. So only those events count as promises of a retry: the stock plugins whose
rejection the pod's final condition names (`HINTS`), and the events each registers in v1.37.2.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from reference.plugins import node_affinity, node_unschedulable, taint_toleration
from reference.plugins.node_resources_fit_request import ERR_REASON_TOO_MANY_PODS
from reference.scheduler.fit_error import NO_NODE_AVAILABLE_MSG, NO_NODES_AVAILABLE_ERROR
from reference.scheduler.queue import DEFAULT_MAX_BACKOFF, DEFAULT_POD_MAX_IN_UNSCHEDULABLE_DURATION
from reference.timeline import TimelineEvent

from ..recipes.events import (NODE_GONE_THEN_WOKEN, NODE_UPDATED_THEN_WOKEN, UNHELPFUL_EVENTS,
                              RejectedThenWoken)
from ..recipes.held import HeldByTopology
from ..recipes.situations import Either
from .base import invariant
from .cluster import vanished
from .judge import Judge
from .liveness import DECIDING, INSUFFICIENT, REFERENCE_MAX_ATTEMPTS, Nominations, feasible_nodes
from .run import Run

# Plugin -> the "Resource/ActionType" events it registers whose hint may requeue a pod it rejected.
HINTS: Mapping[str, frozenset[str]] = {
    # noderesources/fit.go EventsToRegister (UpdatePodScaleDown: InPlacePodVerticalScaling, on by default)
    "NodeResourcesFit": frozenset({"AssignedPod/Delete", "Node/Add", "Node/UpdateNodeAllocatable",
                                   "TargetPod/UpdatePodScaleDown"}),
    # tainttoleration/taint_toleration.go EventsToRegister
    "TaintToleration": frozenset({"Node/Add", "Node/UpdateNodeTaint", "TargetPod/UpdatePodToleration"}),
    # nodeaffinity/node_affinity.go EventsToRegister
    "NodeAffinity": frozenset({"Node/Add", "Node/UpdateNodeLabel"}),
    # nodeunschedulable/node_unschedulable.go EventsToRegister (spec.unschedulable is an UpdateNodeTaint)
    "NodeUnschedulable": frozenset({"Node/Add", "Node/UpdateNodeTaint", "TargetPod/UpdatePodToleration"}),
    # schedulinggates/scheduling_gates.go EventsToRegister
    "SchedulingGates": frozenset({"TargetPod/UpdatePodSchedulingGatesEliminated"}),
}
_AFFINITY_REASONS = (node_affinity.ERR_REASON_POD, node_affinity.ERR_REASON_ENFORCED,
                     node_affinity.ERR_REASON_CONFLICT)


def rejecting_plugins(message: str) -> set[str] | None:
    """The HINTS plugins a FitError message (`0/N nodes are available: 1 reason, ...`) names; None when
    a reason is not one of theirs (then no promise can be read)."""
    head, sep, rest = message.partition(" nodes are available: ")
    if not sep or not head.startswith("0/"):
        return None
    out = set()
    for item in rest.split(". ", 1)[0].rstrip(".").split(", "):
        count, _, reason = item.partition(" ")
        reason = reason if count.isdigit() else item
        if reason.startswith(INSUFFICIENT) or reason == ERR_REASON_TOO_MANY_PODS:
            out.add("NodeResourcesFit")
        elif reason.startswith(taint_toleration.ERR_REASON_UNTOLERATED):
            out.add("TaintToleration")
        elif reason in _AFFINITY_REASONS:
            out.add("NodeAffinity")
        elif reason == node_unschedulable.ERR_REASON_UNSCHEDULABLE:
            out.add("NodeUnschedulable")
        else:
            return None
    return out


def _get(m: Mapping[str, Any] | None, *path: str) -> Any:
    for p in path:
        m = (m or {}).get(p) if isinstance(m, Mapping) else None
    return m


def actions(run: Run, k: int) -> set[str]:
    """The ClusterEvents (`Resource/ActionType`, as upstream's event handlers classify them) of applied
    event k; a pending pod's own updates are `TargetPod/...:<key>`."""
    event: TimelineEvent = run.cluster.applied[k]
    before, after = run.cluster.states[k], run.cluster.states[k + 1]
    old, new = before.get(event.kind, event.key), after.get(event.kind, event.key)
    if event.kind == "Node":
        if event.op != "update":
            return {"Node/Add" if event.op == "create" else "Node/Delete"}
        changed = {
            "Node/UpdateNodeLabel": _get(old, "metadata", "labels") != _get(new, "metadata", "labels"),
            "Node/UpdateNodeTaint": (_get(old, "spec", "taints"), bool(_get(old, "spec", "unschedulable"))) !=
                                    (_get(new, "spec", "taints"), bool(_get(new, "spec", "unschedulable"))),
            "Node/UpdateNodeAllocatable":
                _get(old, "status", "allocatable") != _get(new, "status", "allocatable")}
        return {a for a, c in changed.items() if c}
    if event.kind != "Pod":
        return {f"{event.kind}/{event.op}"}
    if event.op != "update":
        return {"AssignedPod/Delete" if event.op == "delete" else "Pod/Add"}
    out = set()
    if _get(old, "spec", "schedulingGates") and not _get(new, "spec", "schedulingGates"):
        out.add("TargetPod/UpdatePodSchedulingGatesEliminated")
    if _get(old, "spec", "tolerations") != _get(new, "spec", "tolerations"):
        out.add("TargetPod/UpdatePodToleration")
    if _get(old, "spec", "containers") != _get(new, "spec", "containers"):
        out.add("TargetPod/UpdatePodScaleDown")  # only lowering passes validation
    return {f"{a}:{event.key}" for a in out}


def _promised(run: Run, key: str, plugins: set[str]) -> float | None:
    """When the last applied event came that a rejecting plugin of `key` registers; None if none came."""
    wanted = set().union(*(HINTS[p] for p in plugins))
    times = [run.cluster.times[k + 1] for k in range(len(run.cluster.applied))
             if any(a.split(":")[0] in wanted and (":" not in a or a.endswith(f":{key}"))
                    for a in actions(run, k))]
    return max(times) if times else None


@invariant("event-wakes-pending-pod",
           "A pending pod that a timeline event makes schedulable (by the stock Filter plugins, on the cluster "
           "after the last event) is bound before the deadline, when the plugins that rejected it register that "
           "event "
           "(NodeResourcesFit: assigned pod delete, node add or allocatable change, its own scale-down; "
           "TaintToleration and NodeUnschedulable: node add or taint change, its own toleration change; "
           "NodeAffinity: node add or label change; SchedulingGates: its last gate removed).",
           "EventsToRegister in noderesources/fit.go, tainttoleration/taint_toleration.go, "
           "nodeaffinity/node_affinity.go, nodeunschedulable/node_unschedulable.go, "
           "schedulinggates/scheduling_gates.go; scheduling_queue.go MoveAllToActiveOrBackoffQueue, "
           "isPodWorthRequeuing, Update (gates)", requires=("virtual-time",),
           situation=RejectedThenWoken(),
           rules=("event-requeues", "gates-removed-requeues", "deleted-nominated-pod-frees-node"))
def event_wakes_pending_pod(run: Run) -> None:
    if not run.outcome.timeline or not run.cluster.changed:
        return
    judge = Judge.of(run)
    if judge is None or judge.config.extenders or run.outcome.deleted:
        return  # extenders answer unknown; after preemption nominations decide (schedulable-pods-bound)
    if any(r.phase == "waiting" for r in run.outcome.pods.values()):
        return
    final = judge.at(run.cluster.final())
    first = run.cluster.times[1]
    for key in run.live_pods:
        result = run.outcome.pods.get(key)
        gated = bool(_get(run.pods[key], "spec", "schedulingGates"))
        held = result is not None and (result.attempts > 1 or gated)
        if key in judge.placed and held and any(b.get("t", -1) >= first for b in run.bound_in(key)):
            run.exercise()  # a pod that had been turned down was woken after an event and bound
        if result is None or result.phase not in ("gated", "unschedulable") or key in judge.placed:
            continue
        if not judge.judgeable(key) or not judge.stock_only(key, DECIDING) or judge.framework(key) is None:
            continue
        if result.phase == "gated":
            if _get(run.cluster.pod(run.cluster.final(), key), "spec", "schedulingGates") \
                    or "SchedulingGates" not in judge.plugins_at(key, "preEnqueue"):
                continue
            plugins = {"SchedulingGates"}
        else:
            plugins = rejecting_plugins(str((result.condition or {}).get("message", ""))) or set()
            gave_up = run.outcome.backend == "reference" and result.attempts > REFERENCE_MAX_ATTEMPTS
            if not plugins or gave_up:
                continue
        last = _promised(run, key, plugins)
        if last is None or last + DEFAULT_MAX_BACKOFF + 1 >= run.scenario.deadline:
            continue
        run.exercise()
        fits = feasible_nodes(final, key, Nominations({}))
        if fits:
            raise run.violation(f"{key} ended {result.phase} although an event its rejecting plugins "
                                f"({', '.join(sorted(plugins))}) register came at {last:g}s and the stock "
                                "Filter "
                                f"plugins accept it on {', '.join(fits)} after the last event",
                                pod=key, expected=f"bound (e.g. to {fits[0]}) before the deadline",
                                actual=(result.condition or {}).get("message", result.phase))


@invariant("deleted-node-unused",
           "No pod is bound to a node after the node's deletion applied (a timeline delete, or a vanish fault "
           "naming the node) unless its cycle chose the node before (on a wall clock: a little after, for "
           "informer delay).",
           "eventhandlers.go deleteNodeFromCache; cache.go RemoveNode; the next cycle's snapshot "
           "(UpdateSnapshot) no longer lists the node; the binding itself does not look the node up "
           "(registry/core/pod/storage BindingREST), so a cycle that chose it before binds to it", requires=(),
           situation=NODE_GONE_THEN_WOKEN,
           rules=("event-snapshot",))
def deleted_node_unused(run: Run) -> None:
    cluster = run.cluster
    if not run.outcome.timeline or not any(e.kind == "Node" and e.op == "delete" for e in cluster.applied):
        return
    known = {m["metadata"]["name"] for k in range(len(cluster.states)) for m in cluster.manifests(k, "Node")}
    deletions = [cluster.times[k + 1] for k, e in enumerate(cluster.applied)
                 if e.kind == "Node" and e.op == "delete"]
    # Exercised when a pod was still to be scheduled once a node had gone (a tie may be either order).
    if any(not any(b.get("pod") == key and b.get("t", float("inf")) < min(deletions)
                   for b in run.outcome.bindings) for key in run.live_pods):
        run.exercise()
    for b in run.outcome.bindings:
        key, node, t = b.get("pod"), b.get("node"), b.get("t")
        if node not in known or not isinstance(t, (int, float)):
            continue
        states = cluster.at_binding(key, t)
        if not any(cluster.states[k].get("Node", node) is not None for k in states):
            gone = [cluster.times[k + 1] for k, e in enumerate(cluster.applied)
                    if e.kind == "Node" and e.name == node and e.op == "delete" and cluster.times[k + 1] <= t]
            when = f"after the node's deletion at {max(gone):g}s" if gone else "before the node existed"
            raise run.violation(f"{key} was bound to {node} at {t:g}s, {when}",
                                pod=key, expected=f"no binding to {node} while it does not exist",
                                actual=dict(b))


_NODE_COUNT = re.compile(NO_NODE_AVAILABLE_MSG.format(r"(\d+)"))
# Stock Reserve and Permit plugins that reject only pods with volumes or resource claims.
_QUIET_AFTER_FILTERING = ("VolumeBinding", "DynamicResources")


def _one_node_possible(run: Run, pod: str) -> bool:
    """Whether an attempt may have failed at Reserve or Permit, in a FitError over the one chosen node."""
    plugins = [*run.plugins_at(pod, "reserve"), *run.plugins_at(pod, "permit")]
    obj = run.pod_objects[pod]
    return bool(obj.volumes or obj.resource_claims) or any(p not in _QUIET_AFTER_FILTERING for p in plugins)


@invariant("fit-error-counts-nodes",
           "A FitError counts the nodes of the cluster (`0/N nodes are available`: N nodes in some state "
           "of the run, or 1 after a Reserve or Permit rejection), and `no nodes available` comes only when "
           "there was none: a node stays in the scheduler's snapshot until it is deleted, whatever its "
           "updates.",
           "schedule_one.go schedulePod (ErrNoNodesAvailable; FitError.NumAllNodes, the snapshot's node "
           "count), schedulingCycle (NumAllNodes 1 after Reserve or Permit); eventhandlers.go "
           "updateNodeInCache; cache.go UpdateNode, UpdateSnapshot", requires=(),
           # Pods turned down by affinity or spreading, then events their hints read: FitErrors under events.
           situation=Either((NODE_UPDATED_THEN_WOKEN, HeldByTopology())),
           rules=("event-snapshot", "no-nodes-available"))
def fit_error_counts_nodes(run: Run) -> None:
    cluster = run.cluster
    if any(f.get("fault") == "vanish" and vanished(f) is None for f in run.outcome.faults):
        return  # a vanished object the backend does not name may have been a node
    counts = {len(cluster.manifests(k, "Node")) for k in range(len(cluster.states))}
    for pod in run.live_pods:
        result = run.outcome.pods.get(pod)
        if result is None:
            continue
        messages = [str(e.get("message", "")) for e in run.outcome.events
                    if e.get("pod") == pod and e.get("reason") == "FailedScheduling"]
        messages.append(str((result.condition or {}).get("message", "")))
        allowed = counts | ({1} if _one_node_possible(run, pod) else set())
        for message in messages:
            found = _NODE_COUNT.match(message)
            if message != NO_NODES_AVAILABLE_ERROR and found is None:
                continue
            run.exercise()
            n = int(found.group(1)) if found is not None else 0
            if n not in allowed:
                raise run.violation(f"a FitError counts {n} nodes, but the cluster had {sorted(counts)} "
                                    "during the run", pod=pod,
                                    expected=f"0/N nodes with N in {sorted(allowed)}",
                                    actual=message)


@invariant("unregistered-events-ignored",
           "A pod turned down by stock plugins is not attempted again after timeline events none of them "
           "registers (nor after any other event: no deletion, no fault): it makes a single attempt.",
           "scheduling_queue.go MoveAllToActiveOrBackoffQueue, isPodWorthRequeuing (the rejector plugins' "
           "EventsToRegister and QueueingHints decide; events of no registered kind move nothing)",
           requires=("virtual-time", "queue-attempts"), situation=UNHELPFUL_EVENTS,
           rules=("queueing-hints",))
def unregistered_events_ignored(run: Run) -> None:
    if not run.outcome.timeline or run.outcome.deleted or run.outcome.faults or not run.cluster.applied:
        return
    if max(run.cluster.times[1:]) >= DEFAULT_POD_MAX_IN_UNSCHEDULABLE_DURATION:
        return  # the 5-minute flush may have moved it
    for key in run.live_pods:
        result = run.outcome.pods.get(key)
        if result is None or result.phase != "unschedulable" or result.nominated_node_name:
            continue
        messages = [str(e.get("message", "")) for e in run.outcome.events
                    if e.get("pod") == key and e.get("reason") == "FailedScheduling"]
        found = [rejecting_plugins(m) for m in messages]
        if not found or any(not plugins for plugins in found):
            continue  # a rejection the HINTS plugins do not account for, or no message to read
        wanted = set().union(*(HINTS[p] for plugins in found for p in plugins))
        events = set().union(*(actions(run, k) for k in range(len(run.cluster.applied))))
        if any(a.split(":")[0] in wanted and (":" not in a or a.endswith(f":{key}")) for a in events):
            continue
        run.exercise()
        if result.attempts > 1:
            raise run.violation(f"{key} was attempted {result.attempts} times, although no event its "
                                f"rejecting plugins ({', '.join(sorted(set().union(*found)))}) register came "
                                f"(events: {', '.join(sorted(events)) or 'none'})", pod=key,
                                expected="1 attempt", actual=f"{result.attempts} attempts")
