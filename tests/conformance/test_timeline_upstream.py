"""The upstream runner applies a scenario's timeline as the reference does: upstream's own event handlers and
queueing hints retry the pod each event makes schedulable, and both end with the same pods on the same nodes,
having applied the same events (timed ones at the same virtual time; an idle one after the last cycle, where
upstream waits its settle time first)."""

from __future__ import annotations

import pytest

from conformance.backends.reference import ReferenceBackend
from conformance.backends.upstream import UpstreamBackend, default_runner
from conformance.builds.stock import executable
from reference.scenario import Scenario

from .test_timeline_reference import PROBES, TAINT, node, pod

pytestmark = pytest.mark.skipif(not executable(default_runner()), reason="needs harness/bin/runner (harness/build.sh)")

FULL = {"pods": [pod("big", node_name="n1")], "workload": [pod("p")]}
AFFINITY = {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
    {"labelSelector": {"matchLabels": {"app": "db"}}, "topologyKey": "kubernetes.io/hostname"}]}}
CASES = {
    "timed-delete-frees-room": ([{"when": 2.5, "op": "delete", "kind": "Pod", "name": "big"}], FULL),
    "idle-delete-frees-room": ([{"when": "idle", "op": "delete", "kind": "Pod", "name": "big"}], FULL),
    "created-node": ([{"when": 1, "op": "create", "object": node("n2")}], FULL),
    "relabelled-node": ([{"when": "idle", "op": "update", "kind": "Node", "name": "n1",
                          "patch": {"metadata": {"labels": {"zone": "b"}}}}],
                        {"workload": [pod("p", nodeSelector={"zone": "b"})]}),
    "removed-taint": ([{"when": 2, "op": "update", "kind": "Node", "name": "n1", "patch": {"spec": {"taints": []}}}],
                      {"nodes": [node(taints=[TAINT])], "workload": [pod("p")]}),
    "added-toleration": ([{"when": 1, "op": "update", "kind": "Pod", "name": "p",
                           "patch": {"spec": {"tolerations": [{"key": "maintenance", "operator": "Exists"}]}}}],
                         {"nodes": [node(taints=[TAINT])], "workload": [pod("p")]}),
    "lowered-requests": ([{"when": 1, "op": "update", "kind": "Pod", "name": "p", "patch": {
        "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "500m"}}}]}}}],
                         {"pods": [pod("half", cpu="500m", node_name="n1")], "workload": [pod("p")]}),
    "removed-gate": ([{"when": 3, "op": "update", "kind": "Pod", "name": "p",
                       "patch": {"spec": {"schedulingGates": None}}}],
                     {"workload": [pod("p", schedulingGates=[{"name": "example.com/wait"}])]}),
    "relabelled-bound-pod": ([{"when": "idle", "op": "update", "kind": "Pod", "name": "other",
                               "patch": {"metadata": {"labels": {"app": "db"}}}}],
                             {"nodes": [node(cpu="2", labels={"kubernetes.io/hostname": "n1"})],
                              "pods": [pod("other", cpu="0", node_name="n1")],
                              "workload": [pod("p", affinity=AFFINITY)]}),
    "deleted-pending-pod": ([{"when": "idle", "op": "delete", "kind": "Pod", "name": "p"}], FULL),
    "created-pods": ([{"when": 1, "op": "create", "object": pod("q", cpu="500m")},
                      {"when": 2, "op": "create", "object": pod("r", cpu="500m", node_name="n1")},
                      {"when": 3, "op": "create", "object": pod("s", cpu="500m")}], {}),
}


@pytest.fixture(scope="module")
def upstream():
    backend = UpstreamBackend(observe=())
    yield backend
    backend.close()


@pytest.mark.parametrize("case", CASES)
def test_upstream_ends_where_the_reference_ends(upstream, case):
    timeline, objects = CASES[case]
    data = {"config": PROBES, "nodes": [node()], "pods": [], "workload": [], **objects, "timeline": timeline}
    scenario = Scenario.from_dict(data)
    want, got = ReferenceBackend().run(scenario), upstream.run(scenario)
    assert {k: (p.phase, p.node) for k, p in got.pods.items()} == {k: (p.phase, p.node) for k, p in want.pods.items()}
    assert [e["index"] for e in got.timeline] == [e["index"] for e in want.timeline] == list(range(len(timeline)))
    for event, applied_up, applied_ref in zip(timeline, got.timeline, want.timeline):
        if event["when"] != "idle":
            assert applied_up["at"] == applied_ref["at"] == event["when"]
    assert got.deleted == want.deleted == ()
