"""HTTP extenders: filter, prioritize, errors, and how their scores count.

Extender calls carry no attempt number; an attempt's calls are those between its first probe record
and the next attempt's, which is exact only for pods traced from the start (`traced_from_start`).
Extender scripts are per pod, not per attempt, so an extender gives a pod the same answer for the
same node in every call: checks that need no attempt use every call of the pod.
"""

from __future__ import annotations

import json

from hypothesis import strategies as st

from ..recipes.first_pod import extender_failure, extender_rejections, extender_scores, pick, some
from ..recipes.situations import Situation
from .attempts import (cut_short, extender_config, failure_messages, ignorable, may_be_nominated, reached_reserve,
                       scoring_failed, scripted_failure, traced_from_start)
from .base import invariant
from .filtering import prefilter_result
from .run import Record, Run

EXTENDER_SCORE_SCALE = 10  # MaxNodeScore / MaxExtenderPriority
BINDING_POINTS = ("Reserve", "Unreserve", "Permit", "PreBindPreFlight", "PreBind", "Bind", "PostBind")


def rejected_nodes(record: Record) -> set[str]:
    """Nodes a filter answer removed; an Error answer removes none (it is skipped or fails the attempt)."""
    if record.get("code") != "Success":
        return set()
    return set(record.get("failed") or ()) | set(record.get("unresolvable") or ())


@invariant("extender-filter-respected",
           "A node an extender's filter answer failed for a pod is never chosen for that pod.",
           "schedule_one.go findNodesThatPassExtenders (spec §4.5, §11.1)", requires=("extenders",),
           situation=Situation(
               {"preFilter": ["Probe0"], "reserve": ["Probe0"]}, extender_rejections, min_nodes=2,
               extenders=({"filterVerb": "filter"},), weight=2),
           rules=("chosen-node-feasible", "extender-filter-after-plugins"))
def extender_filter_respected(run: Run) -> None:
    for pod in run.live_pods:
        failed: dict[str, Record] = {}
        for r in run.extender_records(pod, "filter"):
            for node in rejected_nodes(r):
                failed.setdefault(node, r)
        chosen = [(run.chosen_node(pod, a), f"attempt {a} reserved") for a in run.attempts(pod)]
        chosen += [(b["node"], "the pod was bound to") for b in run.bound_in(pod)]
        if failed and any(node is not None for node, _ in chosen):
            run.exercise()
        for node, how in chosen:
            if node in failed:
                r = failed[node]
                raise run.violation(f"{how} node {node}, which {r.get('extender')} failed",
                                    pod=pod, plugin=str(r.get("extender", "")), expected=f"a node other than {node}",
                                    actual=node, records=(r,))


def _error_markers(run: Run, pod: str, records: list[Record]) -> dict[str, Record]:
    """Texts a failure message would contain if one of these erroring calls had failed the pod: the
    URL path `/<extender>/<verb>` of a non-200 answer (upstream: "failed <verb> with extender at URL
    <url>, code <n>"), or the Error field of a 200 answer when no other source gives that text."""
    others = {r.get("error") for r in run.extender_records(pod) if r not in records}
    others |= {reason for r in run.records(pod) if "plugin" in r for reason in r.get("reasons") or ()}
    markers: dict[str, Record] = {}
    for r in records:
        if "status" in r:
            markers[f"/{r.get('extender')}/{r['point'].split('.', 1)[1]}"] = r
        elif r.get("error") and r["error"] not in others:
            markers[r["error"]] = r
    return markers


def _no_message_names(run: Run, pod: str, records: list[Record], what: str) -> None:
    markers = _error_markers(run, pod, records)
    for message in failure_messages(run, pod):
        for marker, r in markers.items():
            if marker in message:
                raise run.violation(f"{what} failed the pod", pod=pod, plugin=str(r.get("extender", "")),
                                    expected=f"no failure message naming {marker!r}", actual=message, records=(r,))


@invariant("ignorable-extender-errors-tolerated",
           "An ignorable extender's errors never fail a pod: the extender is skipped and the attempt goes on "
           "with the nodes it was given.",
           "schedule_one.go findNodesThatPassExtenders / extendersBinding; preemption.go callExtenders "
           "(spec §4.5, §2.16)", requires=("extenders",),
           situation=Situation(
               {"reserve": ["Probe0"]}, extender_failure, min_nodes=2,
               extenders=({"filterVerb": "filter", "prioritizeVerb": "prioritize", "weight": 1, "ignorable": True},)),
           rules=("ignorable-extender",))
