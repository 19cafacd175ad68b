"""Differential check: two backends ran the same scenario; where upstream is deterministic they agree.

Upstream picks at random among nodes with the best total score, so once a run made a choice the
trace cannot show to be forced, later pods may legitimately see another cluster. Preemption is the
other race: upstream deletes the victims in a goroutine (SchedulerAsyncPreemption, beta and on since
1.33; framework/preemption/executor.go prepareCandidateAsync), so an attempt of another pod that
starts before the deletion reaches the scheduler's cache still sees the victims. `compare` therefore
compares, for each pod, only what neither can reach:

- every attempt up to the horizon: the first open choice of either run or, when a run deleted pods,
  the first attempt of either run that chose no node (the preemption may have started there; that
  attempt included): the multiset of
  probe records (plugin, point, node, code), ignoring order, time and PreEnqueue calls (how often a
  pod is moved between queues is the queue's business); on the attempt whose choice was open, the
  calls after host selection are left out (they depend on the node); where a Filter, Score
  or NormalizeScore call failed the attempt, or filtering stops at the first feasible node, only which
  plugins failed with which code counts at that point (upstream evaluates nodes, and normalizes plugins,
  in parallel and cancels the rest);
- the chosen node, when the traced scores give a single best node in both runs;
- when neither run made an open choice and the pod had the same attempts in both: its phase,
  PodScheduled reason and FitError message.

Under a timeline, attempts are compared up to the first event, and the ends of the runs as `timeline` says.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any, Hashable, Iterable, Iterator, Mapping

from reference.plugins.default_preemption import calculate_num_candidates
from reference.probe import PROBE_NAMES

from ..invariants import Invariant, Run, Violation
from ..invariants.attempts import extender_config
from ..invariants.scoring import normalized_scores

AFTER_SELECTION = ("Reserve", "Unreserve", "Permit", "Allow", "Reject", "PreBindPreFlight", "PreBind", "Bind", "PostBind")
PARALLEL = ("Filter", "Score", "NormalizeScore")  # NormalizeScore: in parallel over plugins
REJECTIONS_AT = {"Filter": ("Unschedulable", "UnschedulableAndUnresolvable", "Pending")}
SCORE_SCALE = 10  # MaxNodeScore / MaxExtenderPriority


def best_nodes(run: Run, pod: str, attempt: int) -> set[str] | None:
    """The nodes with the highest traced total score, or None when the totals are not all traced
    (some Score plugin is not a probe) or the attempt did not score."""
    scored = normalized_scores(run, pod, attempt)
    plugins = run.plugins_at(pod, "score")
    prioritized = [r for r in run.extender_records(pod, "prioritize", attempt) if r.get("code") == "Success"]
    if not all(p in PROBE_NAMES for p in plugins) or not (scored or prioritized):
        return None
    nodes = set().union(*scored.values()) if scored else set(prioritized[0].get("nodes") or ())
    totals = {n: sum(run.weight(pod, p) * s.get(n, 0) for p, s in scored.items()) for n in nodes}
    for r in prioritized:
        ext = extender_config(run, str(r.get("extender", "")))
        for node, score in (r.get("scores") or {}).items():
            if node in totals:
                totals[node] += score * (ext.weight if ext is not None else 1) * SCORE_SCALE
    best = max(totals.values(), default=None)
    return {n for n, t in totals.items() if t == best}


def chosen(run: Run, pod: str, attempt: int) -> str | None:
    node = run.chosen_node(pod, attempt)
    if node is None and run.final_attempt_bound(pod, attempt):
        node = run.outcome.pods[pod].node
    return node


def stops_at_first_feasible(run: Run, pod: str) -> bool:
    """Without Score plugins and filtering or prioritizing extenders, upstream stops filtering at the
    first feasible node its parallel workers find: which nodes got Filter calls is not determined."""
    return not run.plugins_at(pod, "score") and not any(e.filter_verb or e.prioritize_verb
                                                        for e in run.config.extenders)


def partial_dry_run(run: Run, pod: str) -> bool:
    """DefaultPreemption's dry run may stop before every node: it examines candidates from a random offset
    (default_preemption.go GetOffsetAndNumCandidates) until it has found numCandidates, so which nodes got
    RemovePod, Filter and AddPod calls is a random choice when that number is below the node count."""
    profile = run.profiles.get(run.profile_of(pod))
    args = profile.plugin_args.get("DefaultPreemption") if profile is not None else None
    if args is None or "DefaultPreemption" not in run.plugins_at(pod, "postFilter"):
        return False
    return calculate_num_candidates(args, len(run.node_names)) < len(run.node_names)


def single_feasible(run: Run, pod: str, attempt: int) -> bool:
    """No scoring ran although, with two feasible nodes, it would have run and left a record: upstream
    looked at every node (it does not stop at the first feasible one) and a probe at PreScore or
    Score records scoring."""
    traced = any(p in PROBE_NAMES for p in (*run.plugins_at(pod, "preScore"), *run.plugins_at(pod, "score")))
    ran = any(r["point"] in ("PreScore", "Score") for r in run.probe_records(pod, attempt)) \
        or run.extender_records(pod, "prioritize", attempt)
    return traced and not stops_at_first_feasible(run, pod) and not ran


def choice_is_open(run: Run, pod: str, attempt: int) -> bool:
    """The attempt chose a node the trace cannot show to be forced: neither the only feasible node
    nor the single best traced total."""
    if chosen(run, pod, attempt) is None or single_feasible(run, pod, attempt):
        return False
    best = best_nodes(run, pod, attempt)
    return best is None or len(best) != 1


def first_open_choice(run: Run) -> int:
    """The seq of the first record of the first attempt that made an open choice (or of an untraced binding)."""
    firsts = []
    for pod in run.pods:
        attempts = run.attempts(pod)
        if not attempts and run.bound_in(pod):
            firsts.append(min((r["seq"] for r in run.records(pod)), default=0))
        for attempt in attempts:
            if choice_is_open(run, pod, attempt):
                firsts.append(_start(run, pod, attempt))
    return min(firsts, default=float("inf"))


def first_preemption(run: Run) -> float:
    """When the run deleted pods: the seq of the first record of the first attempt that chose no node
    (a preemption starts in such an attempt, at PostFilter; which one the trace does not say), else inf."""
    if not run.outcome.deleted:
        return float("inf")
    return min((_start(run, pod, attempt) for pod in run.pods for attempt in run.attempts(pod)
                if chosen(run, pod, attempt) is None), default=float("inf"))


def horizon(run: Run) -> float:
    """The seq after which the run's attempts may have seen a cluster the other run did not."""
    return min(first_open_choice(run), first_preemption(run))


