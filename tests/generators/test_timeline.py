"""Drawn timelines (generators/_timeline.py): valid by construction, every relevant kind drawn, opt-in only,
and shrinking towards fewer, earlier, simpler events and smaller scenarios."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any, Mapping

import pytest
from hypothesis import find, given, settings

from conformance.backends.reference import ReferenceBackend
from generators import scenarios, timelines, with_timeline
from generators._timeline import KINDS, _repels
from generators.pools import HOSTNAME
from reference.scenario import Scenario, pod_key
from reference.timeline import TimelineState, timeline_events

from ..conformance.test_timeline_reference import node, pod
from .support import FAST, sample

DRAWN = dict(gates=True, timeline=3, probes=0, default_plugins=True, max_nodes=3, max_pods=4)


def kind_of(scenario: Scenario, event: Mapping[str, Any], state: TimelineState) -> str:
    """The KINDS name of a drawn event (by what it changes), judged on the cluster before it."""
    op, patch = event["op"], event.get("patch") or {}
    if op == "create":
        return "add-node"
    if op == "delete" and event["kind"] == "Node":
        return "delete-node"
    if op == "delete":
        workload = {pod_key(m) for m in scenario.workload}
        pending = [m for (k, key), m in state.objects.items() if k == "Pod" and key in workload]
        bound = state.get("Pod", f"{event['namespace']}/{event['name']}")
        return "delete-repeller" if any(_repels(p, bound) for p in pending) else "delete-bound-pod"
    spec, meta = patch.get("spec") or {}, patch.get("metadata") or {}
    if event["kind"] == "Node":
        return "untaint-node" if "taints" in spec else "relabel-node" if "labels" in meta else "annotate-node"
    return {"schedulingGates": "ungate-pod", "containers": "lower-requests",
            "tolerations": "add-toleration"}.get(next(iter(spec), ""), "annotate-pod")


def kinds(drawn: list[Scenario]) -> Counter:
    out: Counter = Counter()
    for sc in drawn:
        state = TimelineState.of(sc)
        for parsed, raw in zip(timeline_events(sc), sc.timeline):
            out[kind_of(sc, raw, state)] += 1
            state.apply(parsed)
    return out


@pytest.fixture(scope="module")
def drawn() -> list[Scenario]:
    return sample(scenarios(**DRAWN), 300)


def test_every_draw_is_a_valid_scenario(drawn):
    for sc in drawn:
        again = Scenario.from_dict(sc.to_dict())  # validates the timeline against the scenario
        assert again.timeline == sc.timeline
    assert sum(bool(sc.timeline) for sc in drawn) > 120
    assert any(e["when"] == "idle" for sc in drawn for e in sc.timeline)
    assert any(isinstance(e["when"], int) and e["when"] > 0 for sc in drawn for e in sc.timeline)


@settings(FAST, max_examples=40)
@given(with_timeline(scenarios(gates=True, preemption=True), max_events=3))
def test_with_timeline_draws_valid_scenarios(sc):
    Scenario.from_dict(sc.to_dict())


# Kinds that need a situation few drawn scenarios have (a gated pod; a bound pod a pending pod's anti-affinity
# selects): their count in a sample of drawn scenarios swings from 0 to 25 with the draws, so each is pinned
# on a scenario that has its situation instead.
SITUATIONAL = {"ungate-pod", "delete-repeller"}


def test_each_kind_is_drawn(drawn):
    counts = kinds(drawn)
    assert {k: counts[k] for k in KINDS if counts[k] < 3 and k not in SITUATIONAL} == {}, counts


SITUATIONS = {
    "delete-repeller": Scenario.from_dict({
        "nodes": [node(n, cpu="4", labels={HOSTNAME: n}) for n in ("n1", "n2")],
        "pods": [pod("db", node_name="n1", labels={"app": "db"})],
        "workload": [pod("p", affinity={"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
            {"labelSelector": {"matchLabels": {"app": "db"}}, "topologyKey": HOSTNAME}]}})]}),
    "ungate-pod": Scenario.from_dict({
        "nodes": [node("n1", cpu="4", labels={HOSTNAME: "n1"})],
        "workload": [pod("p", schedulingGates=[{"name": "example.com/wait"}])]}),
}


@pytest.mark.parametrize("kind", sorted(SITUATIONAL))
def test_a_situational_kind_is_drawn_often_where_it_applies(kind):
    scenario = SITUATIONS[kind]
    drawn = sample(timelines(scenario, max_events=3), 100)
    counts = kinds([dataclasses.replace(scenario, timeline=t) for t in drawn])
    # While it applies each is drawn for at least 2 of the 17 starting points of an event (ungating for 4):
    # 30 ungatings and 63 repeller deletions here; a kind the drawing never reaches would have none.
    assert counts[kind] >= 15, counts


def test_without_the_opt_in_nothing_changes():
    plain = sample(scenarios(gates=True), 20)
    assert all(not sc.timeline for sc in plain)
    assert set(sample(timelines(plain[0], max_events=0), 3)) == {()}
    with pytest.raises(ValueError, match="timeline=-1"):
        scenarios(timeline=-1)


def _needs_an_event(sc: Scenario) -> bool:
    """A pod the run binds with the timeline stays unbound without it."""
    if not sc.timeline:
        return False
    backend = ReferenceBackend()
    with_events = backend.run(sc).pods
    without = backend.run(Scenario.from_dict({**sc.to_dict(), "timeline": []})).pods
    return any(r.phase == "bound" and without.get(k) is not None and without[k].phase != "bound"
               for k, r in with_events.items())


def test_a_scenario_needing_one_event_shrinks_to_one_event_one_node_one_pod():
    small = {**DRAWN, "max_nodes": 2, "max_pods": 2, "timeline": 2}
    found = find(scenarios(**small), _needs_an_event, settings=settings(FAST, max_examples=150))
    assert len(found.timeline) == 1
    assert len(found.nodes) == 1 and len(found.workload) == 1 and len(found.pods) <= 1
    assert found.timeline[0]["when"] == "idle"


def test_timelines_of_chosen_kinds_follow_the_events_already_there():
    first = sample(timelines(SITUATIONS["delete-repeller"], min_events=1, max_events=1, kinds=["delete-node"]), 20)
    assert {len(t) for t in first} == {1} and {e["kind"] for t in first for e in t} == {"Node"}
    sc = dataclasses.replace(SITUATIONS["delete-repeller"], timeline=first[0])
    gone = first[0][0]["name"]
    for more in sample(timelines(sc, min_events=1, max_events=2, kinds=["delete-node", "relabel-node"]), 20):
        assert 1 <= len(more) and all(e.get("name") != gone for e in more), more  # drawn after the deletion
        Scenario.from_dict({**sc.to_dict(), "timeline": [*sc.timeline, *more]})
    with pytest.raises(ValueError, match="'delete-everything' is not a timeline event kind"):
        timelines(sc, kinds=["delete-everything"])
    with pytest.raises(ValueError, match="min_events=3"):
        timelines(sc, min_events=3, max_events=2)


def test_lowered_requests_are_what_pods_resize_accepts(drawn):
    """Only cpu and memory resize in place, and the QoS class stays (reference/resize.py): an extended resource's
    request must equal its limit, so halving it alone was refused by the API server on a cluster."""
    lowered = 0
    for sc in drawn:
        state = TimelineState.of(sc)
        for parsed, raw in zip(timeline_events(sc), sc.timeline):
            if kind_of(sc, raw, state) == "lower-requests":
                before = state.get("Pod", f"{raw['namespace']}/{raw['name']}")
                for old, new in zip(before["spec"]["containers"], raw["patch"]["spec"]["containers"]):
                    was, now = (((c.get("resources") or {}).get("requests") or {}) for c in (old, new))
                    assert set(now) == set(was) and (old.get("resources") or {}).get("limits") == \
                        (new.get("resources") or {}).get("limits")
                    assert {r for r in was if was[r] != now[r]} <= {"cpu", "memory"}, (was, now)
                lowered += 1
            state.apply(parsed)
    assert lowered >= 5


@settings(FAST, max_examples=40)
@given(with_timeline(scenarios(gates=True, max_nodes=1, default_plugins=True), max_events=3, min_events=1,
                     idle_only=True))
def test_idle_only_timelines_wait_for_idle(sc):
    # For a backend on a wall clock (the cluster differential): no event at a drawn second races a cycle.
    assert sc.timeline and all(e["when"] == "idle" for e in sc.timeline)
