"""Promises under faults (issue 31; docs/scenario.md, Faults): failed API calls, objects vanishing mid-cycle,
scheduler restarts. Each rule says nothing about a run in which no fault of its kind fired
(`Outcome.faults`), and is exercised only when one did.
"""

from __future__ import annotations

from reference.faults import OPS
from reference.scheduler.queue import DEFAULT_MAX_BACKOFF

from ..recipes.faults import Faulty
from .base import invariant
from .judge import Judge
from .liveness import DECIDING, REFERENCE_MAX_ATTEMPTS, Nominations, feasible_nodes
from .observed import cycles
from .run import Record, Run



def fired(run: Run, op: str | None = None, detail: str | None = None) -> list[Record]:
    """The outcome's fault firings, of `op` (and `detail`: the call or point) when given."""
    return [f for f in run.outcome.faults if f.get("fault") in OPS and (op is None or f.get("fault") == op)
            and (detail is None or f.get("detail") == detail)]


def fired_between(run: Run, lo: float, hi: float, op: str | None = None) -> bool:
    """Whether a fault (of `op`) fired in [lo, hi]: a restart wipes the queue (backoff, the unschedulable
    pool); a failed binding or a vanished object is a cluster event for the pending pods."""
    return any(lo <= f.get("at", 0.0) <= hi for f in fired(run, op))


def cut_by_restart(run: Run, pod: str, attempt: int) -> bool:
    """Whether a restart may have cut `pod`'s `attempt` short: a restart fired once the attempt had begun, and
    the attempt ran neither Unreserve nor PostBind (the old scheduler makes no call after a restart). On
    virtual time several attempts may share the restart's instant, so any such attempt counts."""
    restarts = [f.get("at", 0.0) for f in fired(run, "restart")]
    records = run.records(pod, attempt)
    if not restarts or not records or any(r.get("point") in ("Unreserve", "PostBind") for r in records):
        return False
    start = min(r.get("t", 0.0) for r in records)
    return any(at >= start for at in restarts)


@invariant("unreserve-after-failed-binding",
           "After a binding that failed because its API call failed (a `fail` fault on `bind`), every Reserve "
           "plugin's Unreserve runs once, in reverse configured order, in that attempt.",
           "schedule_one.go bindingCycle -> handleBindingCycleError -> unreserveAndForget; "
           "framework.go RunReservePluginsUnreserve; defaultbinder BindPod (util.BindPod retries internal errors)",
           situation=Faulty(reserve=True), rules=("fault-unreserve",))
def unreserve_after_failed_binding(run: Run) -> None:
    for firing in fired(run, "fail", "bind"):
        pod, at = firing.get("pod"), firing.get("at", 0.0)
        probes = run.probes_at(pod, "reserve") if pod in run.pods else []
        started = [a for a in run.attempts(pod) if run.records(pod, a, "Reserve")
                   and min(r.get("t", 0.0) for r in run.records(pod, a, "Reserve")) <= at]
        if not probes or not started:
            continue
        attempt = started[-1]
        if run.final_attempt_bound(pod, attempt) or cut_by_restart(run, pod, attempt):
            continue  # the retried call went through, or the process died with the attempt
        result = run.outcome.pods.get(pod)
        if attempt == run.attempts(pod)[-1] and (result is None or result.phase in ("waiting", "pending")) \
                and not run.records(pod, attempt, "Unreserve"):
            continue  # the deadline cut it short
        run.exercise()
        expected = list(reversed(probes))
        actual = [r["plugin"] for r in run.records(pod, attempt, "Unreserve")]
        if actual != expected:
            raise run.violation(f"the binding of {pod} failed ({firing.get('detail')} fault at {at:g}s) but "
                                f"Unreserve did not run once per Reserve plugin in reverse order (attempt "
                                f"{attempt})", pod=pod, expected=expected, actual=actual,
                                records=tuple(run.records(pod, attempt, "Reserve")
                                              + run.records(pod, attempt, "Unreserve")))


@invariant("no-room-leaked",
           "Once the faults are spent and the run settles, no pod is left assumed without a binding, and no pod is "
           "left pending (unschedulable, error, or never patched) that the profile's stock Filter plugins accept "
           "on the final cluster with the bound pods: a failed binding, a vanished pod or a restart frees what "
           "the pod held.",
           "schedule_one.go handleBindingCycleError (ForgetPod, then AssignedPodDelete moves the pending pods); "
           "eventhandlers.go deletePodFromCache; cache.go ForgetPod / RemovePod; scheduler restart: "
           "the cache is rebuilt from the informers (New, WaitForCacheSync)",
           requires=("virtual-time",), situation=Faulty(), rules=("fault-no-room-leaked",))
