"""The codec reads the manifest fields the scheduler uses and writes them back unchanged."""

import re

import pytest
import yaml

from reference import codec
from reference.errors import ManifestError
from reference.types import PodCondition, Taint

POD = """
apiVersion: v1
kind: Pod
metadata:
  name: web
  namespace: shop
  uid: u-1
  labels: {app: web}
  annotations: {note: x}
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-rs, uid: rs-1, controller: true}]
spec:
  schedulerName: other
  priority: 10
  nodeSelector: {disk: ssd}
  initContainers:
  - {name: sidecar, image: envoy, restartPolicy: Always, resources: {requests: {cpu: 100m}}}
  - {name: init, image: busybox, resources: {requests: {cpu: "1", memory: 1Gi}}}
  containers:
  - name: app
    image: nginx:1.25
    resources: {requests: {cpu: 250m, memory: 64Mi, example.com/gpu: "1"}, limits: {cpu: 500m}}
    ports: [{containerPort: 80, hostPort: 8080, protocol: TCP}]
  overhead: {cpu: 10m}
  tolerations: [{key: k, operator: Exists, effect: NoSchedule}]
  schedulingGates: [{name: wait}]
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [a, b]}]}]
      preferredDuringSchedulingIgnoredDuringExecution:
      - {weight: 3, preference: {matchFields: [{key: metadata.name, operator: In, values: [n1]}]}}
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - {topologyKey: kubernetes.io/hostname, labelSelector: {}, namespaceSelector: {}}
  topologySpreadConstraints:
  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}, minDomains: 2}
status:
  conditions:
  - {type: DisruptionTarget, status: "True", reason: PreemptionByScheduler, message: "preempting", lastTransitionTime: null}
  - {type: PodScheduled, status: "False"}
"""

NODE = """
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {zone: a}}
spec:
  unschedulable: true
  taints: [{key: k, value: v, effect: NoSchedule}]
status:
  allocatable: {cpu: "2", memory: 4Gi, pods: "110", example.com/gpu: "2"}
  capacity: {cpu: "2", memory: 4Gi, pods: "110"}
  images: [{names: ["nginx:1.25"], sizeBytes: 1000}]
  declaredFeatures: [FeatureA, FeatureB]
"""


def test_pod_fields_are_read_with_integer_quantities():
    pod = codec.pod_from_manifest(yaml.safe_load(POD))
    assert (pod.name, pod.namespace, pod.uid, pod.scheduler_name, pod.priority) == ("web", "shop", "u-1", "other", 10)
    app = pod.containers[0]
    assert app.requests == {"cpu": 250, "memory": 64 * 1024 * 1024, "example.com/gpu": 1}
    assert app.limits == {"cpu": 500}
    assert app.ports[0].host_port == 8080
    assert pod.init_containers[0].is_sidecar and not pod.init_containers[1].is_sidecar
    assert pod.overhead == {"cpu": 10}
    assert pod.scheduling_gates == ("wait",)
    assert pod.owner_references[0].controller
    anti = pod.affinity.pod_anti_affinity.required[0]
    assert anti.label_selector is not None and anti.namespace_selector is not None  # {} kept, not dropped
    assert pod.conditions == (PodCondition("DisruptionTarget", "True", "PreemptionByScheduler", "preempting"),
                              PodCondition("PodScheduled", "False"))


def test_node_fields_are_read():
    node = codec.node_from_manifest(yaml.safe_load(NODE))
    assert node.unschedulable and node.taints == (Taint("k", "NoSchedule", "v"),)
    assert node.allocatable == {"cpu": 2000, "memory": 4 * 1024**3, "pods": 110, "example.com/gpu": 2}
    assert node.images[0].size_bytes == 1000
    assert node.declared_features == ("FeatureA", "FeatureB")


@pytest.mark.parametrize("text", [POD, NODE], ids=["pod", "node"])
def test_round_trip(text):
    obj = codec.from_manifest(yaml.safe_load(text))
    again = codec.from_manifest(codec.pod_to_manifest(obj) if text is POD else codec.node_to_manifest(obj))
    assert again == obj


