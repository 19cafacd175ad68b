"""Broken reference schedulers for issue 32's pending rule directions of the framework, filtering and scoring
(helper h32c): numFeasibleNodesToFind, the no-scoring totals, gates removed by an update, PostFilter that
schedules, unknown PreFilterResult names, the two Filter passes with nominated pods and their cloned state,
Filter errors' messages, pods being deleted, the nominated node tried first, host selection (round robin,
ties), waiting pods through the handle, the gating PreEnqueue plugin first, QueueSort. Each with its witness
(WITNESSES_H32C), a small hand-made scenario on which it visibly misbehaves; what catches each is recorded in
conformance/invariants/proofs.py."""

from __future__ import annotations

from typing import Callable

from reference.framework.runtime import Framework
from reference.scenario import Scenario
from reference.scheduler.scheduler import Scheduler
from reference.status import Code, Status

from .invariants._kit import config, node, pod, scenario
from .invariants.test_event_rules import GATE, UNGATE
from .invariants.test_event_rules import scenario as timeline_scenario
from .mutants import _each_framework
from .pending_witnesses import _PRIORITIES, _PRIORITIZERS, _extenders, _two_profiles
from .rule_mutants import TWO_NODES, RuleMutant, _override, _probes, _with_spec

# --- numFeasibleNodesToFind, the no-scoring totals ---------------------------------------------------

def _feasible_nodes_not_capped(sched: Scheduler) -> None:
    """Filtering keeps every feasible node: numFeasibleNodesToFind is the number of nodes, even at 100 and
    more."""
    import reference.scheduler.schedule_one as module
    algo = sched.algorithm
    original = algo.find_nodes_that_pass_filters

    def find(*call):
        saved, module.num_feasible_nodes_to_find = module.num_feasible_nodes_to_find, lambda _p, n: n
        try:
            return original(*call)
        finally:
            module.num_feasible_nodes_to_find = saved
    algo.find_nodes_that_pass_filters = find


def _no_scoring_with_prioritizers(sched: Scheduler) -> None:
    """Without Score plugins every node totals 1 even when prioritize extenders are configured: they are
    never asked."""
    algo = sched.algorithm
    original = algo.prioritize_nodes

    def prioritize(fw, state, pod, nodes):
        if fw.has_score_plugins():
            return original(fw, state, pod, nodes)
        saved, algo.extenders = algo.extenders, []
        try:
            return original(fw, state, pod, nodes)
        finally:
            algo.extenders = saved
    algo.prioritize_nodes = prioritize


def _many_nodes(n: int = 101) -> tuple[dict, ...]:
    return tuple(node(f"node-{i}") for i in range(n))


# --- gates, PostFilter -----------------------------------------------------------------------------------

def _update_ungates(sched: Scheduler) -> None:
    """Any update of a gated pod sends it to activeQ without running PreEnqueue again, gates or not."""
    original = sched.update_pod

    def update(p):
        original(p)
        queue = sched.queue
        qpi = queue.unschedulable.get(p.effective_uid)
        if qpi is not None and qpi.gating_plugin:
            del queue.unschedulable[p.effective_uid]
            qpi.gating_plugin = ""
            queue.active.append(qpi)
    sched.update_pod = update


_TWO_GATES = [{"name": "example.com/wait"}, {"name": "example.com/also"}]


def _one_gate_removed() -> Scenario:
    """Pod p carries two scheduling gates; at 1 s an update removes one: it stays gated (Probe0 at PreFilter
    would show an attempt)."""
    sc = timeline_scenario([{"when": 1, **UNGATE, "patch": {"spec": {"schedulingGates": GATE}}}],
                           workload=[_with_spec(pod("p"), schedulingGates=_TWO_GATES)])
    return Scenario.from_dict({**sc.to_dict(), "config": config({"preFilter": ["Probe0"]}, defaults=True)})


