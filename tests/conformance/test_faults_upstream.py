"""The upstream runner injects a scenario's timeline faults (issue 31) into the real scheduler: a failed binding
is retried after upstream's failure path, a node vanishing at Permit leaves the binding to go on, a restart at
PreBind leaves the pod to the new scheduler, which binds it once; each firing is in Outcome.faults."""

from __future__ import annotations

from typing import Any

import pytest

from conformance.backends.reference import ReferenceBackend
from conformance.backends.upstream import UpstreamBackend, default_runner
from conformance.builds.stock import executable
from reference.scenario import Scenario

from .test_timeline_reference import PROBES, node, pod

pytestmark = pytest.mark.skipif(not executable(default_runner()), reason="needs harness/bin/runner (harness/build.sh)")

WAIT = {"Probe0": {"Permit": {"code": "Wait", "timeout": "10s", "then": {"signal": "allow", "after": "1s"}}}}


@pytest.fixture(scope="module")
def upstream():
    backend = UpstreamBackend(observe=())
    yield backend
    backend.close()


def scenario(fault: dict[str, Any], *, probe: dict | None = None) -> Scenario:
    # Built directly: the fault format is validated by reference/ (issue 31, another branch); the runner
    # checks the shape itself too.
    return Scenario(config=PROBES, nodes=(node("n1", cpu="2"),), workload=(pod("p", probe=probe),),
                    timeline=(fault,))


def firing(fault: str, detail: str, at: float = 0.0, **extra: str) -> dict[str, Any]:
    return {"index": 0, "at": at, "pod": "default/p", "fault": fault, "detail": detail, **extra}


def test_upstream_declares_the_fault_capabilities(upstream):
    assert {"fault-fail", "fault-vanish", "fault-restart"} <= upstream.capabilities


def test_failed_binding_is_retried(upstream):
    out = upstream.run(scenario({"op": "fail", "call": "bind", "error": "conflict", "pod": "default/p"}))
    assert (out.pods["default/p"].phase, out.pods["default/p"].node, out.pods["default/p"].attempts) == ("bound", "n1", 2)
    assert [dict(f) for f in out.faults] == [firing("fail", "bind")]
    assert [r["point"] for r in out.calls(pod="default/p", attempt=1)][-2:] == ["Unreserve", "PreEnqueue"]
    assert len(out.bindings) == 1 and out.bindings[0]["t"] >= 1.0  # after the 1 s backoff
    assert [e["index"] for e in out.timeline] == [0]


def test_node_vanishing_at_permit(upstream):
    out = upstream.run(scenario({"op": "vanish", "pod": "default/p", "point": "permit", "object": "node"}, probe=WAIT))
    assert [dict(f) for f in out.faults] == [firing("vanish", "permit", object="Node/n1")]
    # Upstream lets the waiting pod go on; the API server binds to a node that no longer exists.
    assert (out.pods["default/p"].phase, out.pods["default/p"].node) == ("bound", "n1")
    assert [b["t"] for b in out.bindings] == [1.0]


def test_restart_at_prebind_binds_once(upstream):
    out = upstream.run(scenario({"op": "restart", "pod": "default/p", "point": "prebind"}, probe=WAIT))
    assert [dict(f) for f in out.faults] == [firing("restart", "prebind", at=1.0)]
    assert out.pods["default/p"].phase == "bound" and len(out.bindings) == 1
    # The stopped scheduler records nothing more: its attempt ends at PreBindPreFlight/Allow, the new one binds.
    assert "Unreserve" not in [r["point"] for r in out.calls(pod="default/p", attempt=1)]
    assert "PostBind" in [r["point"] for r in out.calls(pod="default/p", attempt=2)]


@pytest.mark.parametrize("times", [1, 2, 3])
def test_retries_are_spaced_as_the_reference_spaces_them(upstream, times):
    # retry.DefaultBackoff: 10 ms, x5, with up to 10 % random jitter upstream (none in the reference).
    sc = scenario({"op": "fail", "call": "bind", "error": "internal", "pod": "default/p", "times": times})
    out, ref = upstream.run(sc), ReferenceBackend().run(sc)
    for got, want in [(b["t"], r["t"]) for b, r in zip(out.bindings, ref.bindings)] + \
            [(f["at"], r["at"]) for f, r in zip(out.faults, ref.faults)]:
        assert want <= got <= want * 1.1 + 1e-6
    assert len(out.bindings) == len(ref.bindings) == 1 and len(out.faults) == len(ref.faults) == times