def _start(run: Run, pod: str, attempt: int) -> int:
    return min(r["seq"] for r in run.probe_records(pod, attempt))


def errored_in_parallel(records: Iterable[Mapping[str, Any]]) -> set[str]:
    """Points evaluated in parallel (Filter and Score over nodes, NormalizeScore over plugins: framework.go
    normalizeScores) where a call failed the attempt: upstream then cancels the calls still running, so how
    many other calls were made is not determined."""
    return {r["point"] for r in records if r["point"] in PARALLEL
            and r.get("code") not in ("Success", *REJECTIONS_AT.get(r["point"], ()))}


def _dry_ran(run: Run, pod: str, attempt: int) -> bool:
    """A preemption dry run removes pods from node infos; nothing else calls RemovePod."""
    return any(r["point"] == "RemovePod" for r in run.probe_records(pod, attempt))


def call_multiset(records: Iterable[Mapping[str, Any]], with_chosen: bool, cut: set[str],
                  extra: tuple[str, ...] = (), coarse: bool = False) -> Counter:
    """The multiset of (plugin, point, node, code, *extra fields); at a point in `cut`, only the failing calls'
    codes (with `coarse`, only that some call failed there: when two calls fail, which one upstream makes
    before it cancels the other is a race). Without `with_chosen`, the calls after host selection are left
    out: what they do depends on the node."""
    out: Counter[Hashable] = Counter()
    for r in records:
        if r["point"] == "PreEnqueue" or (not with_chosen and r["point"] in AFTER_SELECTION):
            continue
        if r["point"] in cut:
            if r.get("code") not in ("Success", *REJECTIONS_AT.get(r["point"], ())):
                out[("some plugin", r["point"], "some node", "failed") if coarse
                    else (r["plugin"], r["point"], "some node", r.get("code"))] = 1
            continue
        out[(r["plugin"], r["point"], r.get("node"), r.get("code"), *(_hashable(r.get(f)) for f in extra))] += 1
    return out