def ignorable_extender_errors_tolerated(run: Run) -> None:
    for pod in run.live_pods:
        errors = [r for r in run.extender_records(pod) if r.get("code") == "Error"
                  and ignorable(run, str(r.get("extender", "")))]
        if not errors:
            continue
        run.exercise()
        _no_message_names(run, pod, errors,
                          "an ignorable extender's error")
        if traced_from_start(run, pod):
            for attempt in run.attempts(pod):
                _went_on_after_ignored_filter(run, pod, attempt)


def _went_on_after_ignored_filter(run: Run, pod: str, attempt: int) -> None:
    """When the attempt's last filter answer is an ignorable error on some nodes, those nodes stay
    feasible: no PostFilter, and Reserve runs unless scoring failed."""
    filters = run.extender_records(pod, "filter", attempt)
    if not filters:
        return
    last = filters[-1]
    if last.get("code") != "Error" or not ignorable(run, str(last.get("extender", ""))) or not last.get("nodes"):
        return
    later = [r for r in run.probe_records(pod, attempt) if r["seq"] > last["seq"]]
    post = [r for r in later if r["point"] == "PostFilter"]
    stopped = not post and run.probes_at(pod, "reserve") and not reached_reserve(run, pod, attempt) \
        and not scoring_failed(run, pod, attempt) and not cut_short(run, pod, attempt)
    if post or stopped:
        raise run.violation(f"the attempt stopped after ignorable extender "
                            f"{last.get('extender')} failed to filter {len(last['nodes'])} node(s)", pod=pod,
                            plugin=str(last.get("extender", "")), expected="a feasible node and Reserve",
                            actual="PostFilter" if post else "no Reserve", records=(last, *post[:1]))


@invariant("extender-prioritize-errors-tolerated",
           "Extender prioritize errors never fail an attempt: the extender adds no score and the attempt goes "
           "on to Reserve.", "schedule_one.go prioritizeNodes (spec §2.8, §4.5, §11.19)", requires=("extenders",),
           situation=Situation(
               {"preFilter": ["Probe0"], "reserve": ["Probe0"]},
               lambda draw, nodes: ({}, {"ext-0": {"prioritize": {"error": "extender says no"} if draw(st.booleans())
                                                   else {"status": pick(draw, (500, 404))}}}),
               min_nodes=2, extenders=({"filterVerb": "filter", "prioritizeVerb": "prioritize", "weight": 1},)),
           rules=("prioritize-errors-ignored",))
def extender_prioritize_errors_tolerated(run: Run) -> None:
    for pod in run.live_pods:
        calls = run.extender_records(pod, "prioritize")
        if any(r.get("code") == "Error" for r in calls):
            run.exercise()
        _no_message_names(run, pod,
                          [r for r in calls if r.get("code") == "Error"], "an extender's prioritize error")
        if not calls or not traced_from_start(run, pod) or not run.probes_at(pod, "reserve"):
            continue
        for attempt in run.attempts(pod):
            prioritized = run.extender_records(pod, "prioritize", attempt)
            if prioritized and not reached_reserve(run, pod, attempt) and not cut_short(run, pod, attempt):
                raise run.violation("the attempt stopped after extenders "
                                    "prioritized the nodes", pod=pod, plugin=str(prioritized[0].get("extender", "")),
                                    expected="Reserve", actual="no Reserve", records=tuple(prioritized))


@invariant("extender-scores-scaled",
           "Without Score plugins, every prioritizing extender is asked when two or more nodes are feasible, and "
           "the chosen node has the highest sum of weight x 10 x score over the extenders' prioritize answers "
           "(with probe Score plugins, chosen-node-has-max-score checks the same sum).",
           "schedule_one.go prioritizeNodes / selectHost (spec §2.8, §2.9, §11.19)", requires=("probes", "extenders"),
           situation=Situation(
               {"preFilter": ["Probe0"], "reserve": ["Probe0"]}, extender_scores, min_nodes=2,
               # ext-1 manages a resource no pod requests: it is never asked, and the extenders after it still are.
               extenders=({"prioritizeVerb": "prioritize", "weight": 5},
                          {"prioritizeVerb": "prioritize", "weight": 2, "managedResources": [{"name": "example.com/unused"}]},
                          {"prioritizeVerb": "prioritize", "weight": 1})),
           focus={"points": ("PreFilter", "Reserve"), "extenders": 3, "default_plugins": False,
                               "max_pods": 6},
           rules=("weighted-sum-max", "extender-score-scale"))
