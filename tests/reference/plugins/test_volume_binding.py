"""VolumeBinding (volumebinding/volume_binding.go) for pods without PVCs, and VolumeBindingArgs.

Ported from volume_binding_test.go TestVolumeBinding: "pod has not pvcs" (PreFilter Skip; the test
stops there). Every other row uses PVCs/PVs/StorageClasses (not modelled: NotModelledError, tested
below); the queueing-hint tests and TestVolumeBinding_DeferredResizeSkipped are left out.
TestValidateVolumeBindingArgs (validation_pluginargs_test.go): the StorageCapacityScoring=on rows,
except "shape should not be empty" (v1 defaulting replaces an empty shape, tested as such).
"""

import pytest

from reference.cycle_state import CycleState
from reference.errors import ConfigError, NotModelledError
from reference.nodeinfo import NodeInfo
from reference.plugins.volume_binding import DEFAULT_SHAPE, VolumeBinding, VolumeBindingArgs
from reference.plugins.resource_args import UtilizationShapePoint
from reference.status import SUCCESS, Code, Status
from reference.types import Node, Pod
from reference.codec import from_manifest
from tests.reference.plugins._volumes import VolumeHandle

SKIP = Status.new(Code.SKIP)
NOT_FOUND = Status.as_status("not found")
PATH = "profiles[0].pluginConfig[0].args"


def test_pod_has_not_pvcs_runs_every_point():
    plugin, pod, state = VolumeBinding(), Pod(name="pod-a"), CycleState()
    info = NodeInfo.of(Node(name="node-a"))
    assert plugin.pre_filter(state, pod, []) == (None, SKIP)
    # StorageCapacityScoring is on in v1.37.2, so PreScore does not skip and every node scores 0.
    assert plugin.pre_score(state, pod, [info]) == SUCCESS
    assert plugin.score(state, pod, info) == (0, SUCCESS)
    assert plugin.score_extensions() is None
    assert plugin.reserve(state, pod, "node-a") == SUCCESS
    assert plugin.pre_bind_pre_flight(state, pod, "node-a") == SKIP
    assert plugin.pre_bind(state, pod, "node-a") == SUCCESS
    plugin.unreserve(state, pod, "node-a")


def test_state_is_shared_by_clones_like_upstream_pointer():
    plugin, pod, state = VolumeBinding(), Pod(name="p"), CycleState()
    plugin.pre_filter(state, pod, [])
    clone = state.clone()
    assert plugin.reserve(clone, pod, "n") == SUCCESS
    assert plugin.pre_bind_pre_flight(state, pod, "n") == SKIP


def test_pre_bind_before_reserve_finds_no_pod_volumes():
    plugin, pod, state = VolumeBinding(), Pod(name="p"), CycleState()
    plugin.pre_filter(state, pod, [])
    assert plugin.pre_bind_pre_flight(state, pod, "n") == Status.as_status('no pod volume found for node "n"')
    assert plugin.pre_bind(state, pod, "n") == Status.as_status('no pod volume found for node "n"')


def test_missing_state_is_an_error_everywhere():
    plugin, pod, state = VolumeBinding(), Pod(name="p"), CycleState()
    info = NodeInfo.of(Node(name="n"))
    assert plugin.filter(state, pod, info) == NOT_FOUND
    assert plugin.pre_score(state, pod, [info]) == NOT_FOUND
    assert plugin.score(state, pod, info) == (0, NOT_FOUND)
    assert plugin.reserve(state, pod, "n") == NOT_FOUND
    assert plugin.pre_bind_pre_flight(state, pod, "n") == NOT_FOUND
    assert plugin.pre_bind(state, pod, "n") == NOT_FOUND


def test_non_pvc_volumes_are_ignored():
    pod = Pod(name="p", volumes=({"name": "e", "emptyDir": {}}, {"name": "i", "image": {"reference": "x"}}))
    assert VolumeBinding().pre_filter(CycleState(), pod, []) == (None, SKIP)


