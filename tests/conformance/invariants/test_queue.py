"""queue-priority-order: first attempts follow (priority desc, creation asc) among pods admitted at the start."""

from __future__ import annotations

from conformance.invariants import REGISTRY
from conformance.invariants.queue import attempt_start

from ...conformance.mutants import _errors_backed_off_by_rejections, _lower_priority_first
from ._kit import config, edited, pod, run_on_reference, scenario, violation

INV = REGISTRY["queue-priority-order"]
PREFILTER = config({"preFilter": ["Probe0"]})


def first_order(run) -> list[str]:
    started = [(attempt_start(run, p)["seq"], p) for p in run.pods if attempt_start(run, p)]
    return [p for _, p in sorted(started)]


def test_reference_pops_by_priority_then_creation() -> None:
    run = run_on_reference(scenario([pod("a", priority=0), pod("b", priority=10), pod("c", priority=5),
                                     pod("d", priority=10)], cfg=PREFILTER))
    assert first_order(run) == ["default/b", "default/d", "default/c", "default/a"]
    INV.check(run)


def test_lower_priority_popped_first_is_caught() -> None:
    run = run_on_reference(scenario([pod("a", priority=0), pod("b", priority=10)], cfg=PREFILTER),
                           hook=_lower_priority_first)
    assert first_order(run) == ["default/a", "default/b"]
    v = violation(INV, run)
    assert v.pod == "default/a" and v.expected == ["default/b", "default/a"]


def _newest_first_among_equals(sched) -> None:
    def pop_min(queue, less):
        best = 0
        for i in range(1, len(queue)):
            if not less(queue[best], queue[i]):
                best = i
        return queue.pop(best)
    sched.queue._pop_min = pop_min


def test_creation_order_breaks_ties() -> None:
    sc = scenario([pod("a", priority=3), pod("b", priority=3), pod("c", priority=7)], cfg=PREFILTER)
    INV.check(run_on_reference(sc))
    run = run_on_reference(sc, hook=_newest_first_among_equals)
    assert first_order(run) == ["default/c", "default/b", "default/a"]
    assert violation(INV, run).pod == "default/b"


def test_gated_pods_and_pods_a_preenqueue_probe_held_are_not_compared() -> None:
    gated = pod("gated", priority=10, gates=["example.com/gate-a"])
    held = pod("held", priority=10, probes={"Probe1": {"PreEnqueue": {"code": "Unschedulable"}}})
    free = pod("free", priority=10)
    cfg = config({"preEnqueue": ["Probe1"], "preFilter": ["Probe0"]})
    run = run_on_reference(scenario([pod("a"), gated, held, free], cfg=cfg))
    INV.check(run)
    # As if each high-priority pod had been admitted later and started after `a`: only `free` was in
    # activeQ from the start, so only its late start breaks the order.
    end = len(run.outcome.trace)
    for i, late in enumerate(("default/gated", "default/held")):
        record = {"seq": end + i, "t": 1.0, "attempt": 1, "pod": late, "plugin": "Probe0", "point": "PreFilter",
                  "code": "Success"}
        INV.check(edited(run, trace=(*run.outcome.trace, record)))
    moved = tuple(dict(r, seq=r["seq"] + end) if r["pod"] == "default/free" else r for r in run.outcome.trace)
    assert violation(INV, edited(run, trace=moved)).pod == "default/a"


def test_untraced_starts_are_not_judged() -> None:
    """With an in-tree plugin first at PreFilter, an attempt may end before any probe record, so the
    first probe record of a pod need not be its first attempt."""
    cfg = config({"preFilter": ["Probe0"]}, defaults=True)
    run = run_on_reference(scenario([pod("a", priority=0), pod("b", priority=10)], cfg=cfg),
                           hook=_lower_priority_first)
    assert first_order(run) == ["default/a", "default/b"]
    INV.check(run)


def test_hand_built_trace_out_of_order() -> None:
    run = run_on_reference(scenario([pod("a", priority=1), pod("b", priority=0)], cfg=PREFILTER))
    INV.check(run)
    swapped = []
    for r in run.outcome.trace:
        if r["point"] != "PreEnqueue":
            r = dict(r, pod="default/b" if r["pod"] == "default/a" else "default/a")
        swapped.append(r)
    assert violation(INV, edited(run, trace=tuple(swapped))).pod == "default/b"


# --- error-backoff-respected --------------------------------------------------------------------

BACKOFF = REGISTRY["error-backoff-respected"]
ERRORS = scenario([pod(probes={"Probe0": {"Reserve": {"code": "Error"}}})],
                  cfg=config({"preFilter": ["Probe0"], "reserve": ["Probe0"]}))


def starts(run) -> list[float]:
    return [attempt_start(run, "default/pod-0", a)["t"] for a in run.attempts("default/pod-0")]


def test_error_backoff_doubles_up_to_the_maximum() -> None:
    run = run_on_reference(ERRORS)
    # Failures at t; the pod leaves backoff in the first 1 s window after t + 1, 2, 4, 8, 10 s.
    assert starts(run) == [0.0, 2.0, 5.0, 10.0, 19.0, 30.0]
    BACKOFF.check(run)


def test_errors_backed_off_by_rejections_are_caught() -> None:
    run = run_on_reference(ERRORS, hook=_errors_backed_off_by_rejections)
    assert starts(run)[:3] == [0.0, 0.0, 0.0]
    v = violation(BACKOFF, run)
    assert (v.expected, v.actual) == (">= 1s", "0s")


def test_the_configured_backoff_counts() -> None:
    cfg = dict(ERRORS.config, podInitialBackoffSeconds=3, podMaxBackoffSeconds=4)
    run = run_on_reference(scenario(ERRORS.workload, cfg=cfg))
    assert starts(run)[:4] == [0.0, 4.0, 9.0, 14.0]
    BACKOFF.check(run)
    late = tuple(dict(r, t=r["t"] - 1.5) if r.get("attempt") == 3 else r for r in run.outcome.trace)
    assert violation(BACKOFF, edited(run, trace=late)).expected == ">= 4s"


def test_rejections_and_unknown_failures_set_no_lower_bound() -> None:
    """A pod rejected by plugins may be popped from backoffQ as soon as activeQ is empty."""
    rejected = scenario([pod(probes={"Probe0": {"Reserve": {"code": "Unschedulable"}}}), pod("pod-1")],
                        cfg=ERRORS.config)
    run = run_on_reference(rejected)
    assert len(run.attempts("default/pod-0")) == 2
    early = tuple(dict(r, t=0.0) for r in run.outcome.trace)
    BACKOFF.check(edited(run, trace=early))
