"""permit-wait-resolution when signals are due at the same instant: upstream delivers whichever of them
reaches the waiting pod's channel first (waiting_pods_map.go), so each one is accepted, and nothing else."""

from __future__ import annotations

import pytest

from conformance.backends import make_backend
from conformance.backends.upstream import default_runner
from conformance.extender.server import ExtenderServer
from conformance.invariants import REGISTRY, Run

from ..mutants import _each_framework, _permit_timeout_ignored
from ._kit import config, node, pod, run_on_reference, scenario, violation

INV = REGISTRY["permit-wait-resolution"]


def _wait(timeout: str, then: dict | None = None) -> dict:
    return {"Permit": {"code": "Wait", "timeout": timeout, **({"then": then} if then else {})}}


def _sc(script: dict):
    return scenario([pod(probes=script)], nodes=(node(),), cfg=config(multi_point=tuple(script)))


def _timers_in_reverse(fw) -> None:
    """Upstream creates the timers in map order: the last plugin's timer may fire first."""
    original = fw.add_waiting_pod
    fw.add_waiting_pod = lambda p, waits: original(p, dict(reversed(waits.items())))


def _timers_renamed(fw) -> None:
    """Broken: each timer reports the previous plugin's name (the first the last's), so the first timeout names a
    plugin not due then."""
    original = fw.add_waiting_pod

    def add(p, waits):
        names = list(waits)
        return original(p, {names[i - 1]: t for i, t in enumerate(waits.values())})
    fw.add_waiting_pod = add


def _timeout_messages(run) -> str:
    return " ".join(e.get("message", "") for e in run.outcome.events)


def test_either_simultaneous_timeout_is_accepted() -> None:
    sc = _sc({"Probe0": _wait("1s"), "Probe1": _wait("1s")})
    first, second = run_on_reference(sc), run_on_reference(sc, hook=_each_framework(_timers_in_reverse))
    assert "at plugin Probe0" in _timeout_messages(first) and "Probe1" not in _timeout_messages(first)
    assert "at plugin Probe1" in _timeout_messages(second) and "Probe0" not in _timeout_messages(second)
    INV.check(first)
    INV.check(second)


def test_allow_due_with_the_timeout_may_win_or_lose() -> None:
    """Probe0's allow and its own timeout are both due at +1s: bound or rejected, both legitimate."""
    sc = _sc({"Probe0": _wait("1s", {"signal": "allow", "after": "1s"}), "Probe1": _wait("2s", {
        "signal": "allow", "after": "500ms"})})
    run = run_on_reference(sc)
    INV.check(run)
    assert run.outcome.pods["default/pod-0"].phase == "bound"
    timed_out = run_on_reference(_sc({"Probe0": _wait("1s"), "Probe1": _wait("2s", {
        "signal": "allow", "after": "500ms"})}))
    assert timed_out.outcome.pods["default/pod-0"].phase != "bound"
    INV.check(timed_out)


def test_a_timeout_naming_a_plugin_not_due_is_caught() -> None:
    sc = _sc({"Probe0": _wait("1s"), "Probe1": _wait("1s"), "Probe2": _wait("2s")})
    INV.check(run_on_reference(sc))
    caught = violation(INV, run_on_reference(sc, hook=_each_framework(_timers_renamed)))
    assert "does not name a plugin" in str(caught)


def test_simultaneous_timeouts_ignored_are_caught() -> None:
    violation(INV, run_on_reference(_sc({"Probe0": _wait("1s"), "Probe1": _wait("1s")}),
                                    hook=_each_framework(_permit_timeout_ignored)))


def test_a_reject_due_with_a_timeout_may_name_either() -> None:
    """Probe1's reject and Probe0's timeout are both due at +1s."""
    sc = _sc({"Probe0": _wait("1s"), "Probe1": _wait("2s", {"signal": "reject", "after": "1s", "message": "no"})})
    INV.check(run_on_reference(sc))
    INV.check(run_on_reference(sc, hook=_each_framework(_timers_in_reverse)))


@pytest.mark.skipif(not default_runner().is_file(), reason="harness/bin/runner is not built; run `harness/build.sh`")
def test_upstream_names_either_plugin_and_passes():
    """Upstream itself: timers made in map order, their goroutines racing to the channel (measured 22 x Probe0,
    18 x Probe1 in 40 runs); all 30 runs name one of the two and pass (both appear, but for 2 in 10^9)."""
    sc = _sc({"Probe0": _wait("1s"), "Probe1": _wait("1s")})
    named = set()
    with ExtenderServer() as server:
        backend = make_backend("upstream", extender_server=server)
        try:
            for _ in range(30):
                run = Run(sc, backend.run(sc), frozenset(backend.capabilities))
                INV.check(run)
                named |= {p for p in ("Probe0", "Probe1") if f"at plugin {p}" in _timeout_messages(run)}
        finally:
            backend.close()
    assert named == {"Probe0", "Probe1"}


@pytest.mark.parametrize("code", ["Unschedulable", "Error"])
def test_a_preflight_failure_before_the_wait_is_accepted(code: str) -> None:
    """PreBindPreFlight runs before WaitOnPermit (schedule_one.go bindingCycle): its failure ends the attempt
    while Probe0's allow is still due, and the pod never goes on to binding. Upstream does the same."""
    sc = _sc({"Probe0": _wait("2s", {"signal": "allow", "after": "1s"}), "Probe1": {"PreBindPreFlight": {"code": code}}})
    runs = [run_on_reference(sc)]
    if default_runner().is_file():
        with ExtenderServer() as server:
            backend = make_backend("upstream", extender_server=server)
            try:
                runs.append(Run(sc, backend.run(sc), frozenset(backend.capabilities)))
            finally:
                backend.close()
    for run in runs:
        first = run.probe_records("default/pod-0", 1)
        assert [r["code"] for r in first if r["point"] == "PreBindPreFlight"] == ["Success", code]
        assert not [r for r in first if r["point"] in ("PreBind", "Bind")]
        INV.check(run)