def extender_scores_scaled(run: Run) -> None:
    for pod in run.live_pods:
        if run.plugins_at(pod, "score") or not traced_from_start(run, pod):
            continue
        for attempt in run.attempts(pod):
            chosen = run.chosen_node(pod, attempt)
            answers = [r for r in run.extender_records(pod, "prioritize", attempt) if r.get("code") == "Success"]
            calls = run.extender_records(pod, "prioritize", attempt)
            if chosen is not None:
                _prioritizers_asked(run, pod, attempt, calls)
            if chosen is None or not calls or chosen not in calls[0].get("nodes", ()):
                continue
            totals = {n: 0 for n in calls[0]["nodes"]}
            for r in answers:
                ext = extender_config(run, str(r.get("extender", "")))
                weight = ext.weight if ext is not None else 1
                for node, score in (r.get("scores") or {}).items():
                    if node in totals:
                        totals[node] += score * weight * EXTENDER_SCORE_SCALE
            best = max(totals.values())
            if len(set(totals.values())) > 1:
                run.exercise()
            if totals[chosen] != best:
                raise run.violation(f"node {chosen} was chosen with extender total "
                                    f"{totals[chosen]} but the best total is {best}", pod=pod,
                                    expected=sorted(n for n, t in totals.items() if t == best), actual=chosen,
                                    records=tuple(answers))


def _prioritizers_asked(run: Run, pod: str, attempt: int, calls: list[Record]) -> None:
    """With two or more feasible nodes every prioritizing extender is asked. Only where the trace knows
    the feasible nodes: no Filter plugins and no PreFilterResult, so the extenders' filter answers
    decide; and only extenders interested in every pod (no managed resources)."""
    if run.plugins_at(pod, "filter") or prefilter_result(run, pod, attempt) is not None:
        return
    feasible = set(run.node_names)
    for r in run.extender_records(pod, "filter", attempt):
        if r.get("code") != "Success":
            return  # an error: the attempt failed, or an ignorable extender was skipped
        feasible = set(r.get("nodes") or ()) - rejected_nodes(r)
    if len(feasible) < 2:
        return
    asked = {r.get("extender") for r in calls}
    for ext in run.config.extenders:
        name = ext.url_prefix.rstrip("/").rsplit("/", 1)[-1]
        if ext.prioritize_verb and not ext.managed_resources and name not in asked:
            raise run.violation(f"extender {name} was not asked to prioritize although "
                                f"{len(feasible)} nodes were feasible (attempt {attempt})", pod=pod, plugin=name,
                                expected=f"a prioritize call over {sorted(feasible)}", actual="none")


@invariant("extender-filter-error-fails",
           "A non-ignorable extender's filter error fails the attempt: no Reserve, no binding; when it ends the "
           "pod's last attempt the condition reason is SchedulerError.",
           "schedule_one.go findNodesThatPassExtenders / handleSchedulingFailure (spec §3.1, §4.5, §11.19)",
           requires=("extenders",),
           situation=Situation(
               {"reserve": ["Probe0"]}, extender_failure, min_nodes=2,
               extenders=({"filterVerb": "filter", "prioritizeVerb": "prioritize", "weight": 1},)),
           rules=("extender-filter-error",))
def extender_filter_error_fails(run: Run) -> None:
    for pod in run.live_pods:
        errors = [r for r in run.extender_records(pod, "filter") if r.get("code") == "Error"
                  and not ignorable(run, str(r.get("extender", "")))]
        if not errors:
            continue
        run.exercise()
        # A scripted failure answers every call, and no attempt binds without asking the extender
        # (also after an error on the nominated node alone, which only sends upstream on to all nodes).
        scripted = [r for r in errors if scripted_failure(run, pod, str(r.get("extender", "")), "filter")]
        if run.bound_in(pod) and scripted:
            raise run.violation(f"extender {scripted[0].get('extender')} fails every "
                                "filter call for the pod but the pod was bound", pod=pod,
                                plugin=str(scripted[0].get("extender")), expected="no binding",
                                actual=run.bound_in(pod)[0]["node"], records=(scripted[0],))
        if traced_from_start(run, pod):
            for attempt in run.attempts(pod):
                _attempt_failed(run, pod, attempt)


