"""PreScore, Score, NormalizeScore, weights and host selection."""

from __future__ import annotations

from ..recipes.first_pod import node_scores, prescore_skip, some_nodes_rejected, weighted_scores
from ..recipes.situations import Situation
from .base import invariant
from .filtering import filtering_phase, prefilter_result
from .run import Run

MAX_NODE_SCORE = 100
SCORING_POINTS = ("PreScore", "Score", "NormalizeScore")


def feasible_upper_bound(run: Run, pod: str, attempt: int) -> set[str]:
    """Nodes not excluded by the PreFilterResults nor rejected by a probe while filtering."""
    allowed = prefilter_result(run, pod, attempt)
    nodes = set(run.node_names) if allowed is None else set(run.node_names) & allowed
    rejected = {r["node"] for r in filtering_phase(run, pod, attempt) if r.get("code") != "Success"}
    for r in run.extender_records(pod, "filter", attempt):
        rejected |= set(r.get("failed") or ()) | set(r.get("unresolvable") or ())
    return nodes - rejected


@invariant("one-feasible-node-no-scoring",
           "With exactly one feasible node there are no PreScore, Score or extender prioritize calls.",
           "schedule_one.go schedulePod: `if len(feasibleNodes) == 1` (spec §2.8)",
           rules=("one-feasible-no-scoring",))
def one_feasible_no_scoring(run: Run) -> None:
    for pod in run.live_pods:
        for attempt in run.attempts(pod):
            if len(feasible_upper_bound(run, pod, attempt)) != 1:
                continue
            if run.probes_at(pod, "score") or run.probes_at(pod, "preScore") or any(
                    e.prioritize_verb for e in run.config.extenders):
                run.exercise()
            scored = [r for r in run.probe_records(pod, attempt) if r["point"] in SCORING_POINTS]
            if scored:
                raise run.violation("scoring ran with a single feasible node", pod=pod,
                                    plugin=scored[0]["plugin"], records=tuple(scored[:4]))


@invariant("prescore-skip-pairing", "A plugin that returned Skip at PreScore is not called at Score or "
           "NormalizeScore in that cycle.", "framework.go RunPreScorePlugins / RunScorePlugins (spec §2.7)",
           situation=Situation(
               {"preScore": ["Probe0", "Probe1"], "score": ["Probe0", "Probe1"]}, prescore_skip, min_nodes=2, weight=2),
           rules=("code-matrix-prescore-score", "prescore-skip"))
def prescore_skip_pairing(run: Run) -> None:
    for pod in run.live_pods:
        for attempt in run.attempts(pod):
            skipped = {r["plugin"] for r in run.records(pod, attempt, "PreScore") if r.get("code") == "Skip"}
            if skipped & set(run.probes_at(pod, "score")):
                run.exercise()
            for r in run.probe_records(pod, attempt):
                if r["plugin"] in skipped and r["point"] in ("Score", "NormalizeScore"):
                    raise run.violation(f"{r['plugin']} returned Skip at PreScore but was "
                                        f"called at {r['point']}", pod=pod, plugin=r["plugin"], status="Skip", records=(r,))


def normalized_scores(run: Run, pod: str, attempt: int) -> dict[str, dict[str, int]]:
    """Per scoring probe, node -> its final score in the attempt (after NormalizeScore where it has one)."""
    out: dict[str, dict[str, int]] = {}
    for r in run.records(pod, attempt, "Score"):
        out.setdefault(r["plugin"], {})[r["node"]] = r.get("score", 0)
    for r in run.records(pod, attempt, "NormalizeScore"):
        out[r["plugin"]] = dict(r.get("scores") or {})
    return out


@invariant("score-range-enforced", "A Score plugin whose final score leaves [0, 100] fails the attempt: no "
           "Reserve, no binding; final scores within [0, 100] (bounds included) fail nothing.",
           "framework.go RunScorePlugins (spec §2.8, §11.4)",
           situation=Situation(
               {"score": ["Probe0", "Probe1"]}, min_nodes=2,
               seed=lambda draw, nodes: (
                   {"Probe0": {"Score": node_scores(draw, nodes, (-1, 101, 2 ** 40, 50, 100))}}, {})),
           rules=("score-range",))
