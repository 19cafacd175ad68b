"""The differential under a scenario's timeline (docs/scenario.md#timeline): what two runs may differ on once
cluster events apply while the scheduler works, and what they must still agree on.

Timing, not a difference:
- which attempts saw an event: an event applies at a virtual instant where cycles (the first ones at 0,
  retries after a backoff of whole seconds) may run too, and on upstream the informer delivers it to the
  scheduler concurrently with them; so each pod's attempts are compared only while they start before the
  first event either run applied (`event_horizon`), and how often and when a pod was retried after an event
  (requeue and backoff timing) is not compared; a pod bound at an event's instant on a decision the event
  may have undone (`raced`) makes the ends of the runs incomparable;
- when an idle event applied: upstream's runner waits its settle time (a second) of quiet first, and a
  retry's backoff moves the next idle instant, so an idle event one run reached before the deadline may not
  be reached by the other (`idle_not_reached`), and cycles that ran before it on one side ran after it on the
  other (`idle_moved`); the end of such runs is not compared.

Still a difference (`end_disagreements`), when neither run made an open choice (with one node, none is) or
deleted pods and both applied the same events: a pod bound (or gated) on one side and not on the other at the
end, a pod bound to a node the judge accepts on one side and to one it rejects on the other, and a timed event
applied on one side only.
"""

from __future__ import annotations

from typing import Iterator

from reference.cycle_state import CycleState
from reference.timeline import created

from ..invariants import Run
from ..invariants.judge import Judge
from .compare import Disagreement, first_open_choice


def first_event(a: Run, b: Run) -> float:
    """The virtual time of the first timeline event either run applied; inf when neither applied one."""
    return min((float(e["at"]) for run in (a, b) for e in run.outcome.timeline[:1]), default=float("inf"))


def event_horizon(run: Run, at: float) -> float:
    """Just below the seq of the run's first record at or after virtual time `at` (one without a time counts
    as after): an attempt that starts there may or may not have seen the event."""
    if at == float("inf"):
        return at
    later = [r["seq"] for r in run.outcome.trace
             if not isinstance(r.get("t"), (int, float)) or r["t"] >= at]
    return min(later) - 0.5 if later else float("inf")


def applied(run: Run) -> list[int]:
    return [int(e["index"]) for e in run.outcome.timeline]


def idle_not_reached(a: Run, b: Run) -> bool:
    """The runs applied different events, and the first event only one applied waits for idle: timing."""
    left, right = applied(a), applied(b)
    shorter = min(len(left), len(right))
    events = a.scenario.timeline
    return left != right and shorter < len(events) and events[shorter].get("when") == "idle"


def _times(run: Run) -> list[float]:
    return [float(e["at"]) for e in run.outcome.timeline]


def _busy(run: Run, lo: float, hi: float, *, from_lo: bool = True) -> bool:
    """Whether the run made a call or a binding at a virtual time in [lo, hi) (without `from_lo`: in
    (lo, hi))."""
    times = [r.get("t") for r in run.outcome.trace] + [b.get("t") for b in run.outcome.bindings]
    return any(isinstance(t, (int, float)) and (lo <= t if from_lo else lo < t) and t < hi for t in times)


def idle_moved(a: Run, b: Run) -> bool:
    """An event (an idle one, or one after it) applied at different times, and the cycles in between saw
    different clusters: the run that applied it later worked before it applied, or one run worked between
    two events the other applied together (or with no work between). Assumes both applied the same events."""
    ta, tb = _times(a), _times(b)
    for x, y in zip(ta, tb):
        # At the earlier instant itself the other run went idle first: its work there came before the event.
        if x != y and _busy(b if x < y else a, min(x, y), max(x, y), from_lo=False):
            return True
    for k in range(len(ta) - 1):
        if (ta[k], ta[k + 1]) != (tb[k], tb[k + 1]) and \
                _busy(a, ta[k], ta[k + 1]) != _busy(b, tb[k], tb[k + 1]):
            return True
    return False


def raced(run: Run) -> bool:
    """A pod was bound at the instant of an event that may have undone its decision (its node deleted or
    changed, a pod bound beside it, a namespace relabelled), and the reference's Filter plugins reject it
    after the event (or cannot tell): the cycle ran before the event reached the scheduler, a race at that
    instant on upstream's informers, and a binding is not undone."""
    cluster = run.cluster
    for b in run.outcome.bindings:
        pod, node, t = str(b.get("pod")), str(b.get("node")), b.get("t")
        same = [k for k, event in enumerate(cluster.applied) if cluster.times[k + 1] == t]
        if not any(_constrains(run, k, pod, node) for k in same):
            continue
        judge = _judge(run, pod)
        if judge is None or not _fits(judge.at(same[-1] + 1), pod, node):
            return True
    return False


