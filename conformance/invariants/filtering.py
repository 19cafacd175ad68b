"""PreFilter, Filter, PostFilter, gates and CycleState."""

from __future__ import annotations

import re

from reference.config.points import implements
from reference.plugins import in_tree_registry
from reference.probe import PROBE_NAMES

from ..recipes.first_pod import (filter_rejections, node_scores, nominated_first, pick, postfilter_answer,
                                 retried, some)
from ..recipes.constrained import Constrained
from ..recipes.situations import Situation
from .base import invariant
from .cluster import WALL_CLOCK_SLACK
from .run import Record, Run, cut_short, order_index

REJECTED = ("Unschedulable", "UnschedulableAndUnresolvable")  # the codes a PreFilter rejects with

_FILTER_PLACES = {"preFilter": ["Probe0"], "filter": ["Probe0", "Probe1"], "postFilter": ["Probe1"],
                  "reserve": ["Probe1"]}

# RemovePod too: only preemption calls it, and its dry runs (Filter after removing the victims) follow it.
# A probe placed after untraced PostFilter plugins (DefaultPreemption) records those dry runs before its
# own PostFilter record.
AFTER_FILTERING = ("PostFilter", "PreScore", "Score", "NormalizeScore", "Reserve", "RemovePod")


def filtering_phase(run: Run, pod: str, attempt: int) -> list[Record]:
    """The attempt's Filter records made while looking for feasible nodes (before PostFilter or scoring)."""
    out = []
    for r in run.probe_records(pod, attempt):
        if r["point"] in AFTER_FILTERING:
            break
        if r["point"] == "Filter":
            out.append(r)
    return out


def prefilter_result(run: Run, pod: str, attempt: int) -> set[str] | None:
    """The intersection of the probes' PreFilterResults in the attempt; None when none restricted."""
    result: set[str] | None = None
    for r in run.records(pod, attempt, "PreFilter"):
        if "result" in r and r.get("code") == "Success":
            result = set(r["result"]) if result is None else result & set(r["result"])
    return result


def skipped_at_prefilter(run: Run, pod: str, attempt: int) -> set[str]:
    return {r["plugin"] for r in run.records(pod, attempt, "PreFilter") if r.get("code") == "Skip"}


@invariant("filter-short-circuit",
           "For each node, no Filter plugin runs after an earlier one in the same pass rejected the node.",
           "framework.go RunFilterPlugins (spec §1.2, §2.5)",
           situation=Situation(
               {"filter": ["Probe0", "Probe1", "Probe2"]}, min_nodes=2,
               seed=lambda draw, nodes: ({pick(draw, ("Probe0", "Probe1")): {"Filter": filter_rejections(draw, nodes)}},
                                         {})),
           rules=("code-matrix-filter", "filter-short-circuit"))
def filter_short_circuit(run: Run) -> None:
    for pod in run.live_pods:
        order = order_index(run.probes_at(pod, "filter"))
        for attempt in run.attempts(pod):
            last_reject: dict[str, Record] = {}
            for r in run.records(pod, attempt, "Filter"):
                node, idx = r.get("node"), order.get(r["plugin"], -1)
                prev = last_reject.pop(node, None)
                if prev is not None and idx > order.get(prev["plugin"], -1):
                    raise run.violation(f"{r['plugin']} filtered node {node} after {prev['plugin']} rejected it",
                                        pod=pod, plugin=r["plugin"], status=prev.get("code"), records=(prev, r))
                if r.get("code") != "Success":
                    last_reject[node] = r
                    if idx < len(order) - 1:
                        run.exercise()  # a later Filter probe could have run on the node


@invariant("prefilter-skip-pairing",
           "A plugin that returned Skip at PreFilter is not called at Filter, AddPod or RemovePod in that cycle.",
           "framework.go RunPreFilterPlugins / RunFilterPlugins (SkipFilterPlugins) (spec §2.3)",
           situation=Situation(
               {"preFilter": ["Probe0", "Probe1"], "filter": ["Probe0", "Probe1"]},
               lambda draw, nodes: ({pick(draw, ("Probe0", "Probe1")): {"PreFilter": {"code": "Skip"}}}, {})),
           rules=("code-matrix-prefilter", "prefilter-skip", "add-remove-pod-skip"))
