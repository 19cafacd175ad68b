"""Plugin interfaces for every extension point, after `k8s.io/kube-scheduler/framework/interface.go`.

A plugin class subclasses the interfaces it implements; the runtime dispatches on `isinstance`,
as upstream does with Go interface assertions. Status codes each point may return, and what the
runtime does with them, are in `framework.runtime` (spec §1.2).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, ClassVar, Iterator, Mapping, Protocol

from .cycle_state import CycleState
from .nodeinfo import NodeInfo, PodInfo
from .status import Status
from .types import Pod

if TYPE_CHECKING:
    from .nodeinfo import Snapshot
    from .types import PodDisruptionBudget, Workload

MIN_NODE_SCORE = 0
MAX_NODE_SCORE = 100
MAX_TOTAL_SCORE = 2**63 - 1


# --- results ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class PreFilterResult:
    """`node_names=None` means every node."""

    node_names: frozenset[str] | None = None

    def all_nodes(self) -> bool:
        return self.node_names is None

    def merge(self, other: "PreFilterResult | None") -> "PreFilterResult":
        if other is None or other.all_nodes():
            return self
        if self.all_nodes():
            return other
        return PreFilterResult(self.node_names & other.node_names)  # type: ignore[operator]


class NominatingMode(enum.Enum):
    NOOP = 0
    OVERRIDE = 1


@dataclass(frozen=True)
class NominatingInfo:
    nominated_node_name: str = ""
    mode: NominatingMode = NominatingMode.NOOP


@dataclass(frozen=True)
class PostFilterResult:
    nominating_info: NominatingInfo | None = None

    @property
    def mode(self) -> NominatingMode:
        return self.nominating_info.mode if self.nominating_info else NominatingMode.NOOP


@dataclass
class NodeScore:
    name: str
    score: int


class NodeToStatus:
    """Node name -> rejecting status; nodes not in the map get `absent_nodes_status`."""

    def __init__(self, statuses: Mapping[str, Status] | None = None,
                 absent_nodes_status: Status | None = None) -> None:
        self._statuses: dict[str, Status] = dict(statuses or {})
        self.absent_nodes_status = absent_nodes_status

    def get(self, node: str) -> Status | None:
        return self._statuses.get(node, self.absent_nodes_status)

    def set(self, node: str, status: Status) -> None:
        self._statuses[node] = status

    def items(self) -> Iterator[tuple[str, Status]]:
        return iter(list(self._statuses.items()))

    def __len__(self) -> int:
        return len(self._statuses)

    def __contains__(self, node: str) -> bool:
        return node in self._statuses


@dataclass
class QueuedPodInfo:
    """A pod in the scheduling queue with its attempt bookkeeping."""

    pod_info: PodInfo
    timestamp: float = 0.0
    attempts: int = 0
    initial_attempt_timestamp: float | None = None
    unschedulable_plugins: set[str] = field(default_factory=set)
    pending_plugins: set[str] = field(default_factory=set)
    gating_plugin: str = ""
    unschedulable_count: int = 0
    consecutive_errors_count: int = 0
    backoff_expiration: float | None = None
    flush_timestamp: float | None = None  # last leftover flush out of the unschedulable pool

    @property
    def pod(self) -> Pod:
        return self.pod_info.pod


# --- the handle plugins receive ------------------------------------------------------------

class ClusterClient(Protocol):
    """The API-server side a plugin may touch. Writes return an error text, or None on success."""

    def bind(self, pod: Pod, node_name: str, *, retry: bool = False) -> str | None: ...  # retry: BindPod's
    def delete_pod(self, pod: Pod) -> str | None: ...
    def add_disruption_target(self, pod: Pod) -> str | None: ...  # the victim's condition, before its delete
    def clear_nominated_node_name(self, pod: Pod) -> str | None: ...  # patch status.nominatedNodeName to ""
    def pod_disruption_budgets(self) -> list["PodDisruptionBudget"]: ...
    def workloads(self) -> list["Workload"]: ...


class Nominator(Protocol):
    """`fwk.PodNominator`: the pods the scheduling queue holds nominated to a node."""

    def nominated_pods_for_node(self, node_name: str) -> list[PodInfo]: ...


class WaitingPod(Protocol):
    def get_pod(self) -> Pod: ...
    def get_pending_plugins(self) -> list[str]: ...
    def allow(self, plugin: str) -> None: ...
    def reject(self, plugin: str, message: str) -> bool: ...
    def preempt(self, plugin: str, message: str) -> bool: ...


class Handle(Protocol):
    """What the framework offers plugins (`fwk.Handle`)."""

    def snapshot(self) -> "Snapshot": ...
    def iterate_over_waiting_pods(self, fn: Callable[[WaitingPod], None]) -> None: ...
    def get_waiting_pod(self, uid: str) -> WaitingPod | None: ...
    def reject_waiting_pod(self, uid: str) -> bool: ...
    def run_filter_plugins_with_nominated_pods(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status: ...
    def run_pre_filter_extension_add_pod(self, state: CycleState, pod: Pod, to_add: PodInfo,
                                         node_info: NodeInfo) -> Status: ...
    def run_pre_filter_extension_remove_pod(self, state: CycleState, pod: Pod, to_remove: PodInfo,
                                            node_info: NodeInfo) -> Status: ...
    @property
    def client(self) -> ClusterClient: ...
    @property
    def nominator(self) -> Nominator: ...
    def activate(self, pods: list[Pod]) -> None: ...  # `fh.Activate`: the pods to activeQ


# --- plugin interfaces -----------------------------------------------------------------------

class Plugin:
    """Base of every plugin. `NAME` is the registry name; `name` may be overridden per instance."""

    NAME: ClassVar[str] = ""

    @property
    def name(self) -> str:
        return self.NAME


class PreEnqueuePlugin(Plugin):
    def pre_enqueue(self, pod: Pod) -> Status:
        raise NotImplementedError


class QueueSortPlugin(Plugin):
    def less(self, a: QueuedPodInfo, b: QueuedPodInfo) -> bool:
        raise NotImplementedError


class PreFilterExtensions(Protocol):
    def add_pod(self, state: CycleState, pod: Pod, to_add: PodInfo, node_info: NodeInfo) -> Status: ...
    def remove_pod(self, state: CycleState, pod: Pod, to_remove: PodInfo, node_info: NodeInfo) -> Status: ...


class PreFilterPlugin(Plugin):
    def pre_filter(self, state: CycleState, pod: Pod,
                   nodes: list[NodeInfo]) -> tuple[PreFilterResult | None, Status]:
        raise NotImplementedError

    def pre_filter_extensions(self) -> PreFilterExtensions | None:
        return None


class FilterPlugin(Plugin):
    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status:
        raise NotImplementedError


class PostFilterPlugin(Plugin):
    def post_filter(self, state: CycleState, pod: Pod,
                    statuses: NodeToStatus) -> tuple[PostFilterResult | None, Status]:
        raise NotImplementedError


class PreScorePlugin(Plugin):
    def pre_score(self, state: CycleState, pod: Pod, nodes: list[NodeInfo]) -> Status:
        raise NotImplementedError


class ScoreExtensions(Protocol):
    def normalize_score(self, state: CycleState, pod: Pod, scores: list[NodeScore]) -> Status: ...


class ScorePlugin(Plugin):
    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> tuple[int, Status]:
        raise NotImplementedError

    def score_extensions(self) -> ScoreExtensions | None:
        return None


class ReservePlugin(Plugin):
    def reserve(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        raise NotImplementedError

    def unreserve(self, state: CycleState, pod: Pod, node_name: str) -> None:
        raise NotImplementedError


class PermitPlugin(Plugin):
    def permit(self, state: CycleState, pod: Pod, node_name: str) -> tuple[Status, float]:
        """Returns the status and, for Wait, the timeout in seconds."""
        raise NotImplementedError


class PreBindPlugin(Plugin):
    def pre_bind_pre_flight(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        raise NotImplementedError

    def pre_bind(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        raise NotImplementedError


class BindPlugin(Plugin):
    def bind(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        raise NotImplementedError


class PostBindPlugin(Plugin):
    def post_bind(self, state: CycleState, pod: Pod, node_name: str) -> None:
        raise NotImplementedError


# Extension points in canonical order, with the interface each needs. The names are the
# v1 config field names (`plugins.<point>`).
EXTENSION_POINTS: tuple[tuple[str, type[Plugin]], ...] = (
    ("preEnqueue", PreEnqueuePlugin),
    ("queueSort", QueueSortPlugin),
    ("preFilter", PreFilterPlugin),
    ("filter", FilterPlugin),
    ("postFilter", PostFilterPlugin),
    ("preScore", PreScorePlugin),
    ("score", ScorePlugin),
    ("reserve", ReservePlugin),
    ("permit", PermitPlugin),
    ("preBind", PreBindPlugin),
    ("bind", BindPlugin),
    ("postBind", PostBindPlugin),
)
POINT_NAMES: tuple[str, ...] = tuple(name for name, _ in EXTENSION_POINTS)
INTERFACE_OF: dict[str, type[Plugin]] = dict(EXTENSION_POINTS)


def implemented_points(plugin: type[Plugin] | Plugin) -> list[str]:
    cls = plugin if isinstance(plugin, type) else type(plugin)
    return [name for name, iface in EXTENSION_POINTS if issubclass(cls, iface)]


def interface_name(point: str) -> str:
    """The Go interface name used in framework errors ("FilterPlugin")."""
    return point[0].upper() + point[1:] + "Plugin"


__all__ = [
    "BindPlugin",
    "ClusterClient",
    "EXTENSION_POINTS",
    "FilterPlugin",
    "Handle",
    "INTERFACE_OF",
    "MAX_NODE_SCORE",
    "MAX_TOTAL_SCORE",
    "MIN_NODE_SCORE",
    "NodeScore",
    "NodeToStatus",
    "NominatingInfo",
    "NominatingMode",
    "Nominator",
    "POINT_NAMES",
    "PermitPlugin",
    "Plugin",
    "PostBindPlugin",
    "PostFilterPlugin",
    "PostFilterResult",
    "PreBindPlugin",
    "PreEnqueuePlugin",
    "PreFilterExtensions",
    "PreFilterPlugin",
    "PreFilterResult",
    "PreScorePlugin",
    "QueueSortPlugin",
    "QueuedPodInfo",
    "ReservePlugin",
    "ScoreExtensions",
    "ScorePlugin",
    "WaitingPod",
    "implemented_points",
    "interface_name",
]
