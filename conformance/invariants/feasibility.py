"""How many nodes filtering evaluates: below 100 nodes, every node the PreFilterResults allow."""

from __future__ import annotations

from ..recipes.first_pod import node_scores
from ..recipes.situations import Situation
from .attempts import may_be_nominated
from .base import invariant
from .filtering import prefilter_result, skipped_at_prefilter
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
           rules=("num-feasible-nodes-to-find",))
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
    if not records or first is None or may_be_nominated(run, pod, attempt):
        return  # rejected at PreFilter, or a nominated node tried alone first
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
