"""The scheduling queue: which pod's first attempt starts first, and how long errors keep a pod waiting."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterator, Mapping

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from reference.probe import PROBE_NAMES
from reference.scenario import PROBE_SCRIPT_ANNOTATION, Scenario, pod_key

from ..recipes.first_pod import REJECT, pick, refused_at_pre_enqueue, rejected_once
from ..recipes.situations import Situation
from .attempts import traced_from_start
from .base import invariant
from .faults import fired, fired_between
from .outcome import backoff_kind
from .run import Record, Run

# Points a scheduling cycle (not a binding cycle) calls; binding cycles overlap other pods' cycles.
SCHEDULING_POINTS = ("PreFilter", "AddPod", "RemovePod", "Filter", "PostFilter", "PreScore", "Score",
                     "NormalizeScore", "Reserve", "Permit")
TIME_TOLERANCE = 1e-3  # trace times carry microseconds


def attempt_start(run: Run, pod: str, attempt: int = 1) -> Record | None:
    """The first record of one of the pod's scheduling cycles."""
    return next((r for r in run.records(pod, attempt) if r["point"] in SCHEDULING_POINTS), None)


def admitted_at_start(run: Run, pod: str) -> bool:
    """Not held back before its first attempt: no scheduling gates, no PreEnqueue probe said no."""
    if run.pod_objects[pod].scheduling_gates:
        return False
    return all(r.get("code") == "Success" for r in run.records(pod, 0, "PreEnqueue"))


@invariant("queue-priority-order",
           "Pods in activeQ together at the start begin their first attempts by priority (higher first), "
           "then creation order.",
           "queuesort/priority_sort.go Less; backend/queue/scheduling_queue.go Pop (spec §2.2, §11.14)",
           # On a cluster the pods are created one by one and a running scheduler may pop each at once.
           requires=("probes", "creation-order"), rules=("queue-sort-priority-timestamp",))
def queue_priority_order(run: Run) -> None:
    started = []
    at_start = {pod_key(m) for m in run.scenario.workload}  # not the pods a timeline creates later
    for index, pod in enumerate(run.pods):
        if pod not in at_start or not traced_from_start(run, pod) or not admitted_at_start(run, pod):
            continue
        record = attempt_start(run, pod)
        if record is not None:
            started.append((-run.pod_objects[pod].effective_priority, index, pod, record))
    started.sort(key=lambda x: x[:2])
    if len(started) > 1:
        run.exercise()
    for earlier, later in zip(started, started[1:]):
        if later[3]["seq"] < earlier[3]["seq"]:
            raise run.violation(f"{later[2]} (priority {-later[0]}) started its first attempt "
                                f"before {earlier[2]} (priority {-earlier[0]}, created earlier or of higher priority)",
                                pod=later[2], expected=[earlier[2], later[2]], actual=[later[2], earlier[2]],
                                records=(later[3], earlier[3]))


def error_backoff(attempt_classes: list[str | None], initial: float, maximum: float) -> float:
    """The error backoff after the last of these attempts, counting only the consecutive errors known
    from the trace (an unknown attempt ends the count, so the result is a lower bound)."""
    count = 0
    for verdict in reversed(attempt_classes):
        if verdict != "error":
            break
        count += 1
    return min(initial * 2 ** (count - 1), maximum) if count else 0.0


def _failure_time(run: Run, pod: str, attempt: int) -> float:
    """When the attempt was last seen running; the queue records its failure at or after this time.
    Permit signals are left out: they may fire after the attempt failed."""
    times = [r["t"] for r in run.probe_records(pod, attempt) if r["point"] not in ("Allow", "Reject")]
    times += [r["t"] for r in run.extender_records(pod, attempt=attempt)]
    return max(times)


