"""The differential on hand-made volume scenarios (issue 29): the reference's volume plugins and storage
objects against upstream's in-process runner. Each scenario is one volume plugin's decision (a zone, a PV's
node affinity, an attach limit, a ReadWriteOncePod claim, an unbound claim), some with a timeline event
that creates, updates or deletes a storage object; both sides must agree, and on what the scenario is for,
and every invariant holds on both."""

from __future__ import annotations

from typing import Any

import pytest

from conformance.backends.reference import ReferenceBackend
from conformance.backends.upstream import UpstreamBackend, default_runner
from conformance.builds.stock import executable
from conformance.differential import disagreements, run_both
from conformance.invariants import Run, check_all
from reference.scenario import Scenario

needs_runner = pytest.mark.skipif(not executable(default_runner()),
                                  reason="needs harness/bin/runner (harness/build.sh)")
ZONE = "topology.kubernetes.io/zone"
BOUND = {"pv.kubernetes.io/bind-completed": "yes"}
GCE_PD = {"name": "d", "gcePersistentDisk": {"pdName": "disk"}}


def node(name: str, zone: str) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": {ZONE: zone}},
            "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}


def pod(name: str, *claims: str, node_name: str = "", volumes: tuple = (),
        priority: int = 0) -> dict[str, Any]:
    spec: dict[str, Any] = {"containers": [{"name": "c", "image": "x"}], "priority": priority,
                            "volumes": [{"name": c,
                                         "persistentVolumeClaim": {"claimName": c}} for c in claims]
                            + list(volumes)}
    if node_name:
        spec["nodeName"] = node_name
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name}, "spec": spec}