def prefilter_skip_pairing(run: Run) -> None:
    for pod in run.live_pods:
        for attempt in run.attempts(pod):
            skipped = skipped_at_prefilter(run, pod, attempt)
            if skipped & set(run.probes_at(pod, "filter")):
                run.exercise()
            for r in run.probe_records(pod, attempt):
                if r["plugin"] in skipped and r["point"] in ("Filter", "AddPod", "RemovePod"):
                    raise run.violation(f"{r['plugin']} returned Skip at PreFilter but was called at {r['point']}",
                                        pod=pod, plugin=r["plugin"], status="Skip", records=(r,))


@invariant("prefilter-result-restricts",
           "Filter runs, and a node is chosen, only within the intersection of the PreFilterResults.",
           "schedule_one.go findNodesThatFitPod (spec §2.3)",
           situation=Situation(
               {"preFilter": ["Probe0"], "filter": ["Probe1"]}, min_nodes=2,
               seed=lambda draw, nodes: ({"Probe0": {"PreFilter": {"result": some(draw, nodes, max_size=len(nodes) - 1)}}},
                                         {})),
           rules=("prefilter-result-intersection",))
def prefilter_result_restricts(run: Run) -> None:
    for pod in run.live_pods:
        for attempt in run.attempts(pod):
            allowed = prefilter_result(run, pod, attempt)
            if allowed is None:
                continue
            if set(run.node_names) - allowed:
                run.exercise()
            for r in run.records(pod, attempt, "Filter"):
                if r.get("node") not in allowed:
                    raise run.violation(f"node {r.get('node')} was filtered although the "
                                        "PreFilterResults exclude it", pod=pod, plugin=r["plugin"],
                                        expected=sorted(allowed), actual=r.get("node"), records=(r,))
            chosen = run.chosen_node(pod, attempt)
            if chosen is not None and chosen not in allowed:
                raise run.violation(f"node {chosen} was chosen outside the PreFilterResults",
                                    pod=pod, expected=sorted(allowed), actual=chosen)


@invariant("chosen-node-passed-filters",
           "The chosen node passed every Filter plugin that ran on it and every extender filter.",
           "schedule_one.go findNodesThatPassFilters / findNodesThatPassExtenders (spec §11.1)",
           situation=Situation(
               {"filter": ["Probe0"], "score": ["Probe1"]}, min_nodes=2,
               seed=lambda draw, nodes: ({"Probe0": {"Filter": filter_rejections(draw, nodes)},
                                          "Probe1": {"Score": node_scores(draw, nodes, (0, 100, 50))}}, {})),
           rules=("chosen-node-feasible",))
def chosen_node_passed_filters(run: Run) -> None:
    for pod in run.live_pods:
        for attempt in run.attempts(pod):
            chosen = run.chosen_node(pod, attempt)
            if chosen is None:
                continue
            skipped = skipped_at_prefilter(run, pod, attempt)
            phase = filtering_phase(run, pod, attempt)
            if any(r.get("code") != "Success" for r in phase):
                run.exercise()  # some node was rejected, so the choice mattered
            records = [r for r in phase if r.get("node") == chosen]
            for r in records:
                if r.get("code") != "Success":
                    raise run.violation(f"node {chosen} was chosen although "
                                        f"{r['plugin']} rejected it", pod=pod, plugin=r["plugin"], status=r.get("code"),
                                        records=(r,))
            ran = {r["plugin"] for r in records}
            missing = [p for p in run.probes_at(pod, "filter") if p not in skipped and p not in ran]
            if missing:
                raise run.violation(f"node {chosen} was chosen without running Filter "
                                    f"plugin {missing[0]} on it", pod=pod, plugin=missing[0],
                                    expected=run.probes_at(pod, "filter"), actual=sorted(ran))