def score_range_enforced(run: Run) -> None:
    for pod in run.live_pods:
        for attempt in run.attempts(pod):
            normalized = normalized_scores(run, pod, attempt)
            _check_in_range_goes_on(run, pod, attempt, normalized)
            for plugin, scores in normalized.items():
                bad = {n: s for n, s in scores.items() if not 0 <= s <= MAX_NODE_SCORE}
                if not bad:
                    continue
                run.exercise()
                later = [r for r in run.probe_records(pod, attempt) if r["point"] in ("Reserve", "Permit", "Bind")]
                if later or run.final_attempt_bound(pod, attempt):
                    raise run.violation(f"{plugin} scored outside [0, 100] but the attempt "
                                        "went on", pod=pod, plugin=plugin, expected="a scheduler error",
                                        actual=f"scores {bad}", records=tuple(later[:2]))


def _check_in_range_goes_on(run: Run, pod: str, attempt: int, normalized: dict[str, dict[str, int]]) -> None:
    """The pod's last attempt scored within [0, 100] without a failing probe, and then nothing happened
    and it ended in an error: the range check rejected a legal score (issue 32: a bound of 99 was missed).
    Only in probe-only profiles, where no other plugin can fail after scoring, and in virtual time."""
    if not normalized or "virtual-time" not in run.capabilities or run.attempts(pod)[-1] != attempt:
        return
    result = run.outcome.pods.get(pod)
    others = {p for point in ("reserve", "permit", "preBind", "bind", "postBind")
              for p in run.plugins_at(pod, point) if not p.startswith("Probe")} - {"DefaultBinder"}
    if result is None or result.phase != "error" or others:
        return
    records = run.probe_records(pod, attempt)
    last = max(i for i, r in enumerate(records) if r["point"] in ("Score", "NormalizeScore"))
    failed = any(r.get("code") not in (("Success", "Skip") if r["point"] == "PreScore" else ("Success",))
                 for r in records if r["point"] in ("PreScore", "Score", "NormalizeScore"))
    if any(r["point"] != "PreEnqueue" for r in records[last + 1:]) or failed:  # PreEnqueue: the next try
        return
    if all(0 <= s <= MAX_NODE_SCORE for scores in normalized.values() for s in scores.values()):
        run.exercise()
        raise run.violation("every final score is within [0, 100], yet the attempt failed right after "
                            "scoring", pod=pod, expected="the attempt goes on to Reserve",
                            actual="a scheduler error",
                            records=tuple(records[max(0, last - 3):last + 1]))


@invariant("chosen-node-has-max-score",
           "The chosen node has the maximum weighted total score: sum of weight x final score over Score plugins "
           "plus weight x 10 x extender score.", "schedule_one.go prioritizeNodes / selectHost (spec §2.8, §2.9)",
           requires=("probes",),
           situation=Situation(
               {"score": ["Probe0", "Probe1"]}, weighted_scores, min_nodes=2, weights={"Probe1": (2, 5, 10)}),
           rules=("weighted-sum-max", "extender-score-scale", "score-weight-zero-is-one"))
def chosen_node_has_max_score(run: Run) -> None:
    for pod in run.live_pods:
        score_plugins = run.plugins_at(pod, "score")
        if not score_plugins or not all(p.startswith("Probe") for p in score_plugins):
            continue  # in-tree scores are not traced: only probe-scored profiles are checked
        for attempt in run.attempts(pod):
            chosen = run.chosen_node(pod, attempt)
            scores = normalized_scores(run, pod, attempt)
            nodes = set().union(*scores.values()) if scores else set()
            if chosen is None or chosen not in nodes:
                continue
            totals = {n: sum(run.weight(pod, p) * s.get(n, 0) for p, s in scores.items()) for n in nodes}
            for r in run.extender_records(pod, "prioritize", attempt):
                ext = next((e for e in run.config.extenders if e.url_prefix.rstrip("/").endswith("/" + r.get(
                    "extender", ""))), None)
                weight = ext.weight if ext is not None else 1
                for n, s in (r.get("scores") or {}).items():
                    if n in totals:
                        totals[n] += s * weight * 10
            best = max(totals.values())
            if len(set(totals.values())) > 1:
                run.exercise()
            if totals[chosen] != best:
                raise run.violation(f"node {chosen} was chosen with total "
                                    f"{totals[chosen]} but the best total is {best}", pod=pod,
                                    expected=sorted(n for n, t in totals.items() if t == best), actual=chosen,
                                    records=tuple(run.records(pod, attempt, "Score"))[:8])