@pytest.mark.parametrize("quantity, milli", [("1", 1000), ("100m", 100), ("0.5", 500), ("1.0001", 1001), ("1e-4", 1)])
def test_cpu_rounds_up_to_milli(quantity, milli):
    pod = codec.pod_from_manifest({"metadata": {"name": "p"}, "spec": {"containers": [
        {"name": "c", "resources": {"requests": {"cpu": quantity}}}]}})
    assert pod.containers[0].requests["cpu"] == milli


@pytest.mark.parametrize("manifest, fragment", [
    ({"metadata": {}}, "Pod.metadata.name is missing"),
    ({"metadata": {"name": "p"}, "spec": {"priority": "high"}}, "Pod.spec.priority: expected an integer"),
    ({"metadata": {"name": "p"}, "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "lots"}}}]}},
     "Pod.spec.containers[0].resources.requests.cpu: 'lots' is not a Kubernetes quantity"),
], ids=["no-name", "bad-priority", "bad-quantity"])
def test_bad_manifests_name_the_field(manifest, fragment):
    with pytest.raises(ManifestError, match=re.escape(fragment)):
        codec.pod_from_manifest(manifest)


def test_load_manifests_reads_lists_and_refuses_unknown_kinds():
    objs = codec.load_manifests(NODE + "\n---\n" + "kind: List\nitems:\n- {kind: Namespace, metadata: {name: ns}}\n")
    assert [type(o).__name__ for o in objs] == ["Node", "Namespace"]
    with pytest.raises(ManifestError, match="kind 'Secret' is not supported"):
        codec.load_manifests("kind: Secret\nmetadata: {name: s}\n")


PDB = """
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: shop}
spec: {selector: {matchLabels: {app: web}}, minAvailable: 1}
status:
  disruptionsAllowed: 1
  disruptedPods: {web-1: 2026-01-02T03:04:05Z, web-2: "2026-01-02T03:04:06Z"}
"""


def test_pdb_disrupted_pods_are_read_as_rfc3339_and_round_trip():
    pdb = codec.pdb_from_manifest(yaml.safe_load(PDB))
    assert pdb.disrupted_pods == {"web-1": "2026-01-02T03:04:05Z", "web-2": "2026-01-02T03:04:06Z"}
    assert codec.pdb_from_manifest(codec.pdb_to_manifest(pdb)) == pdb


def test_pdb_disrupted_pod_time_must_be_a_time():
    manifest = yaml.safe_load(PDB)
    manifest["status"]["disruptedPods"]["web-1"] = 5
    with pytest.raises(ManifestError, match=re.escape("PodDisruptionBudget.status.disruptedPods.web-1: expected an "
                                                      "RFC 3339 time, got 5")):
        codec.pdb_from_manifest(manifest)


def _pod(spec=None, status=None):
    return {"metadata": {"name": "p"}, "spec": {"containers": [{"name": "c"}], **(spec or {})},
            "status": status or {}}


REQ = {"requests": {"cpu": "1"}}


@pytest.mark.parametrize("manifest, field", [
    (_pod(spec={"resources": REQ}), "Pod.spec.resources"),
    (_pod(spec={"resources": {"limits": {"memory": "1Gi"}}}), "Pod.spec.resources"),
    (_pod(status={"allocatedResources": {"cpu": "1"}}), "Pod.status.allocatedResources"),
    (_pod(status={"resources": REQ}), "Pod.status.resources"),
    (_pod(status={"containerStatuses": [{"name": "c", "allocatedResources": {"cpu": "1"}}]}),
     "Pod.status.containerStatuses[0].allocatedResources"),
    (_pod(status={"containerStatuses": [{"name": "c"}, {"name": "d", "resources": REQ}]}),
     "Pod.status.containerStatuses[1].resources"),
    (_pod(status={"initContainerStatuses": [{"name": "i", "allocatedResources": {"memory": "1"}}]}),
     "Pod.status.initContainerStatuses[0].allocatedResources"),
    (_pod(status={"conditions": [{"type": "PodResizePending", "status": "True", "reason": "Infeasible"}]}),
     "Pod.status.conditions[0] (PodResizePending/Infeasible)"),
], ids=["spec-requests", "spec-limits", "status-allocated", "status-resources", "container-allocated",
        "container-resources", "init-container-allocated", "resize-infeasible"])
def test_resources_upstream_would_count_are_refused_not_dropped(manifest, field):
    with pytest.raises(ManifestError, match=re.escape(field) + r" is not modelled by the reference \(.*\); "
                       "remove it from the manifest$"):
        codec.pod_from_manifest(manifest)


@pytest.mark.parametrize("manifest", [
    _pod(spec={"resources": {}}),
    _pod(spec={"resources": {"requests": {}}}),
    _pod(status={"containerStatuses": [{"name": "c", "resources": {"requests": {}}, "allocatedResources": {}}]}),
    _pod(status={"conditions": [{"type": "PodResizePending", "status": "True", "reason": "Deferred"}]}),
], ids=["empty-spec-resources", "empty-spec-requests", "empty-container-status", "resize-deferred"])
def test_values_that_change_no_request_are_read(manifest):
    assert codec.pod_from_manifest(manifest).name == "p"


STORAGE = """
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv1, labels: {topology.kubernetes.io/zone: a}}
spec:
  capacity: {storage: 2Gi}
  accessModes: [ReadWriteOnce]
  claimRef: {namespace: default, name: c1}
  csi: {driver: d, volumeHandle: h}
  nodeAffinity:
    required: {nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [a]}]}]}
status: {phase: Available}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: c1, annotations: {volume.beta.kubernetes.io/storage-class: beta}}
spec: {storageClassName: ga, resources: {requests: {storage: 1Gi}}}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: sc}
provisioner: p
---
apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata: {name: d}
---
apiVersion: storage.k8s.io/v1
kind: CSIStorageCapacity
metadata: {name: cap}
storageClassName: sc
capacity: 1Ki
"""


def test_storage_objects_are_read_with_the_api_servers_defaults():
    pv, pvc, sc, driver, capacity = codec.load_manifests(STORAGE)
    assert (pv.capacity, pv.source, pv.source_fields["driver"]) == (2 << 30, "csi", "d")
    assert pv.phase == "Available"
    assert pv.claim_ref.name == "c1" and pv.node_affinity.terms[0].match_expressions[0].values == ("a",)
    assert (pvc.namespace, pvc.request, pvc.storage_class) == ("default", 1 << 30, "beta")
    assert pvc.volume_mode == "Filesystem"
    assert (sc.volume_binding_mode, driver.storage_capacity) == ("Immediate", False)
    assert (capacity.namespace, capacity.volume_limit) == ("default", 1024)


@pytest.mark.parametrize("manifest, fragment", [
    ({"kind": "PersistentVolume", "metadata": {"name": "p"}, "spec": {"csi": {}, "nfs": {}}},
     "PersistentVolume.spec: one volume source expected, got ['nfs', 'csi']"),
    ({"kind": "PersistentVolumeClaim", "metadata": {"name": "c"},
      "spec": {"resources": {"requests": {"storage": "much"}}}},
     "PersistentVolumeClaim.spec.resources.requests"),
    ({"kind": "StorageClass", "metadata": {"name": "s"}, "volumeBindingMode": "Later"},
     "StorageClass.volumeBindingMode: 'Later' is not supported"),
    ({"kind": "CSINode", "metadata": {"name": "n"},
      "spec": {"drivers": [{"name": "d", "allocatable": {"count": "x"}}]}},
     "CSINode.spec.drivers[0].allocatable.count: expected an integer"),
])
def test_bad_storage_manifests_name_the_field(manifest, fragment):
    with pytest.raises(ManifestError, match=re.escape(fragment)):
        codec.from_manifest(manifest)
