"""Which faults the local control plane injects, decided before anything starts (no cluster needed): the calls
and points `refuse_faults` takes, the binding call standing in for a point only where it is that point, and
drawn scenarios keeping only what a backend injects."""

from types import SimpleNamespace

import pytest

from conformance.backends.base import injectable, refuse_faults
from conformance.cluster.collector import ARRIVAL
from conformance.cluster.faults import (CAPABILITIES, DETAILS, ScenarioFaults, across_restarts,
                                        refuse_unobservable)
from conformance.cluster.naming import NamespaceMap
from conformance.core.errors import BackendFailure
from reference.scenario import Scenario

from ..conformance.test_timeline_reference import node, pod

P = "default/p"
V1 = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration"}


def _scenario(*faults: dict, config: dict | None = None, workload: list | None = None) -> Scenario:
    return Scenario.from_dict({"config": {**V1, **config} if config else None, "nodes": [node()],
                               "workload": workload or [pod("p")], "timeline": list(faults)})


def _check(scenario: Scenario) -> None:
    refuse_faults(scenario, "cluster", CAPABILITIES, DETAILS)
    refuse_unobservable(scenario)


@pytest.mark.parametrize("fault", [
    {"op": "fail", "call": "bind", "error": "conflict"},
    {"op": "fail", "call": "status", "error": "internal", "pod": P, "occurrence": 2, "times": 3},
    {"op": "fail", "call": "evict", "error": "timeout"},
    {"op": "fail", "call": "event", "error": "conflict"},
    {"op": "restart", "pod": P, "point": "bind"},
    {"op": "vanish", "pod": P, "point": "prebind", "object": "node"},
    {"op": "vanish", "pod": P, "point": "prebind", "object": "pod"},
])
def test_what_the_proxy_sees_is_accepted(fault):
    _check(_scenario(fault))


@pytest.mark.parametrize("fault, config, workload, start, names", [
    ({"op": "restart", "pod": P, "point": "permit"}, None, None, "scenario.timeline[0].point:", "'permit'"),
    ({"op": "vanish", "pod": P, "point": "reserve", "object": "pod"}, None, None,
     "scenario.timeline[0].point:", "'reserve'"),
    ({"op": "vanish", "pod": P, "point": "preempt", "object": "victim"}, None, None,
     "scenario.timeline[0].point:", "'preempt'"),
    ({"op": "fail", "call": "bind", "error": "conflict"},
     {"extenders": [{"urlPrefix": "http://x", "bindVerb": "b"}]}, None, "scenario.timeline[0]: the local",
     "config.extenders[0]"),
    ({"op": "restart", "pod": P, "point": "bind"}, {"profiles": [{"schedulerName": "default-scheduler",
                                                                  "plugins": {"bind": {"enabled": [
                                                                      {"name": "Probe0"}]}}}]},
     None, "scenario.timeline[0]: the local", "Probe0"),
    ({"op": "vanish", "pod": P, "point": "prebind", "object": "node"}, None,
     [pod("p", volumes=[{"name": "v", "persistentVolumeClaim": {"claimName": "c"}}])],
     "scenario.timeline[0]: the local", "pod p has claims"),
], ids=["restart-permit", "vanish-reserve", "vanish-victim", "extender-binder", "bind-probe", "volume-claim"])
def test_what_the_proxy_cannot_see_is_refused_in_one_line(fault, config, workload, start, names):
    with pytest.raises(BackendFailure) as failure:
        _check(_scenario(fault, config=config, workload=workload))
    message = str(failure.value)
    assert "\n" not in message and message.startswith(start) and names in message, message


def test_a_fail_fault_on_another_call_is_not_held_to_the_binding():
    # Only faults at the binding call depend on who binds; a status patch is the scheduler's own call.
    _check(_scenario({"op": "fail", "call": "status", "error": "conflict"},
                     config={"extenders": [{"urlPrefix": "http://x", "bindVerb": "b"}]}))


def test_drawn_scenarios_keep_only_the_faults_a_backend_injects():
    kept = {"op": "fail", "call": "bind", "error": "conflict"}
    dropped = {"op": "restart", "pod": P, "point": "reserve"}
    event = {"when": 1, "op": "delete", "kind": "Node", "name": "n1"}
    cluster = SimpleNamespace(name="cluster", capabilities=CAPABILITIES, check_faults=_check)
    assert injectable(_scenario(dropped, kept, event), cluster).timeline == (kept, event)
    plain = SimpleNamespace(name="plain", capabilities=frozenset())
    assert injectable(_scenario(kept, event), plain).timeline == (event,)
    same = _scenario(kept)
    assert injectable(same, cluster) is same


class _Proxy:
    def __init__(self, fired):
        self.fired, self.armed = fired, []

    def reset(self):
        pass

    def arm(self, fault):
        self.armed.append(fault)

    def firings(self, after, wait=0.0):
        return self.fired[after:]


def test_firings_become_the_outcome_in_scenario_names():
    nsmap = NamespaceMap.of("r1", 3, ["default"])
    cluster_pod = nsmap.key_to_cluster(P)
    proxy = _Proxy([{"index": 0, "at": 100.25, "pod": cluster_pod, "fault": "vanish", "detail": "prebind",
                     "object": f"Pod/{cluster_pod}"},
                    {"index": 1, "at": 100.5, "pod": cluster_pod, "fault": "fail", "detail": "bind"}])
    faults = ScenarioFaults(proxy, nsmap, kill=lambda: None, start=lambda: None, on_fire=lambda now: None)
    faults.stop()
    assert faults.outcome(start=100.0) == (
        {"index": 0, "at": 0.25, "pod": P, "fault": "vanish", "detail": "prebind", "object": f"Pod/{P}"},
        {"index": 1, "at": 0.5, "pod": P, "fault": "fail", "detail": "bind"})
    assert faults.vanished_pods() == {cluster_pod}
    assert faults.settles_after() == 100.5 + 1.0 + 1.0  # the first backoff and the backoffQ flush


def test_a_restarted_scheduler_continues_the_trace():
    # Old process: seq 0-2, pod a's attempt 1 and 2; it fires at 10.0, runs on fenced (seq 3 at 10.1: dropped),
    # dies at 10.5; the new one counts from scratch: seq 0-1, a's attempt 1 again, b's PreEnqueue (attempt 0).
    def rec(seq, pod, attempt, arrival, point="PreFilter"):
        return {"seq": seq, "pod": pod, "attempt": attempt, "point": point, ARRIVAL: arrival}
    records = [rec(1, "a", 2, 9.0), rec(0, "a", 1, 8.0), rec(2, "b", 1, 9.5), rec(3, "b", 1, 10.1, "Filter"),
               rec(1, "b", 0, 11.2, "PreEnqueue"), rec(0, "a", 1, 11.0)]
    got = across_restarts(records, [(10.0, 10.5)])
    assert [(r["seq"], r["pod"], r["attempt"], r[ARRIVAL]) for r in got] == [
        (0, "a", 1, 8.0), (1, "a", 2, 9.0), (2, "b", 1, 9.5), (3, "a", 3, 11.0), (4, "b", 1, 11.2)]
    assert across_restarts(records, []) is records
