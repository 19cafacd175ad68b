"""The differential under timelines (conformance/differential/timeline.py): a scheduler that drops the wake-up
a cluster event owes a pending pod is caught, through the suite's `--compare` with a reproducer and by the
search, which shrinks it small; what only the timing of an event explains (an idle event applied later,
upstream's settle before it; one not reached before the deadline) is not a disagreement."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import pytest

from conformance.backends.reference import ReferenceBackend
from conformance.backends.upstream import UpstreamBackend, default_runner
from conformance.builds.stock import executable
from conformance.differential import disagreements, find_disagreement, run_both, timeline_scenarios_for
from conformance.differential.timeline import idle_moved, idle_not_reached
from conformance.invariants import Run
from reference.scenario import Scenario
from reference.scheduler.scheduler import Scheduler

from .test_timeline_reference import PROBES, node, pod

pytest_plugins = ["pytester"]
ROOT = Path(__file__).resolve().parents[2]
HERE = __name__
HANDLERS = ("add_node", "update_node", "delete_node", "update_pod", "delete_pod")
needs_runner = pytest.mark.skipif(not executable(default_runner()),
                                  reason="needs harness/bin/runner (harness/build.sh)")


def drop_event_wake_ups(sched: Scheduler) -> None:
    """A node's add, update or delete and a pod's update or delete reach the cache, but no pending pod is
    woken (a pending pod's own update, its gates removed, never reaches the queue)."""
    update_pod = sched.update_pod

    def update(pod):
        old = sched.store.pods.get(pod.effective_uid)
        if old is not None and not old.node_name and not pod.node_name:
            sched.store.pods[pod.effective_uid] = pod
        else:
            update_pod(pod)
    sched.update_pod = update
    for name in HANDLERS:
        handler = getattr(sched, name)

        def quiet(*args, _handler=handler, **kwargs):
            move = sched.queue.move_all_to_active_or_backoff
            sched.queue.move_all_to_active_or_backoff = lambda *a, **k: None
            try:
                _handler(*args, **kwargs)
            finally:
                sched.queue.move_all_to_active_or_backoff = move
        setattr(sched, name, quiet)


def drops_wake_ups(*, extender_server=None) -> ReferenceBackend:
    """A `python:` backend: the reference with `drop_event_wake_ups`."""
    return ReferenceBackend(extender_server=extender_server, hook=drop_event_wake_ups)


def scenario(timeline: list, **objects) -> Scenario:
    return Scenario.from_dict({"config": PROBES, "nodes": [node()], "pods": [], "workload": [], **objects,
                               "timeline": timeline})


FREED = {"pods": [pod("big", node_name="n1")], "workload": [pod("p")]}
IDLE_DELETE = scenario([{"when": "idle", "op": "delete", "kind": "Pod", "name": "big"}], **FREED)
TIMED_DELETE = scenario([{"when": 2, "op": "delete", "kind": "Pod", "name": "big"}], **FREED)


def kinds(a: Run, b: Run) -> list[tuple[str, str]]:
    return [(d.kind, d.pod) for d in disagreements(a, b)]


@pytest.mark.parametrize("sc", [IDLE_DELETE, TIMED_DELETE], ids=["idle", "timed"])
def test_a_dropped_wake_up_is_a_pod_bound_on_one_side_only(sc):
    assert kinds(*run_both(ReferenceBackend(), ReferenceBackend(), sc)) == []
    assert kinds(*run_both(drops_wake_ups(), ReferenceBackend(), sc)) == [("schedulability", "default/p")]


@needs_runner
@pytest.mark.parametrize("sc", [IDLE_DELETE, TIMED_DELETE], ids=["idle", "timed"])
def test_upstream_and_the_reference_agree_though_upstream_applies_the_idle_event_later(sc):
    upstream = UpstreamBackend(observe=())
    try:
        a, b = run_both(ReferenceBackend(), upstream, sc)
    finally:
        upstream.close()
    if sc is IDLE_DELETE:
        assert a.outcome.timeline[0]["at"] < b.outcome.timeline[0]["at"]  # upstream's settle
    assert kinds(a, b) == [] and b.outcome.pods["default/p"].phase == "bound"


def _moved(run: Run, at: float, trace_t: float | None = None) -> Run:
    """The run with its one event applied at `at` (with `trace_t`, a call at that time after the others)."""
    trace = list(run.outcome.trace)
    if trace_t is not None:
        trace.append({**trace[-1], "seq": trace[-1]["seq"] + 1, "t": trace_t})
    outcome = dataclasses.replace(run.outcome, timeline=({"index": 0, "at": at},), trace=tuple(trace))
    return Run(run.scenario, outcome, run.capabilities)


def test_an_idle_event_applied_later_is_timing_only_when_work_ran_in_between():
    a, _ = run_both(ReferenceBackend(), ReferenceBackend(), IDLE_DELETE)
    broken, _ = run_both(drops_wake_ups(), ReferenceBackend(), IDLE_DELETE)
    at = a.outcome.timeline[0]["at"]
    quiet_later = _moved(broken, at + 1)
    assert not idle_moved(a, quiet_later) and ("schedulability", "default/p") in kinds(a, quiet_later)
    busy_later = _moved(broken, at + 1, trace_t=at + 0.5)  # the later side tried the pod before the event
    assert idle_moved(a, busy_later) and kinds(a, busy_later) == []


def test_an_idle_event_not_reached_before_the_deadline_is_timing_a_timed_one_is_not():
    a, _ = run_both(ReferenceBackend(), ReferenceBackend(), IDLE_DELETE)
    unapplied = Run(a.scenario, dataclasses.replace(a.outcome, timeline=()), a.capabilities)
    assert idle_not_reached(a, unapplied) and kinds(a, unapplied) == []
    t, _ = run_both(ReferenceBackend(), ReferenceBackend(), TIMED_DELETE)
    missed = Run(t.scenario, dataclasses.replace(t.outcome, timeline=()), t.capabilities)
    assert not idle_not_reached(t, missed) and ("timeline", "") in kinds(t, missed)


def test_the_search_shrinks_a_dropped_wake_up_small():
    strategy = timeline_scenarios_for(extenders=False)
    # Shrinking is deterministic up to its wall-clock cap: the ci profile's 60 s ran out at load average 10.
    failure = find_disagreement(drops_wake_ups(), ReferenceBackend(), strategy, shrink_seconds=300)
    assert failure is not None and "bound, gated or neither at the end" in str(failure.violation)
    sc = failure.scenario
    assert len(sc.nodes) <= 2 and len(sc.workload) <= 2 and 1 <= len(sc.timeline) <= 2, sc.to_json()


@pytest.fixture
def suite(pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    return pytester


def test_the_suite_catches_a_dropped_wake_up_with_a_reproducer(suite):
    backend = f"python:{HERE}:drops_wake_ups"
    result = suite.runpytest_subprocess("--pyargs", "conformance.suite", "-k",
                                        "differential and not test_invariant", "-p", "no:cacheprovider",
                                        "--conformance-profile", "ci", "--conformance-reproducers", "repro",
                                        "--conformance-backend", backend,
                                        "--conformance-compare", "reference")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*[[]differential[]] * and reference disagree on whether the pod is bound, "
                                 "gated or neither at the end*",
                                 "*Reproduce with: sched-conformance reproduce "
                                 "repro/differential-reference*"])
    directory = suite.path / "repro/differential-reference"
    assert json.loads((directory / "meta.json").read_text())["compare"] == "reference"
    assert json.loads((directory / "scenario.json").read_text()).get("timeline")
    reproduced = suite.run(sys.executable, "-m", "conformance.cli", "reproduce", str(directory))
    assert reproduced.ret == 1 and "REPRODUCED on python:" in reproduced.stdout.str()
