"""The framework runtime: every `Run*`, after upstream `pkg/scheduler/framework/runtime/framework.go` (v1.37.2).

One `Framework` per profile. It also serves as the plugins' `Handle`.
"""

from __future__ import annotations

from typing import Callable, Iterable, Mapping, Sequence

from ..cycle_state import CycleState
from ..interfaces import (
    INTERFACE_OF, MAX_NODE_SCORE, POINT_NAMES, MIN_NODE_SCORE, BindPlugin, ClusterClient, FilterPlugin, NodeScore,
    Nominator, NodeToStatus, PermitPlugin, Plugin, PostBindPlugin, PostFilterPlugin, PostFilterResult, PreBindPlugin,
    PreEnqueuePlugin, PreFilterPlugin, PreFilterResult, PreScorePlugin, QueueSortPlugin, ReservePlugin,
    ScorePlugin)
from ..nodeinfo import NodeInfo, PodInfo, Snapshot
from ..status import SUCCESS, Code, Status, wrap_error
from ..types import Pod
from .waiting_pods import MAX_PERMIT_TIMEOUT, WaitingPod, WaitingPodsMap


class _NoNominator:
    def nominated_pods_for_node(self, node_name: str) -> list[PodInfo]:
        return []


class NodePluginScores:
    """Per-node scores: `scores` are (plugin or extender name, weighted score); `total` their sum."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.scores: list[tuple[str, int]] = []
        self.total = 0


class Framework:
    """A built profile: plugin instances per extension point, weights, and the handle API."""

    def __init__(self, profile_name: str, plugins_by_point: Mapping[str, Sequence[Plugin]],
                 score_weights: Mapping[str, int], *, percentage_of_nodes_to_score: int | None = None,
                 client: ClusterClient | None = None, clock=None, nominator: Nominator | None = None) -> None:
        self.profile_name = profile_name
        self.set_plugins(plugins_by_point)
        self.score_weights = dict(score_weights)
        self.percentage_of_nodes_to_score = percentage_of_nodes_to_score
        self._client = client
        self._clock = clock
        self.nominator: Nominator = nominator or _NoNominator()
        self.waiting_pods = WaitingPodsMap()
        self.on_waiting_pod_signal: Callable[[WaitingPod], None] = lambda wp: None
        self.activator: Callable[[list[Pod]], None] = lambda pods: None  # the scheduler sets its queue's
        self._snapshot = Snapshot((), ())

    def set_plugins(self, plugins_by_point: Mapping[str, Sequence[Plugin]]) -> None:
        """Install the plugin instances per point (factories need the framework as handle first)."""
        for point, plugins in plugins_by_point.items():
            for plugin in plugins:
                if not isinstance(plugin, INTERFACE_OF[point]):
                    raise TypeError(f"plugin {plugin.name!r} does not implement {point}")
        get = lambda point: list(plugins_by_point.get(point, ()))  # noqa: E731
        self.pre_enqueue_plugins: list[PreEnqueuePlugin] = get("preEnqueue")
        self.queue_sort_plugins: list[QueueSortPlugin] = get("queueSort")
        self.pre_filter_plugins: list[PreFilterPlugin] = get("preFilter")
        self.filter_plugins: list[FilterPlugin] = get("filter")
        self.post_filter_plugins: list[PostFilterPlugin] = get("postFilter")
        self.pre_score_plugins: list[PreScorePlugin] = get("preScore")
        self.score_plugins: list[ScorePlugin] = get("score")
        self.reserve_plugins: list[ReservePlugin] = get("reserve")
        self.permit_plugins: list[PermitPlugin] = get("permit")
        self.pre_bind_plugins: list[PreBindPlugin] = get("preBind")
        self.bind_plugins: list[BindPlugin] = get("bind")
        self.post_bind_plugins: list[PostBindPlugin] = get("postBind")

    # --- handle ------------------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        return self._snapshot

    def set_snapshot(self, snapshot: Snapshot) -> None:
        self._snapshot = snapshot

    @property
    def client(self) -> ClusterClient:
        assert self._client is not None, "framework built without a client"
        return self._client

    def activate(self, pods: list[Pod]) -> None:
        """`Handle.Activate` (the queue's `Activate`)."""
        self.activator(pods)

    def iterate_over_waiting_pods(self, fn: Callable[[WaitingPod], None]) -> None:
        self.waiting_pods.iterate(fn)

    def get_waiting_pod(self, uid: str) -> WaitingPod | None:
        return self.waiting_pods.get(uid)

    def reject_waiting_pod(self, uid: str) -> bool:
        wp = self.waiting_pods.get(uid)
        return wp is not None and wp.reject("", "removed")

    def has_filter_plugins(self) -> bool:
        return bool(self.filter_plugins)

    def has_post_filter_plugins(self) -> bool:
        return bool(self.post_filter_plugins)

    def has_score_plugins(self) -> bool:
        return bool(self.score_plugins)

    def list_plugins(self) -> dict[str, list[str]]:
        """Plugin names per extension point, as the framework runs them."""
        return {point: [p.name for p in getattr(self, _attr(point))] for point in POINT_NAMES}

    # --- PreFilter -----------------------------------------------------------------------------

    def run_pre_filter_plugins(self, state: CycleState, pod: Pod
                               ) -> tuple[PreFilterResult | None, Status, set[str]]:
        """Returns (merged result, status, plugins that returned node names)."""
        skip: set[str] = set()
        state.skip_filter_plugins = skip
        nodes = self._snapshot.node_info_list
        result: PreFilterResult | None = None
        with_nodes: set[str] = set()
        return_status = SUCCESS
        for pl in self.pre_filter_plugins:
            r, s = pl.pre_filter(state, pod, nodes)
            if s.is_skip():
                skip.add(pl.name)
                continue
            if not s.is_success():
                s = s.with_plugin(pl.name)
                if s.code is Code.UNSCHEDULABLE_AND_UNRESOLVABLE:
                    return None, s, set()
                if s.code is Code.UNSCHEDULABLE:
                    return_status = s
                    continue
                return None, wrap_error('running PreFilter plugin "{plugin}": {err}', pl.name, s), set()
            if r is not None and not r.all_nodes():
                with_nodes.add(pl.name)
            result = r if result is None else result.merge(r)
            if result is not None and not result.all_nodes() and not result.node_names:
                names = sorted(with_nodes)
                msg = (f"node(s) didn't satisfy plugin {names[0]}" if len(names) == 1
                       else f"node(s) didn't satisfy plugin(s) [{' '.join(names)}] simultaneously")
                return result, Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, msg), with_nodes
        return result, return_status, with_nodes

    def _run_extension(self, which: str, state: CycleState, pod: Pod, info: PodInfo, node_info: NodeInfo) -> Status:
        for pl in self.pre_filter_plugins:
            ext = pl.pre_filter_extensions()
            if ext is None or pl.name in state.skip_filter_plugins:
                continue
            s = (ext.add_pod if which == "AddPod" else ext.remove_pod)(state, pod, info, node_info)
            if not s.is_success():
                inner = s.as_error()
                return Status.as_status(
                    f'running {which} on PreFilter plugin "{pl.name}": {inner if inner is not None else "%!w(<nil>)"}')
        return SUCCESS

    def run_pre_filter_extension_add_pod(self, state: CycleState, pod: Pod, to_add: PodInfo,
                                         node_info: NodeInfo) -> Status:
        return self._run_extension("AddPod", state, pod, to_add, node_info)

    def run_pre_filter_extension_remove_pod(self, state: CycleState, pod: Pod, to_remove: PodInfo,
                                            node_info: NodeInfo) -> Status:
        return self._run_extension("RemovePod", state, pod, to_remove, node_info)

    # --- Filter --------------------------------------------------------------------------------

    def run_filter_plugins(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status:
        for pl in self.filter_plugins:
            if pl.name in state.skip_filter_plugins:
                continue
            s = pl.filter(state, pod, node_info)
            if not s.is_success():
                if not s.is_rejected():
                    s = wrap_error('running "{plugin}" filter plugin: {err}', pl.name, s)
                return s.with_plugin(pl.name)
        return SUCCESS

    def run_filter_plugins_with_nominated_pods(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status:
        """Two passes: with higher-or-equal priority nominated pods added, then without them."""
        status = SUCCESS
        pods_added = False
        for i in range(2):
            state_to_use, info_to_use = state, node_info
            if i == 0:
                added = self._add_nominated_pods(pod, state, node_info)
                if isinstance(added, Status):
                    return added
                pods_added, state_to_use, info_to_use = added
            elif not pods_added or not status.is_success():
                break
            status = self.run_filter_plugins(state_to_use, pod, info_to_use)
            if not status.is_success() and not status.is_rejected():
                return status
        return status

    def _add_nominated_pods(self, pod: Pod, state: CycleState, node_info: NodeInfo
                            ) -> tuple[bool, CycleState, NodeInfo] | Status:
        nominated = self.nominator.nominated_pods_for_node(node_info.name)
        if not nominated:
            return False, state, node_info
        info_out, state_out, added = node_info.clone(), state.clone(), False
        for pi in nominated:
            if pi.pod.effective_priority >= pod.effective_priority and pi.pod.effective_uid != pod.effective_uid:
                info_out.add_pod(pi)
                s = self.run_pre_filter_extension_add_pod(state_out, pod, pi, info_out)
                if not s.is_success():
                    return Status.as_status(s.as_error() or "")
                added = True
        return added, state_out, info_out

    # --- PostFilter ----------------------------------------------------------------------------

    def run_post_filter_plugins(self, state: CycleState, pod: Pod,
                                statuses: NodeToStatus) -> tuple[PostFilterResult | None, Status]:
        result: PostFilterResult | None = None
        reasons: list[str] = []
        rejector = ""
        for pl in self.post_filter_plugins:
            r, s = pl.post_filter(state, pod, statuses)
            if s.is_success():
                return r, s
            if s.code is Code.UNSCHEDULABLE_AND_UNRESOLVABLE:
                return r, s.with_plugin(pl.name)
            if not s.is_rejected():
                inner = s.as_error()
                return None, Status.as_status(inner if inner is not None else "%!w(<nil>)").with_plugin(pl.name)
            if r is not None and r.nominating_info is not None and r.mode.value != 0:
                result = r
            reasons.extend(s.reasons)
            rejector = rejector or pl.name
        return result, Status.new(Code.UNSCHEDULABLE, *reasons).with_plugin(rejector)

    # --- PreScore / Score ----------------------------------------------------------------------

    def run_pre_score_plugins(self, state: CycleState, pod: Pod, nodes: list[NodeInfo]) -> Status:
        skip: set[str] = set()
        state.skip_score_plugins = skip
        for pl in self.pre_score_plugins:
            s = pl.pre_score(state, pod, nodes)
            if s.is_skip():
                skip.add(pl.name)
                continue
            if not s.is_success():
                return wrap_error('running PreScore plugin "{plugin}": {err}', pl.name, s)
        return SUCCESS

    def run_score_plugins(self, state: CycleState, pod: Pod,
                          nodes: list[NodeInfo]) -> tuple[list[NodePluginScores], Status]:
        plugins = [pl for pl in self.score_plugins if pl.name not in state.skip_score_plugins]
        result = [NodePluginScores(n.name) for n in nodes]
        if not plugins:
            return result, SUCCESS
        per_plugin: dict[str, list[NodeScore]] = {pl.name: [] for pl in plugins}
        for info in nodes:
            for pl in plugins:
                score, s = pl.score(state, pod, info)
                if not s.is_success():
                    inner = wrap_error('plugin "{plugin}" failed with: {err}', pl.name, s).as_error()
                    return [], Status.as_status(f"running Score plugins: {inner}")
                per_plugin[pl.name].append(NodeScore(info.name, score))
        for pl in plugins:
            ext = pl.score_extensions()
            if ext is None:
                continue
            s = ext.normalize_score(state, pod, per_plugin[pl.name])
            if not s.is_success():
                inner = wrap_error('plugin "{plugin}" failed with: {err}', pl.name, s).as_error()
                return [], Status.as_status(f"running Normalize on Score plugins: {inner}")
        for i, entry in enumerate(result):
            for pl in plugins:
                score = per_plugin[pl.name][i].score
                if not MIN_NODE_SCORE <= score <= MAX_NODE_SCORE:
                    return [], Status.as_status(
                        "applying score defaultWeights on Score plugins: "
                        f'plugin "{pl.name}" returns an invalid score {score}, it should in the range of '
                        f"[{MIN_NODE_SCORE}, {MAX_NODE_SCORE}] after normalizing")
                weighted = score * self.score_weights[pl.name]
                entry.scores.append((pl.name, weighted))
                entry.total += weighted
        return result, SUCCESS

    # --- Reserve / Permit ----------------------------------------------------------------------

    def run_reserve_plugins_reserve(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        for pl in self.reserve_plugins:
            s = pl.reserve(state, pod, node_name)
            if not s.is_success():
                if s.is_rejected():
                    return s.with_plugin(pl.name)
                return wrap_error('running Reserve plugin "{plugin}": {err}', pl.name, s).with_plugin("")
        return SUCCESS

    def run_reserve_plugins_unreserve(self, state: CycleState, pod: Pod, node_name: str) -> None:
        for pl in reversed(self.reserve_plugins):
            pl.unreserve(state, pod, node_name)

    def run_permit_plugins(self, state: CycleState, pod: Pod,
                           node_name: str) -> tuple[dict[str, float], Status]:
        waits: dict[str, float] = {}
        wait_status: Status | None = None
        for pl in self.permit_plugins:
            s, timeout = pl.permit(state, pod, node_name)
            if s.is_success():
                continue
            if s.is_rejected():
                return {}, s.with_plugin(pl.name)
            if s.is_wait():
                waits[pl.name] = min(timeout, MAX_PERMIT_TIMEOUT)
                wait_status = s
                continue
            return {}, wrap_error('running Permit plugin "{plugin}": {err}', pl.name, s)
        if wait_status is not None:
            reasons = (*wait_status.reasons, "one or more plugins asked to wait and no plugin rejected pod")
            return waits, Status(Code.WAIT, reasons)
        return {}, SUCCESS

    def add_waiting_pod(self, pod: Pod, waits: dict[str, float]) -> WaitingPod:
        wp = WaitingPod(pod, waits, self._clock, on_signal=lambda w: self.on_waiting_pod_signal(w))
        self.waiting_pods.add(wp)
        return wp

    def will_wait_on_permit(self, pod: Pod) -> bool:
        return self.waiting_pods.get(pod.effective_uid) is not None

    # --- binding cycle -------------------------------------------------------------------------

    def run_pre_bind_pre_flights(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        skip: set[str] = set()
        result = Status(Code.SKIP)
        for pl in self.pre_bind_plugins:
            s = pl.pre_bind_pre_flight(state, pod, node_name)
            if s.code is Code.ERROR:
                return Status.as_status(f'running PreBindPreFlight "{pl.name}": {s.as_error()}')
            if s.is_success():
                result = SUCCESS
            elif s.is_skip():
                skip.add(pl.name)
            else:
                return Status.as_status(
                    f'PreBindPreFlight {pl.name} returned "{s.code.upstream_name}", which is unsupported. '
                    "It is supposed to return Success, Skip, or Error status")
        state.skip_pre_bind_plugins = skip
        return result

    def run_pre_bind_plugins(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        for pl in self.pre_bind_plugins:
            if pl.name in state.skip_pre_bind_plugins:
                continue
            s = pl.pre_bind(state, pod, node_name)
            if not s.is_success():
                if s.is_rejected():
                    return s.with_plugin(pl.name)
                return wrap_error('running PreBind plugin "{plugin}": {err}', pl.name, s).with_plugin("")
        return SUCCESS

    def run_bind_plugins(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        if not self.bind_plugins:
            return Status.new(Code.SKIP, "")
        status = SUCCESS
        for pl in self.bind_plugins:
            status = pl.bind(state, pod, node_name)
            if status.is_skip():
                continue
            if not status.is_success():
                if status.is_rejected():
                    return status.with_plugin(pl.name)
                return wrap_error('running Bind plugin "{plugin}": {err}', pl.name, status).with_plugin("")
            return status
        return status

    def run_post_bind_plugins(self, state: CycleState, pod: Pod, node_name: str) -> None:
        for pl in self.post_bind_plugins:
            pl.post_bind(state, pod, node_name)


def _attr(point: str) -> str:
    snake = "".join("_" + c.lower() if c.isupper() else c for c in point)
    return f"{snake}_plugins"


def plugins_by_point(expanded: Mapping[str, Iterable[str]], instances: Mapping[str, Plugin]) -> dict[str, list[Plugin]]:
    """Resolve the expanded plugin names per point to the shared instances."""
    return {point: [instances[name] for name in names] for point, names in expanded.items()}


__all__ = ["Framework", "NodePluginScores", "Nominator", "plugins_by_point"]
