"""One scripted plugin for driving the framework runtime and scheduler through every extension point.

`Scripted(name, log, **behaviour)` implements every plugin interface except QueueSort. What it returns
at each point is configurable; each value may be a constant or a callable taking the call's arguments
(so a test can vary the answer per node, per pod or per attempt). Every call is appended to the shared
`log` as `Call(point, plugin, pod, node)`.

Behaviour keys (defaults in brackets, all Success unless noted):
  pre_enqueue, pre_filter (+ pre_filter_result: None | set of node names), add_pod, remove_pod,
  extensions [True: pre_filter_extensions() returns self], filter (Status, {node: Status} or callable),
  post_filter (+ post_filter_result), pre_score, score [0] (int, {node: int} or callable), score_status,
  normalize [None: no ScoreExtensions; else Status or callable(scores) -> Status], reserve,
  permit (+ permit_timeout seconds), pre_bind_pre_flight, pre_bind, bind ["bind": POST the binding
  through the framework handle and return Success; or any Status].
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reference.events import NODE, ActionType, ClusterEvent, ClusterEventWithHint
from reference.framework.cluster_events import unroll_wildcard_resource
from reference.cycle_state import CycleState
from reference.framework.runtime import Framework
from reference.interfaces import (
    BindPlugin, FilterPlugin, NodeScore, NodeToStatus, PermitPlugin, PostBindPlugin, PostFilterPlugin,
    PostFilterResult, PreBindPlugin, PreEnqueuePlugin, PreFilterPlugin, PreFilterResult, PreScorePlugin,
    ScorePlugin, ReservePlugin)
from reference.nodeinfo import NodeInfo, PodInfo
from reference.plugins.priority_sort import PrioritySort
from reference.scheduler.scheduler import Scheduler
from reference.status import SUCCESS, Code, Status
from reference.types import Pod

PROFILE = "default-scheduler"


@dataclass(frozen=True)
class Call:
    point: str
    plugin: str
    pod: str = ""
    node: str = ""


def st(code: Code | str, *reasons: str) -> Status:
    """`st("Unschedulable", "r")` or `st(Code.ERROR, "boom")`."""
    return Status.new(code if isinstance(code, Code) else Code.parse(code), *reasons)


# Upstream's registration for a plugin without EnqueueExtensions: every resource, always Queue.
EVERY_EVENT = [ClusterEventWithHint(e) for e in unroll_wildcard_resource()]
# Only a node joining (not the pod's own status patches): for tests about one cluster event.
NODE_ADDED = [ClusterEventWithHint(ClusterEvent(NODE, ActionType.ADD))]


class Scripted(PreEnqueuePlugin, PreFilterPlugin, FilterPlugin, PostFilterPlugin, PreScorePlugin, ScorePlugin,
               ReservePlugin, PermitPlugin, PreBindPlugin, BindPlugin, PostBindPlugin):
    def __init__(self, name: str, log: list[Call], **behaviour: Any) -> None:
        self._name = name
        self.log = log
        self.b = behaviour
        self.handle: Framework | None = None

    @property
    def name(self) -> str:
        return self._name

    def events_to_register(self) -> list:
        """EnqueueExtensions: none unless `events=` is given, so a pod a scripted plugin rejects waits in
        the unschedulable pool. (Without the method, upstream's default registration would answer Queue to
        every event, the pod's own status patches included, and the tables here would retry it.)"""
        return list(self.b.get("events", []))

    def _get(self, key: str, default: Any, *args: Any) -> Any:
        value = self.b.get(key, default)
        return value(*args) if callable(value) else value

    def _rec(self, point: str, pod: Pod, node: str = "") -> None:
        self.log.append(Call(point, self._name, pod.name, node))

    # --- queue / filtering -------------------------------------------------------------------

    def pre_enqueue(self, pod: Pod) -> Status:
        self._rec("PreEnqueue", pod)
        return self._get("pre_enqueue", SUCCESS, pod)

    def pre_filter(self, state: CycleState, pod: Pod, nodes: list[NodeInfo]):
        self._rec("PreFilter", pod)
        names = self._get("pre_filter_result", None, pod)
        result = None if names is None else PreFilterResult(frozenset(names))
        return result, self._get("pre_filter", SUCCESS, pod)

    def pre_filter_extensions(self):
        return self if self.b.get("extensions", True) else None

    def add_pod(self, state: CycleState, pod: Pod, to_add: PodInfo, node_info: NodeInfo) -> Status:
        self._rec("AddPod", pod, node_info.name)
        return self._get("add_pod", SUCCESS, pod, to_add.pod, node_info.name)

    def remove_pod(self, state: CycleState, pod: Pod, to_remove: PodInfo, node_info: NodeInfo) -> Status:
        self._rec("RemovePod", pod, node_info.name)
        return self._get("remove_pod", SUCCESS, pod, to_remove.pod, node_info.name)

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status:
        self._rec("Filter", pod, node_info.name)
        value = self.b.get("filter", SUCCESS)
        if isinstance(value, dict):
            return value.get(node_info.name, SUCCESS)
        return value(pod, node_info) if callable(value) else value

    def post_filter(self, state: CycleState, pod: Pod, statuses: NodeToStatus):
        self._rec("PostFilter", pod)
        result: PostFilterResult | None = self._get("post_filter_result", None, pod)
        return result, self._get("post_filter", SUCCESS, pod)

    # --- scoring -------------------------------------------------------------------------------

    def pre_score(self, state: CycleState, pod: Pod, nodes: list[NodeInfo]) -> Status:
        self._rec("PreScore", pod)
        return self._get("pre_score", SUCCESS, pod)

    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo):
        self._rec("Score", pod, node_info.name)
        value = self.b.get("score", 0)
        if isinstance(value, dict):
            value = value.get(node_info.name, 0)
        elif callable(value):
            value = value(pod, node_info.name)
        return value, self._get("score_status", SUCCESS, pod)

    def score_extensions(self):
        return self if self.b.get("normalize") is not None else None

    def normalize_score(self, state: CycleState, pod: Pod, scores: list[NodeScore]) -> Status:
        self._rec("NormalizeScore", pod)
        return self._get("normalize", SUCCESS, scores)

    # --- reserve / permit / binding ------------------------------------------------------------

    def reserve(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        self._rec("Reserve", pod, node_name)
        return self._get("reserve", SUCCESS, pod, node_name)

    def unreserve(self, state: CycleState, pod: Pod, node_name: str) -> None:
        self._rec("Unreserve", pod, node_name)

    def permit(self, state: CycleState, pod: Pod, node_name: str):
        self._rec("Permit", pod, node_name)
        return self._get("permit", SUCCESS, pod, node_name), self.b.get("permit_timeout", 0.0)

    def pre_bind_pre_flight(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        self._rec("PreBindPreFlight", pod, node_name)
        return self._get("pre_bind_pre_flight", SUCCESS, pod, node_name)

    def pre_bind(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        self._rec("PreBind", pod, node_name)
        return self._get("pre_bind", SUCCESS, pod, node_name)

    def bind(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        self._rec("Bind", pod, node_name)
        value = self._get("bind", "bind", pod, node_name)
        if value == "bind":
            assert self.handle is not None, "bind needs the framework handle (use build())"
            error = self.handle.client.bind(pod, node_name)
            return Status.as_status(error) if error else SUCCESS
        return value

    def post_bind(self, state: CycleState, pod: Pod, node_name: str) -> None:
        self._rec("PostBind", pod, node_name)


def build(points: dict[str, list[Any]], *, weights: dict[str, int] | None = None, nodes: list = (),
          percentage_of_nodes_to_score: int | None = None, **scheduler_kwargs: Any) -> Scheduler:
    """A one-profile scheduler: PrioritySort is added as queueSort, every plugin gets the framework as
    handle, score weights default to 1."""
    points = {"queueSort": [PrioritySort()], **points}
    score_names = [p.name for p in points.get("score", [])]
    fw = Framework(PROFILE, points, {n: 1 for n in score_names} | (weights or {}),
                   percentage_of_nodes_to_score=percentage_of_nodes_to_score)
    for plugins in points.values():
        for plugin in plugins:
            if isinstance(plugin, Scripted):
                plugin.handle = fw
    sched = Scheduler({PROFILE: fw}, **scheduler_kwargs)
    for n in nodes:
        sched.add_node(n)
    return sched


def calls(log: list[Call], point: str | None = None, plugin: str | None = None,
          pod: str | None = None) -> list[Call]:
    return [c for c in log if (point is None or c.point == point) and (plugin is None or c.plugin == plugin)
            and (pod is None or c.pod == pod)]


def points_run(log: list[Call], plugin: str) -> list[str]:
    """The extension points `plugin` was called at, first-call order, without repeats."""
    out: list[str] = []
    for c in log:
        if c.plugin == plugin and c.point not in out:
            out.append(c.point)
    return out


def result(sched: Scheduler, name: str = "p") -> Any:
    """The `PodResult` of pod default/`name`."""
    return sched.results()[f"default/{name}"]


__all__ = ["Call", "PROFILE", "Scripted", "build", "calls", "points_run", "result", "st"]

