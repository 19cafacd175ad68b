"""Mirrors pkg/scheduler/framework/plugins/nodeports/node_ports.go.

InPlacePodVerticalScalingSchedulerPreemption is off in v1.37.2, so only "no host ports" skips.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..cycle_state import CycleState, NotFoundError
from ..events import ASSIGNED_POD, NODE, ActionType, ClusterEvent, ClusterEventWithHint, HintResult
from ..interfaces import FilterPlugin, PreFilterPlugin, PreFilterResult
from ..nodeinfo import HostPortInfo, NodeInfo
from ..status import SUCCESS, Code, Status
from ..types import ContainerPort, Pod
from .hint_util import QUEUE, QUEUE_SKIP, as_objects, queue_on_error

NAME = "NodePorts"
PRE_FILTER_STATE_KEY = "PreFilter" + NAME

ERR_REASON = "node(s) didn't have free ports for the requested pod ports"


def get_host_ports(pod: Pod) -> tuple[ContainerPort, ...]:
    """`util.GetHostPorts`: ports with hostPort > 0 of sidecar init containers, then of containers.

    Other init containers are left out: they do not run alongside the pod.
    """
    sidecars = (p for c in pod.init_containers if c.is_sidecar for p in c.ports if p.host_port > 0)
    regular = (p for c in pod.containers for p in c.ports if p.host_port > 0)
    return (*sidecars, *regular)


def fits_ports(want: Sequence[ContainerPort], in_use: HostPortInfo) -> bool:
    return not any(in_use.check_conflict(p.host_ip, p.protocol, p.host_port) for p in want)


def fits(pod: Pod, node_info: NodeInfo) -> bool:
    """`Fits`: none of the pod's host ports conflicts with the node's used ports."""
    return fits_ports(get_host_ports(pod), node_info.used_ports)


@dataclass(frozen=True)
class PreFilterState:
    ports: tuple[ContainerPort, ...]

    def clone(self) -> "PreFilterState":
        return self


class NodePorts(PreFilterPlugin, FilterPlugin):
    NAME = NAME

    def pre_filter(self, state: CycleState, pod: Pod,
                   nodes: list[NodeInfo]) -> tuple[PreFilterResult | None, Status]:
        ports = get_host_ports(pod)
        if not ports:
            return None, Status.new(Code.SKIP)
        state.write(PRE_FILTER_STATE_KEY, PreFilterState(ports))
        return None, SUCCESS

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status:
        try:
            want = state.read(PRE_FILTER_STATE_KEY).ports
        except NotFoundError:
            return Status.as_status(f'reading "{PRE_FILTER_STATE_KEY}" from cycleState: not found')
        if fits_ports(want, node_info.used_ports):
            return SUCCESS
        return Status.new(Code.UNSCHEDULABLE, ERR_REASON)

    def events_to_register(self) -> list[ClusterEventWithHint]:
        """Container ports are immutable, so pod updates are not registered; Node/Add has no hint."""
        return [
            ClusterEventWithHint(ClusterEvent(ASSIGNED_POD, ActionType.DELETE), after_assigned_pod_deleted),
            ClusterEventWithHint(ClusterEvent(NODE, ActionType.ADD)),
        ]


def after_assigned_pod_deleted(pod: Pod, old: object, new: object) -> HintResult:
    """Queue when the deleted pod was bound or nominated and held a host port the pod wants."""
    deleted, _, err = as_objects(Pod, old, None)
    if err:
        return queue_on_error(err)
    if not deleted.node_name and not deleted.nominated_node_name:
        return QUEUE_SKIP
    ports = get_host_ports(deleted)
    if not ports:
        return QUEUE_SKIP
    in_use = HostPortInfo()
    for p in ports:
        in_use.add(p.host_ip, p.protocol, p.host_port)
    return QUEUE_SKIP if fits_ports(get_host_ports(pod), in_use) else QUEUE
