"""Mirrors pkg/scheduler/framework/plugins/volumebinding/volume_binding.go (args: VolumeBindingArgs,
defaults in apis/config/v1/defaults.go, validation in validation_pluginargs.go).

The reference models no PVCs, PVs or StorageClasses. Only persistentVolumeClaim and ephemeral
volumes reach the volume binder; a pod with one raises NotModelledError. For other pods every
extension point returns what upstream returns for a pod without PVCs. StorageCapacityScoring is on
in v1.37.2, so PreScore does not skip (Score then gives every node 0) and `shape` is defaulted.
InPlacePodVerticalScalingSchedulerPreemption is off.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping

from ..cycle_state import CycleState, NotFoundError
from ..events import (CSI_DRIVER, CSI_NODE, CSI_STORAGE_CAPACITY, NODE, PERSISTENT_VOLUME,
                     PERSISTENT_VOLUME_CLAIM, STORAGE_CLASS, ActionType, ClusterEvent,
                     ClusterEventWithHint)
from ..errors import NotModelledError
from ..interfaces import FilterPlugin, Handle, PreBindPlugin, PreFilterPlugin, PreFilterResult, PreScorePlugin, \
    ReservePlugin, ScorePlugin
from ..nodeinfo import NodeInfo
from ..registry import PluginArgs
from ..status import SUCCESS, Code, Status
from ..types import Pod
from .hint_util import without_hints
from . import resource_args as ra
from .resource_args import MAX_CUSTOM_PRIORITY_SCORE, UtilizationShapePoint

NAME = "VolumeBinding"
STATE_KEY = NAME

# binder.go ConflictReasons.
ERR_REASON_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind"
ERR_REASON_NODE_CONFLICT = "node(s) didn't match PersistentVolume's node affinity"
ERR_REASON_NOT_ENOUGH_SPACE = "node(s) did not have enough free storage"
ERR_REASON_PV_NOT_EXIST = "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)"

DEFAULT_BIND_TIMEOUT_SECONDS = 600
MAX_UTILIZATION = 100
_NOT_FOUND = "not found"  # `fwk.ErrNotFound.Error()`

DEFAULT_SHAPE = (UtilizationShapePoint(0, MAX_CUSTOM_PRIORITY_SCORE), UtilizationShapePoint(MAX_UTILIZATION, 0))


@dataclass(frozen=True)
class VolumeBindingArgs(PluginArgs):
    KIND: ClassVar[str] = "VolumeBindingArgs"

    bind_timeout_seconds: int = DEFAULT_BIND_TIMEOUT_SECONDS
    shape: tuple[UtilizationShapePoint, ...] = field(default=DEFAULT_SHAPE)

    @classmethod
    def from_config(cls, raw: Mapping[str, Any] | None, path: str) -> "VolumeBindingArgs":
        """v1 defaults: bindTimeoutSeconds 600; an empty shape becomes [(0, 10), (100, 0)]."""
        o = ra.fields(raw, path, ("bindTimeoutSeconds", "shape"))
        timeout = ra.typed(o, "bindTimeoutSeconds", int, path, DEFAULT_BIND_TIMEOUT_SECONDS)
        shape = ra.items(o, "shape", path, ra.shape_point) or DEFAULT_SHAPE
        args = cls(timeout, shape)
        args.validate(path)
        return args

    def validate(self, path: str) -> None:
        """`ValidateVolumeBindingArgsWithOptions` with StorageCapacityScoring on."""
        errs: list[ra.FieldError] = []
        if self.bind_timeout_seconds < 0:
            errs.append(ra.invalid(ra.child(path, "bindTimeoutSeconds"), self.bind_timeout_seconds,
                                   "invalid BindTimeoutSeconds, should not be a negative value"))
        errs.extend(ra.validate_function_shape(self.shape, ra.child(path, "shape")))
        ra.raise_if_any(errs)

    def to_config(self) -> dict[str, Any]:
        return {"bindTimeoutSeconds": self.bind_timeout_seconds, "shape": [p.to_config() for p in self.shape]}


def pvc_volumes(pod: Pod) -> list[str]:
    """Volumes backed by a PVC (`podHasPVCs`): persistentVolumeClaim and generic ephemeral."""
    return [str(v.get("name", "")) for v in pod.volumes
            if v.get("persistentVolumeClaim") is not None or v.get("ephemeral") is not None]


def check_modelled(pod: Pod) -> None:
    names = pvc_volumes(pod)
    if names:
        raise NotModelledError(
            f"pod {pod.key}: PVC-backed volumes {names} are not modelled by the reference: {NAME} needs PVCs, PVs, "
            "StorageClasses and CSIStorageCapacities; remove those volumes or use the upstream backend")


@dataclass
class StateData:
    """The state PreFilter writes for a pod without PVCs; shared by clones, as upstream's pointer is."""

    all_bound: bool = False

    def clone(self) -> "StateData":
        return self