def _postfilter_nomination_binds(sched: Scheduler) -> None:
    """A PostFilter Success that nominates a node schedules the pod there in the same attempt (Reserve,
    Permit, binding) instead of ending it with the FitError."""
    from reference.scheduler.schedule_one import CycleFailure, ScheduleResult
    algo = sched.algorithm
    original = algo.schedule_pod

    def schedule(fw, state, pod):
        try:
            return original(fw, state, pod)
        except CycleFailure as failure:
            if failure.fit_error is None or not fw.has_post_filter_plugins():
                raise
            statuses = failure.fit_error.diagnosis.node_to_status
            result, status = fw.run_post_filter_plugins(state, pod, statuses)
            host = result.nominating_info.nominated_node_name if result and result.nominating_info else ""
            if status.is_success() and host:
                return ScheduleResult(host, 1, 1)
            fw.run_post_filter_plugins = _once(fw, (result, status))
            raise
    algo.schedule_pod = schedule


def _once(fw: Framework, answer) -> Callable:
    """The framework's PostFilter, answering its next call with `answer` (already computed) only."""
    original = type(fw).run_post_filter_plugins.__get__(fw)

    def run(*call):
        fw.run_post_filter_plugins = original
        return answer
    return run


# --- PreFilterResult names unknown to the snapshot -------------------------------------------------------

def _unknown_names(fw: Framework, result) -> set[str]:
    known = {n.name for n in fw.snapshot().node_info_list}
    return set(result.node_names) - known if result is not None and not result.all_nodes() else set()


def _unknown_result_names_fail(fw: Framework) -> None:
    """A PreFilterResult naming a node the snapshot lacks fails the cycle as an error instead of dropping
    the name."""
    def check(out, state, pod):
        result, status, with_nodes = out
        unknown = _unknown_names(fw, result)
        if status.is_success() and unknown:
            error = f"nodeinfo not found for node name {sorted(unknown)[0]!r}"
            return result, Status.as_status(error), with_nodes
        return out
    _override(fw, "run_pre_filter_plugins", check)


def _unknown_result_name_empties_result(fw: Framework) -> None:
    """A PreFilterResult naming a node the snapshot lacks loses every name, the known ones too."""
    from dataclasses import replace as replaced

    def empty(out, state, pod):
        result, status, with_nodes = out
        if _unknown_names(fw, result):
            result = replaced(result, node_names=frozenset())
        return result, status, with_nodes
    _override(fw, "run_pre_filter_plugins", empty)


# --- the nominated node first ----------------------------------------------------------------------------

def _no_nominated_fast_path(sched: Scheduler) -> None:
    """A nominated pod is filtered on every node at once: its nominated node is not tried alone first."""
    sched.algorithm._evaluate_nominated_node = lambda fw, state, pod, snapshot, diagnosis: []


def _nomination_trusted(sched: Scheduler) -> None:
    """A nominated pod's nominated node is taken as feasible without running Filter on it."""
    def evaluate(fw, state, pod, snapshot, diagnosis):
        info = snapshot.get(pod.nominated_node_name)
        return [info] if info is not None else []
    sched.algorithm._evaluate_nominated_node = evaluate


def _created_nominated(script: dict) -> Callable[[], Scenario]:
    """One pod created nominated to node-1 (status.nominatedNodeName), Probe0 everywhere with `script`."""
    def build() -> Scenario:
        nominated = pod(probes=script)
        nominated["status"] = {"nominatedNodeName": "node-1"}
        return scenario([nominated], nodes=TWO_NODES, cfg=config())
    return build


# --- host selection: round robin, ties ---------------------------------------------------------------------

def _start_index_fixed(sched: Scheduler) -> None:
    """Filtering always starts at the first node: nextStartNodeIndex never moves."""
    algo = sched.algorithm
    original = algo.find_nodes_that_fit_pod

    def find(*call):
        try:
            return original(*call)
        finally:
            algo.next_start_node_index = 0
    algo.find_nodes_that_fit_pod = find


def _start_index_one_too_far(sched: Scheduler) -> None:
    """nextStartNodeIndex moves one node further than the nodes processed."""
    algo = sched.algorithm
    original = algo.find_nodes_that_fit_pod

    def find(fw, state, pod, snapshot):
        try:
            return original(fw, state, pod, snapshot)
        finally:
            if len(snapshot):
                algo.next_start_node_index = (algo.next_start_node_index + 1) % len(snapshot)
    algo.find_nodes_that_fit_pod = find


def _ties_to_first_node(sched: Scheduler) -> None:
    """Ties among the best-scored nodes go to the first of them, never at random."""
    sched.algorithm.random.choice = lambda seq: seq[0]


