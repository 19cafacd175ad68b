"""Mirrors pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go (args: DynamicResourcesArgs,
defaults in apis/config/v1/defaults.go, validation in validation_pluginargs.go).

The reference models no ResourceClaims and no DeviceClasses, so extended resources are never
DRA-backed and a pod with `resourceClaims` raises NotModelledError. For other pods every extension
point returns what upstream returns for a pod without claims. Feature gates at v1.37.2 defaults:
DynamicResourceAllocation, DRAExtendedResource, DRAPrioritizedList, DRASchedulerFilterTimeout,
DRADeviceBindingConditions and DRAResourceClaimDeviceStatus on (so both timeouts are defaulted
and validated); GenericWorkload and DRAWorkloadResourceClaims off (no pod-group state);
InPlacePodVerticalScalingSchedulerPreemption off.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Mapping

from ..cycle_state import CycleState, NotFoundError
from ..events import (DEVICE_CLASS, NODE, RESOURCE_CLAIM, RESOURCE_SLICE, TARGET_POD, ActionType,
                     ClusterEvent, ClusterEventWithHint)
from ..duration import format_duration_ns, parse_duration_ns
from ..errors import ConfigError, NotModelledError
from ..field_errors import JSONString
from ..interfaces import MAX_NODE_SCORE, FilterPlugin, Handle, NodeScore, NodeToStatus, PostFilterPlugin, \
    PostFilterResult, PreBindPlugin, PreEnqueuePlugin, PreFilterPlugin, PreFilterResult, ReservePlugin, ScorePlugin
from ..nodeinfo import NodeInfo
from ..registry import PluginArgs
from ..status import SUCCESS, Code, Status
from ..types import Pod
from .helper import default_normalize_score
from .hint_util import without_hints
from . import resource_args as ra

NAME = "DynamicResources"
STATE_KEY = NAME
_NOT_FOUND = "not found"  # `fwk.ErrNotFound.Error()`

SECOND = 10**9
DEFAULT_FILTER_TIMEOUT = 10 * SECOND
DEFAULT_BINDING_TIMEOUT = 600 * SECOND

# --- Go time.Duration text (metav1.Duration is JSON-encoded as `Duration.String()`) -------------

def parse_go_duration(text: str) -> int:
    """`time.ParseDuration` to nanoseconds; ValueError with Go's message when invalid."""
    return parse_duration_ns(text)


def format_go_duration(ns: int) -> str:
    """`time.Duration.String()`: "1h0m0s", "1.5s", "10ms", "0s"."""
    return format_duration_ns(ns)


# --- args ---------------------------------------------------------------------------------------

def _duration(raw: Mapping[str, Any], key: str, path: str) -> int | None:
    """A metav1.Duration: a Go duration string."""
    value = ra.typed(raw, key, str, path)
    if value is None:
        return None
    try:
        return parse_go_duration(value)
    except ValueError as err:
        raise ConfigError(str(err), field=ra.child(path, key)) from None


def _invalid_duration(field: str, ns: int, detail: str) -> ra.FieldError:
    """`field.Invalid` of a *metav1.Duration: JSON-encoded as its `String()`."""
    return ra.invalid(field, JSONString(format_go_duration(ns)), detail)


@dataclass(frozen=True)
class DynamicResourcesArgs(PluginArgs):
    """Timeouts in nanoseconds, like Go's time.Duration."""

    KIND: ClassVar[str] = "DynamicResourcesArgs"

    filter_timeout: int = DEFAULT_FILTER_TIMEOUT
    binding_timeout: int = DEFAULT_BINDING_TIMEOUT

    @classmethod
    def from_config(cls, raw: Mapping[str, Any] | None, path: str) -> "DynamicResourcesArgs":
        o = ra.fields(raw, path, ("filterTimeout", "bindingTimeout"))
        filter_timeout = _duration(o, "filterTimeout", path)
        binding_timeout = _duration(o, "bindingTimeout", path)
        args = cls(DEFAULT_FILTER_TIMEOUT if filter_timeout is None else filter_timeout,
                   DEFAULT_BINDING_TIMEOUT if binding_timeout is None else binding_timeout)
        args.validate(path)
        return args

    def validate(self, path: str) -> None:
        """`ValidateDynamicResourcesArgs` with DRASchedulerFilterTimeout, DRADeviceBindingConditions and
        DRAResourceClaimDeviceStatus on."""
        errs: list[ra.FieldError] = []
        if self.filter_timeout < 0:
            errs.append(_invalid_duration(ra.child(path, "filterTimeout"), self.filter_timeout,
                                          "must be zero or positive"))
        if self.binding_timeout < SECOND:
            errs.append(_invalid_duration(ra.child(path, "bindingTimeout"), self.binding_timeout,
                                          "must be at least 1 second"))
        ra.raise_if_any(errs)

    def to_config(self) -> dict[str, Any]:
        return {"filterTimeout": format_go_duration(self.filter_timeout),
                "bindingTimeout": format_go_duration(self.binding_timeout)}


