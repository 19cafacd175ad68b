"""`op: lag` (docs/scenario.md, Faults): a node's watch events reach the scheduler `delay` virtual seconds
late while the API server holds the change at once. Validated in one line naming the entry; the reference
and the upstream runner agree on what the scheduler does meanwhile; the invariants judge the cluster the
scheduler saw; backends without `fault-lag` refuse it."""

from __future__ import annotations

from typing import Any

import pytest

from conformance.backends.base import refuse_faults
from conformance.backends.reference import ReferenceBackend
from conformance.backends.upstream import UpstreamBackend, default_runner
from conformance.builds.stock import executable
from conformance.cluster.faults import CAPABILITIES as CLUSTER_FAULTS
from conformance.core.errors import BackendFailure
from conformance.invariants import REGISTRY, Run
from reference.scenario import Scenario
from reference.timeline import TimelineError, timeline_events

from .test_timeline_reference import node, pod


def lag(name: str = "n1", delay: float = 2, **extra: Any) -> dict[str, Any]:
    return {"op": "lag", "kind": "Node", "name": name, "delay": delay, **extra}


def scenario(*timeline: dict, nodes=None, workload=()) -> Scenario:
    return Scenario.from_dict({"nodes": nodes if nodes is not None else [node()], "workload": list(workload),
                               "timeline": list(timeline)})


# q comes after n1's deletion applied, but before the scheduler saw it: the binding to n1 is legitimate.
DELETED_UNSEEN = scenario(lag(), {"when": 0.5, "op": "delete", "kind": "Node", "name": "n1"},
                          {"when": 1, "op": "create", "object": pod("q", cpu="100m")})
# n2 is created at 0.5 but seen at 2.5: p, which fits only there, waits for it.
CREATED_LATE = scenario(lag("n2"), {"when": 0.5, "op": "create", "object": node("n2", cpu="2")},
                        workload=[pod("p", cpu="2")])
# A restart at s's Reserve (s ungated at 1) lists n2 from the API server: p no longer waits for the lagged
# add (at 10.5).
RESTART_LISTS = scenario(lag("n2", 10), {"op": "restart", "pod": "s", "point": "reserve"},
                         {"when": 0.5, "op": "create", "object": node("n2", cpu="2")},
                         {"when": 1, "op": "update", "kind": "Pod", "name": "s",
                          "patch": {"spec": {"schedulingGates": None}}},
                         workload=[pod("p", cpu="2"), pod("s", cpu="100m", schedulingGates=[{"name": "g"}])])
# An update that makes n1 fit is seen 3 s late.
UPDATED_LATE = scenario(lag(delay=3), {"when": 1, "op": "update", "kind": "Node", "name": "n1",
                                       "patch": {"status": {"allocatable": {"cpu": "4"}}}},
                        workload=[pod("p", cpu="2")])
SCENARIOS = {"deleted-unseen": DELETED_UNSEEN, "created-late": CREATED_LATE, "restart-lists": RESTART_LISTS,
             "updated-late": UPDATED_LATE}


@pytest.mark.parametrize("entry, message", [
    (lag(kind="Pod"),
     "scenario.timeline[0].kind: 'Pod' is not a kind whose watch events can lag; use kind: Node"),
    ({"op": "lag", "kind": "Node", "delay": 1},
     "scenario.timeline[0].name: None is not a node name; name the node whose events lag"),
    (lag(delay=0), "scenario.timeline[0].delay: 0 is not a delay; use virtual seconds > 0"),
    (lag(delay="2s"), "scenario.timeline[0].delay: '2s' is not a delay; use virtual seconds > 0"),
    (lag("n9"), "scenario.timeline[0].name: node 'n9' is neither a node of the scenario nor one the timeline "
                "creates; name one of them"),
    (lag(pod="p"), "scenario.timeline[0].pod: a lag fault has no field 'pod'; drop it (its fields: when, op, "
                   "kind, name, delay)"),
])
def test_a_bad_lag_is_one_line_naming_the_entry(entry, message):
    with pytest.raises(TimelineError) as info:
        timeline_events(Scenario(nodes=(node(),), workload=(pod("p"),), timeline=(entry,)))
    assert str(info.value) == message


def test_the_scheduler_binds_to_a_node_it_has_not_seen_deleted():
    out = ReferenceBackend().run(DELETED_UNSEEN)
    assert (out.pods["default/q"].phase, out.pods["default/q"].node) == ("bound", "n1")
    assert [dict(f) for f in out.faults] == [{"index": 0, "at": 0.5, "pod": "", "fault": "lag",
                                              "detail": "delete", "object": "Node/n1", "seen": 2.5}]
    # Without the lag q comes after the deletion and finds no node.
    plain = ReferenceBackend().run(scenario(*DELETED_UNSEEN.timeline[1:]))
    assert plain.pods["default/q"].phase == "unschedulable" and not plain.faults


@pytest.mark.parametrize("name, bound_at",
                         [("created-late", 2.5), ("updated-late", 4.0), ("restart-lists", 1.0)])
def test_a_pod_waits_for_the_lagged_change_unless_a_restart_lists_it(name, bound_at):
    out = ReferenceBackend().run(SCENARIOS[name])
    assert out.pods["default/p"].phase == "bound"
    assert [b["t"] for b in out.bindings if b["pod"] == "default/p"] == [bound_at]


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_invariants_accept_what_the_lag_allows(name):
    sc = SCENARIOS[name]
    run = Run(sc, ReferenceBackend().run(sc), ReferenceBackend.capabilities)
    for invariant in ("deleted-node-unused", "fit-error-counts-nodes", "event-wakes-pending-pod",
                      "no-room-leaked", "bound-at-most-once", "capacity-respected", "schedulable-pods-bound"):
        REGISTRY[invariant].check(run)


def test_backends_without_fault_lag_refuse_it_in_one_line():
    assert "fault-lag" not in CLUSTER_FAULTS
    with pytest.raises(BackendFailure) as info:
        refuse_faults(DELETED_UNSEEN, "cluster", CLUSTER_FAULTS)
    assert str(info.value) == ("scenario.timeline[0]: backend 'cluster' cannot inject a lag fault (no "
                               "capability fault-lag); drop the fault or run it on --backend reference")


@pytest.fixture(scope="module")
def upstream():
    if not executable(default_runner()):
        pytest.skip("needs harness/bin/runner (harness/build.sh)")
    backend = UpstreamBackend(observe=())
    yield backend
    backend.close()


def _comparable(out) -> tuple:
    pods = {k: (p.phase, p.node) for k, p in out.pods.items()}
    bindings = [(b["pod"], b["node"], round(float(b["t"]), 6)) for b in out.bindings]
    faults = [{k: round(float(v), 6) if k in ("at", "seen") else v for k, v in f.items()} for f in out.faults]
    return pods, bindings, faults


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_upstream_agrees_with_the_reference(upstream, name):
    assert "fault-lag" in upstream.capabilities
    sc = SCENARIOS[name]
    assert _comparable(upstream.run(sc)) == _comparable(ReferenceBackend().run(sc))
