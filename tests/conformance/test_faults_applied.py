"""`error: timeout-applied` (docs/scenario.md, Faults): the API server applied the binding yet answered 504.
The scheduler runs the binding-cycle failure path (Unreserve, ForgetPod, FailedScheduling), then sees the pod
bound through its watch and does not requeue it (handleSchedulingFailure: "Pod has been assigned to node.
Abort adding it back to queue."): bound once. The reference and the upstream runner agree; the invariants
accept it."""

from __future__ import annotations

import pytest

from conformance.backends.base import refuse_faults
from conformance.backends.reference import ReferenceBackend
from conformance.backends.upstream import UpstreamBackend, default_runner
from conformance.builds.stock import executable
from conformance.cluster.faults import CAPABILITIES as CLUSTER_FAULTS, ERRORS as CLUSTER_ERRORS
from conformance.core.errors import BackendFailure
from conformance.invariants import REGISTRY, Run
from reference.scenario import Scenario
from reference.timeline import TimelineError, timeline_events

from .invariants._kit import config
from .test_timeline_reference import node, pod

APPLIED = {"op": "fail", "call": "bind", "error": "timeout-applied", "pod": "p"}
CFG = config({"reserve": ["Probe0", "Probe1"], "postBind": ["Probe2"]})


def scenario(*timeline: dict) -> Scenario:
    return Scenario.from_dict({"config": CFG, "nodes": [node(cpu="2")], "workload": [pod("p"), pod("q")],
                               "timeline": list(timeline)})


def test_the_binding_lands_once_and_its_cycle_fails():
    out = ReferenceBackend().run(scenario(APPLIED))
    assert (out.pods["default/p"].phase, out.pods["default/p"].node, out.pods["default/p"].attempts) == \
        ("bound", "n1", 1)
    assert [b["pod"] for b in out.bindings].count("default/p") == 1
    assert [(r["point"], r["plugin"]) for r in out.calls(pod="default/p") if r["point"] != "Reserve"] == \
        [("Unreserve", "Probe1"), ("Unreserve", "Probe0")]
    assert ("FailedScheduling", 'running Bind plugin "DefaultBinder": Timeout: injected timeout') in \
        [(e["reason"], e["message"]) for e in out.events if e["pod"] == "default/p"]


def test_a_plain_timeout_applies_nothing_and_the_pod_is_retried():
    out = ReferenceBackend().run(scenario({**APPLIED, "error": "timeout"}))
    assert out.pods["default/p"].attempts == 2 and out.pods["default/p"].phase == "bound"


def test_the_invariants_accept_it():
    sc = scenario(APPLIED)
    run = Run(sc, ReferenceBackend().run(sc), ReferenceBackend.capabilities)
    for invariant in REGISTRY.values():
        invariant.check(run)
    assert run.binding_applied_yet_failed("default/p") and not run.binding_applied_yet_failed("default/q")


def test_only_a_binding_can_time_out_after_applying():
    bad = {**APPLIED, "call": "status"}
    with pytest.raises(TimelineError) as info:
        timeline_events(Scenario(nodes=(node(),), workload=(pod("p"),), timeline=(bad,)))
    assert str(info.value) == ("scenario.timeline[0].error: 'timeout-applied' is an error of the binding "
                               "only; use call: bind, or error: timeout")


def test_the_cluster_proxy_refuses_it_in_one_line():
    with pytest.raises(BackendFailure) as info:
        refuse_faults(scenario(APPLIED), "cluster", CLUSTER_FAULTS, errors=CLUSTER_ERRORS)
    assert str(info.value) == ("scenario.timeline[0].error: backend 'cluster' cannot answer a call with "
                               "'timeout-applied' (only conflict, internal, timeout); use one of those or "
                               "run it on --backend upstream or reference")


@pytest.mark.skipif(not executable(default_runner()), reason="needs harness/bin/runner (harness/build.sh)")
def test_upstream_agrees():
    sc = scenario(APPLIED)
    upstream = UpstreamBackend(observe=())
    try:
        out = upstream.run(sc)
    finally:
        upstream.close()
    ref = ReferenceBackend().run(sc)
    assert {k: (p.phase, p.node, p.attempts) for k, p in out.pods.items()} == \
        {k: (p.phase, p.node, p.attempts) for k, p in ref.pods.items()}
    assert sorted(b["pod"] for b in out.bindings) == sorted(b["pod"] for b in ref.bindings)
    points = [[r["point"] for r in o.calls(pod="default/p")] for o in (out, ref)]
    assert points[0] == points[1]
    assert [dict(f) for f in out.faults] == [dict(f) for f in ref.faults]
    for invariant in REGISTRY.values():
        if set(invariant.requires) <= upstream.capabilities:
            invariant.check(Run(sc, out, upstream.capabilities))