def pv(name: str, *, labels: dict | None = None, zone_affinity: str = "", driver: str = "d",
       storage_class: str = "") -> dict[str, Any]:
    spec: dict[str, Any] = {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"],
                            "csi": {"driver": driver, "volumeHandle": name}}
    if zone_affinity:
        spec["nodeAffinity"] = {"required": {"nodeSelectorTerms": [
            {"matchExpressions": [{"key": ZONE, "operator": "In", "values": [zone_affinity]}]}]}}
    if storage_class:
        spec["storageClassName"] = storage_class
    meta = {"name": name, "labels": labels or {}}
    return {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": meta, "spec": spec}


def pvc(name: str, volume: str = "", *, mode: str = "ReadWriteOnce", storage_class: str | None = None
        ) -> dict[str, Any]:
    spec: dict[str, Any] = {"accessModes": [mode], "resources": {"requests": {"storage": "1Gi"}}}
    if volume:
        spec["volumeName"] = volume
    if storage_class is not None:
        spec["storageClassName"] = storage_class
    return {"apiVersion": "v1", "kind": "PersistentVolumeClaim",
            "metadata": {"name": name, "annotations": BOUND if volume else {}}, "spec": spec}


def csi_node(name: str, limit: int) -> dict[str, Any]:
    return {"apiVersion": "storage.k8s.io/v1", "kind": "CSINode", "metadata": {"name": name},
            "spec": {"drivers": [{"name": "d", "nodeID": name, "allocatable": {"count": limit}}]}}


def attachment(volume: str, node_name: str = "n1") -> dict[str, Any]:
    return {"apiVersion": "storage.k8s.io/v1", "kind": "VolumeAttachment",
            "metadata": {"name": f"va-{volume}"},
            "spec": {"attacher": "d", "nodeName": node_name, "source": {"persistentVolumeName": volume}}}


def storage_class(name: str, mode: str, provisioner: str = "kubernetes.io/no-provisioner") -> dict[str, Any]:
    return {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": name},
            "provisioner": provisioner, "volumeBindingMode": mode}


def scenario(objects: list, workload: list, *, pods: tuple = (), timeline: tuple = ()) -> Scenario:
    return Scenario.from_dict({"nodes": [node("n1", "a"), node("n2", "b")], "objects": objects,
                               "pods": list(pods), "workload": workload, "timeline": list(timeline)})


# (id, scenario, {pod: node, "*" for any node, "" for a pod left pending})
CASES = [
    ("VolumeZone: the PV's zone decides",
     scenario([pv("pv1", labels={ZONE: "b"}), pvc("c1", "pv1")], [pod("p", "c1")]), {"p": "n2"}),
    ("VolumeBinding: the bound PV's node affinity decides",
     scenario([pv("pv1", zone_affinity="a"), pvc("c1", "pv1")], [pod("p", "c1")]), {"p": "n1"}),
    ("VolumeBinding: a missing PV leaves the pod pending",
     scenario([pvc("c1", "pv-gone")], [pod("p", "c1")]), {"p": ""}),
    ("VolumeBinding: an unbound Immediate claim leaves the pod pending, until a timeline binds it",
     scenario([pv("pv1"), pvc("c1")], [pod("p", "c1")],
              timeline=[{"when": "idle", "op": "update", "kind": "PersistentVolumeClaim", "name": "c1",
                         "patch": {"metadata": {"annotations": BOUND}, "spec": {"volumeName": "pv1"}}}]),
     {"p": "*"}),
    ("VolumeBinding: a WaitForFirstConsumer claim with no PV and no provisioner stays pending",
     scenario([storage_class("local", "WaitForFirstConsumer"), pvc("c1", storage_class="local")],
              [pod("p", "c1")]), {"p": ""}),
    ("VolumeBinding: no CSIStorageCapacity large enough keeps a WaitForFirstConsumer claim pending",
     scenario([storage_class("fast", "WaitForFirstConsumer", provisioner="d"),
               pvc("c1", storage_class="fast"),
               {"apiVersion": "storage.k8s.io/v1", "kind": "CSIDriver", "metadata": {"name": "d"},
                "spec": {"storageCapacity": True}},
               {"apiVersion": "storage.k8s.io/v1", "kind": "CSIStorageCapacity", "metadata": {"name": "cap"},
                "storageClassName": "fast", "capacity": "1Mi",
                "nodeTopology": {"matchLabels": {ZONE: "b"}}}],
              [pod("p", "c1")]), {"p": ""}),
    ("NodeVolumeLimits: a zero attach limit on n1 sends the pod to n2",
     scenario([pv("pv1"), pvc("c1", "pv1"), csi_node("n1", 0)], [pod("p", "c1")]), {"p": "n2"}),
    ("NodeVolumeLimits: raising the limit by a CSINode update frees n2 for the second pod",
     scenario([pv("pv1"), pv("pv2"), pvc("c1", "pv1"), pvc("c2", "pv2"), csi_node("n1", 0),
               csi_node("n2", 1)],
              [pod("p1", "c1"), pod("p2", "c2")],
              timeline=[{"when": "idle", "op": "update", "kind": "CSINode", "name": "n2",
                         "patch": csi_node("n2", 2)}]),
     {"p1": "n2", "p2": "n2"}),
    ("NodeVolumeLimits: a deleted VolumeAttachment frees n1's only attachment",
     scenario([pv("pv0"), pv("pv1"), pvc("c1", "pv1"), csi_node("n1", 1), csi_node("n2", 0),
               attachment("pv0")],
              [pod("p", "c1")],
              timeline=[{"when": "idle", "op": "delete", "kind": "VolumeAttachment", "name": "va-pv0"}]),
     {"p": "n1"}),
    ("VolumeRestrictions: a ReadWriteOncePod claim in use waits for its pod's deletion",
     scenario([pv("pv1"), pvc("c1", "pv1", mode="ReadWriteOncePod")], [pod("p", "c1")],
              pods=(pod("holder", "c1", node_name="n1"),),
              timeline=[{"when": "idle", "op": "delete", "kind": "Pod", "name": "holder"}]),
     {"p": "*"}),
    ("VolumeRestrictions + preemption: evicting the ReadWriteOncePod claim's holder frees it",
     scenario([pv("pv1"), pvc("c1", "pv1", mode="ReadWriteOncePod")], [pod("p", "c1", priority=100)],
              pods=(pod("holder", "c1", node_name="n1", priority=1),)),
     {"p": "*"}),  # preemption is asynchronous upstream: once the holder is gone n2 may be chosen too
    ("VolumeRestrictions: a GCE PD mounted read-write on n1 sends the pod to n2",
     scenario([], [pod("p", volumes=(GCE_PD,))], pods=(pod("holder", node_name="n1", volumes=(GCE_PD,)),)),
     {"p": "n2"}),
    ("A missing claim, created by the timeline",
     scenario([pv("pv1", labels={ZONE: "a"})], [pod("p", "c1")],
              timeline=[{"when": "idle", "op": "create", "object": pvc("c1", "pv1")}]), {"p": "n1"}),
]


def placed(outcome, want: dict[str, str]) -> dict[str, str]:
    """Each pod's node, "*" where `want` accepts any node and it is bound."""
    got = {key.split("/", 1)[1]: p.node for key, p in outcome.pods.items()}
    return {k: "*" if want.get(k) == "*" and v else v for k, v in got.items()}


@pytest.mark.parametrize("sc,want", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_reference_decides_the_volume_case(sc, want):
    assert placed(ReferenceBackend().run(sc), want) == want


@needs_runner
@pytest.mark.parametrize("sc,want", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_upstream_agrees(sc, want):
    upstream = UpstreamBackend(observe=())
    try:
        a, b = run_both(ReferenceBackend(), upstream, sc)
    finally:
        upstream.close()
    assert placed(b.outcome, want) == want
    assert list(disagreements(a, b)) == []


@pytest.mark.parametrize("sc", [c[1] for c in CASES], ids=[c[0] for c in CASES])
def test_every_invariant_holds_on_the_reference(sc):
    """The judge reads the storage objects of each timeline state: no invariant fails a correct run."""
    backend = ReferenceBackend()
    check_all(Run(sc, backend.run(sc), frozenset(backend.capabilities)))


@needs_runner
@pytest.mark.parametrize("sc", [c[1] for c in CASES], ids=[c[0] for c in CASES])
def test_every_invariant_holds_on_upstream(sc):
    upstream = UpstreamBackend(observe=())
    try:
        check_all(Run(sc, upstream.run(sc), frozenset(upstream.capabilities)))
    finally:
        upstream.close()


def _update(kind: str, name: str, patch: dict) -> dict[str, Any]:
    return {"when": "idle", "op": "update", "kind": kind, "name": name, "patch": patch}


SC_ZONE_A = {**storage_class("wait", "WaitForFirstConsumer", provisioner="p"),
             "allowedTopologies": [{"matchLabelExpressions": [{"key": ZONE, "values": ["c"]}]}]}
CAPACITY = {"apiVersion": "storage.k8s.io/v1", "kind": "CSIStorageCapacity", "metadata": {"name": "cap"},
            "storageClassName": "wait", "capacity": "1Mi", "nodeTopology": {"matchLabels": {ZONE: "a"}}}
DRIVER_P = {"apiVersion": "storage.k8s.io/v1", "kind": "CSIDriver", "metadata": {"name": "p"},
            "spec": {"storageCapacity": True}}

# (id, scenario, {pod: attempts}): whether an event retried a pending pod is its rejecting plugin's hint.
RETRIES = [
    ("a StorageClass relabelled, allowedTopologies kept: VolumeBinding's hint skips",
     scenario([SC_ZONE_A, pvc("c1", storage_class="wait")], [pod("p", "c1")],
              timeline=[_update("StorageClass", "wait", {"metadata": {"labels": {"tier": "gold"}}})]),
     {"p": 1}),
    ("a StorageClass's allowedTopologies changed: VolumeBinding's hint queues",
     scenario([SC_ZONE_A, pvc("c1", storage_class="wait")], [pod("p", "c1")],
              timeline=[_update("StorageClass", "wait", {"allowedTopologies": [
                  {"matchLabelExpressions": [{"key": ZONE, "values": ["d"]}]}]})]), {"p": 2}),
    ("a CSIStorageCapacity lowered: VolumeBinding's hint skips",
     scenario([SC_ZONE_A | {"allowedTopologies": []}, pvc("c1", storage_class="wait"), DRIVER_P, CAPACITY],
              [pod("p", "c1")], timeline=[_update("CSIStorageCapacity", "cap", {"capacity": "1Ki"})]),
     {"p": 1}),
    ("a PV relabelled outside its topology: VolumeZone's hint skips",
     scenario([pv("pv1", labels={ZONE: "c"}), pvc("c1", "pv1")], [pod("p", "c1")],
              timeline=[_update("PersistentVolume", "pv1", {"metadata": {"labels": {"tier": "gold"}}})]),
     {"p": 1}),
    ("a PV's zone label changed: VolumeZone's hint queues",
     scenario([pv("pv1", labels={ZONE: "c"}), pvc("c1", "pv1")], [pod("p", "c1")],
              timeline=[_update("PersistentVolume", "pv1", {"metadata": {"labels": {ZONE: "a"}}})]),
     {"p": 2}),
    ("an unrelated claim created: VolumeRestrictions' hint skips",
     scenario([pv("pv1")], [pod("p", "c1")],
              timeline=[{"when": "idle", "op": "create", "object": pvc("c9")}]),
     {"p": 1}),
]


def attempts(outcome) -> dict[str, int]:
    return {key.split("/", 1)[1]: p.attempts for key, p in outcome.pods.items()}


@pytest.mark.parametrize("sc,want", [c[1:] for c in RETRIES], ids=[c[0] for c in RETRIES])
def test_reference_retries_as_the_hint_says(sc, want):
    assert attempts(ReferenceBackend().run(sc)) == want


@needs_runner
@pytest.mark.parametrize("sc,want", [c[1:] for c in RETRIES], ids=[c[0] for c in RETRIES])
def test_upstream_retries_the_same(sc, want):
    upstream = UpstreamBackend(observe=())
    try:
        a, b = run_both(ReferenceBackend(), upstream, sc)
    finally:
        upstream.close()
    assert attempts(b.outcome) == want
    assert list(disagreements(a, b)) == []