# --- plugin -------------------------------------------------------------------------------------

def check_modelled(pod: Pod) -> None:
    if pod.resource_claims:
        names = [str(c.get("name", "")) for c in pod.resource_claims]
        raise NotModelledError(
            f"pod {pod.key}: resourceClaims {names} are not modelled by the reference: {NAME} needs "
            "ResourceClaims, DeviceClasses and ResourceSlices; remove the claims or use the upstream backend")


@dataclass(frozen=True)
class StateData:
    """What PreFilter records for a pod without claims: an empty claim store."""

    def clone(self) -> "StateData":
        return self


class DynamicResources(PreEnqueuePlugin, PreFilterPlugin, FilterPlugin, PostFilterPlugin, ScorePlugin,
                       ReservePlugin, PreBindPlugin):
    NAME = NAME
    ARGS = DynamicResourcesArgs

    def __init__(self, args: DynamicResourcesArgs | None = None) -> None:
        self.args = args or DynamicResourcesArgs()
        self.args.validate("")

    @classmethod
    def new(cls, args: DynamicResourcesArgs | None, handle: Handle) -> "DynamicResources":
        return cls(args)

    def _missing(self, state: CycleState) -> Status | None:
        """Error status when PreFilter never wrote the state (`statusError(ErrNotFound)`)."""
        try:
            state.read(STATE_KEY)
        except NotFoundError:
            return Status.as_status(_NOT_FOUND)
        return None

    def pre_enqueue(self, pod: Pod) -> Status:
        """Every claim the pod references must exist; with no claims there is nothing to wait for."""
        check_modelled(pod)
        return SUCCESS

    def pre_filter(self, state: CycleState, pod: Pod,
                   nodes: list[NodeInfo]) -> tuple[PreFilterResult | None, Status]:
        check_modelled(pod)
        state.write(STATE_KEY, StateData())
        return None, Status.new(Code.SKIP)

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status:
        check_modelled(pod)
        return self._missing(state) or SUCCESS

    def post_filter(self, state: CycleState, pod: Pod,
                    statuses: NodeToStatus) -> tuple[PostFilterResult | None, Status]:
        """No claims to deallocate: Unschedulable without reasons, so other PostFilter plugins run."""
        check_modelled(pod)
        return None, self._missing(state) or Status.new(Code.UNSCHEDULABLE)

    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> tuple[int, Status]:
        """DRAPrioritizedList is on, so the state is read; with no claims every node scores 0."""
        check_modelled(pod)
        return 0, self._missing(state) or SUCCESS

    def score_extensions(self) -> "DynamicResources":
        return self

    def normalize_score(self, state: CycleState, pod: Pod, scores: list[NodeScore]) -> Status:
        return default_normalize_score(MAX_NODE_SCORE, False, scores)

    def reserve(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        check_modelled(pod)
        return self._missing(state) or SUCCESS

    def unreserve(self, state: CycleState, pod: Pod, node_name: str) -> None:
        """Nothing was reserved for a pod without claims."""

    def pre_bind_pre_flight(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        check_modelled(pod)
        return self._missing(state) or Status.new(Code.SKIP)

    def pre_bind(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        check_modelled(pod)
        return self._missing(state) or SUCCESS

    def events_to_register(self) -> list[ClusterEventWithHint]:
        """Upstream's registrations; their hints read ResourceClaims, DeviceClasses and ResourceSlices
        (`without_hints`)."""
        return without_hints(
            ClusterEvent(NODE,
                         ActionType.ADD | ActionType.UPDATE_NODE_LABEL | ActionType.UPDATE_NODE_ALLOCATABLE),
            ClusterEvent(RESOURCE_CLAIM, ActionType.ADD | ActionType.UPDATE | ActionType.DELETE),
            ClusterEvent(TARGET_POD, ActionType.UPDATE_POD_GENERATED_RESOURCE_CLAIM),
            ClusterEvent(DEVICE_CLASS, ActionType.ADD | ActionType.UPDATE),
            ClusterEvent(RESOURCE_SLICE, ActionType.ADD | ActionType.UPDATE),
        )