def retries(run: Run) -> Iterator[tuple[str, int, int, list[str | None], Record | None, float]]:
    """Each traced pod's attempt followed by another: (pod, attempt, the next one, the backoff kinds of its
    attempts so far, the next one's first record or None, when the attempt failed). A restart between them
    starts the kinds over (the new scheduler's queue knows no backoff) and yields nothing."""
    for pod in run.live_pods:
        if not traced_from_start(run, pod):
            continue
        attempts = run.attempts(pod)
        kinds: list[str | None] = []
        for attempt, following in zip(attempts, attempts[1:]):
            kinds.append(backoff_kind(run, pod, attempt))
            start = attempt_start(run, pod, following)
            failed = _failure_time(run, pod, attempt)
            if start is not None and fired_between(run, failed, start["t"], "restart"):
                kinds = []
                continue
            yield pod, attempt, following, list(kinds), start, failed


@invariant("error-backoff-respected",
           "After k consecutive attempts that failed with an error, a pod's next attempt starts at least "
           "min(podInitialBackoffSeconds x 2^(k-1), podMaxBackoffSeconds) seconds later.",
           "backend/queue/backoff_queue.go getBackoffTime, calculateBackoffDuration, isEntityBackingoff "
           "(spec §6.3, §11.15)",
           rules=("error-backoff", "unschedulable-waits-for-event"))
def error_backoff_respected(run: Run) -> None:
    initial, maximum = run.config.pod_initial_backoff_seconds, run.config.pod_max_backoff_seconds  # defaulted
    for pod, attempt, following, kinds, start, failed in retries(run):
        wait = error_backoff(kinds, initial, maximum)
        if start is not None and wait > 0:
            run.exercise()
        if start is not None and start["t"] - failed < wait - TIME_TOLERANCE:
            raise run.violation(f"attempt {following} started {start['t'] - failed:g}s "
                                f"after attempt {attempt} failed with an error", pod=pod,
                                expected=f">= {wait:g}s", actual=f"{start['t'] - failed:g}s", records=(start,))


def _pre_enqueue_calls(run: Run, pod: str) -> list[list[Record]]:
    """The pod's PreEnqueue calls: runs of PreEnqueue records with nothing else of the pod between
    them, a new call starting where a plugin repeats."""
    calls: list[list[Record]] = []
    current: list[Record] | None = None
    for r in run.records(pod):
        if r["point"] != "PreEnqueue":
            current = None
            continue
        if current is None or any(x["plugin"] == r["plugin"] for x in current):
            current = []
            calls.append(current)
        current.append(r)
    return calls


@invariant("preenqueue-gates",
           "PreEnqueue stops at the first plugin that does not return Success, and a pod it did not admit (any "
           "other code gates) starts no attempt until a later PreEnqueue run admits it; a pod it admitted "
           "(every plugin returned Success, the pod carries no scheduling gates) is not held gated.",
           "backend/queue/scheduling_queue.go runPreEnqueuePlugins, moveToActiveQ; schedulinggates "
           "scheduling_gates.go PreEnqueue (spec §2.1, §6.5)",
           situation=Situation({"preEnqueue": ["Probe0", "Probe1"], "preFilter": ["Probe0"]},
                               refused_at_pre_enqueue),
           focus={"points": ("PreEnqueue", "PreFilter"), "max_pods": 3, "default_plugins": False},
           rules=("preenqueue-any-non-success-gates", "gates-never-prefiltered"))
def preenqueue_gates(run: Run) -> None:
    for pod in run.live_pods:
        for call in _pre_enqueue_calls(run, pod):
            refused = next((i for i, x in enumerate(call) if x.get("code") != "Success"), None)
            if refused is None:
                continue
            run.exercise()
            if refused < len(call) - 1:
                raise run.violation(f"{call[refused + 1]['plugin']} ran at PreEnqueue after "
                                    f"{call[refused]['plugin']} returned {call[refused].get('code')}", pod=pod,
                                    plugin=call[refused + 1]["plugin"], status=str(call[refused].get("code")),
                                    records=tuple(call))
        _admitted_before_attempts(run, pod)
        _not_held_when_admitted(run, pod)


