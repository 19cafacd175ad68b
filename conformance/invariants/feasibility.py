"""How many nodes filtering evaluates (below 100 nodes, every node the PreFilterResults allow) and keeps
(at most numFeasibleNodesToFind): every node found feasible is scored."""

from __future__ import annotations

from reference.probe import PROBE_NAMES
from reference.scheduler.schedule_one import num_feasible_nodes_to_find

from ..recipes.first_pod import extender_leaves_two, node_scores
from ..recipes.situations import Situation
from .attempts import may_be_nominated, scoring_failed
from .base import invariant
from .filtering import filtering_phase, prefilter_result, skipped_at_prefilter
from .run import REJECTIONS, Run


@invariant("every-node-evaluated",
           "Below 100 nodes, an attempt that scores filters every node the PreFilterResults allow: "
           "numFeasibleNodesToFind is then the number of nodes, so filtering never stops at the first "
           "feasible ones.",
           "schedule_one.go numFeasibleNodesToFind, findNodesThatPassFilters (spec §2.10)",
           situation=Situation({"filter": ["Probe0"], "score": ["Probe0"]},
                               lambda draw, nodes: ({"Probe0": {"Score": node_scores(draw, nodes, (0, 50))}},
                                                    {}),
                               min_nodes=2),
           rules=("num-feasible-nodes-to-find", "prefilter-result-unknown-names",
                  "first-feasible-without-scoring"))
def every_node_evaluated(run: Run) -> None:
    if run.scenario.timeline or len(run.node_names) >= 100:
        return  # nodes come and go under a timeline; 100 nodes and more are sampled upstream
    for pod in run.live_pods:
        filters, scorers = run.plugins_at(pod, "filter"), run.plugins_at(pod, "score")
        if not filters or not scorers or not all(p.startswith("Probe") for p in filters):
            continue  # a non-probe Filter plugin may reject a node before any probe sees it
        for attempt in run.attempts(pod):
            _check_attempt(run, pod, attempt, filters)


def _check_attempt(run: Run, pod: str, attempt: int, filters: list[str]) -> None:
    records = run.records(pod, attempt, "Filter")
    first = next((p for p in filters if p not in skipped_at_prefilter(run, pod, attempt)), None)
    if first is None or may_be_nominated(run, pod, attempt):
        return  # every Filter probe skipped, or a nominated node tried alone first
    if not records and not _prefilter_passed(run, pod, attempt):
        return  # rejected at PreFilter (or an AddPod failed)
    if any(r.get("code") not in ("Success", *REJECTIONS) for r in records):
        return  # a Filter error stops the evaluation
    allowed = prefilter_result(run, pod, attempt)
    expected = set(run.node_names) if allowed is None else set(run.node_names) & allowed
    seen = {r.get("node") for r in records if r["plugin"] == first}
    if len(expected) > 1:
        run.exercise()
    missing = sorted(expected - seen)
    if missing:
        raise run.violation(f"filtering stopped before node {missing[0]} (attempt {attempt})", pod=pod,
                            plugin=first, expected=sorted(expected), actual=sorted(seen),
                            records=tuple(records[:6]))


def _prefilter_passed(run: Run, pod: str, attempt: int) -> bool:
    """Every PreFilter plugin is a probe, and each passed (Success or Skip) in the attempt, as did every
    AddPod call: filtering is then owed on the nodes the PreFilterResults name that exist (unknown names
    are dropped, schedule_one.go findNodesThatFitPod)."""
    if not all(p in PROBE_NAMES for p in run.plugins_at(pod, "preFilter")):
        return False
    records = run.probe_records(pod, attempt)
    prefilter = [r for r in records if r["point"] == "PreFilter"]
    return bool(prefilter) and all(r.get("code") in ("Success", "Skip") for r in prefilter) and all(
        r.get("code") == "Success" for r in records if r["point"] == "AddPod")


@invariant("feasible-nodes-capped",
           "An attempt scores at most numFeasibleNodesToFind nodes: every node below 100, else the profile's "
           "(or the global) percentageOfNodesToScore of them (adaptive when 0), and at least 100.",
           "schedule_one.go numFeasibleNodesToFind, findNodesThatPassFilters (spec §2.10)",
           rules=("num-feasible-nodes-to-find",))