def _near_ties_broken_at_random(sched: Scheduler) -> None:
    """Nodes within 10 points of the best total count as tied with it and may be chosen at random."""
    algo = sched.algorithm
    original = algo.prioritize_nodes

    def prioritize(*call):
        scores = original(*call)
        best = max(s.total for s in scores)
        for s in scores:
            if s.total >= best - 10:
                s.total = best
        return scores
    algo.prioritize_nodes = prioritize


# No scoring: one feasible node is enough.
_FILTER_ONLY = config({"preFilter": ["Probe0"], "filter": ["Probe0"]})


def _two_pods_no_scoring() -> Scenario:
    """Two pods, two nodes, no Score plugin: each attempt keeps the first feasible node it finds."""
    return scenario([pod("pod-0"), pod("pod-1")], nodes=TWO_NODES, cfg=_FILTER_ONLY)


def _near_tie_witness() -> Scenario:
    """Four nodes; Probe0 scores node-0 100 and the others 95: node-0 is the one best."""
    return scenario([pod(probes={"Probe0": {"Score": {"score": 95, "byNode": {"node-0": {"score": 100}}}}})],
                    nodes=tuple(node(f"node-{i}") for i in range(4)), cfg=config())


# --- waiting pods through the handle ---------------------------------------------------------------------

def _waiting_pods_not_found(fw: Framework) -> None:
    """GetWaitingPod finds no waiting pod: a plugin's Allow or Reject never reaches the pod it waits for."""
    fw.get_waiting_pod = lambda uid: None


def _waiting_pod_found_for_any_uid(fw: Framework) -> None:
    """GetWaitingPod of a pod no longer waiting answers with another waiting pod (the first in the map)."""
    def get(uid):
        found = fw.waiting_pods.get(uid)
        if found is not None:
            return found
        others: list = []
        fw.waiting_pods.iterate(others.append)
        return others[0] if others else None
    fw.get_waiting_pod = get


def _waits(timeout: str, signal: str, after: str) -> dict:
    """Probe0 waits at Permit for `timeout`; its signal comes `after` the Permit call."""
    then = {"signal": signal, "after": after}
    return {"Probe0": {"Permit": {"code": "Wait", "timeout": timeout, "then": then}}}


def _waiting_witness(*scripts: dict) -> Callable[[], Scenario]:
    return lambda: scenario([pod(f"pod-{i}", probes=s) for i, s in enumerate(scripts)], nodes=TWO_NODES,
                            cfg=config())


# --- PreEnqueue: the gating plugin first ---------------------------------------------------------------

def _gating_plugin_not_first(sched: Scheduler) -> None:
    """PreEnqueue always runs in profile order, forgetting which plugin gated the pod last."""
    original = sched.queue._pre_enqueue
    sched.queue._pre_enqueue = lambda pod, gating_plugin="": original(pod, "")


def _gating_plugin_alone(sched: Scheduler) -> None:
    """When the plugin that gated the pod admits it now, the pod is admitted without the other plugins."""
    original = sched.queue._pre_enqueue

    def pre_enqueue(pod, gating_plugin=""):
        fw = sched.frameworks.get(pod.scheduler_name)
        gate = next((pl for pl in fw.pre_enqueue_plugins if pl.name == gating_plugin), None) if fw else None
        if gate is not None:
            return (True, "") if gate.pre_enqueue(pod).is_success() else (False, gate.name)
        return original(pod, gating_plugin)
    sched.queue._pre_enqueue = pre_enqueue


def _gated_then_event() -> Scenario:
    """Probe1 gates the pod at PreEnqueue; at 1 s a node is created, which runs PreEnqueue again."""
    gated = pod(probes={"Probe1": {"PreEnqueue": {"code": "Unschedulable"}}})
    return Scenario.from_dict({"config": config({"preEnqueue": ["Probe0", "Probe1"], "preFilter": ["Probe0"]}),
                               "nodes": [node()], "workload": [gated],
                               "timeline": [{"when": 1, "op": "create", "object": node("node-1")}]})


def _gates_removed_then_probes() -> Scenario:
    """The pod is gated by SchedulingGates (before the PreEnqueue probes) until its gate is removed at 1 s."""
    sc = timeline_scenario([{"when": 1, **UNGATE}], workload=[_with_spec(pod("p"), schedulingGates=GATE)])
    cfg = config({"preEnqueue": ["Probe0", "Probe1"], "preFilter": ["Probe0"]}, defaults=True)
    return Scenario.from_dict({**sc.to_dict(), "config": cfg})