# Stock PreEnqueue plugins and what they gate: SchedulingGates a pod with scheduling gates, DynamicResources
# one whose resource claims are missing, DefaultPreemption one it is preempting for (asynchronously: after an
# attempt).
_STOCK_GATES = ("SchedulingGates", "DynamicResources", "DefaultPreemption")


def _not_held_when_admitted(run: Run, pod: str) -> None:
    """A pod is not reported gated, never attempted, when nothing gated it: no scheduling gates (or no
    SchedulingGates plugin), no resource claims, and every PreEnqueue probe returned Success at its last
    call."""
    result = run.outcome.pods.get(pod)
    if result is None or run.profile_of(pod) not in run.profiles:
        return
    plugins = run.plugins_at(pod, "preEnqueue")
    if any(p not in PROBE_NAMES and p not in _STOCK_GATES for p in plugins):
        return  # a plugin the trace cannot see may have gated it
    cluster = run.cluster
    released = cluster.released(pod) if run.outcome.timeline else 0
    if released and ("virtual-time" not in run.capabilities
                     or cluster.times[released] >= run.scenario.deadline - TIME_TOLERANCE):
        return  # the event that let it in may not have reached the queue yet
    manifest = cluster.pod(cluster.final(), pod) if run.outcome.timeline else run.pods[pod]
    if ((manifest or {}).get("spec") or {}).get("schedulingGates") and "SchedulingGates" in plugins:
        return
    if run.pod_objects[pod].resource_claims and "DynamicResources" in plugins:
        return
    calls = _pre_enqueue_calls(run, pod)
    if calls and any(r.get("code") != "Success" for r in calls[-1]):
        return
    run.exercise()
    if result.phase == "gated" and not (result.attempts or run.attempts(pod) or result.condition):
        raise run.violation("the pod is reported gated although nothing gated it: no scheduling gates, and "
                            "its last PreEnqueue run admitted it", pod=pod, expected="queued and attempted",
                            actual=result.phase, records=tuple(calls[-1] if calls else ()))


def _admitted_before_attempts(run: Run, pod: str) -> None:
    """Each scheduling attempt follows a PreEnqueue call that admitted the pod, when any call came before it."""
    last: list[Record] | None = None
    current_attempt = None
    for r in run.records(pod):
        if r["point"] == "PreEnqueue":
            if last is None or any(x["plugin"] == r["plugin"] for x in last) or current_attempt is not None:
                last = []
                current_attempt = None
            last.append(r)
            continue
        if r["point"] not in SCHEDULING_POINTS or r.get("attempt") == current_attempt:
            continue
        current_attempt = r.get("attempt")
        refused = next((x for x in last or () if x.get("code") != "Success"), None)
        if refused is not None:
            raise run.violation(f"the pod started attempt {r.get('attempt')} although "
                                f"{refused['plugin']} returned {refused.get('code')} at its last PreEnqueue run",
                                pod=pod, plugin=refused["plugin"], status=str(refused.get("code")), records=(refused, r))


@invariant("preenqueue-gating-plugin-first",
           "After a PreEnqueue plugin gated a pod, the pod's next PreEnqueue run starts with that plugin; a run "
           "that admits the pod to an attempt ran every PreEnqueue plugin (the others in any order).",
           "backend/queue/scheduling_queue.go runPreEnqueuePluginsForPod (GatingPlugin first, then the map of "
           "PreEnqueue plugins) (spec §2.1)",
           situation=Situation({"preEnqueue": ["Probe0", "Probe1"], "preFilter": ["Probe0"]},
                               refused_at_pre_enqueue),
           focus={"points": ("PreEnqueue", "PreFilter"), "max_pods": 3, "default_plugins": False},
           rules=("preenqueue-gating-plugin-first",))
