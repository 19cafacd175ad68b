"""The framework's rules on the plugins it really runs: the user's plugins and the in-tree ones.

These read `observed` (docs/scenario.md): every call of the configured non-probe plugins, recorded by
the upstream runner around the plugin itself. A probe-based invariant sees what the framework did to
probes; these see what a real plugin answered and what the framework then did with it, and name
that plugin. Calls of one scheduling cycle share an `attempt`; Filter runs again on cloned state in
the same cycle (nominated pods' two passes, preemption's dry runs), so a pass is a run of calls in
configured order.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Iterable, Mapping

from reference.interfaces import MAX_NODE_SCORE, MIN_NODE_SCORE
from reference.probe import PROBE_NAMES

from .base import invariant
from .run import Record, Run

REQUIRES = ("observed-plugins",)
# The codes each point defines for a plugin (kube-scheduler/framework interface.go, and what
# framework.go does with each: spec §1.2). Anything else the framework turns into an Error.
_REJECT = {"Unschedulable", "UnschedulableAndUnresolvable", "Pending"}
LEGAL_CODES: Mapping[str, frozenset[str]] = {
    "PreEnqueue": frozenset({"Success", "Error"} | _REJECT),
    "PreFilter": frozenset({"Success", "Skip", "Error", "Unschedulable", "UnschedulableAndUnresolvable"}),
    "AddPod": frozenset({"Success", "Error"}),
    "RemovePod": frozenset({"Success", "Error"}),
    "Filter": frozenset({"Success", "Error"} | _REJECT),
    "PostFilter": frozenset({"Success", "Error"} | _REJECT),
    "PreScore": frozenset({"Success", "Skip", "Error"}),
    "Score": frozenset({"Success", "Error"}),
    "NormalizeScore": frozenset({"Success", "Error"}),
    "Reserve": frozenset({"Success", "Error"} | _REJECT),
    "Permit": frozenset({"Success", "Wait", "Error"} | _REJECT),
    "PreBindPreFlight": frozenset({"Success", "Skip", "Error"}),
    "PreBind": frozenset({"Success", "Error"} | _REJECT),
    "Bind": frozenset({"Success", "Skip", "Error"} | _REJECT),
}


def cycles(run: Run) -> dict[tuple[str, int], list[Record]]:
    """(pod, attempt) -> the observed calls of that scheduling cycle, in call order."""
    out: dict[tuple[str, int], list[Record]] = defaultdict(list)
    for r in sorted(run.outcome.observed, key=lambda r: r["seq"]):
        if r.get("attempt", 0) > 0:
            out[(r["pod"], r["attempt"])].append(r)
    return out


def _at(records: Iterable[Record], *points: str) -> list[Record]:
    return [r for r in records if r.get("point") in points]


def _first_difference(expected: list[str], actual: list[str]) -> str:
    """The plugin at the first place where the two orders differ."""
    for want, got in zip(expected, actual):
        if want != got:
            return got
    longer = expected if len(expected) > len(actual) else actual
    return longer[min(len(expected), len(actual))] if len(expected) != len(actual) else ""


def observed_order(run: Run, pod: str, point: str) -> list[str]:
    """The configured plugins at `point` for the pod's profile that the runner observes, in order."""
    return [n for n in run.plugins_at(pod, point) if n not in PROBE_NAMES]


@invariant("observed-legal-codes",
           "Every plugin answers each extension point only with a status code the framework defines there "
           "(e.g. no Skip from Filter or Score, no Wait outside Permit).",
           "kube-scheduler/framework interface.go (per-point contracts); framework.go Run*Plugins (spec §1.2)",
           requires=REQUIRES,
           rules=("legal-codes",))
def observed_legal_codes(run: Run) -> None:
    for r in run.outcome.observed:
        legal = LEGAL_CODES.get(r.get("point", ""))
        if legal is None or "code" not in r:
            continue
        run.exercise()
        if r["code"] not in legal:
            raise run.violation(f"{r['plugin']} answered {r['point']} with {r['code']}, which "
                                f"the framework does not define there (it becomes an Error)", pod=r["pod"],
                                plugin=r["plugin"], status=r["code"], expected=sorted(legal), actual=r["code"],
                                records=(r,))


@invariant("observed-score-range",
           "Every Score plugin's score for a node is in [0, 100] once normalized (its NormalizeScore output, or "
           "its Score when it has no ScoreExtensions).",
           "framework.go RunScorePlugins (applying score weights: 'should in the range of [0, 100] after "
           "normalizing'); interface.go ScorePlugin (spec §2.8)", requires=REQUIRES,
           rules=("score-range",))
