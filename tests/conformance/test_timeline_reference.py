"""The reference backend applies a scenario's timeline: timed events at their virtual time, idle events
when the scheduler is idle, in order; the outcome reports what applied and the pods as they end."""

import json
from typing import Any

import pytest

from conformance.backends.reference import ReferenceBackend
from conformance.core.outcome import Outcome
from reference.scenario import PROBE_SCRIPT_ANNOTATION, Scenario

PROBES = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
          "profiles": [{"schedulerName": "default-scheduler",
                        "plugins": {"multiPoint": {"enabled": [{"name": "Probe0"}]}}}]}
TAINT = {"key": "maintenance", "value": "x", "effect": "NoSchedule"}


def node(name: str = "n1", cpu: str = "1", labels: dict | None = None,
         taints: list | None = None) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": labels or {}},
            "spec": {"taints": taints or []},
            "status": {"allocatable": {"cpu": cpu, "memory": "1Gi", "pods": "10"}}}


def pod(name: str, cpu: str = "1", node_name: str = "", labels: dict | None = None, probe: dict | None = None,
        **spec: Any) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name, "labels": labels or {}}
    if probe is not None:
        meta["annotations"] = {PROBE_SCRIPT_ANNOTATION: json.dumps(probe)}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta,
            "spec": {**({"nodeName": node_name} if node_name else {}),
                     "containers": [{"name": "c", "resources": {"requests": {"cpu": cpu}}}], **spec}}


def run(timeline: list, *, nodes=None, pods=(), workload=(), config=None, deadline=None) -> Outcome:
    data: dict[str, Any] = {"nodes": nodes if nodes is not None else [node()], "pods": list(pods),
                            "workload": list(workload), "timeline": timeline}
    if config is not None:
        data["config"] = config
    if deadline is not None:
        data["deadline"] = deadline
    return ReferenceBackend().run(Scenario.from_dict(data))


def phases(out: Outcome) -> dict[str, tuple[str, str]]:
    return {key: (p.phase, p.node) for key, p in out.pods.items()}


FULL = {"pods": [pod("big", node_name="n1")], "workload": [pod("p")]}


def test_without_timeline_the_pod_stays_unschedulable():
    out = run([], **FULL)
    assert phases(out) == {"default/p": ("unschedulable", "")}
    assert out.timeline == () and "timeline" not in out.to_dict()


@pytest.mark.parametrize("when, at", [(2.5, 2.5), ("idle", 0.0)], ids=["timed", "idle"])
def test_deleting_the_bound_pod_frees_its_room(when, at):
    out = run([{"when": when, "op": "delete", "kind": "Pod", "name": "big"}], **FULL)
    assert phases(out) == {"default/p": ("bound", "n1")}
    assert out.timeline == ({"index": 0, "at": at},)
    assert [(b["pod"], b["t"]) for b in out.bindings] == [("default/p", at)]
    assert out.deleted == ()  # the scheduler deleted nothing


def test_idle_event_applies_after_the_last_cycle():
    waits = {"Probe0": {"Permit": {"code": "Wait", "timeout": "10s",
                                   "then": {"signal": "allow", "after": "3s"}}}}
    out = run([{"when": "idle", "op": "delete", "kind": "Pod", "name": "big"}],
              nodes=[node(), node("n2", labels={"kubernetes.io/hostname": "n2"})],
              pods=[pod("big", node_name="n1")],
              workload=[pod("w", probe=waits, nodeSelector={"kubernetes.io/hostname": "n2"}), pod("p")],
              config=PROBES)
    # w waits at Permit on n2 until 3 s, so the scheduler is first idle after w's binding, at 3 s.
    assert out.timeline == ({"index": 0, "at": 3.0},)
    assert phases(out) == {"default/w": ("bound", "n2"), "default/p": ("bound", "n1")}
    assert [(b["pod"], b["t"]) for b in out.bindings] == [("default/w", 3.0), ("default/p", 3.0)]


def test_a_timed_event_whose_time_passed_applies_right_after_the_previous():
    out = run([{"when": 4, "op": "update", "kind": "Node", "name": "n1",
                "patch": {"metadata": {"labels": {"a": "b"}}}},
               {"when": 1, "op": "delete", "kind": "Pod", "name": "big"}], **FULL)
    assert out.timeline == ({"index": 0, "at": 4.0}, {"index": 1, "at": 4.0})
    assert phases(out) == {"default/p": ("bound", "n1")}


def test_a_created_node_receives_the_pending_pod():
    out = run([{"when": 1, "op": "create", "object": node("n2")}], **FULL)
    assert phases(out) == {"default/p": ("bound", "n2")}
    assert out.bindings[0]["t"] == 1.0


def test_a_relabelled_node_matches_the_affinity():
    out = run([{"when": "idle", "op": "update", "kind": "Node", "name": "n1",
                "patch": {"metadata": {"labels": {"zone": "b"}}}}],
              workload=[pod("p", nodeSelector={"zone": "b"})])
    assert phases(out) == {"default/p": ("bound", "n1")}
    assert out.pods["default/p"].attempts == 2