class VolumeBinding(PreFilterPlugin, FilterPlugin, ReservePlugin, PreBindPlugin, PreScorePlugin, ScorePlugin):
    NAME = NAME
    ARGS = VolumeBindingArgs

    def __init__(self, args: VolumeBindingArgs | None = None) -> None:
        self.args = args or VolumeBindingArgs()
        self.args.validate("")

    @classmethod
    def new(cls, args: VolumeBindingArgs | None, handle: Handle) -> "VolumeBinding":
        return cls(args)

    def _state(self, state: CycleState) -> StateData | None:
        try:
            return state.read(STATE_KEY)
        except NotFoundError:
            return None

    def pre_filter(self, state: CycleState, pod: Pod,
                   nodes: list[NodeInfo]) -> tuple[PreFilterResult | None, Status]:
        check_modelled(pod)
        state.write(STATE_KEY, StateData())
        return None, Status.new(Code.SKIP)

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status:
        check_modelled(pod)
        if self._state(state) is None:
            return Status.as_status(_NOT_FOUND)
        # PreFilter skipped this plugin, so the framework never gets here; upstream would
        # dereference the nil PodVolumeClaims and panic.
        raise RuntimeError(f"{NAME} Filter called after PreFilter returned Skip (upstream panics here)")

    def pre_score(self, state: CycleState, pod: Pod, nodes: list[NodeInfo]) -> Status:
        """Not Skip: StorageCapacityScoring (on) makes PreScore succeed even without static bindings."""
        return SUCCESS if self._state(state) is not None else Status.as_status(_NOT_FOUND)

    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> tuple[int, Status]:
        """No PodVolumes were found in Filter for any node, so every node scores 0."""
        return (0, SUCCESS) if self._state(state) is not None else (0, Status.as_status(_NOT_FOUND))

    def reserve(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        s = self._state(state)
        if s is None:
            return Status.as_status(_NOT_FOUND)
        s.all_bound = True
        return SUCCESS

    def unreserve(self, state: CycleState, pod: Pod, node_name: str) -> None:
        """Nothing was assumed for the node, so there is nothing to revert."""

    def pre_bind_pre_flight(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        s = self._state(state)
        if s is None:
            return Status.as_status(_NOT_FOUND)
        if s.all_bound:
            return Status.new(Code.SKIP)
        return Status.as_status(f'no pod volume found for node "{node_name}"')

    def pre_bind(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        s = self._state(state)
        if s is None:
            return Status.as_status(_NOT_FOUND)
        if s.all_bound:
            return SUCCESS
        return Status.as_status(f'no pod volume found for node "{node_name}"')

    def events_to_register(self) -> list[ClusterEventWithHint]:
        """Upstream's registrations; their hints read StorageClasses, PVCs, PVs, CSINodes, CSIDrivers and
        CSIStorageCapacities (`without_hints`)."""
        return without_hints(
            ClusterEvent(STORAGE_CLASS, ActionType.ADD | ActionType.UPDATE),
            ClusterEvent(PERSISTENT_VOLUME_CLAIM, ActionType.ADD | ActionType.UPDATE),
            ClusterEvent(PERSISTENT_VOLUME, ActionType.ADD | ActionType.UPDATE),
            ClusterEvent(NODE, ActionType.ADD | ActionType.UPDATE_NODE_LABEL),
            ClusterEvent(CSI_NODE, ActionType.ADD | ActionType.UPDATE),
            ClusterEvent(CSI_DRIVER, ActionType.UPDATE),
            ClusterEvent(CSI_STORAGE_CAPACITY, ActionType.ADD | ActionType.UPDATE),
        )