def preenqueue_gating_plugin_first(run: Run) -> None:
    if run.outcome.faults:
        return  # a restarted scheduler's queue knows no gating plugin
    recreated = run.cluster.deleted_pods if run.outcome.timeline else set()
    for pod in run.live_pods:
        probes = set(run.probes_at(pod, "preEnqueue"))
        if not probes:
            continue
        records = run.outcome.calls(pod=pod, point="PreEnqueue")
        if pod not in recreated:
            for gate, after in zip(records, records[1:]):
                if gate.get("code") == "Success":
                    continue
                run.exercise()
                if after["plugin"] != gate["plugin"]:
                    raise run.violation(f"{gate['plugin']} gated the pod, but its next PreEnqueue run started "
                                        f"with {after['plugin']}", pod=pod, plugin=gate["plugin"],
                                        expected=gate["plugin"], actual=after["plugin"], records=(gate, after))
        _every_probe_admitted(run, pod, probes)


def _every_probe_admitted(run: Run, pod: str, probes: set[str]) -> None:
    """Before each attempt, since the previous one, every PreEnqueue probe returned Success (the run that
    admitted the pod ran them all; every way into activeQ or backoffQ runs PreEnqueue)."""
    passed: set[str] = set()
    started: set[object] = set()
    for r in run.records(pod):
        if r["point"] == "PreEnqueue":
            if r.get("code") == "Success":
                passed.add(r["plugin"])
            continue
        if r["point"] not in SCHEDULING_POINTS or r.get("attempt") in started:
            continue
        started.add(r.get("attempt"))
        missing = sorted(probes - passed)
        if missing:
            raise run.violation(f"attempt {r.get('attempt')} started although {missing[0]} did not admit the pod "
                                "at PreEnqueue since its previous attempt", pod=pod, plugin=missing[0],
                                records=(r,))
        passed = set()


UNSCHEDULABLE_FLUSH = 5 * 60.0  # DefaultPodMaxInUnschedulablePodsDuration
# Failed calls that change no object, so no informer event follows (an eviction, a status patch, an Event).
_NO_EVENT = ("evict", "status", "event")
# Records after which the queue may have moved unschedulable pods: a binding or a failed binding cycle,
# a Permit wait (it may end in a rejection), a nomination (its patch moves lower-priority pods).
_EVENT_POINTS = ("Bind", "PostBind", "PreBind", "Unreserve", "Allow", "Reject", "extender.bind")


def _possible_event(r: Record, pod: str, attempt: int) -> bool:
    point = r.get("point")
    if r.get("pod") == pod and r.get("attempt") == attempt and point in ("Unreserve", "Reject", "Allow", "Permit",
                                                                         "PreBindPreFlight"):
        return False  # the attempt's own failure, or its own nomination while assumed, does not move the pod itself
    return point in _EVENT_POINTS or (point == "PostFilter" and "nominate" in r) or (
        point in ("PreBindPreFlight", "Permit") and r.get("code") in ("Success", "Wait"))


def attempt_end(run: Run, pod: str, attempt: int) -> float:
    """When the attempt's last call ran (its Unreserve, or the last point it reached): not its Permit signals,
    nor the PreEnqueue run that requeued it later under the same attempt number."""
    return max(r["t"] for r in run.probe_records(pod, attempt) if r["point"] not in ("Allow", "Reject", "PreEnqueue"))


def _timeline_moved(run: Run, pod: str, attempt: int, start: float, retry: float) -> bool:
    """Whether a timeline event applied between the attempt's start and the retry may have moved the pod (one
    applied while the pod was in flight is replayed at its failure). Not: an update of the pod itself while its
    attempt held it assumed (Reserve to failure: eventhandlers.go updatePodInSchedulingQueue drops it), nor a
    node update that changed none of the node's scheduling properties (eventhandlers.go updateNodeInCache moves
    pods only for the events NodeSchedulingPropertiesChange finds)."""
    reserved = next((r["t"] for r in run.probe_records(pod, attempt) if r["point"] in ("Reserve", "Permit")), None)
    failed = attempt_end(run, pod, attempt)
    cluster = run.cluster
    for k, event in enumerate(cluster.applied):
        at = cluster.times[k + 1]
        if not start <= at <= retry:
            continue
        if event.op == "update" and event.kind == "Pod" and event.key == pod \
                and reserved is not None and reserved <= at < failed:
            continue
        if event.op == "update" and event.kind == "Node" and not _node_properties_changed(
                cluster.states[k].get("Node", event.key), cluster.states[k + 1].get("Node", event.key)):
            continue
        return True
    return False