@invariant("postfilter-only-without-feasible-node",
           "PostFilter runs only when no node is feasible, and stops at the first Success or "
           "UnschedulableAndUnresolvable; it runs after a PreFilter rejection too.",
           "schedule_one.go schedulingCycle (PostFilter on any FitError), findNodesThatFitPod (a PreFilter "
           "rejection is a FitError); framework.go RunPostFilterPlugins (spec §2.6)",
           situation=Situation(_FILTER_PLACES, lambda draw, nodes: ({
               "Probe0": {"Filter": filter_rejections(draw, nodes)},
               "Probe1": {"PostFilter": postfilter_answer(draw, nodes)}}, {})),
           rules=("code-matrix-postfilter", "postfilter-only-on-fit-error", "postfilter-loop",
                  "prefilter-rejection-no-filter"))
def postfilter_gating(run: Run) -> None:
    for pod in run.live_pods:
        for attempt in run.attempts(pod):
            records = run.probe_records(pod, attempt)
            post = [r for r in records if r["point"] == "PostFilter"]
            if not post:
                _expect_postfilter(run, pod, attempt, records)
                continue
            run.exercise()
            later = [r for r in records if r["point"] in ("PreScore", "Score", "Reserve", "Permit")]
            if later:
                raise run.violation("PostFilter ran in an attempt that found a "
                                    "feasible node", pod=pod, plugin=post[0]["plugin"], records=(post[0], later[0]))
            for i, r in enumerate(post[:-1]):
                if r.get("code") in ("Success", "UnschedulableAndUnresolvable"):
                    raise run.violation(f"PostFilter continued after "
                                        f"{r['plugin']} returned {r.get('code')}", pod=pod, plugin=post[i + 1]["plugin"],
                                        status=r.get("code"), records=tuple(post))


def _expect_postfilter(run: Run, pod: str, attempt: int, records: list[Record]) -> None:
    """When probes rejected every node in the filtering phase and the first PostFilter plugin is a probe,
    that probe must have been called."""
    post_plugins = run.plugins_at(pod, "postFilter")
    if not post_plugins or not post_plugins[0].startswith("Probe"):
        return
    rejection = _prefilter_rejection(run, pod, records)
    if rejection is not None and not cut_short(run, pod, attempt):
        raise run.violation(f"PreFilter rejected the pod ({rejection['plugin']} returned "
                            f"{rejection['code']}) but PostFilter did not run", pod=pod,
                            plugin=post_plugins[0], status=rejection["code"],
                            expected="a PostFilter call", actual="none", records=(rejection,))
    if any(r["point"] == "PreFilter" and r.get("code") not in ("Success", "Skip") for r in records):
        return
    phase = filtering_phase(run, pod, attempt)
    rejected = {r["node"] for r in phase if r.get("code") in ("Unschedulable", "UnschedulableAndUnresolvable")}
    errored = any(r.get("code") == "Error" for r in phase)
    allowed = prefilter_result(run, pod, attempt)
    candidates = set(run.node_names) if allowed is None else set(run.node_names) & allowed
    if phase and not errored and candidates and candidates <= rejected:
        raise run.violation("every node was rejected but PostFilter did not run",
                            pod=pod, plugin=post_plugins[0], expected="a PostFilter call", actual="none",
                            records=tuple(phase))


def _prefilter_rejection(run: Run, pod: str, records: list[Record]) -> Record | None:
    """The PreFilter rejection that ended the attempt in a FitError, when the trace shows that no error
    followed it: an UnschedulableAndUnresolvable (it stops the loop), or an Unschedulable after which every
    PreFilter plugin is a probe that neither failed nor erred."""
    prefilter = [r for r in records if r["point"] == "PreFilter"]
    if any(r.get("code") not in ("Success", "Skip", *REJECTED) for r in prefilter):
        return None
    rejected = next((r for r in prefilter if r.get("code") in REJECTED), None)
    if rejected is None or rejected["code"] == "UnschedulableAndUnresolvable":
        return rejected
    plugins = run.plugins_at(pod, "preFilter")
    later = plugins[plugins.index(rejected["plugin"]) + 1:] if rejected["plugin"] in plugins else [""]
    traced = {r["plugin"] for r in prefilter}
    return rejected if all(p.startswith("Probe") and p in traced for p in later) else None


