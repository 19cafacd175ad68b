"""The properties' judgements on answers made up in Python (no Go): each catches what it must and passes the rest."""

from __future__ import annotations

import pytest

from conformance.contracts import PANIC, REGISTRY, ContractViolation
from conformance.contracts.calls import cycle, verdicts
from conformance.contracts.inputs import PluginInput, QueuedPods

NODE = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-0"}}
POD = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "pod-0"}, "spec": {"containers": []}}


class LessDriver:
    """Answers lessMatrix with `less` over the queued pods' priorities."""
    points = frozenset({"queueSort"})
    plugin = "Fake"

    def __init__(self, less):
        self.less = less

    def run(self, calls):
        prios = [q["pod"]["spec"].get("priority", 0) for q in calls[0]["queued"]]
        return [{"code": "Success", "less": [[self.less(a, b) for b in prios] for a in prios]}]


def queue(*priorities: int) -> QueuedPods:
    return QueuedPods(tuple({"pod": {**POD, "metadata": {"name": f"pod-{i}"}, "spec": {"priority": p}},
                             "timestamp": 0} for i, p in enumerate(priorities)))


@pytest.mark.parametrize("less, broken", [
    (lambda a, b: a > b, None),
    (lambda a, b: a >= b, "not irreflexive"),
    (lambda a, b: a != b, "not asymmetric"),
    (lambda a, b: (a, b) in ((1, 2), (2, 3)), "not transitive"),
    (lambda a, b: (a, b) == (1, 3), "incomparability is not transitive"),
])
def test_strict_weak_order_judges_less(less, broken):
    check = REGISTRY["queuesort-strict-weak-order"].check
    if broken is None:
        assert check(LessDriver(less), queue(1, 2, 3))
        return
    with pytest.raises(ContractViolation, match=broken) as caught:
        check(LessDriver(less), queue(1, 2, 3))
    assert caught.value.property_id == "queuesort-strict-weak-order"


class PanicDriver:
    points = frozenset({"filter"})
    plugin = "Fake"

    def run(self, calls):
        return [{"panic": "boom"} if c["point"] == "filter" else {"code": "Success"} for c in calls]


def test_a_panic_under_any_property_is_plugin_no_panic():
    inp = PluginInput((NODE,), (), POD)
    with pytest.raises(ContractViolation) as caught:
        REGISTRY["plugin-no-input-mutation"].check(PanicDriver(), inp)
    assert caught.value.property_id == PANIC and "filter panicked: boom" in caught.value.message


def test_a_cycle_calls_only_what_the_framework_would():
    inp = PluginInput((NODE, {**NODE, "metadata": {"name": "node-1"}}), (), POD)
    calls = cycle({"preFilter", "filter", "score"}, inp, POD)
    assert [c["point"] for c in calls] == ["snapshot", "preFilter", "filter", "filter", "scores"]
    assert calls[2]["when"] == 1 and calls[4]["unless"] == 1
    results = [{}, {"code": "Success", "nodeNames": ["node-1"]}, {"skipped": True}, {"code": "Success"}, {}]
    assert verdicts(inp, calls, results, 1, 2) == {"node-0": False, "node-1": True}
    assert verdicts(inp, calls, [{}, {"code": "Skip"}, {}, {}, {}], 1, 2) == {"node-0": True, "node-1": True}


def test_every_property_names_its_upstream_source():
    for prop in REGISTRY.values():
        assert prop.statement and ("pkg/scheduler" in prop.source or "kube-scheduler/framework" in prop.source)


class CrashingDriver:
    """Dies on its first sequence, as a driver whose plugin hit a Go fatal error (or the race detector) would."""
    points = frozenset({"filter"})
    plugin = "Fake"

    def __init__(self, output: str) -> None:
        self.output, self.restarts = output, 0

    def run(self, calls):
        from conformance.contracts.driver import DriverCrash
        raise DriverCrash("the plugin driver (driver) exited with status 2", self.output)

    def restart(self):
        self.restarts += 1


@pytest.mark.parametrize("output, property_id", [
    ("fatal error: concurrent map writes\n", PANIC),
    ("==================\nWARNING: DATA RACE\nWrite at 0x00c by goroutine 7:\n", "plugin-race-free"),
])
def test_a_dead_driver_is_a_violation_and_is_restarted(output, property_id):
    driver = CrashingDriver(output)
    with pytest.raises(ContractViolation) as caught:
        REGISTRY["plugin-no-panic"].check(driver, PluginInput((NODE,), (), POD))
    assert caught.value.property_id == property_id and driver.restarts == 1
    assert output.strip().splitlines()[-1] in caught.value.message
