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


@pytest.mark.parametrize("volume", [{"name": "v", "persistentVolumeClaim": {"claimName": "pvc-a"}},
                                    {"name": "v", "ephemeral": {"volumeClaimTemplate": {}}}], ids=["pvc", "ephemeral"])
def test_pvc_backed_volumes_are_not_modelled(volume):
    pod = Pod(name="p", volumes=(volume,))
    with pytest.raises(NotModelledError, match="not modelled by the reference"):
        VolumeBinding().pre_filter(CycleState(), pod, [])


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