def _ungated_at(run: Run, pod: str) -> float | None:
    """When an applied timeline event removed the pod's last scheduling gate; None if it kept one."""
    if not run.outcome.timeline or not run.cluster.changed:
        return None
    cluster = run.cluster
    if ((cluster.pod(cluster.final(), pod) or {}).get("spec") or {}).get("schedulingGates"):
        return None
    k = cluster.released(pod)
    return cluster.times[k] if k > 0 else None


@invariant("gated-pods-never-prefiltered", "A pod with scheduling gates never reaches PreFilter and stays gated "
           "(until a timeline event removes its last gate; on a wall clock, until a little before).",
           "scheduling_queue.go runPreEnqueuePlugins; schedulinggates plugin (spec §2.1)",
           situation=Situation({"preFilter": ["Probe0"]}, lambda draw, nodes: ({}, {}),
                               keep=("SchedulingGates",), gated=True),
           focus={"points": ("PreFilter",), "gates": True},
           rules=("gates-never-prefiltered", "gates-removed-requeues"))
def gated_never_prefiltered(run: Run) -> None:
    for pod, obj in run.pod_objects.items():
        if not obj.scheduling_gates or "SchedulingGates" not in run.plugins_at(pod, "preEnqueue"):
            continue
        run.exercise()
        records = run.outcome.calls(pod=pod, point="PreFilter")
        ungated = _ungated_at(run, pod)
        if ungated is not None:  # a timeline event removed its last gate: the rule holds until then
            # On a wall clock the record may arrive before the event's time is taken (after its write).
            slack = 0.0 if "virtual-time" in run.capabilities else WALL_CLOCK_SLACK
            records = [r for r in records if float(r.get("t") or 0.0) < ungated - slack]
        if records:
            raise run.violation("a gated pod reached PreFilter", pod=pod,
                                records=tuple(records[:1]))
        phase = run.outcome.pods.get(pod)
        if ungated is None and phase is not None and phase.phase != "gated":
            raise run.violation("a gated pod was scheduled" if phase.phase in (
                "bound", "unschedulable", "error", "waiting") else "a gated pod is not reported gated", pod=pod,
                expected="gated", actual=phase.phase)


@invariant("cycle-state-fresh", "CycleState written in one scheduling attempt is not visible in the next.",
           "schedule_one.go ScheduleOne: framework.NewCycleState per attempt (spec §9)",
           situation=Situation({"preFilter": ["Probe0"], "filter": ["Probe0"], "reserve": ["Probe0"]}, retried),
           rules=("cycle-state-per-attempt",))
def cycle_state_fresh(run: Run) -> None:
    if any(len({r["attempt"] for r in run.records(pod, point="PreFilter") if "plugin" in r}) > 1 for pod in run.pods):
        run.exercise()  # a second attempt's PreFilter would have seen a leaked mark
    for r in run.outcome.trace:
        if r.get("point") == "PreFilter" and r.get("leaked"):
            raise run.violation("a PreFilter call found its own mark from an earlier attempt in "
                                "the CycleState", pod=r["pod"], plugin=r["plugin"], records=(r,))


# How the stock plugins say that the state they wrote earlier in the attempt is gone ("error reading",
# "reading", "failed to read", "cannot read" ... "from cycleState").
_STATE_MISSING = re.compile(r'\bread(?:ing)? "([^"]+)" from cycleState')
_STATEFUL_POINTS = ("preFilter", "filter", "preScore", "score", "reserve", "permit", "preBind", "bind")


