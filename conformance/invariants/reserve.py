"""Reserve and Unreserve."""

from __future__ import annotations

from ..recipes.first_pod import reserve_failure
from ..recipes.situations import Situation
from .base import invariant
from .faults import cut_by_restart
from .run import Run, first_stop_passed

# Two reserve probes: the forward-order Unreserve counterexample must shrink to that many.
_RESERVE = Situation({"reserve": ["Probe0", "Probe1"], "permit": ["Probe1"]}, reserve_failure)


@invariant("reserve-short-circuit", "Reserve stops at the first plugin that does not return Success.",
           "framework/runtime/framework.go RunReservePluginsReserve (spec §1.2, §2.12)",
           situation=_RESERVE,
           rules=("code-matrix-reserve-permit", "reserve-short-circuit"))
def reserve_short_circuit(run: Run) -> None:
    for pod in run.live_pods:
        for attempt in run.attempts(pod):
            records = run.records(pod, attempt, "Reserve")
            probes = run.probes_at(pod, "reserve")
            if any(r.get("code") != "Success" and r["plugin"] in probes[:-1] for r in records):
                run.exercise()
            i = first_stop_passed(records, lambda code: code != "Success")
            if i is not None:
                raise run.violation("a Reserve plugin ran after an earlier one failed",
                                    pod=pod, plugin=records[i + 1]["plugin"], status=records[i].get("code"),
                                    expected=[x["plugin"] for x in records[:i + 1]],
                                    actual=[x["plugin"] for x in records], records=tuple(records))


@invariant("unreserve-reverse-order",
           "On any failure after Reserve started, every Reserve plugin's Unreserve runs exactly once, in reverse "
           "configured order; after success it never runs.",
           "framework.go RunReservePluginsUnreserve; schedule_one.go schedulingCycle/bindingCycle (spec §2.12, §3)",
           situation=_RESERVE,
           rules=("unreserve-all-reverse",))
def unreserve_reverse_order(run: Run) -> None:
    for pod in run.live_pods:
        attempts = run.attempts(pod)
        phase = run.outcome.pods[pod].phase if pod in run.outcome.pods else "pending"
        for attempt in attempts:
            reserves = run.records(pod, attempt, "Reserve")
            unreserves = run.records(pod, attempt, "Unreserve")
            if not reserves and not unreserves:
                continue
            if attempt == attempts[-1] and phase in ("waiting", "pending"):
                continue  # the deadline cut this attempt short
            if cut_by_restart(run, pod, attempt):
                continue  # the old scheduler makes no call after a restart fault
            bound = run.final_attempt_bound(pod, attempt)
            expected = [] if bound else list(reversed(run.probes_at(pod, "reserve")))
            if expected:
                run.exercise()  # a failure after Reserve began
            actual = [r["plugin"] for r in unreserves]
            if actual != expected:
                what = "Unreserve ran after a successful binding" if bound else \
                    "Unreserve did not run once per Reserve plugin in reverse order after a failure"
                raise run.violation(f"{what} (attempt {attempt})", pod=pod,
                                    expected=expected, actual=actual, records=tuple(reserves + unreserves))


@invariant("unreserved-pods-forgotten",
           "A pod whose last attempt failed after Reserve (its Unreserve ran) is forgotten: the run does not "
           "end with it still assumed (phase waiting), holding room on the node it was rejected from.",
           "schedule_one.go unreserveAndForget (RunReservePluginsUnreserve, then Cache.ForgetPod), "
           "handleBindingCycleError; backend/cache/cache.go ForgetPod (spec §2.11, §2.12)",
           situation=_RESERVE,
           rules=("assume-before-reserve",))
def unreserved_pods_forgotten(run: Run) -> None:
    if any(f.get("fault") == "restart" for f in run.outcome.faults):
        return  # a new scheduler numbers its attempts anew
    for pod in run.live_pods:
        attempts = run.attempts(pod)
        unreserved = run.records(pod, attempts[-1], "Unreserve") if attempts else []
        if not unreserved:
            continue
        run.exercise()
        result = run.outcome.pods.get(pod)
        if result is not None and result.phase == "waiting":
            raise run.violation(f"the pod is still assumed (phase waiting) although its last attempt "
                                f"({attempts[-1]}) failed and ran Unreserve", pod=pod,
                                expected="forgotten: pending, unschedulable or error", actual=result.phase,
                                records=tuple(unreserved))