# What NodeSchedulingPropertiesChange compares (framework/events.go): a change elsewhere (status.capacity) is no
# event. Conditions count, although the reference does not model them.
_NODE_PROPERTIES = (("spec", "unschedulable"), ("status", "allocatable"), ("metadata", "labels"), ("spec", "taints"),
                    ("status", "conditions"), ("metadata", "annotations"), ("spec", "podPreemptionPolicy"),
                    ("status", "declaredFeatures"))


def _node_properties_changed(old: Mapping[str, Any] | None, new: Mapping[str, Any] | None) -> bool:
    def field(node: Mapping[str, Any] | None, path: tuple[str, ...]) -> Any:
        value = node or {}
        for part in path:
            value = value.get(part) if isinstance(value, Mapping) else None
        return value or None
    return any(field(old, path) != field(new, path) for path in _NODE_PROPERTIES)


@invariant("rejected-pod-waits-for-event",
           "A pod whose attempt plugins rejected (a FitError, a Reserve or Permit rejection) starts its next attempt "
           "only after a cluster event that may make it schedulable (a binding, a failed binding cycle, a "
           "nomination, a deletion) or the 5-minute flush; an error instead backs off and retries on its own.",
           "backend/queue/scheduling_queue.go AddUnschedulableIfNotPresent, MoveAllToActiveOrBackoffQueue, "
           "flushUnschedulablePodsLeftover; eventhandlers.go updatePodInSchedulingQueue (an assumed pod's update "
           "is dropped), updateNodeInCache (NodeSchedulingPropertiesChange) (spec §6.4)",
           situation=Situation(
               {p: ["Probe0"] for p in ("preFilter", "filter", "postFilter", "reserve", "permit")}, rejected_once, weight=2),
           rules=("unschedulable-waits-for-event", "binding-failure-moves-pods", "unschedulable-flush",
                  "assumed-pod-update-ignored", "node-update-needs-property-change"))
def rejected_pod_waits_for_event(run: Run) -> None:
    if "virtual-time" not in run.capabilities or run.outcome.deleted:
        return  # on a cluster informer events arrive on their own; a deletion is an event for every pod
    for pod in run.live_pods:
        if not traced_from_start(run, pod):
            continue
        attempts = run.attempts(pod)
        for attempt, following in zip(attempts, [*attempts[1:], None]):
            if backoff_kind(run, pod, attempt) != "rejected":
                continue
            run.exercise()  # the trace would show a retry
            start = attempt_start(run, pod, attempt)
            retry = attempt_start(run, pod, following) if following is not None else None
            if start is None or retry is None:
                continue
            failed = _failure_time(run, pod, attempt)
            events = [r for r in run.outcome.trace if start["seq"] <= r["seq"] < retry["seq"]
                      and _possible_event(r, pod, attempt)]
            waits = [r for r in run.outcome.trace if r["seq"] < retry["seq"] and r.get("pod") != pod
                     and r.get("point") == "Permit" and r.get("code") == "Wait"]
            bound = [b for b in run.outcome.bindings if start["t"] <= b.get("t", start["t"]) <= retry["t"]
                     and b.get("pod") != pod]  # its own binding comes after the retry, maybe at the same instant
            if events or waits or bound or _timeline_moved(run, pod, attempt, start["t"], retry["t"]) \
                    or retry["t"] - failed >= UNSCHEDULABLE_FLUSH:
                continue
            if any(start["t"] <= f.get("at", 0.0) <= retry["t"] and not (
                    f.get("fault") == "fail" and f.get("detail") in _NO_EVENT) for f in fired(run)):
                continue  # a restart re-queues every pending pod; a failed binding or a deletion is an event
            raise run.violation(f"attempt {following} started although attempt "
                                f"{attempt} was rejected by plugins and no cluster event happened since",
                                pod=pod, expected="a binding, a failed binding, a nomination or a deletion first",
                                actual=f"attempt {following} at +{retry['t'] - start['t']:g}s",
                                records=(start, retry))