def _writes_what_it_reads(spec, at: dict[str, list[str]]) -> bool:
    """Whether the profile runs the stock plugin at the points that write its state (PreFilter, when it
    runs at any later point; PreScore, when it scores) wherever it implements them."""
    name = spec.name
    later = any(name in plugins for point, plugins in at.items() if point != "preFilter")
    return not (later and implements(spec, "preFilter") and name not in at["preFilter"]) and \
        not (name in at["score"] and implements(spec, "preScore") and name not in at["preScore"])


@invariant("cycle-state-kept-in-attempt",
           "What a plugin wrote into the attempt's CycleState (at PreFilter, PreScore) is there when it "
           "reads it back (Filter, Score): no stock plugin fails an attempt for want of its own state.",
           "schedule_one.go ScheduleOne (one CycleState per attempt, through every point); "
           "noderesources/fit.go getPreFilterState, and the other stock plugins' get*State (spec §9)",
           requires=(), situation=Constrained("resources"),
           rules=("cycle-state-per-attempt",))
def cycle_state_kept_in_attempt(run: Run) -> None:
    registry = in_tree_registry()
    for pod in run.live_pods:
        result = run.outcome.pods.get(pod)
        if result is None or run.profile_of(pod) not in run.profiles:
            continue
        at = {point: run.plugins_at(pod, point) for point in _STATEFUL_POINTS}
        names = {n for plugins in at.values() for n in plugins}
        if any(n not in PROBE_NAMES and registry.get(n) is None for n in names):
            continue  # a user's plugin may delete what another wrote
        if not any(n not in PROBE_NAMES for n in names) or result.phase in ("gated", "pending"):
            continue
        if not all(_writes_what_it_reads(registry.get(n), at) for n in names if n not in PROBE_NAMES):
            continue  # the profile left out a point that writes the state: upstream fails the same way
        run.exercise()  # a stock plugin read back its own state in an attempt
        messages = [str(e.get("message", "")) for e in run.outcome.events
                    if e.get("pod") == pod and e.get("reason") == "FailedScheduling"]
        messages.append(str((result.condition or {}).get("message", "")))
        lost = next((m for m in messages if _STATE_MISSING.search(m)), None)
        if lost is not None:
            key = _STATE_MISSING.search(lost).group(1)
            raise run.violation(f"a stock plugin lost its {key} state within the attempt", pod=pod,
                                expected="its state kept from PreFilter/PreScore on", actual=lost)


@invariant("remove-pod-only-in-preemption",
           "RemovePod runs only in preemption's dry run: an attempt that found a feasible node (it scored or "
           "reserved one) made no RemovePod call; AddPod while filtering adds the nominated pods.",
           "framework.go RunFilterPluginsWithNominatedPods, addGENominatedPods; preemption.go SelectVictimsOnNode "
           "(spec §2.4, §2.5)",
           situation=Situation(
               {p: ["Probe0"] for p in ("preFilter", "filter", "postFilter", "reserve")}, nominated_first, min_pods=2, weight=2),
           rules=("extensions-in-their-phase",))
def remove_pod_only_in_preemption(run: Run) -> None:
    for pod in run.live_pods:
        for attempt in run.attempts(pod):
            records = run.probe_records(pod, attempt)
            feasible = [r for r in records if r["point"] in ("PreScore", "Score", "Reserve")]
            extensions = [r for r in records if r["point"] in ("AddPod", "RemovePod")]
            if not feasible or not extensions:
                continue
            run.exercise()
            removed = [r for r in extensions if r["point"] == "RemovePod"]
            if removed:
                raise run.violation(f"{removed[0]['plugin']}'s RemovePod ran in an "
                                    f"attempt that found a feasible node, so no preemption ran (attempt {attempt})",
                                    pod=pod, plugin=removed[0]["plugin"], expected="AddPod for nominated pods only",
                                    actual="RemovePod", records=(removed[0], feasible[0]))
