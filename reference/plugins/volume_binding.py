"""Mirrors pkg/scheduler/framework/plugins/volumebinding/volume_binding.go (args: VolumeBindingArgs,
defaults in apis/config/v1/defaults.go, validation in validation_pluginargs.go); the binder's
scheduling half is volume_binding_binder.py.

Modelled: PreFilter (missing, lost or deleting claims; unbound claims of Immediate classes), Filter
(bound PVs' node affinity, WaitForFirstConsumer claims matched to PVs or provisioned under the
class's allowedTopologies and CSIStorageCapacity), PreScore and Score (StorageCapacityScoring is on in
v1.37.2), and every hint. Not modelled: binding itself. A pod whose chosen node needs PVs bound or
claims provisioned raises NotModelledError at Reserve (upstream's PreBind writes the PVs and PVCs and
waits up to bindTimeoutSeconds for the PV controller). InPlacePodVerticalScalingSchedulerPreemption is off.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping

from ..cycle_state import CycleState, NotFoundError
from ..errors import NotModelledError
from ..interfaces import (MAX_NODE_SCORE, FilterPlugin, Handle, PreBindPlugin, PreFilterPlugin,
                          PreFilterResult, PreScorePlugin, ReservePlugin, ScorePlugin)
from ..nodeinfo import NodeInfo
from ..registry import PluginArgs
from ..status import SUCCESS, Code, Status
from ..types import Pod
from ..volumes import objects_of
from . import resource_args as ra
from .helper import FunctionShapePoint, build_broken_linear_function
from .resource_args import MAX_CUSTOM_PRIORITY_SCORE, UtilizationShapePoint
from .volume_binding_binder import (ERR_REASON_BIND_CONFLICT, ERR_REASON_NODE_CONFLICT,
                                    ERR_REASON_NOT_ENOUGH_SPACE, ERR_REASON_PV_NOT_EXIST, BinderError,
                                    PodVolumeClaims, PodVolumes, find_pod_volumes, pod_has_pvcs,
                                    pod_volume_claims)
from .volume_binding_hints import events_to_register

NAME = "VolumeBinding"
STATE_KEY = NAME

DEFAULT_BIND_TIMEOUT_SECONDS = 600
MAX_UTILIZATION = 100
_NOT_FOUND = "not found"  # `fwk.ErrNotFound.Error()`

DEFAULT_SHAPE = (UtilizationShapePoint(0, MAX_CUSTOM_PRIORITY_SCORE),
                 UtilizationShapePoint(MAX_UTILIZATION, 0))


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


UNBOUND_IMMEDIATE = "pod has unbound immediate PersistentVolumeClaims"


@dataclass
class StateData:
    """PreFilter's state; shared by clones, as upstream's pointer is."""

    claims: PodVolumeClaims | None = None
    pod_volumes_by_node: dict[str, PodVolumes] = field(default_factory=dict)
    has_static_bindings: bool = False
    all_bound: bool = False

    def clone(self) -> "StateData":
        return self


def build_scorer(shape: tuple[UtilizationShapePoint, ...]):
    """`buildScorerFunction`: the mean over classes of the shape at each class's utilization."""
    scale = MAX_NODE_SCORE // MAX_CUSTOM_PRIORITY_SCORE
    raw = build_broken_linear_function([FunctionShapePoint(p.utilization, p.score * scale) for p in shape])

    def score(classes: dict[str, list[int]]) -> int:
        if not classes:
            return 0
        total = sum(raw(MAX_UTILIZATION) if capacity == 0 or requested > capacity
                    else raw(requested * MAX_UTILIZATION // capacity)
                    for requested, capacity in classes.values())
        return int(math.floor(total / len(classes) + 0.5))  # math.Round
    return score


class VolumeBinding(PreFilterPlugin, FilterPlugin, ReservePlugin, PreBindPlugin, PreScorePlugin, ScorePlugin):
    NAME = NAME
    ARGS = VolumeBindingArgs

    def __init__(self, args: VolumeBindingArgs | None = None, handle: Handle | None = None) -> None:
        self.args = args or VolumeBindingArgs()
        self.args.validate("")
        self.handle = handle
        self.scorer = build_scorer(self.args.shape)

    @classmethod
    def new(cls, args: VolumeBindingArgs | None, handle: Handle) -> "VolumeBinding":
        return cls(args, handle)

    def _state(self, state: CycleState) -> StateData | None:
        try:
            return state.read(STATE_KEY)
        except NotFoundError:
            return None

    def pre_filter(self, state: CycleState, pod: Pod,
                   nodes: list[NodeInfo]) -> tuple[PreFilterResult | None, Status]:
        objects = objects_of(self.handle)
        has_pvc, problem = pod_has_pvcs(objects, pod)
        if problem:
            return None, Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, problem)
        if not has_pvc:
            state.write(STATE_KEY, StateData())
            return None, Status.new(Code.SKIP)
        try:
            claims = pod_volume_claims(objects, pod)
        except BinderError as exc:
            return None, Status.as_status(str(exc))
        if claims.unbound_immediate:
            return None, Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, UNBOUND_IMMEDIATE)
        state.write(STATE_KEY, StateData(claims))
        return None, SUCCESS

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status:
        s = self._state(state)
        if s is None:
            return Status.as_status(_NOT_FOUND)
        if s.claims is None or node_info.node is None:
            # PreFilter skipped this plugin, so the framework never gets here; upstream would
            # dereference the nil PodVolumeClaims and panic.
            raise RuntimeError(f"{NAME} Filter called after PreFilter returned Skip (upstream panics here)")
        try:
            volumes, reasons = find_pod_volumes(objects_of(self.handle), s.claims, node_info.node)
        except BinderError as exc:
            return Status.as_status(str(exc))
        if reasons:
            return Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, *reasons)
        s.pod_volumes_by_node[node_info.node.name] = volumes
        s.has_static_bindings = s.has_static_bindings or bool(volumes.static_bindings)
        return SUCCESS

    def pre_score(self, state: CycleState, pod: Pod, nodes: list[NodeInfo]) -> Status:
        """Not Skip: StorageCapacityScoring (on) makes PreScore succeed even without static bindings."""
        return SUCCESS if self._state(state) is not None else Status.as_status(_NOT_FOUND)

    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> tuple[int, Status]:
        s = self._state(state)
        if s is None:
            return 0, Status.as_status(_NOT_FOUND)
        volumes = s.pod_volumes_by_node.get(node_info.name)
        if volumes is None:
            return 0, SUCCESS
        classes: dict[str, list[int]] = {}
        if volumes.static_bindings:
            for pv, pvc in volumes.static_bindings:
                entry = classes.setdefault(pv.storage_class_name, [0, 0])
                entry[0] += pvc.request or 0
                entry[1] += pv.capacity
        else:
            for pvc, capacity in volumes.dynamic_provisions:
                if capacity is None:
                    continue
                entry = classes.setdefault(pvc.storage_class_name or "", [0, 0])
                entry[1] = capacity.capacity or 0
                entry[0] += pvc.request or 0
        return self.scorer(classes), SUCCESS

    def reserve(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        s = self._state(state)
        if s is None:
            return Status.as_status(_NOT_FOUND)
        volumes = s.pod_volumes_by_node.get(node_name)
        if volumes is not None and (volumes.static_bindings or volumes.dynamic_provisions):
            raise NotModelledError(
                f"pod {pod.key}: binding PVs or provisioning claims on {node_name!r} (PreBind's API writes "
                "and the wait for the PV controller) is not modelled by the reference; bind the pod's claims "
                "(spec.volumeName and the pv.kubernetes.io/bind-completed annotation) or use the upstream "
                "backend")
        s.all_bound = True
        return SUCCESS

    def unreserve(self, state: CycleState, pod: Pod, node_name: str) -> None:
        """Nothing was assumed (Reserve assumes only fully bound pods), so there is nothing to revert."""

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

    events_to_register = events_to_register


__all__ = ["ERR_REASON_BIND_CONFLICT", "ERR_REASON_NODE_CONFLICT", "ERR_REASON_NOT_ENOUGH_SPACE",
           "ERR_REASON_PV_NOT_EXIST", "NAME", "UNBOUND_IMMEDIATE", "VolumeBinding", "VolumeBindingArgs"]