def observed_score_range(run: Run) -> None:
    for (pod, attempt), records in cycles(run).items():
        final: dict[str, dict[str, int]] = defaultdict(dict)
        for r in _at(records, "Score"):
            if r.get("code") == "Success" and "score" in r:
                final[r["plugin"]][r["node"]] = r["score"]
        for r in _at(records, "NormalizeScore"):
            if r.get("code") == "Success":
                final[r["plugin"]] = dict(r.get("scores") or {})
        for plugin, scores in final.items():
            run.exercise()
            bad = {n: s for n, s in scores.items() if not MIN_NODE_SCORE <= s <= MAX_NODE_SCORE}
            if bad:
                raise run.violation(f"{plugin} scored outside [0, 100] after normalizing "
                                    f"(attempt {attempt}); the framework fails the cycle with an Error", pod=pod,
                                    plugin=plugin, expected="0 <= score <= 100", actual=bad,
                                    records=tuple(r for r in records if r["plugin"] == plugin))


@invariant("observed-filter-stops-at-rejection",
           "On a node, no Filter plugin runs after one that did not return Success in the same pass.",
           "framework.go RunFilterPlugins (spec §1.2, §2.5)", requires=REQUIRES,
           rules=("code-matrix-filter", "filter-short-circuit"))
def observed_filter_stops(run: Run) -> None:
    for (pod, attempt), records in cycles(run).items():
        order = {name: i for i, name in enumerate(observed_order(run, pod, "filter"))}
        by_node: dict[str, list[Record]] = defaultdict(list)
        for r in _at(records, "Filter"):
            by_node[r.get("node", "")].append(r)
        for node, calls in by_node.items():
            if any(r.get("code") != "Success" for r in calls):
                run.exercise()
            for before, after in zip(calls, calls[1:]):
                if before.get("code") == "Success":
                    continue
                # A new pass (cloned state: nominated pods, a preemption dry run) starts from the front.
                if order.get(after["plugin"], -1) > order.get(before["plugin"], -1):
                    raise run.violation(f"{after['plugin']} filtered {node} after {before['plugin']} answered "
                                        f"{before['code']} (attempt {attempt})", pod=pod, plugin=after["plugin"],
                                        status=before["code"], records=(before, after))


@invariant("observed-skip-honoured",
           "A plugin whose PreFilter returned Skip gets no Filter call in that cycle; one whose PreScore returned "
           "Skip gets no Score call.",
           "framework.go RunPreFilterPlugins / RunFilterPlugins (SkipFilterPlugins), RunPreScorePlugins / "
           "RunScorePlugins (SkipScorePlugins) (spec §1.2, §2.3, §2.7)", requires=REQUIRES,
           rules=("code-matrix-prescore-score", "prefilter-skip", "prescore-skip"))
def observed_skip_honoured(run: Run) -> None:
    for (pod, attempt), records in cycles(run).items():
        for pre, point in (("PreFilter", "Filter"), ("PreScore", "Score")):
            skipped = {r["plugin"] for r in _at(records, pre) if r.get("code") == "Skip"}
            if not skipped:
                continue
            run.exercise()
            ran = [r for r in _at(records, point) if r["plugin"] in skipped]
            if ran:
                raise run.violation(f"{ran[0]['plugin']} returned Skip at {pre} but its "
                                    f"{point} ran (attempt {attempt})", pod=pod, plugin=ran[0]["plugin"],
                                    status="Skip", records=tuple(ran[:3]))


@invariant("observed-score-feasible-only",
           "Score runs only on nodes every Filter plugin accepted in that cycle.",
           "schedule_one.go schedulePod / prioritizeNodes (spec §2.5, §2.8)", requires=REQUIRES,
           rules=("score-per-feasible-node",))
def observed_score_feasible_only(run: Run) -> None:
    for (pod, attempt), records in cycles(run).items():
        scored = _at(records, "Score")
        if not scored:
            continue
        run.exercise()
        rejected = {r["node"]: r for r in _at(records, "Filter") if r.get("code") != "Success"}
        wrong = [r for r in scored if r.get("node") in rejected]
        if wrong:
            r = wrong[0]
            raise run.violation(f"{r['plugin']} scored {r['node']}, which "
                                f"{rejected[r['node']]['plugin']} had rejected (attempt {attempt})", pod=pod,
                                plugin=rejected[r["node"]]["plugin"], records=(rejected[r["node"]], r))


@invariant("observed-postfilter-only-when-infeasible",
           "PostFilter runs only in a cycle where no node was feasible (no Reserve), and stops at the first "
           "plugin answering anything but Unschedulable or Pending.",
           "schedule_one.go schedulingCycle; framework.go RunPostFilterPlugins (spec §1.2, §2.6)", requires=REQUIRES,
           rules=("code-matrix-postfilter", "postfilter-only-on-fit-error"))