def _attempt_failed(run: Run, pod: str, attempt: int) -> None:
    filters = run.extender_records(pod, "filter", attempt)
    errors = [r for r in filters if r.get("code") == "Error" and not ignorable(run, str(r.get("extender", "")))]
    if not errors:
        return
    later = [r for r in run.probe_records(pod, attempt) if r["point"] in BINDING_POINTS]
    if later:
        raise run.violation(f"extender {errors[0].get('extender')} failed to filter "
                            "but the attempt went on", pod=pod, plugin=str(errors[0].get("extender")),
                            expected="the attempt fails", actual=later[0]["point"], records=(errors[0], *later[:2]))
    if attempt == run.attempts(pod)[-1] and filters[-1]["seq"] == errors[-1]["seq"]:
        _expect_scheduler_error(run, pod, attempt, errors[-1])


def _expect_scheduler_error(run: Run, pod: str, attempt: int, error: Record) -> None:
    """The error ended the attempt unless it came from the nominated-node pass, which upstream only
    logs before filtering all nodes; a later Filter or PostFilter call, or a single-node call of a
    pod that may carry a nomination, leaves it open."""
    result = run.outcome.pods.get(pod)
    if result is None or result.phase not in ("unschedulable", "error") or result.condition is None:
        return
    after = [r for r in run.probe_records(pod, attempt) if r["seq"] > error["seq"]
             and r["point"] in ("Filter", "PostFilter")]
    single = len(error.get("nodes") or ()) < 2 and len(run.node_names) > 1
    if after or (single and may_be_nominated(run, pod, attempt)):
        return
    reason = result.condition.get("reason")
    if reason != "SchedulerError":
        raise run.violation(f"the last attempt ended with extender "
                            f"{error.get('extender')}'s filter error but the condition reason is {reason}", pod=pod,
                            plugin=str(error.get("extender")), expected="SchedulerError", actual=reason, records=(error,))


@invariant("extender-wire-contract",
           "Each of the user's extenders answers every call in upstream's wire format, and its answer only speaks "
           "of what it was asked: filter results name given nodes, never a node as both passing and failed; "
           "prioritize scores are in [0, 10]; preempt answers keep offered candidates and victims; it answers.",
           "k8s.io/kube-scheduler/extender/v1 types.go; pkg/scheduler/extender.go (spec §4)",
           requires=("extender-exchanges",),
           rules=("extender-wire-format",))
def extender_wire_contract(run: Run) -> None:
    for exchange in run.outcome.exchanges:
        run.exercise()
        if exchange.get("problems"):
            raise run.violation(f"extender {exchange['extender']} {exchange['verb']}: {'; '.join(exchange['problems'])}"
                                f"\n  request:  {exchange.get('request', '')[:1500]}"
                                f"\n  response: HTTP {exchange.get('status')} {exchange.get('response', '')[:1500]}",
                                pod=exchange.get("pod", ""), plugin=f"extender {exchange['extender']}")


def _failure_marker(exchange: dict) -> str | None:
    """What upstream's error for this exchange would put in a pod's failure message, or None when it
    answered well: the URL path of a call without a 200 answer (extender.go send: "failed <verb> with
    extender at URL <url>, code <n>", or the HTTP client's error naming the URL), else a filter or
    preempt answer's Error field."""
    if exchange.get("status") != 200:
        return exchange.get("path") or None
    try:
        answer = json.loads(exchange.get("response") or "")
    except ValueError:
        return None
    error = answer.get("Error") if isinstance(answer, dict) else None
    return str(error) if error else None


@invariant("user-extender-ignorable-honoured",
           "An error of one of the user's extenders never fails a pod when the config makes it ignorable (filter, "
           "preempt) or when it prioritizes (always ignored): the scheduler skips that answer and goes on.",
           "schedule_one.go findNodesThatPassExtenders (IsIgnorable), prioritizeNodes; preemption.go "
           "callExtenders; extender.go send (spec §4.5)", requires=("extender-exchanges",),
           rules=("ignorable-extender", "prioritize-errors-ignored"))