def _objects(*manifests: dict) -> VolumeHandle:
    return VolumeHandle(*(from_manifest(m) for m in manifests))


def _pvc(name: str, **spec) -> dict:
    annotations = {"pv.kubernetes.io/bind-completed": "true"} if spec.get("volumeName") else {}
    return {"apiVersion": "v1", "kind": "PersistentVolumeClaim",
            "metadata": {"name": name, "namespace": "default", "annotations": annotations},
            "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}, **spec}}


def _pv(name: str, zone: str | None = None, **spec) -> dict:
    if zone is not None:
        spec["nodeAffinity"] = {"required": {"nodeSelectorTerms": [{"matchExpressions": [
            {"key": "zone", "operator": "In", "values": [zone]}]}]}}
    return {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": name},
            "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"], **spec},
            "status": {"phase": "Available"}}


def _class(name: str, mode: str) -> dict:
    return {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": name},
            "provisioner": "p", "volumeBindingMode": mode}


CLAIM_POD = Pod(name="p", volumes=({"name": "v", "persistentVolumeClaim": {"claimName": "pvc-a"}},))
ZONE_A = NodeInfo.of(Node(name="node-a", labels={"zone": "a"}))
ZONE_B = NodeInfo.of(Node(name="node-b", labels={"zone": "b"}))


def test_missing_and_unbound_immediate_claims_are_unresolvable():
    """TestVolumeBinding "pvc not found" and "unbound claims with Immediate binding mode"."""
    assert VolumeBinding(handle=_objects()).pre_filter(CycleState(), CLAIM_POD, []) == (
        None, Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, 'persistentvolumeclaim "pvc-a" not found'))
    immediate = _objects(_pvc("pvc-a"))
    assert VolumeBinding(handle=immediate).pre_filter(CycleState(), CLAIM_POD, []) == (
        None, Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
                         "pod has unbound immediate PersistentVolumeClaims"))


def test_bound_claim_follows_its_pv_node_affinity():
    """TestVolumeBinding "all bound" and "PVC does not match PV's node affinity"; a missing PV."""
    plugin = VolumeBinding(handle=_objects(_pvc("pvc-a", volumeName="pv-a"), _pv("pv-a", "a")))
    state = CycleState()
    assert plugin.pre_filter(state, CLAIM_POD, []) == (None, SUCCESS)
    assert plugin.filter(state, CLAIM_POD, ZONE_A) == SUCCESS
    assert plugin.filter(state, CLAIM_POD, ZONE_B) == Status.new(
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "node(s) didn't match PersistentVolume's node affinity")
    assert plugin.reserve(state, CLAIM_POD, "node-a") == SUCCESS
    assert plugin.pre_bind_pre_flight(state, CLAIM_POD, "node-a") == SKIP
    lost = VolumeBinding(handle=_objects(_pvc("pvc-a", volumeName="pv-gone")))
    state = CycleState()
    lost.pre_filter(state, CLAIM_POD, [])
    assert lost.filter(state, CLAIM_POD, ZONE_A) == Status.new(
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)")


def test_wait_for_first_consumer_claim_needs_a_matching_pv_or_a_provisioner():
    """TestVolumeBinding "unbound/found matches/bind succeeds" and "unbound/no matches"; binding itself is
    not modelled (NotModelledError at Reserve)."""
    wffc = _class("wait", "WaitForFirstConsumer")
    plugin = VolumeBinding(handle=_objects(wffc, _pvc("pvc-a", storageClassName="wait"),
                                           _pv("pv-a", "a", storageClassName="wait")))
    state = CycleState()
    assert plugin.pre_filter(state, CLAIM_POD, []) == (None, SUCCESS)
    assert plugin.filter(state, CLAIM_POD, ZONE_A) == SUCCESS
    with pytest.raises(NotModelledError, match="not modelled by the reference"):
        plugin.reserve(state, CLAIM_POD, "node-a")
    no_provisioner = {**wffc, "provisioner": "kubernetes.io/no-provisioner"}
    plugin = VolumeBinding(handle=_objects(no_provisioner, _pvc("pvc-a", storageClassName="wait"),
                                           _pv("pv-a", "a", storageClassName="wait")))
    state = CycleState()
    plugin.pre_filter(state, CLAIM_POD, [])
    assert plugin.filter(state, CLAIM_POD, ZONE_B) == Status.new(
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "node(s) didn't find available persistent volumes to bind")