@invariant("deleting-pods-skipped",
           "A pod popped while being deleted (metadata.deletionTimestamp) is dropped: no plugin sees it in "
           "a scheduling attempt, it is not bound, and its one FailedScheduling event says `skip schedule "
           "deleting pod: <namespace>/<name>` (it is not queued again).",
           "schedule_one.go ScheduleOne, skipPodSchedule (spec §2.0)",
           rules=("deleting-pod-skipped",))
def deleting_pods_skipped(run: Run) -> None:
    # On a cluster the API server drops a created pod's deletionTimestamp; a timeline update may queue it
    # again.
    if "virtual-time" not in run.capabilities or run.outcome.timeline or run.outcome.faults:
        return
    for pod in run.live_pods:
        obj = run.pod_objects[pod]
        if obj.deletion_timestamp is None or run.profile_of(pod) not in run.profiles \
                or not admitted_at_start(run, pod):
            continue
        run.exercise()
        attempted = [r for r in run.records(pod) if "plugin" in r and (r.get("attempt") or 0) > 0]
        if attempted or run.bound_in(pod):
            raise run.violation("a pod being deleted was scheduled", pod=pod, expected="no attempt",
                                actual=(attempted[:1] or run.bound_in(pod)[:1]), records=tuple(attempted[:2]))
        want = f"skip schedule deleting pod: {obj.namespace}/{obj.name}"
        events = [str(e.get("message", "")) for e in run.outcome.events
                  if e.get("pod") == pod and e.get("reason") == "FailedScheduling"]
        if events != [want]:
            raise run.violation("a pod being deleted was not dropped with one FailedScheduling event",
                                pod=pod, expected=[want], actual=events)


# Plugins that never reject a pod in the generated scenarios, besides probes.
_QUIET = {"PrioritySort", "DefaultBinder"}
_PATCHES = ({"metadata": {"labels": {"zone": "b"}}}, {"metadata": {"annotations": {"example.com/note": "x"}}},
            {"spec": {"taints": [{"key": "k", "effect": "PreferNoSchedule"}]}},
            {"status": {"capacity": {"cpu": "9"}}})  # the last changes no scheduling property: no event
_DECIDING_POINTS = ("preEnqueue", "preFilter", "filter", "postFilter", "reserve", "permit", "preBind", "bind")


@dataclass(frozen=True)
class RejectedAroundNodeEvent:
    """One pod Probe0 turns down at its first attempt only (every node filtered out, or a Permit wait ended by a
    rejection at 2 s) and a node event at 1 s or 5 s: a node added, or one updated (labels, annotations, taints, or
    only its capacity, which is no event)."""

    def strategy(self) -> SearchStrategy[Scenario]:
        return st.composite(lambda draw: self._draw(draw))()

    def _draw(self, draw) -> Scenario:
        names = [f"node-{i}" for i in range(draw(st.integers(1, 2)))]
        alloc = {"cpu": "2", "memory": "4Gi", "pods": "110"}

        def node(name: str) -> dict:
            return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": {
                "kubernetes.io/hostname": name}}, "status": {"capacity": alloc, "allocatable": alloc}}
        first = {"Filter": {"code": pick(draw, REJECT)}} if draw(st.booleans()) else {"Permit": {
            "code": "Wait", "timeout": "10s", "then": {"signal": "reject", "after": "2s"}}}
        script = {"Probe0": {point: [action, {}] for point, action in first.items()}}
        annotations = {PROBE_SCRIPT_ANNOTATION: json.dumps(script, separators=(",", ":"))}
        pod = {"apiVersion": "v1", "kind": "Pod",
               "metadata": {"name": "pod-0", "namespace": "default", "annotations": annotations},
               "spec": {"containers": [{"name": "c0", "image": "registry.k8s.io/pause:3.10"}]}}
        when = pick(draw, (1, 5))
        event = {"when": when, "op": "create", "object": node("node-9")} if draw(st.integers(0, 4)) == 0 else {
            "when": when, "op": "update", "kind": "Node", "name": pick(draw, names), "patch": pick(draw, _PATCHES)}
        config = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
                  "profiles": [{"schedulerName": "default-scheduler", "plugins": {"multiPoint": {
                      "disabled": [{"name": "*"}],
                      "enabled": [{"name": "PrioritySort"}, {"name": "DefaultBinder"}, {"name": "Probe0"}]}}}]}
        return Scenario(config=config, nodes=tuple(node(n) for n in names), workload=(pod,), timeline=(event,))