def _constrains(run: Run, k: int, pod: str, node: str) -> bool:
    """Whether the k-th applied event may turn a decision to bind `pod` to `node` into a wrong one."""
    event = run.cluster.applied[k]
    if event.kind == "Node":
        return event.name == node and event.op != "create"
    if event.kind == "Pod":
        before = run.cluster.states[k].get("Pod", event.key) or event.object or {}
        return event.key != pod and event.op != "delete" and bool((before.get("spec") or {}).get("nodeName"))
    return event.kind == "Namespace" and event.op == "update"


def only_node(run: Run) -> bool:
    """The cluster never has a second node (none in the scenario, none the timeline creates)."""
    return len(run.node_names) == 1 and not created(run.scenario.timeline, "Node")


def _determined(run: Run) -> bool:
    """No pod saw a cluster a random choice made: no open host choice (with one node every choice is forced,
    for what the run ends in), no preemption."""
    return not run.outcome.deleted and (only_node(run) or first_open_choice(run) == float("inf"))


def _settled_as(phase: str) -> str:
    """Bound, gated (never tried since its gates went) or neither: which of unschedulable, error or waiting
    a tried pod ends in may depend on how often it was retried, and probe scripts act per attempt."""
    return phase if phase in ("bound", "gated") else "tried"


def end_disagreements(a: Run, b: Run, already: set[str]) -> Iterator[Disagreement]:
    """Where a timeline applied, what the ends of the two runs must agree on (see the module docstring), for
    the pods without an earlier disagreement."""
    if not (a.outcome.timeline or b.outcome.timeline) or not (_determined(a) and _determined(b)):
        return
    if applied(a) != applied(b):
        if not idle_not_reached(a, b):
            yield Disagreement("the timeline events applied (a timed event on one side only)", "", applied(a),
                               applied(b), "timeline")
        return
    if idle_moved(a, b) or raced(a) or raced(b):
        return
    for pod in (p for p in a.live_pods if p in b.live_pods and p not in already):
        ra, rb = a.outcome.pods.get(pod), b.outcome.pods.get(pod)
        if ra is None or rb is None:
            continue
        if _settled_as(ra.phase) != _settled_as(rb.phase):
            yield Disagreement("whether the pod is bound, gated or neither at the end (after the timeline)",
                               pod, ra.phase, rb.phase, "schedulability")
        elif ra.phase == rb.phase == "bound" and ra.node != rb.node:
            right_a, right_b = accepted(a, pod, ra.node), accepted(b, pod, rb.node)
            if None not in (right_a, right_b) and right_a != right_b:
                yield Disagreement("the node bound to at the end (the judge accepts only one of them)", pod,
                                   ra.node, rb.node, "placement")


def accepted(run: Run, pod: str, node: str) -> bool | None:
    """Whether the stock Filter plugins accept `pod` on `node` on some cluster the cycle that bound it may
    have seen, next to the pods placed at the end; None when the judge cannot tell."""
    judge = _judge(run, pod)
    return None if judge is None else any(_fits(view, pod, node) for view in judge.views_at_binding(pod))


def _judge(run: Run, pod: str) -> Judge | None:
    """The run's judge, when it can judge `pod` (not: a config or pod it does not model, a user's plugin at
    PreFilter or Filter, an extender)."""
    judge = Judge.of(run)
    if judge is None or judge.config.extenders or not judge.judgeable(pod) or judge.framework(pod) is None:
        return None
    return judge if judge.stock_only(pod, ("preFilter", "filter")) else None


def _fits(judge: Judge, pod: str, node: str) -> bool:
    """The pod's PreFilter and Filter plugins accept it on `node`, beside the other pods placed at the end."""
    fw = judge.framework(pod)
    others = [*judge.definite, *(judge.pod(k, n) for k, n in judge.placed.items() if k != pod)]
    snapshot = judge.snapshot(others)
    info = snapshot.get(node)
    if info is None:
        return False
    fw.set_snapshot(snapshot)
    state, target = CycleState(), judge.pod(pod)
    result, status, _ = fw.run_pre_filter_plugins(state, target)
    if not status.is_success() or (result is not None and result.node_names is not None
                                   and node not in result.node_names):
        return False
    return fw.run_filter_plugins(state, target, info).is_success()


__all__ = ["accepted", "applied", "end_disagreements", "event_horizon", "first_event", "idle_moved",
           "idle_not_reached", "only_node", "raced"]