# --- QueueSort ------------------------------------------------------------------------------------------

def _queue_sort_only_in_first_profile(sched: Scheduler) -> None:
    """Only the first profile's framework holds a QueueSort plugin (the queue sorts by it alone)."""
    for fw in list(sched.frameworks.values())[1:]:
        fw.queue_sort_plugins = []


def _queue_sort_twice(sched: Scheduler) -> None:
    """Each framework holds its QueueSort plugin twice, as if multiPoint had added it again."""
    for fw in sched.frameworks.values():
        fw.queue_sort_plugins = [*fw.queue_sort_plugins, *fw.queue_sort_plugins]


# --- pods being deleted ----------------------------------------------------------------------------------

def _deleting_pods_scheduled(sched: Scheduler) -> None:
    """The scheduler reads no deletionTimestamp: a pod being deleted is scheduled like any other."""
    from dataclasses import replace as replaced
    original = sched.store.get_pod

    def get(uid):
        found = original(uid)
        return replaced(found, deletion_timestamp=None) if found is not None else None
    sched.store.get_pod = get


def _deleting_pods_requeued(sched: Scheduler) -> None:
    """A pod being deleted is skipped with its event, then backed off and retried instead of dropped."""
    original = sched._schedule_one

    def schedule_one(qpi):
        original(qpi)
        stored = sched.store.get_pod(qpi.pod.effective_uid)
        deleting = stored is not None and stored.deletion_timestamp is not None
        if deleting and qpi.attempts <= sched.max_attempts:
            qpi.consecutive_errors_count += 1
            qpi.timestamp = sched.clock.now()
            sched.queue._move_to_backoff(qpi)
    sched._schedule_one = schedule_one


def _deleting_witness() -> Scenario:
    """Pod p is being deleted (metadata.deletionTimestamp) when the scheduler sees it; pod q is not."""
    deleting = pod("p", probes={})
    deleting["metadata"]["deletionTimestamp"] = "2024-01-01T00:00:00Z"
    return scenario([deleting, pod("q")], cfg=config({"preEnqueue": ["Probe0"], "preFilter": ["Probe0"]},
                                                     defaults=True))


# --- Filter errors' messages ----------------------------------------------------------------------------

def _recoded_filter_errors(change: Callable[[str], str]) -> Callable[[Framework], None]:
    """The framework's Filter errors with their message passed through `change`."""
    def patch(fw: Framework) -> None:
        def recode(s, *call):
            return Status.as_status(change(s.message())).with_plugin(s.plugin) if s.code is Code.ERROR else s
        _override(fw, "run_filter_plugins", recode)
    return patch


def _nil_wrap_as_none(message: str) -> str:
    """Go's rendering of a nil error under %w (`%!w(<nil>)`) written as Python's `None`."""
    return message.replace("%!w(<nil>)", "None")


def _errors_nil_wrapped(message: str) -> str:
    """Every Filter error's text lost, as if the plugin's error were nil."""
    head, sep, _ = message.partition(" filter plugin: ")
    return f"{head}{sep}%!w(<nil>)" if sep else message


# --- the two Filter passes with nominated pods, on cloned state ----------------------------------------

def _nominated_second_pass_skipped(fw: Framework) -> None:
    """Filtering with nominated pods added is the only pass: a node is feasible without the second pass
    that leaves them out."""
    def run(state, pod, node_info):
        added = fw._add_nominated_pods(pod, state, node_info)
        if isinstance(added, Status):
            return added
        _, state_to_use, info_to_use = added
        return fw.run_filter_plugins(state_to_use, pod, info_to_use)
    fw.run_filter_plugins_with_nominated_pods = run


def _nominated_pods_added_in_place(fw: Framework) -> None:
    """AddPod adds the nominated pods to the cycle's own CycleState and NodeInfo, not to clones: the second
    pass, meant to run without them, still sees them."""
    def add(pod, state, node_info):
        added = False
        for pi in fw.nominator.nominated_pods_for_node(node_info.name):
            outranks = pi.pod.effective_priority >= pod.effective_priority
            if outranks and pi.pod.effective_uid != pod.effective_uid:
                node_info.add_pod(pi)
                s = fw.run_pre_filter_extension_add_pod(state, pod, pi, node_info)
                if not s.is_success():
                    return Status.as_status(s.as_error() or "")
                added = True
        return added, state, node_info
    fw._add_nominated_pods = add