def user_extender_ignorable_honoured(run: Run) -> None:
    for exchange in run.outcome.exchanges:
        tolerated = exchange.get("kind") == "prioritize" or (
            exchange.get("ignorable") and exchange.get("kind") in ("filter", "preempt"))
        marker = _failure_marker(exchange) if tolerated else None
        if marker is None:
            continue
        run.exercise()
        pod = str(exchange.get("pod", ""))
        for message in failure_messages(run, pod):
            if marker in message:
                why = "ignorable" if exchange.get("kind") != "prioritize" else "prioritize"
                raise run.violation(f"extender {exchange['extender']} {exchange['verb']} failed ({why}: to be skipped) "
                                    f"and its error failed the pod\n  response: HTTP {exchange.get('status')} "
                                    f"{str(exchange.get('response', ''))[:500]}", pod=pod,
                                    plugin=f"extender {exchange['extender']}", expected=f"no failure message naming "
                                    f"{marker!r}", actual=message)


def _filter_extenders(run: Run) -> list[str] | None:
    """The names of the filter extenders in the order they are asked: config order, ignorable ones last
    (scheduler.go buildExtenders); None when one may not be interested in a pod (managedResources), which the
    trace cannot tell."""
    names = []
    for ext in sorted(run.config.extenders, key=lambda e: e.ignorable):
        if ext.filter_verb:
            if ext.managed_resources:
                return None
            names.append(ext.url_prefix.rstrip("/").rsplit("/", 1)[-1])
    return names


def _left(record: Record, run: Run) -> list[str] | None:
    """The nodes a filter call passes on to the next extender; None when its error ends the attempt."""
    if record.get("code") != "Success":
        return list(record.get("nodes") or ()) if ignorable(run, str(record.get("extender", ""))) else None
    return [n for n in record.get("nodes") or () if n not in rejected_nodes(record)]


def _extender_chain_seed(draw, nodes):
    """Probe0 filters out some or all nodes; ext-0 fails some of the rest, maybe errs (ext-0 is ignorable)."""
    rejected = some(draw, nodes, min_size=0)
    probe = {"Probe0": {"Filter": {"code": "Success", "byNode": {n: {"code": "Unschedulable"} for n in rejected}}}}
    action = {"error": "ext-0 is down"} if draw(st.integers(0, 4)) == 0 else {
        "fail": {n: "extender: no" for n in some(draw, nodes, min_size=0)}}
    return probe, {"ext-0": {"filter": action}}


@invariant("extender-filters-chained",
           "Filter extenders are asked in config order, ignorable ones last, each with the nodes the previous one "
           "left (all it was sent after an ignorable error), and none is asked once no node is left.",
           "schedule_one.go findNodesThatPassExtenders (`if len(feasibleNodes) == 0 { break }`; "
           "feasibleNodes = feasibleList); scheduler.go buildExtenders (ignorable extenders to the tail) "
           "(spec §4.5)", requires=("extenders", "probes"),
           situation=Situation({"preFilter": ["Probe0"], "filter": ["Probe0"]}, _extender_chain_seed, min_nodes=2,
                               extenders=({"filterVerb": "filter", "ignorable": True}, {"filterVerb": "filter"})),
           rules=("extender-filters-chained", "ignorable-extenders-last"))
def extender_filters_chained(run: Run) -> None:
    chain = _filter_extenders(run)
    if not chain:
        return
    for pod in run.live_pods:
        empty = next((r for r in run.extender_records(pod, "filter") if not r.get("nodes")), None)
        if empty is not None:
            raise run.violation(f"{empty.get('extender')} was asked to filter no node", pod=pod,
                                plugin=str(empty.get("extender", "")), expected="no call once no node is left",
                                actual="a filter call with an empty node list", records=(empty,))
        if not traced_from_start(run, pod):
            continue
        for attempt in (a for a in run.attempts(pod) if a > 0):
            calls = run.extender_records(pod, "filter", attempt)
            for i, call in enumerate(calls):
                name = str(call.get("extender", ""))
                if name not in chain:
                    continue
                run.exercise()
                left, position = _left(call, run), chain.index(name)
                if not left or position + 1 == len(chain):
                    continue
                following = chain[position + 1]
                if not any(str(c.get("extender")) == following and sorted(c.get("nodes") or ()) == sorted(left)
                           for c in calls[i + 1:]):
                    raise run.violation(f"{name} left {left} but {following} was not asked to filter them",
                                        pod=pod, plugin=following, expected=f"{following} filters {sorted(left)}",
                                        actual=[c.get("extender") for c in calls[i + 1:]], records=(call,))