def feasible_nodes_capped(run: Run) -> None:
    if run.outcome.timeline or len(run.node_names) < 100:
        return  # below 100 nodes every node may be feasible; under a timeline nodes come and go
    for pod in run.live_pods:
        profile = run.profiles.get(run.profile_of(pod))
        if profile is None:
            continue
        percentage = profile.percentage_of_nodes_to_score
        if percentage is None:
            percentage = run.config.percentage_of_nodes_to_score or 0
        cap = num_feasible_nodes_to_find(percentage, len(run.node_names))
        for attempt in run.attempts(pod):
            scored: dict[str, set[str]] = {}
            for r in run.records(pod, attempt, "Score"):
                scored.setdefault(r["plugin"], set()).add(r["node"])
            if scored:
                run.exercise()
            for plugin, nodes in scored.items():
                if len(nodes) > cap:
                    raise run.violation(f"{plugin} scored {len(nodes)} nodes (attempt {attempt}), more than "
                                        f"numFeasibleNodesToFind", pod=pod, plugin=plugin,
                                        expected=f"at most {cap} of {len(run.node_names)} nodes",
                                        actual=len(nodes))


@invariant("nominated-node-tried-first",
           "A pod created nominated to a node (status.nominatedNodeName) filters that node alone first in "
           "its first attempt; when it passes every Filter plugin there, no other node is filtered or scored "
           "and the pod is placed on it.",
           "schedule_one.go findNodesThatFitPod, evaluateNominatedNode; schedulePod "
           "(`len(feasibleNodes) == 1`) (spec §2.5)",
           rules=("nominated-node-fast-path",))
def nominated_node_tried_first(run: Run) -> None:
    # On a cluster the API server drops a created pod's status; under a timeline or faults nodes come and go.
    if "virtual-time" not in run.capabilities or run.outcome.timeline or run.outcome.faults \
            or any(e.filter_verb for e in run.config.extenders):
        return
    for pod in run.live_pods:
        node = run.pod_objects[pod].nominated_node_name
        filters = [p for p in run.plugins_at(pod, "filter") if p not in skipped_at_prefilter(run, pod, 1)]
        if node not in run.node_names or not filters or not all(p in PROBE_NAMES for p in filters) \
                or not _prefilter_passed(run, pod, 1):
            continue
        run.exercise()
        records = run.records(pod, 1, "Filter")
        first = next((r for r in records if r.get("node") != node), None)
        on_node = [r for r in records if r.get("node") == node and (first is None or r["seq"] < first["seq"])]
        if not on_node:
            raise run.violation(f"the pod was created nominated to {node}, but attempt 1 did not filter it "
                                "first", pod=pod, expected=f"Filter on {node} first",
                                actual=first.get("node") if first else "no Filter call",
                                records=tuple(records[:3]))
        passed = {r["plugin"] for r in on_node if r.get("code") == "Success"} >= set(filters) and all(
            r.get("code") == "Success" for r in on_node)
        scored = run.records(pod, 1, "Score")
        chosen = run.chosen_node(pod, 1)
        if passed and (first is not None or scored or (chosen is not None and chosen != node)):
            raise run.violation(f"{node}, the pod's nominated node, passed every Filter plugin, but "
                                "attempt 1 went on to other nodes", pod=pod,
                                expected=f"{node} alone, unscored",
                                actual=chosen, records=tuple(r for r in (first, *scored[:1]) if r))


_FILTER_VERDICTS = ("Success", "Unschedulable", "UnschedulableAndUnresolvable")