@invariant("score-calls-complete",
           "When an attempt scores, every Score plugin not skipped at PreScore is called once per feasible node, "
           "the same nodes for every plugin and none a filter rejected; NormalizeScore runs once per plugin with "
           "score extensions, after that plugin's Score calls.",
           "framework.go RunScorePlugins; schedule_one.go prioritizeNodes (spec §2.8)",
           situation=Situation(
               {"preFilter": ["Probe0"], "filter": ["Probe0"], "preScore": ["Probe1"], "score": ["Probe1", "Probe2"]},
               some_nodes_rejected, min_nodes=3, max_nodes=4, score_extensions=("Probe2",)),
           rules=("score-per-feasible-node", "normalize-iff-extensions"))
def score_calls_complete(run: Run) -> None:
    for pod in run.live_pods:
        for attempt in run.attempts(pod):
            scores = run.records(pod, attempt, "Score")
            if not scores:
                _check_scored_at_all(run, pod, attempt)
                continue
            _check_score_calls(run, pod, attempt, scores)


def _check_scored_at_all(run: Run, pod: str, attempt: int) -> None:
    """PreScore ran and the attempt went on to Reserve, so it scored: a Score plugin not skipped at
    PreScore must have been called (issue 32: a scheduler dropping every probe's Score was missed)."""
    prescore = run.records(pod, attempt, "PreScore")
    if not prescore or run.chosen_node(pod, attempt) is None:
        return
    skipped = {r["plugin"] for r in prescore if r.get("code") == "Skip"}
    missing = [p for p in run.probes_at(pod, "score") if p not in skipped]
    if missing:
        raise run.violation(f"{missing[0]} was not called at Score although the attempt scored and it did "
                            f"not skip at PreScore (attempt {attempt})", pod=pod, plugin=missing[0],
                            expected="a Score call per feasible node", actual="none", records=tuple(prescore))


def _check_score_calls(run: Run, pod: str, attempt: int, scores: list) -> None:
    skipped = {r["plugin"] for r in run.records(pod, attempt, "PreScore") if r.get("code") == "Skip"}
    expected = [p for p in run.probes_at(pod, "score") if p not in skipped]
    upper = feasible_upper_bound(run, pod, attempt)
    per_plugin: dict[str, list[str]] = {}
    for r in scores:
        nodes = per_plugin.setdefault(r["plugin"], [])
        if r["node"] in nodes or r["node"] not in upper:
            raise run.violation(f"{r['plugin']} scored node {r['node']} "
                                f"{'twice' if r['node'] in nodes else 'although a filter rejected it'} (attempt {attempt})",
                                pod=pod, plugin=r["plugin"], expected=sorted(upper), actual=r["node"], records=(r,))
        nodes.append(r["node"])
    if any(r.get("code") != "Success" for r in scores):
        return  # a Score error cancels the other nodes' scoring
    run.exercise()
    node_sets = {p: set(per_plugin.get(p, ())) for p in expected}
    first = next(iter(node_sets.values()), set())
    for plugin, nodes in node_sets.items():
        if nodes != first:
            raise run.violation(f"Score plugins were called on different nodes (attempt "
                                f"{attempt})", pod=pod, plugin=plugin, expected=sorted(first), actual=sorted(nodes),
                                records=tuple(scores[:8]))
    normalize = run.records(pod, attempt, "NormalizeScore")
    if any(r.get("code") != "Success" for r in normalize):
        return  # a failing NormalizeScore may cancel the others
    for plugin in expected:
        calls = [r for r in normalize if r["plugin"] == plugin]
        want = 1 if run.score_extensions(pod, plugin) else 0
        if len(calls) != want or (calls and calls[0]["seq"] < max(r["seq"] for r in scores if r["plugin"] == plugin)):
            raise run.violation(f"{plugin} was normalized {len(calls)} time(s)"
                                f"{' before its last Score call' if len(calls) == want else ''} (attempt {attempt})",
                                pod=pod, plugin=plugin, expected=f"{want} NormalizeScore call(s) after Score",
                                actual=len(calls), records=tuple(calls))