@dataclass(frozen=True)
class Disagreement:
    """One thing two runs disagree on for one pod. `kind`: placement (a forced node choice), plugin-calls
    (which plugin was called where, with which code), schedulability (the phase), status-text (the
    PodScheduled reason or FitError message). `causes`: the (point, plugin) pairs whose calls differ."""

    what: str
    pod: str
    left: Any
    right: Any
    kind: str
    causes: tuple[tuple[str, str], ...] = ()


def _hashable(value: Any) -> Hashable:
    return json.dumps(value, sort_keys=True) if isinstance(value, (dict, list)) else value


def _fail(d: Disagreement, a: Run, b: Run) -> Violation:
    return Violation("differential", f"{a.outcome.backend} and {b.outcome.backend} disagree on {d.what}", pod=d.pod,
                     expected=d.left, actual=d.right)


def compare(a: Run, b: Run) -> None:
    """Raise Violation("differential", ...) at the first disagreement; `a` is shown as expected."""
    first = next(disagreements(a, b), None)
    if first is not None:
        raise _fail(first, a, b)


def settled(a: Run, b: Run) -> bool:
    """Neither run made an open choice nor deleted pods, and no timeline event applied (attempts race with
    it): every pod saw the same cluster in both."""
    return horizon(a) == horizon(b) == float("inf") and not (a.outcome.timeline or b.outcome.timeline)


def disagreements(a: Run, b: Run, *, coarse: bool = False) -> Iterator[Disagreement]:
    """Every pod's first disagreement, in the order of `a`'s pods (see the module docstring for what counts;
    `coarse`: see `call_multiset`)."""
    from .timeline import end_disagreements, event_horizon, first_event  # it builds on this module
    events = first_event(a, b)
    both_settled = settled(a, b)
    horizon_a = min(horizon(a), event_horizon(a, events))
    horizon_b = min(horizon(b), event_horizon(b, events))
    seen = set()
    for pod in (p for p in a.live_pods if p in b.live_pods):
        found = None
        common = [t for t in a.attempts(pod) if t in b.attempts(pod)]
        for attempt in common:
            if _start(a, pod, attempt) > horizon_a or _start(b, pod, attempt) > horizon_b:
                break
            found = _compare_attempt(a, b, pod, attempt, coarse)
            if found is not None:
                break
        if found is None and both_settled and a.attempts(pod) == b.attempts(pod):
            found = _compare_result(a, b, pod)
        if found is not None:
            seen.add(pod)
            yield found
    yield from end_disagreements(a, b, seen)