# --- args -------------------------------------------------------------------------------------

def test_v1_defaults():
    args = VolumeBindingArgs.from_config(None, PATH)
    assert args == VolumeBindingArgs(600, (UtilizationShapePoint(0, 10), UtilizationShapePoint(100, 0)))
    assert VolumeBindingArgs.from_config(args.to_config(), PATH) == args
    assert VolumeBindingArgs.from_config({"shape": []}, PATH).shape == DEFAULT_SHAPE


@pytest.mark.parametrize("raw", [
    pytest.param({"bindTimeoutSeconds": 0, "shape": [{"utilization": 0, "score": 0},
                                                     {"utilization": 100, "score": 10}]},
                 id="[StorageCapacityScoring=on] zero is a valid config"),
    pytest.param({"bindTimeoutSeconds": 10, "shape": [{"utilization": 0, "score": 0},
                                                      {"utilization": 100, "score": 10}]},
                 id="[StorageCapacityScoring=on] positive value is valid config"),
])
def test_valid_args(raw):
    args = VolumeBindingArgs.from_config(raw, PATH)
    assert args.bind_timeout_seconds == raw["bindTimeoutSeconds"]


@pytest.mark.parametrize("raw,message", [
    pytest.param({"bindTimeoutSeconds": -10, "shape": [{"utilization": 0, "score": 0},
                                                       {"utilization": 100, "score": 10}]},
                 f"{PATH}.bindTimeoutSeconds: Invalid value: -10: invalid BindTimeoutSeconds, should not be a "
                 "negative value", id="[StorageCapacityScoring=on] negative value is invalid config"),
    pytest.param({"bindTimeoutSeconds": 10, "shape": [{"utilization": 3, "score": 3},
                                                      {"utilization": 1, "score": 1}]},
                 f"{PATH}.shape[1].utilization: Invalid value: 1: values must be sorted in increasing order",
                 id="[StorageCapacityScoring=on] shape points must be sorted in increasing order"),
    pytest.param({"bindTimeoutSeconds": 10, "shape": [
        {"utilization": -1, "score": 1}, {"utilization": 10, "score": -1}, {"utilization": 20, "score": 11},
        {"utilization": 101, "score": 1}]},
        f"[{PATH}.shape[0].utilization: Invalid value: -1: not in valid range [0, 100], "
        f"{PATH}.shape[1].score: Invalid value: -1: not in valid range [0, 10], "
        f"{PATH}.shape[2].score: Invalid value: 11: not in valid range [0, 10], "
        f"{PATH}.shape[3].utilization: Invalid value: 101: not in valid range [0, 100]]",
        id="[StorageCapacityScoring=on] shape point: invalid utilization and score"),
])
def test_invalid_args(raw, message):
    with pytest.raises(ConfigError) as err:
        VolumeBindingArgs.from_config(raw, PATH)
    assert str(err.value) == message


def test_unknown_field_is_rejected():
    with pytest.raises(ConfigError, match="unknown field"):
        VolumeBindingArgs.from_config({"bindTimeout": 5}, PATH)


def test_plugin_validates_args_it_is_given():
    with pytest.raises(ConfigError, match="bindTimeoutSeconds: Invalid value: -1"):
        VolumeBinding(VolumeBindingArgs(bind_timeout_seconds=-1))
