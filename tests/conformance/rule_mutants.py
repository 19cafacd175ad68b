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
from reference.scenario import Scenario
from reference.scheduler.scheduler import Scheduler
from reference.status import SUCCESS, Code, Status

from .hard_mutants import HARD_MUTANTS
from .invariants._kit import config, node, pod, scenario
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

# The mutants of the other modules; their own tests search for them with the invariant each names.
OLDER_MUTANTS: list[Mutant] = MUTANTS + HARD_MUTANTS + UNSEEN_MUTANTS

ALL_HOOKS: dict[str, Callable[[Scheduler], None]] = {m.name: m.hook for m in OLDER_MUTANTS + RULE_MUTANTS}

__all__ = ["ALL_HOOKS", "OLDER_MUTANTS", "RULE_MUTANTS", "RuleMutant", "WITNESSES"]