def observed_postfilter(run: Run) -> None:
    for (pod, attempt), records in cycles(run).items():
        post = _at(records, "PostFilter")
        if not post:
            continue
        run.exercise()
        reserved = _at(records, "Reserve")
        if reserved:
            raise run.violation(f"PostFilter ran in attempt {attempt}, "
                                f"which also reserved a node", pod=pod, plugin=post[0]["plugin"],
                                records=(post[0], reserved[0]))
        for before, after in zip(post, post[1:]):
            if before.get("code") not in ("Unschedulable", "Pending"):
                raise run.violation(f"{after['plugin']}'s PostFilter ran after {before['plugin']} answered "
                                    f"{before['code']} (attempt {attempt})", pod=pod, plugin=after["plugin"],
                                    status=before["code"], records=(before, after))


@invariant("observed-unreserve-reverse-order",
           "When a cycle fails after Reserve started, every Reserve plugin's Unreserve runs once, in reverse "
           "configured order; a cycle that binds runs no Unreserve.",
           "framework.go RunReservePluginsUnreserve; schedule_one.go (spec §2.12, §3)", requires=REQUIRES,
           rules=("unreserve-all-reverse",))
def observed_unreserve(run: Run) -> None:
    all_cycles = cycles(run)
    last = {pod: attempt for pod, attempt in sorted(all_cycles)}
    for (pod, attempt), records in all_cycles.items():
        result = run.outcome.pods.get(pod)
        if attempt == last[pod] and (result is None or result.phase in ("waiting", "pending")):
            continue  # the deadline cut this cycle short
        unreserves = [r["plugin"] for r in _at(records, "Unreserve")]
        bound = any(r.get("code") == "Success" for r in _at(records, "Bind"))
        if not unreserves and not bound:
            continue
        run.exercise()
        expected = [] if bound else list(reversed(observed_order(run, pod, "reserve")))
        if unreserves != expected:
            what = "Unreserve ran in a cycle that bound" if bound else \
                "Unreserve did not run once per Reserve plugin in reverse order"
            raise run.violation(f"{what} (attempt {attempt})", pod=pod,
                                plugin=_first_difference(expected, unreserves), expected=expected,
                                actual=unreserves, records=tuple(_at(records, "Reserve", "Unreserve")))


@invariant("observed-bind-first-non-skip",
           "Bind plugins are tried in configured order, each only after the previous one returned Skip.",
           "framework.go RunBindPlugins (spec §1.2, §2.16)", requires=REQUIRES,
           rules=("code-matrix-binding", "bind-first-non-skip"))
def observed_bind_first_non_skip(run: Run) -> None:
    for (pod, attempt), records in cycles(run).items():
        calls = _at(records, "Bind")
        if not calls:
            continue
        run.exercise()
        order = observed_order(run, pod, "bind")
        names = [r["plugin"] for r in calls]
        # Observed binders are a prefix of the configured ones (a probe between two may stop the chain).
        if names != order[:len(names)] or any(r.get("code") != "Skip" for r in calls[:-1]):
            stop = next((r for r in calls[:-1] if r.get("code") != "Skip"), None)
            raise run.violation(f"Bind plugins ran out of turn (attempt {attempt})",
                                pod=pod, plugin=calls[-1]["plugin"], status=stop.get("code") if stop else "",
                                expected=order, actual=[(r["plugin"], r.get("code")) for r in calls], records=tuple(calls))


@invariant("observed-bind-success-binds",
           "A Bind plugin that returns Success has bound the pod: the API server holds a binding of the pod to "
           "that node (the framework trusts it and reports the pod scheduled).",
           "kube-scheduler/framework interface.go BindPlugin ('Bind plugins are used to bind a pod to a Node'); "
           "schedule_one.go bind/finishBinding (spec §2.16)", requires=REQUIRES,
           rules=("bind-success-binds",))
def observed_bind_success_binds(run: Run) -> None:
    bound = {(b.get("pod"), b.get("node")) for b in run.outcome.bindings}
    for (pod, attempt), records in cycles(run).items():
        for r in _at(records, "Bind"):
            if r.get("code") != "Success":
                continue
            run.exercise()
            if (pod, r.get("node")) not in bound:
                raise run.violation(f"{r['plugin']} returned Success from Bind to "
                                    f"{r.get('node')} (attempt {attempt}), but the pod was never bound there",
                                    pod=pod, plugin=r["plugin"], expected=f"a binding of {pod} to {r.get('node')}",
                                    actual=[b for b in run.outcome.bindings if b.get("pod") == pod], records=(r,))