def _node_event_times(run: Run) -> list[float]:
    """When a node came, went, or changed a scheduling property (the events a node update moves pods for)."""
    cluster = run.cluster
    return [cluster.times[k + 1] for k, event in enumerate(cluster.applied) if event.kind == "Node" and (
        event.op != "update" or _node_properties_changed(cluster.states[k].get("Node", event.key),
                                                         cluster.states[k + 1].get("Node", event.key)))]


@invariant("probe-rejected-pod-retried-after-node-event",
           "A pod only probes turned down (they register every event: no EnqueueExtensions) is tried again after "
           "a node is added, deleted, or changes a scheduling property once its last attempt began, whether the "
           "event came while it was in flight or after it failed (given the backoff before the deadline).",
           "backend/queue/scheduling_queue.go MoveAllToActiveOrBackoffQueue, AddUnschedulableIfNotPresent and "
           "determineSchedulingHintForInFlightPod; eventhandlers.go addNodeToCache, updateNodeInCache, "
           "deleteNodeFromCache; framework/events.go NodeSchedulingPropertiesChange",
           requires=("probes", "virtual-time"), situation=RejectedAroundNodeEvent(),
           rules=("node-update-needs-property-change", "in-flight-event-requeues"))
def probe_rejected_pod_retried_after_node_event(run: Run) -> None:
    if not run.outcome.timeline or run.outcome.faults or run.outcome.deleted or run.config.extenders:
        return  # a fault or a preemption changes what the queue holds; extenders are not probes
    times = _node_event_times(run)
    if not times:
        return
    backoff = run.config.pod_max_backoff_seconds or 10
    for pod in run.live_pods:
        result = run.outcome.pods.get(pod)
        if result is None or not traced_from_start(run, pod):
            continue
        if any(p not in PROBE_NAMES and p not in _QUIET for point in _DECIDING_POINTS
               for p in run.plugins_at(pod, point)):
            continue  # another plugin may have turned it down, with hints of its own
        if run.outcome.backend == "reference" and result.attempts > 8:
            continue  # the reference stops retrying a pod after 8 attempts (run_until_idle's max_attempts)
        if "PreEnqueue" in str((run.pods[pod].get("metadata") or {}).get("annotations") or {}):
            continue  # a probe's PreEnqueue may hold it back
        attempts = [a for a in run.attempts(pod) if a > 0]
        starts = [attempt_start(run, pod, a) for a in attempts]
        if not starts or any(s is None for s in starts):
            continue
        due = [t for t in times if starts[-1]["t"] < t and t + backoff + 1 < run.scenario.deadline]
        if len(starts) > 1 and any(starts[0]["t"] < t <= starts[-1]["t"] for t in times) or due:
            run.exercise()  # a node event came after a rejected attempt began
        if result.phase == "unschedulable" and due:
            raise run.violation(f"a node event at {due[0]:g}s came after attempt {attempts[-1]} began, but the pod "
                                "was not tried again", pod=pod, expected="another attempt after the event",
                                actual=f"{result.phase} after attempt {attempts[-1]}", records=(starts[-1],))
