"""Probe plugins Probe0..Probe7 for the reference framework (behaviour: docs/probes.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping

from ..cycle_state import CycleState
from ..errors import ConfigError
from ..interfaces import (
    BindPlugin, FilterPlugin, Handle, NodeScore, NodeToStatus, NominatingInfo, NominatingMode, PermitPlugin,
    PostBindPlugin, PostFilterPlugin, PostFilterResult, PreBindPlugin, PreEnqueuePlugin, PreFilterPlugin,
    PreFilterResult, PreScorePlugin, ReservePlugin, ScorePlugin)
from ..nodeinfo import NodeInfo, PodInfo
from ..registry import PluginArgs, PluginSpec, Registry
from ..scenario import PROBE_SCRIPT_ANNOTATION
from ..status import Code, Status
from ..types import Pod
from .script import PROBE_NAMES, Action, Script, ScriptError, parse_script
from .tracker import ProbeTracker

CYCLE_KEY = "sched-conformance.io/cycle"


@dataclass
class CycleMark:
    """What probes keep in the CycleState: the cycle number and which probes ran PreFilter in it."""

    attempt: int
    pre_filtered: set[str] = field(default_factory=set)

    def clone(self) -> "CycleMark":
        return CycleMark(self.attempt, set(self.pre_filtered))


@dataclass(frozen=True)
class ProbeArgs(PluginArgs):
    KIND: ClassVar[str] = "ProbeArgs"
    score_extensions: bool = False
    collector: str = ""

    @classmethod
    def from_config(cls, raw: Mapping[str, Any] | None, path: str) -> "ProbeArgs":
        raw = dict(raw or {})
        raw.pop("kind", None)
        raw.pop("apiVersion", None)
        unknown = sorted(set(raw) - {"scoreExtensions", "collector"})
        if unknown:
            raise ConfigError(f'unknown field "{unknown[0]}"; probe args are scoreExtensions and collector',
                              field=path)
        score_extensions = raw.get("scoreExtensions", False)
        if not isinstance(score_extensions, bool):
            raise ConfigError(f"scoreExtensions: expected a boolean, got {score_extensions!r}", field=path)
        collector = raw.get("collector", "")
        if not isinstance(collector, str):
            raise ConfigError(f"collector: expected a URL string, got {collector!r}", field=path)
        return cls(score_extensions, collector)

    def to_config(self) -> dict[str, Any]:
        return {"scoreExtensions": self.score_extensions, "collector": self.collector}


class Probe(PreEnqueuePlugin, PreFilterPlugin, FilterPlugin, PostFilterPlugin, PreScorePlugin, ScorePlugin,
            ReservePlugin, PermitPlugin, PreBindPlugin, BindPlugin, PostBindPlugin):
    """Answers from the pod's script and records every call into the tracker's trace."""

    def __init__(self, name: str, args: ProbeArgs, handle: Handle, tracker: ProbeTracker) -> None:
        self._name = name
        self.args = args
        self.handle = handle
        self.tracker = tracker

    @property
    def name(self) -> str:
        return self._name

    # --- plumbing ------------------------------------------------------------------------------

    def _script(self, pod: Pod) -> Script | str:
        try:
            return parse_script(pod.annotations.get(PROBE_SCRIPT_ANNOTATION))
        except ScriptError as exc:
            return f"invalid probe script: {exc}"

    def _cycle(self, state: CycleState, pod: Pod, *, starts: bool = False) -> tuple[int, bool]:
        """The pod's cycle number for this CycleState, and whether the state leaked from an earlier cycle.

        A PreFilter call starts a new cycle unless another probe's PreFilter already did in this
        state; the same probe's PreFilter seeing its own mark means the state outlived its cycle.
        """
        mark: CycleMark | None = state.read(CYCLE_KEY) if CYCLE_KEY in state else None
        leaked = starts and mark is not None and self._name in mark.pre_filtered
        if mark is None or leaked:
            mark = CycleMark(self.tracker.next_cycle(pod.key))
            state.write(CYCLE_KEY, mark)
        if starts:
            mark.pre_filtered.add(self._name)
        return mark.attempt, leaked

    def _act(self, point: str, pod: Pod, attempt: int, node: str = "", **extra: Any) -> tuple[Action | None, Status]:
        """The action to take and its status; a broken script yields (None, Error)."""
        script = self._script(pod)
        if isinstance(script, str):
            status = Status.new(Code.ERROR, script)
            self._record(point, pod, attempt, node, status, **extra)
            return None, status
        action = script.action(self._name, point, attempt, node)
        return action, Status.new(action.code, *action.reasons)

    def _record(self, point: str, pod: Pod, attempt: int, node: str = "", status: Status | None = None,
                **extra: Any) -> None:
        fields: dict[str, Any] = {"attempt": attempt, "plugin": self._name}
        if node:
            fields["node"] = node
        if status is not None:
            fields["code"] = status.code.upstream_name
            if status.reasons:
                fields["reasons"] = list(status.reasons)
        fields.update(extra)
        self.tracker.trace.record(point, pod.key, **fields)

    def _simple(self, point: str, state: CycleState, pod: Pod, node: str = "") -> Status:
        attempt, _ = self._cycle(state, pod)
        action, status = self._act(point, pod, attempt, node)
        if action is not None:
            self._record(point, pod, attempt, node, status)
        return status

    # --- queueing and filtering ----------------------------------------------------------------

    def pre_enqueue(self, pod: Pod) -> Status:
        attempt = self.tracker.current_cycle(pod.key)
        action, status = self._act("PreEnqueue", pod, attempt)
        if action is not None:
            self._record("PreEnqueue", pod, attempt, status=status)
        return status

    def pre_filter(self, state: CycleState, pod: Pod, nodes: list[NodeInfo]):
        attempt, leaked = self._cycle(state, pod, starts=True)
        action, status = self._act("PreFilter", pod, attempt, leaked=leaked or None)
        if action is None:
            return None, status
        result = None if action.result is None else PreFilterResult(frozenset(action.result))
        self._record("PreFilter", pod, attempt, status=status,
                     result=list(action.result) if action.result is not None else None,
                     leaked=leaked or None)
        return result, status

    def pre_filter_extensions(self):
        return self

    def add_pod(self, state: CycleState, pod: Pod, to_add: PodInfo, node_info: NodeInfo) -> Status:
        return self._simple("AddPod", state, pod, node_info.name)

    def remove_pod(self, state: CycleState, pod: Pod, to_remove: PodInfo, node_info: NodeInfo) -> Status:
        return self._simple("RemovePod", state, pod, node_info.name)

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status:
        return self._simple("Filter", state, pod, node_info.name)

    def post_filter(self, state: CycleState, pod: Pod, statuses: NodeToStatus):
        attempt, _ = self._cycle(state, pod)
        action, status = self._act("PostFilter", pod, attempt)
        if action is None:
            return None, status
        result = None
        if action.nominate is not None:
            result = PostFilterResult(NominatingInfo(action.nominate, NominatingMode.OVERRIDE))
        self._record("PostFilter", pod, attempt, status=status, nominate=action.nominate)
        return result, status

    # --- scoring -------------------------------------------------------------------------------

    def pre_score(self, state: CycleState, pod: Pod, nodes: list[NodeInfo]) -> Status:
        return self._simple("PreScore", state, pod)

    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo):
        attempt, _ = self._cycle(state, pod)
        action, status = self._act("Score", pod, attempt, node_info.name)
        if action is None:
            return 0, status
        self._record("Score", pod, attempt, node_info.name, status, score=action.score)
        return action.score, status

    def score_extensions(self):
        return self if self.args.score_extensions else None

    def normalize_score(self, state: CycleState, pod: Pod, scores: list[NodeScore]) -> Status:
        attempt, _ = self._cycle(state, pod)
        action, status = self._act("NormalizeScore", pod, attempt)
        if action is None:
            return status
        for entry in scores:
            if entry.name in action.scores:
                entry.score = action.scores[entry.name]
        self._record("NormalizeScore", pod, attempt, status=status, scores={s.name: s.score for s in scores})
        return status

    # --- reserve, permit, binding --------------------------------------------------------------

    def reserve(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        return self._simple("Reserve", state, pod, node_name)

    def unreserve(self, state: CycleState, pod: Pod, node_name: str) -> None:
        attempt, _ = self._cycle(state, pod)
        self._record("Unreserve", pod, attempt, node_name)

    def permit(self, state: CycleState, pod: Pod, node_name: str):
        attempt, _ = self._cycle(state, pod)
        action, status = self._act("Permit", pod, attempt, node_name)
        if action is None:
            return status, 0.0
        waits = status.code is Code.WAIT
        self._record("Permit", pod, attempt, node_name, status, timeout=action.timeout if waits else None)
        if waits and action.then is not None:
            self.tracker.after(action.then.after, lambda: self._signal(pod, attempt, action))
        return status, action.timeout

    def _signal(self, pod: Pod, attempt: int, action: Action) -> None:
        assert action.then is not None
        waiting = self.handle.get_waiting_pod(pod.effective_uid)
        if waiting is not None:
            if action.then.signal == "allow":
                waiting.allow(self._name)
            else:
                waiting.reject(self._name, action.then.message)
        self._record("Allow" if action.then.signal == "allow" else "Reject", pod, attempt,
                     delivered=waiting is not None)

    def pre_bind_pre_flight(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        return self._simple("PreBindPreFlight", state, pod, node_name)

    def pre_bind(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        return self._simple("PreBind", state, pod, node_name)

    def bind(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        attempt, _ = self._cycle(state, pod)
        action, status = self._act("Bind", pod, attempt, node_name)
        if action is not None and status.is_success():
            error = self.handle.client.bind(pod, node_name)
            if error:
                status = Status.new(Code.ERROR, error)
        if action is not None:
            self._record("Bind", pod, attempt, node_name, status)
        return status

    def post_bind(self, state: CycleState, pod: Pod, node_name: str) -> None:
        attempt, _ = self._cycle(state, pod)
        self._record("PostBind", pod, attempt, node_name)


def probe_registry(tracker: ProbeTracker | None = None) -> Registry:
    """Probe0..Probe7 sharing `tracker` (a fresh one when omitted: enough to load and validate configs)."""
    shared = tracker or ProbeTracker()

    def factory(name: str):
        return lambda args, handle: Probe(name, args or ProbeArgs(), handle, shared)

    return Registry(PluginSpec(name, Probe, factory(name), ProbeArgs) for name in PROBE_NAMES)


__all__ = ["CYCLE_KEY", "Probe", "ProbeArgs", "probe_registry"]