def certainly_feasible(run: Run, pod: str, attempt: int) -> set[str] | None:
    """The nodes that surely passed every Filter plugin and extender filter in the attempt; None where the
    trace cannot tell: a plugin at PreFilter or Filter that is not a probe, an error while filtering, a
    cluster the timeline or a fault changed, no record of an extender's answer, or (without Filter probes)
    a pod that may be nominated, which upstream tries on its nominated node alone first."""
    if len(run.node_names) >= 100 or run.outcome.timeline or run.outcome.faults \
            or run.outcome.exchanges:
        return None
    if not all(p in PROBE_NAMES for point in ("preFilter", "filter") for p in run.plugins_at(pod, point)):
        return None
    records = run.probe_records(pod, attempt)
    if any(r.get("code") not in ("Success", "Skip") for r in records if r["point"] == "PreFilter") or any(
            r.get("code") != "Success" for r in records if r["point"] == "AddPod"):
        return None
    phase = filtering_phase(run, pod, attempt)
    if any(r.get("code") not in _FILTER_VERDICTS for r in phase):
        return None
    allowed = prefilter_result(run, pod, attempt)
    candidates = set(run.node_names) if allowed is None else set(run.node_names) & allowed
    skipped = skipped_at_prefilter(run, pod, attempt)
    filters = {p for p in run.probes_at(pod, "filter") if p not in skipped}
    if filters:
        feasible = {n for n in candidates if filters <= {r["plugin"] for r in phase if r["node"] == n}
                    and all(r.get("code") == "Success" for r in phase if r["node"] == n)}
    elif not may_be_nominated(run, pod, attempt):
        feasible = candidates
    else:
        return None
    if any(e.filter_verb for e in run.config.extenders):
        if not run.probes_at(pod, "preFilter"):
            return None  # the attempt's extender calls cannot be told apart from the previous attempt's
        for r in run.extender_records(pod, "filter", attempt):
            if r.get("code") != "Success":
                return None
            feasible -= set(r.get("failed") or ()) | set(r.get("unresolvable") or ())
    return feasible


@invariant("feasible-nodes-scored",
           "An attempt with two or more feasible nodes scores them: every Score plugin not skipped at "
           "PreScore is called on each node that passed every Filter plugin and extender filter; in any "
           "attempt that scored, on the chosen node at least.",
           "schedule_one.go schedulePod (`len(feasibleNodes) == 1`), findNodesThatFitPod, "
           "findNodesThatPassExtenders, prioritizeNodes; framework.go RunScorePlugins "
           "(spec §2.5, §2.8, §4.5)",
           situation=Situation(
               {"preFilter": ["Probe0"], "filter": ["Probe0"], "preScore": ["Probe1"],
                "score": ["Probe1", "Probe2"]},
               extender_leaves_two, min_nodes=3, max_nodes=4, extenders=({"filterVerb": "filter"},)),
           rules=("score-per-feasible-node", "chosen-node-feasible", "extender-filter-after-plugins"))
def feasible_nodes_scored(run: Run) -> None:
    for pod in run.live_pods:
        for attempt in run.attempts(pod):
            if scoring_failed(run, pod, attempt):
                continue  # a failure while scoring cancels the rest
            records = run.probe_records(pod, attempt)
            skipped = {r["plugin"] for r in records if r["point"] == "PreScore" and r.get("code") == "Skip"}
            expected = [p for p in run.probes_at(pod, "score") if p not in skipped]
            scored: dict[str, set[str]] = {p: set() for p in expected}
            for r in records:
                if r["point"] == "Score" and r["plugin"] in scored:
                    scored[r["plugin"]].add(r["node"])
            chosen = run.chosen_node(pod, attempt)
            if chosen is not None and any(scored.values()):
                _expect_scored(run, pod, attempt, scored, {chosen}, "the chosen node")
            feasible = certainly_feasible(run, pod, attempt)
            if expected and feasible is not None and len(feasible) > 1:
                run.exercise()
                _expect_scored(run, pod, attempt, scored, feasible, f"one of {len(feasible)} feasible nodes")


def _expect_scored(run: Run, pod: str, attempt: int, scored: dict[str, set[str]], nodes: set[str],
                   what: str) -> None:
    for plugin, done in scored.items():
        missing = sorted(nodes - done)
        if missing:
            raise run.violation(f"{plugin} did not score {missing[0]} ({what}, attempt {attempt})",
                                pod=pod, plugin=plugin, expected=sorted(nodes), actual=sorted(done),
                                records=tuple(r for r in run.probe_records(pod, attempt)
                                              if r["point"] in ("Filter", "Score"))[:8])