def _compare_attempt(a: Run, b: Run, pod: str, attempt: int, coarse: bool = False) -> Disagreement | None:
    best_a, best_b = best_nodes(a, pod, attempt), best_nodes(b, pod, attempt)
    forced = best_a is not None and best_b is not None and len(best_a) == len(best_b) == 1
    node_a, node_b = chosen(a, pod, attempt), chosen(b, pod, attempt)
    if forced and node_a is not None and node_b is not None and node_a != node_b:
        return Disagreement(f"the node chosen in attempt {attempt} (a single best score in both)", pod, node_a, node_b,
                            "placement")
    with_chosen = not (choice_is_open(a, pod, attempt) or choice_is_open(b, pod, attempt))
    cut = errored_in_parallel(a.probe_records(pod, attempt)) | errored_in_parallel(b.probe_records(pod, attempt))
    if stops_at_first_feasible(a, pod) and (node_a is not None or node_b is not None):
        cut |= {"Filter", "AddPod"}
    if partial_dry_run(a, pod) and (_dry_ran(a, pod, attempt) or _dry_ran(b, pod, attempt)):
        cut |= {"Filter", "AddPod", "RemovePod"}
    nominated = any(r["point"] == "AddPod" for run in (a, b) for r in run.probe_records(pod, attempt))
    if coarse and (a.outcome.deleted or b.outcome.deleted or nominated):
        # A preemption's dry run evaluates candidate nodes in parallel and stops once it has enough; a
        # nomination (by preemption or a PostFilter result) reaches other pods' attempts, as AddPod and a second
        # Filter pass with the nominated pods, only once the scheduler has recorded it, which races with them:
        # on the same build under load, these calls were seen to change from run to run.
        cut |= {"AddPod", "RemovePod"} | ({"Filter"} if nominated or (node_a is None and node_b is None) else set())
    left = call_multiset(a.probe_records(pod, attempt), with_chosen, cut, coarse=coarse)
    right = call_multiset(b.probe_records(pod, attempt), with_chosen, cut, coarse=coarse)
    if left != right:
        return calls_disagreement(f"the plugin calls of attempt {attempt} (plugin, point, node, code)", pod, left, right)
    return None


def calls_disagreement(what: str, pod: str, left: Counter, right: Counter) -> Disagreement:
    only_left, only_right = left - right, right - left
    causes = sorted({(key[1], key[0]) for key in (*only_left, *only_right)})
    return Disagreement(what, pod, sorted(only_left.items(), key=str), sorted(only_right.items(), key=str),
                        "plugin-calls", tuple(causes))


def _compare_result(a: Run, b: Run, pod: str) -> Disagreement | None:
    ra, rb = a.outcome.pods.get(pod), b.outcome.pods.get(pod)
    if ra is None or rb is None:
        return None
    if ra.phase != rb.phase:
        return Disagreement("the phase", pod, ra.phase, rb.phase, "schedulability")
    reason_a, reason_b = (ra.condition or {}).get("reason"), (rb.condition or {}).get("reason")
    if reason_a != reason_b:
        return Disagreement("the PodScheduled reason", pod, reason_a, reason_b, "status-text")
    msg_a, msg_b = (ra.condition or {}).get("message", ""), (rb.condition or {}).get("message", "")
    if reason_a == "Unschedulable" and msg_a.startswith("0/") and msg_b.startswith("0/") and (
            _dry_run_errors_unordered(msg_a) != _dry_run_errors_unordered(msg_b)):
        return Disagreement("the FitError message", pod, msg_a, msg_b, "status-text")
    return None


def _dry_run_errors_unordered(message: str) -> tuple[str, tuple[str, ...]]:
    """A FitError message with preemption's errors as a multiset: the dry run checks candidate nodes in parallel
    and appends each node's error as its worker finishes (preemption.go DryRunPreemption), so their order in
    the aggregate's "[a, b]" (apimachinery errors.go aggregate.Error) is a race."""
    head, bracket, errors = message.partition("preemption: [")
    if not bracket or not errors.endswith("]"):
        return message, ()
    return head, tuple(sorted(errors[:-1].split(", ")))


# Not in the registry: it checks two runs, not one. Reports and reproducers show it like an invariant.
DIFFERENTIAL = Invariant(
    "differential", "Two backends agree on every pod's plugin calls, forced node choices and final result, "
    "up to the first choice upstream makes at random.",
    "schedule_one.go selectHost (the only random choice); framework.go Run* (everything else is determined)",
    fn=lambda run: None, requires=frozenset({"probes"}), theme="differential")


__all__ = ["DIFFERENTIAL", "Disagreement", "best_nodes", "call_multiset", "calls_disagreement", "disagreements", "errored_in_parallel", "choice_is_open", "compare", "first_open_choice",
           "first_preemption", "horizon", "partial_dry_run", "settled", "single_feasible"]