def _cloned_without_nominated_pods(fw: Framework) -> None:
    """Filtering runs on clones of the CycleState and NodeInfo even when no nominated pod is added."""
    original = fw._add_nominated_pods

    def add(pod, state, node_info):
        added = original(pod, state, node_info)
        if isinstance(added, Status) or added[0]:
            return added
        return False, state.clone(), node_info.clone()
    fw._add_nominated_pods = add


def _lower_priority_nominated_added(fw: Framework) -> None:
    """Filtering adds every pod nominated to the node, of lower priority too."""
    def add(pod, state, node_info):
        nominated = fw.nominator.nominated_pods_for_node(node_info.name)
        if not any(pi.pod.effective_uid != pod.effective_uid for pi in nominated):
            return False, state, node_info
        info_out, state_out = node_info.clone(), state.clone()
        for pi in nominated:
            if pi.pod.effective_uid != pod.effective_uid:
                info_out.add_pod(pi)
                s = fw.run_pre_filter_extension_add_pod(state_out, pod, pi, info_out)
                if not s.is_success():
                    return Status.as_status(s.as_error() or "")
        return True, state_out, info_out
    fw._add_nominated_pods = add


def _lower_priority_nominated_witness() -> Scenario:
    """pod-0 (priority 0) fits nowhere and its PostFilter nominates node-0; at 1 s pod-1 (priority 100) is
    created: filtering it adds no pod (AddPod is not called)."""
    lo = pod("pod-0", priority=0, probes={"Probe0": {"Filter": {"code": "Unschedulable"},
                                                     "PostFilter": {"nominate": "node-0"}}})
    created = {"when": 1, "op": "create", "object": pod("pod-1", priority=100)}
    return Scenario.from_dict({"config": config(), "nodes": list(TWO_NODES), "workload": [lo],
                               "timeline": [created]})


def _nominated_affinity_witness() -> Scenario:
    """pod-1 (priority 100) fits nowhere and its PostFilter nominates node-0; pod-0 requires a pod labelled
    app=x (pod-1's label) on its node: only the pass with pod-1 added passes, so pod-0 stays pending."""
    hi = pod("pod-1", priority=100, probes={"Probe0": {"Filter": {"code": "Unschedulable"},
                                                       "PostFilter": {"nominate": "node-0"}}})
    hi["metadata"]["labels"] = {"app": "x"}
    term = {"labelSelector": {"matchLabels": {"app": "x"}}, "topologyKey": "kubernetes.io/hostname"}
    lo = _with_spec(pod("pod-0", priority=0), affinity={"podAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": [term]}})
    post_filter = {"disabled": [{"name": "DefaultPreemption"}], "enabled": [{"name": "Probe0"}]}
    cfg = config({"preFilter": ["Probe0"], "filter": ["Probe0"], "postFilter": post_filter}, defaults=True)
    return scenario([hi, lo], nodes=TWO_NODES, cfg=cfg)