def test_a_removed_taint_lets_the_pod_in():
    out = run([{"when": 2, "op": "update", "kind": "Node", "name": "n1", "patch": {"spec": {"taints": []}}}],
              nodes=[node(taints=[TAINT])], workload=[pod("p")])
    assert phases(out) == {"default/p": ("bound", "n1")}
    assert out.bindings[0]["t"] == 2.0


def test_an_added_toleration_lets_the_pod_in():
    out = run([{"when": 1, "op": "update", "kind": "Pod", "name": "p",
                "patch": {"spec": {"tolerations": [{"key": "maintenance", "operator": "Exists"}]}}}],
              nodes=[node(taints=[TAINT])], workload=[pod("p")])
    assert phases(out) == {"default/p": ("bound", "n1")}


def test_lowered_requests_fit():
    out = run([{"when": 1, "op": "update", "kind": "Pod", "name": "p", "patch": {
        "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "500m"}}}]}}}],
              pods=[pod("half", cpu="500m", node_name="n1")], workload=[pod("p")])
    assert phases(out) == {"default/p": ("bound", "n1")}


def test_a_removed_gate_lets_the_pod_be_scheduled():
    gated = pod("p", schedulingGates=[{"name": "example.com/wait"}])
    assert phases(run([], workload=[gated])) == {"default/p": ("gated", "")}
    out = run([{"when": 3, "op": "update", "kind": "Pod", "name": "p",
                "patch": {"spec": {"schedulingGates": None}}}],
              workload=[gated])
    assert phases(out) == {"default/p": ("bound", "n1")}
    assert out.bindings[0]["t"] == 3.0


def test_a_relabelled_bound_pod_satisfies_pod_affinity():
    affinity = {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": "db"}}, "topologyKey": "kubernetes.io/hostname"}]}}
    out = run([{"when": "idle", "op": "update", "kind": "Pod", "name": "other",
                "patch": {"metadata": {"labels": {"app": "db"}}}}],
              nodes=[node(cpu="2", labels={"kubernetes.io/hostname": "n1"})],
              pods=[pod("other", cpu="0", node_name="n1")], workload=[pod("p", affinity=affinity)])
    assert phases(out) == {"default/p": ("bound", "n1")}


def test_a_deleted_pending_pod_is_gone_from_the_outcome():
    out = run([{"when": "idle", "op": "delete", "kind": "Pod", "name": "p"}], **FULL)
    assert out.pods == {}
    assert out.events == ()  # the deleted pod's events went with it
    assert out.deleted == ()


def test_created_pods_pending_reported_bound_not():
    out = run([{"when": 1, "op": "create", "object": pod("q", cpu="500m")},
               {"when": 2, "op": "create", "object": pod("r", cpu="500m", node_name="n1")},
               {"when": 3, "op": "create", "object": pod("s", cpu="500m")}], nodes=[node()])
    assert phases(out) == {"default/q": ("bound", "n1"), "default/s": ("unschedulable", "")}
    assert [e["pod"] for e in out.events] == ["default/q", "default/s"]


def test_events_not_applied_by_the_deadline_are_not_applied():
    # No signal: the pod waits at Permit past the deadline, so the scheduler is never idle.
    never_idle = {"Probe0": {"Permit": {"code": "Wait", "timeout": "60s"}}}
    out = run([{"when": 1, "op": "create", "object": node("n2")},
               {"when": "idle", "op": "delete", "kind": "Pod", "name": "w"},
               {"when": 2, "op": "create", "object": node("n3")}],
              workload=[pod("w", probe=never_idle)], config=PROBES, deadline=5)
    assert out.timeline == ({"index": 0, "at": 1.0},)
    assert phases(out) == {"default/w": ("waiting", "")}


def test_outcome_timeline_round_trips():
    out = run([{"when": 2.5, "op": "delete", "kind": "Pod", "name": "big"}], **FULL)
    data = out.to_dict()
    assert data["timeline"] == [{"index": 0, "at": 2.5}]
    assert Outcome.from_dict(data) == out


def test_a_deleted_node_no_longer_counts_for_topology_spread():
    spread = [{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
               "labelSelector": {"matchLabels": {"app": "a"}}}]
    nodes = [node("n1", cpu="2", labels={"zone": "a"}), node("n2", labels={"zone": "b"}, taints=[TAINT])]
    scenario = {"nodes": nodes, "pods": [pod("old", cpu="0", node_name="n1", labels={"app": "a"})],
                "workload": [pod("p", cpu="0", labels={"app": "a"}, topologySpreadConstraints=spread)]}
    assert phases(run([], **scenario)) == {"default/p": ("unschedulable", "")}
    out = run([{"when": 1, "op": "delete", "kind": "Node", "name": "n2"}], **scenario)
    assert phases(out) == {"default/p": ("bound", "n1")}
    assert out.bindings[0]["t"] == 1.0