def no_room_leaked(run: Run) -> None:
    firings = fired(run)
    if not firings or run.outcome.deleted:
        return  # after preemption nominations decide (schedulable-pods-bound)
    last = max(f.get("at", 0.0) for f in firings)
    applied = [run.scenario.timeline[e["index"]] for e in run.outcome.timeline
               if isinstance(e.get("index"), int) and 0 <= e["index"] < len(run.scenario.timeline)]
    if any(entry.get("op") not in OPS for entry in applied) or \
            last + DEFAULT_MAX_BACKOFF + 1 >= run.scenario.deadline:
        return  # events: event-wakes-pending-pod's rule; too late a fault: the retry may not have come
    judge = Judge.of(run)
    if judge is None or judge.config.extenders:
        return
    final = judge.at(run.cluster.final())
    judged = [k for k in run.live_pods if judge.judgeable(k) and judge.stock_only(k, DECIDING)
              and judge.framework(k) is not None]
    nominated: dict = {}
    hit = {f.get("pod") for f in firings}
    for key in judged:
        result = run.outcome.pods.get(key)
        if key in hit:
            run.exercise()  # a pod a fault struck was judged, whatever became of it
        if result is None or result.phase in ("bound", "gated"):
            continue
        if run.outcome.backend == "reference" and result.attempts > REFERENCE_MAX_ATTEMPTS:
            continue
        run.exercise()
        if result.phase == "waiting":  # nothing stock holds a pod at Permit, nor binds for long
            raise run.violation(f"{key} was left assumed (phase waiting) after the faults, never bound nor "
                                "forgotten", pod=key, expected="bound, or forgotten and retried",
                                actual=result.phase)
        if result.phase == "pending" and not result.attempts:
            continue
        fits = feasible_nodes(final, key, Nominations(nominated))
        if fits:
            raise run.violation(f"{key} was left {result.phase} after the faults (the last at {last:g}s) although "
                                f"the stock Filter plugins accept it on {', '.join(fits)} in the final state",
                                pod=key, expected=f"bound (e.g. to {fits[0]})",
                                actual=(result.condition or {}).get("message", result.phase))


def _first_answers(records: list[Record], plugin: str) -> dict[tuple[str, str], Record]:
    """The plugin's first PreFilter, and first Filter per node, of one cycle: (point, node) -> record."""
    out: dict[tuple[str, str], Record] = {}
    for r in records:
        if r.get("plugin") == plugin and r.get("point") in ("PreFilter", "Filter"):
            out.setdefault((r["point"], r.get("node", "")), r)
    return out


def _unchanged(run: Run, pod: str, before: list[Record], after: Record, lo: int, hi: int) -> bool:
    """Whether nothing a plugin's PreFilter/Filter may read changed between the cycle `before` and the
    record `after` but what the pod's own failed binding cycle did: no other pod's binding landed (the pod's
    own, on virtual time at the instant of `after`, comes after it), no other pod was reserved or unreserved
    (assumed or forgotten), no event, vanish or restart applied."""
    t1, t2 = min(r.get("t", 0.0) for r in before), after.get("t", 0.0)
    if any(t1 <= b.get("t", 0.0) <= t2 and b.get("pod") != pod for b in run.outcome.bindings):
        return False
    if any(lo < r["seq"] < hi and r.get("pod") != pod and r.get("point") in ("Reserve", "Unreserve")
           for r in run.outcome.observed):
        return False
    applied = [(run.scenario.timeline[e["index"]], e.get("at", 0.0)) for e in run.outcome.timeline
               if isinstance(e.get("index"), int) and 0 <= e["index"] < len(run.scenario.timeline)]
    if any(entry.get("op") != "fail" and t1 <= at <= t2 for entry, at in applied):
        return False
    return not any(f.get("fault") != "fail" and t1 <= f.get("at", 0.0) <= t2 for f in fired(run))


def _answer(record: Record) -> tuple[str, list[str]]:
    return record.get("code", ""), list(record.get("reasons") or [])


@invariant("observed-reserve-released",
           "After a cycle that ran a plugin's Reserve and then its Unreserve (a failed binding: the "
           "API call, another plugin's PreBind or Permit), the plugin answers the pod's next PreFilter and "
           "Filter calls as it did before that Reserve, while nothing else changed: Unreserve released what "
           "Reserve took.",
           "schedule_one.go handleBindingCycleError -> unreserveAndForget (Unreserve, never PostBind); "
           "kube-scheduler/framework interface.go ReservePlugin ('Unreserve is called ... when a reserved "
           "pod was rejected, an error occurred during reservation of subsequent plugins, or in a later "
           "phase')",
           requires=("observed-plugins",), situation=Faulty(bindings=True), rules=("fault-no-room-leaked",))
def observed_reserve_released(run: Run) -> None:
    if run.outcome.deleted or any(r.get("point") == "PostFilter" and r.get("code") == "Success"
                                  for r in run.outcome.observed):
        return  # preemption: victims deleted, nominated pods filtered with the pod
    all_cycles = cycles(run)
    for (pod, attempt), records in all_cycles.items():
        later = sorted(a for p, a in all_cycles if p == pod and a > attempt)
        if not later:
            continue
        following = all_cycles[(pod, later[0])]
        for unreserve in (r for r in records if r.get("point") == "Unreserve"):
            plugin, node = unreserve["plugin"], unreserve.get("node", "")
            reserve = next((r for r in records if r.get("point") == "Reserve" and r["plugin"] == plugin),
                           None)
            if reserve is None:
                continue
            before = _first_answers([r for r in records if r["seq"] < reserve["seq"]], plugin)
            after = _first_answers(following, plugin)
            for key in sorted(before.keys() & after.keys()):
                old, new = before[key], after[key]
                if not _unchanged(run, pod, records, new, records[0]["seq"], new["seq"]):
                    continue
                run.exercise()
                if _answer(old) != _answer(new):
                    (code, reasons), where = _answer(new), f" on {key[1]}" if key[1] else ""
                    was = " ".join(map(str, _answer(old)))
                    raise run.violation(
                        f"{plugin} answered {key[0]} for {pod}{where} with {code} {reasons} (attempt "
                        f"{later[0]}) after its Reserve on {node} was undone (attempt {attempt}: Reserve, "
                        f"then Unreserve), but with {was} before that Reserve, and nothing else changed: its "
                        "Unreserve did not release what Reserve took", pod=pod,
                        plugin=plugin, expected=_answer(old), actual=_answer(new),
                        records=(old, reserve, unreserve, new))