NEW_RULE_MUTANTS_H32C: list[RuleMutant] = [
    RuleMutant("feasible-nodes-not-capped", _feasible_nodes_not_capped),
    RuleMutant("no-scoring-with-prioritizers", _no_scoring_with_prioritizers),
    RuleMutant("update-ungates", _update_ungates),
    RuleMutant("postfilter-nomination-binds", _postfilter_nomination_binds),
    RuleMutant("unknown-result-names-fail", _each_framework(_unknown_result_names_fail)),
    RuleMutant("unknown-result-name-empties-result", _each_framework(_unknown_result_name_empties_result)),
    RuleMutant("nominated-second-pass-skipped", _each_framework(_nominated_second_pass_skipped)),
    RuleMutant("nominated-pods-added-in-place", _each_framework(_nominated_pods_added_in_place)),
    RuleMutant("cloned-without-nominated-pods", _each_framework(_cloned_without_nominated_pods)),
    RuleMutant("lower-priority-nominated-added", _each_framework(_lower_priority_nominated_added)),
    RuleMutant("no-nominated-fast-path", _no_nominated_fast_path),
    RuleMutant("nomination-trusted", _nomination_trusted),
    RuleMutant("start-index-fixed", _start_index_fixed),
    RuleMutant("start-index-one-too-far", _start_index_one_too_far),
    RuleMutant("ties-to-first-node", _ties_to_first_node),
    RuleMutant("near-ties-broken-at-random", _near_ties_broken_at_random),
    RuleMutant("waiting-pods-not-found", _each_framework(_waiting_pods_not_found)),
    RuleMutant("waiting-pod-found-for-any-uid", _each_framework(_waiting_pod_found_for_any_uid)),
    RuleMutant("gating-plugin-not-first", _gating_plugin_not_first),
    RuleMutant("gating-plugin-alone", _gating_plugin_alone),
    RuleMutant("queue-sort-only-in-first-profile", _queue_sort_only_in_first_profile),
    RuleMutant("queue-sort-twice", _queue_sort_twice),
    RuleMutant("deleting-pods-scheduled", _deleting_pods_scheduled),
    RuleMutant("deleting-pods-requeued", _deleting_pods_requeued),
    RuleMutant("nil-wrap-as-none", _each_framework(_recoded_filter_errors(_nil_wrap_as_none))),
    RuleMutant("filter-errors-nil-wrapped", _each_framework(_recoded_filter_errors(_errors_nil_wrapped))),
]

_UNKNOWN_NAME = _probes({"Probe0": {"PreFilter": {"result": ["node-0", "node-9"]}}}, nodes=TWO_NODES)

WITNESSES_H32C: dict[str, Callable[[], Scenario]] = {
    "feasible-nodes-not-capped": lambda: scenario(
        [pod()], nodes=_many_nodes(), cfg=config({"preFilter": ["Probe0"], "filter": ["Probe0"],
                                                  "score": ["Probe0"]})),
    "no-scoring-with-prioritizers": _extenders(_PRIORITIES, *_PRIORITIZERS),
    "update-ungates": _one_gate_removed,
    "postfilter-nomination-binds": _probes({"Probe0": {"Filter": {"code": "Unschedulable"},
                                                       "PostFilter": {"nominate": "node-0"}}}),
    "unknown-result-names-fail": _UNKNOWN_NAME,
    "unknown-result-name-empties-result": _UNKNOWN_NAME,
    "nominated-second-pass-skipped": _nominated_affinity_witness,
    "nominated-pods-added-in-place": _nominated_affinity_witness,
    # Filter is the first probe point: its cycle mark, written into a clone, is lost before Reserve.
    "cloned-without-nominated-pods": lambda: scenario(
        [pod()], nodes=TWO_NODES, cfg=config({"filter": ["Probe0"], "reserve": ["Probe1"]})),
    "lower-priority-nominated-added": _lower_priority_nominated_witness,
    "no-nominated-fast-path": _created_nominated(
        {"Probe0": {"Score": {"byNode": {"node-0": {"score": 50}}}}}),
    "nomination-trusted": _created_nominated(
        {"Probe0": {"Filter": {"byNode": {"node-1": {"code": "Unschedulable"}}}}}),
    "start-index-fixed": _two_pods_no_scoring,
    "start-index-one-too-far": _two_pods_no_scoring,
    "ties-to-first-node": lambda: scenario([pod(f"pod-{i}") for i in range(4)], nodes=TWO_NODES,
                                           cfg=config()),
    "near-ties-broken-at-random": _near_tie_witness,
    "waiting-pods-not-found": _waiting_witness(_waits("10s", "allow", "1s")),
    "waiting-pod-found-for-any-uid": _waiting_witness(_waits("1s", "reject", "2s"),
                                                      _waits("5s", "allow", "3s")),
    "gating-plugin-not-first": _gated_then_event,
    "gating-plugin-alone": _gates_removed_then_probes,
    "queue-sort-only-in-first-profile": _two_profiles("other-scheduler"),
    "queue-sort-twice": _probes({}),
    "deleting-pods-scheduled": _deleting_witness,
    "deleting-pods-requeued": _deleting_witness,
    "nil-wrap-as-none": _probes({"Probe0": {"Filter": {"code": "Skip"}}}),
    "filter-errors-nil-wrapped": _probes({"Probe0": {"Filter": {"code": "Error", "reasons": ["boom"]}}}),
}

__all__ = ["NEW_RULE_MUTANTS_H32C", "WITNESSES_H32C"]
