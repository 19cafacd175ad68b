"""A scenario's timeline: cluster events applied while the scheduler works (format: docs/scenario.md).

`TimelineEvent` is one parsed event; `TimelineState` is every object the scenario holds at a point of
the timeline, as manifests, and applies events to them (merge patches included); `timeline_events`
parses and validates a scenario's whole timeline, before anything runs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Protocol, Sequence

from . import codec
from . import types as t
from .admission import check_classes, check_pod
from .errors import ManifestError
from .faults import Fault, FaultError, fault_when, is_fault, parse_fault
from .kinds import CLUSTER_SCOPED, OBJECT_KINDS, object_key
from .merge_patch import merge_patch
from .timeline_changes import ChangeError, check_change

Manifest = dict[str, Any]
IDLE = "idle"
OPS = ("create", "update", "delete")  # and the fault ops of reference/faults.py
KINDS = ("Node", "Pod", *OBJECT_KINDS)
FIELDS = ("when", "op", "kind", "name", "namespace", "object", "patch")
IMMORTAL_NAMESPACES = ("default", "kube-system", "kube-public")


class ScenarioLike(Protocol):
    """What the timeline reads of a `reference.scenario.Scenario` (which imports this module)."""

    nodes: Sequence[Mapping[str, Any]]
    pods: Sequence[Mapping[str, Any]]
    objects: Sequence[Mapping[str, Any]]
    workload: Sequence[Mapping[str, Any]]
    timeline: Sequence[Any]
    deadline: float


class TimelineError(ManifestError):
    """An event of a scenario's timeline is not valid; the message names `scenario.timeline[i].<field>`."""


@dataclass(frozen=True)
class TimelineEvent:
    """One event: `when` is virtual seconds since the scenario started, or None for "when idle"."""

    index: int
    when: float | None
    op: str
    kind: str
    name: str
    namespace: str = ""  # "" for cluster-scoped kinds
    object: Manifest | None = None  # create
    patch: Manifest | None = None  # update

    @property
    def key(self) -> str:
        """`name` or `namespace/name`, as kinds.object_key names a manifest."""
        return f"{self.namespace}/{self.name}" if self.namespace else self.name


class TimelineState:
    """The scenario's objects at one point of the timeline, by (kind, key)."""

    def __init__(self, manifests: Iterable[Mapping[str, Any]]) -> None:
        self.objects: dict[tuple[str, str], Manifest] = {
            (m["kind"], object_key(m)): dict(m) for m in manifests}

    @classmethod
    def of(cls, scenario: ScenarioLike) -> "TimelineState":
        return cls((*scenario.objects, *scenario.nodes, *scenario.pods, *scenario.workload))

    def get(self, kind: str, key: str) -> Manifest | None:
        return self.objects.get((kind, key))

    def apply(self, event: TimelineEvent | Fault) -> Manifest | None:
        """Apply `event`; returns the object's new manifest (None after a delete). Arming a fault changes
        no object: it is skipped."""
        if isinstance(event, Fault):
            return None
        where = (event.kind, event.key)
        if event.op == "delete":
            self.objects.pop(where, None)
            return None
        new = dict(event.object) if event.op == "create" else merge_patch(self.objects[where], event.patch)
        self.objects[where] = new
        return new

    def classes(self, kind: type) -> dict[str, Any]:
        decoded = (codec.from_manifest(m) for (k, _), m in self.objects.items() if k == kind.__name__)
        return {c.name: c for c in decoded}


def created(timeline: Sequence[Any], kind: str) -> list[Manifest]:
    """The manifests of `kind` that a (validated) timeline creates, in order."""
    return [dict(e["object"]) for e in timeline
            if e.get("op") == "create" and e["object"].get("kind") == kind]


def timeline_events(scenario: ScenarioLike) -> tuple[TimelineEvent | Fault, ...]:
    """Parse and validate `scenario.timeline` (events and faults); raises TimelineError naming the entry
    and field."""
    events = tuple(parse_event(i, raw, scenario.deadline) for i, raw in enumerate(scenario.timeline))
    nodes = {m["metadata"]["name"] for m in scenario.nodes} | {
        e.name for e in events if isinstance(e, TimelineEvent) and e.op == "create" and e.kind == "Node"}
    for lag in (e for e in events if isinstance(e, Fault) and e.op == "lag" and e.node not in nodes):
        raise TimelineError(f"scenario.timeline[{lag.index}].name: node {lag.node!r} is neither a node of "
                            "the scenario nor one the timeline creates; name one of them")
    if events:
        state = TimelineState.of(scenario)
        for event in events:
            _check_against(event, state)
            state.apply(event)
    return events


def parse_event(i: int, raw: Any, deadline: float) -> TimelineEvent | Fault:
    """The shape of one event or fault (not whether its object exists: `timeline_events` checks that)."""
    where = f"scenario.timeline[{i}]"
    if not isinstance(raw, Mapping):
        raise TimelineError(f"{where}: expected an event mapping (when, op, ...), got {raw!r}")
    if is_fault(raw):
        try:
            return parse_fault(i, raw, fault_when(where, raw, deadline, IDLE))
        except FaultError as exc:
            raise TimelineError(str(exc)) from None
    unknown = [f for f in raw if f not in FIELDS]
    if unknown:
        raise TimelineError(f"{where}.{unknown[0]}: unknown field; known fields: {', '.join(FIELDS)}")
    when = _when(where, raw.get("when"), deadline)
    op = raw.get("op")
    if op not in OPS:
        raise TimelineError(f"{where}.op: {op!r} is not an operation; use one of {', '.join(OPS)}, "
                            "or a fault: fail, vanish, restart, lag")
    if op == "create":
        return _create(i, where, raw, when)
    if "object" in raw:
        raise TimelineError(f"{where}.object: only a create takes a manifest; name the object to {op} "
                            "with kind, name (and namespace)")
    kind, name = raw.get("kind"), raw.get("name")
    if kind not in KINDS:
        raise TimelineError(f"{where}.kind: {kind!r} is not a kind the timeline changes; "
                            f"use one of {', '.join(KINDS)}")
    if not isinstance(name, str) or not name:
        raise TimelineError(f"{where}.name: {name!r} is not an object name; name the {kind} to {op}")
    namespace = raw.get("namespace")
    if kind in CLUSTER_SCOPED:
        if namespace is not None:
            raise TimelineError(f"{where}.namespace: {kind} is cluster-scoped; drop namespace")
        namespace = ""
    elif namespace is None:
        namespace = t.DEFAULT_NAMESPACE
    elif not isinstance(namespace, str) or not namespace:
        raise TimelineError(f"{where}.namespace: {namespace!r} is not a namespace name; "
                            "omit it for \"default\"")
    patch = raw.get("patch")
    if op == "delete" and patch is not None:
        raise TimelineError(f"{where}.patch: only an update takes a patch; drop it from the delete")
    if op == "update" and (not isinstance(patch, Mapping) or not patch):
        raise TimelineError(f"{where}.patch: {patch!r} is not a JSON merge patch; an update needs a "
                            "mapping such as {metadata: {labels: {zone: b}}}")
    return TimelineEvent(i, when, op, kind, name, namespace, patch=dict(patch) if patch is not None else None)


def _when(where: str, when: Any, deadline: float) -> float | None:
    if when == IDLE:
        return None
    if isinstance(when, bool) or not isinstance(when, (int, float)) or not math.isfinite(when):
        raise TimelineError(f"{where}.when: {when!r} is neither \"idle\" nor a number of virtual seconds; "
                            "set one of them")
    if not 0 <= when < deadline:
        raise TimelineError(f"{where}.when: {when!r} is outside [0, {deadline:g}), the scenario's deadline; "
                            "use a time in that range or raise scenario.deadline")
    return float(when)


def _create(i: int, where: str, raw: Mapping[str, Any], when: float | None) -> TimelineEvent:
    extra = [f for f in ("kind", "name", "namespace", "patch") if f in raw]
    if extra:
        raise TimelineError(f"{where}.{extra[0]}: a create takes the whole manifest in `object`; "
                            f"drop {extra[0]}")
    manifest = raw.get("object")
    if not isinstance(manifest, Mapping):
        raise TimelineError(f"{where}.object: {manifest!r} is not a manifest; a create needs the full "
                            "manifest of the new object")
    kind = manifest.get("kind")
    if kind not in KINDS:
        raise TimelineError(f"{where}.object.kind: {kind!r} is not a kind the timeline creates; use one of "
                            f"{', '.join(KINDS)}")
    meta = manifest.get("metadata") if isinstance(manifest.get("metadata"), Mapping) else {}
    name, namespace = meta.get("name"), meta.get("namespace")
    if not isinstance(name, str) or not name:
        raise TimelineError(f"{where}.object.metadata.name: {name!r} is not an object name; "
                            f"name the new {kind}")
    if kind in CLUSTER_SCOPED:
        namespace = ""
    elif not isinstance(namespace, str) or not namespace:
        namespace = t.DEFAULT_NAMESPACE
    return TimelineEvent(i, when, "create", kind, name, namespace, object=dict(manifest))


def _check_against(event: TimelineEvent | Fault, state: TimelineState) -> None:
    """The event makes sense at its point of the timeline, and the API server would accept it."""
    where = f"scenario.timeline[{event.index}]"
    if isinstance(event, Fault):
        if event.pod and state.get("Pod", event.pod) is None:
            raise TimelineError(f"{where}.pod: pod {event.pod!r} does not exist at this point of the timeline; "
                                "name a pod of the scenario or one an earlier event creates")
        return
    current = state.get(event.kind, event.key)
    if event.op == "create":
        if current is not None:
            raise TimelineError(f"{where}.object.metadata.name: {event.kind} {event.key!r} already exists "
                                "at this point of the timeline; give the new object another name or delete "
                                "the old one first")
        assert event.object is not None
        try:
            obj = codec.from_manifest(event.object)
        except ManifestError as exc:
            raise TimelineError(f"{where}.object: {exc}") from None
        try:
            _admit(obj, state)
        except ManifestError as exc:  # a pod's admission error starts with its field
            raise TimelineError(f"{where}.object{'.' if isinstance(obj, t.Pod) else ': '}{exc}") from None
        return
    if event.op == "delete" and event.kind == "Namespace":
        _check_namespace_delete(where, event.name, state)
    if current is None:
        raise TimelineError(f"{where}.name: {event.kind} {event.key!r} does not exist at this point of the "
                            "timeline; fix the name, or create the object in the scenario or in an earlier "
                            "event")
    if event.op == "update":
        new = merge_patch(current, event.patch)
        try:
            codec.from_manifest(new)
            check_change(event.kind, current, new)
        except ChangeError as exc:
            raise TimelineError(f"{where}.patch.{exc.path}: {exc.message}") from None
        except ManifestError as exc:
            raise TimelineError(f"{where}.patch: the patched {event.kind} is not valid: {exc}") from None


def _check_namespace_delete(where: str, name: str, state: TimelineState) -> None:
    """The NamespaceLifecycle admission plugin keeps the immortal namespaces; a deleted namespace takes its
    objects with it on a cluster, which the reference does not model, so they must go first."""
    if name in IMMORTAL_NAMESPACES:
        raise TimelineError(f"{where}.name: namespace {name!r} may not be deleted (the API server "
                            "refuses it); delete another namespace")
    held = next((f"{kind} {key}" for kind, key in state.objects if key.startswith(f"{name}/")), None)
    if held is not None:
        raise TimelineError(f"{where}.name: namespace {name!r} still holds {held}; deleting the namespace "
                            "would delete it too: delete its objects in earlier events first")


def _admit(obj: object, state: TimelineState) -> None:
    """Admission as for the scenario's own objects (reference/admission.py)."""
    if isinstance(obj, (t.PriorityClass, t.RuntimeClass)):
        check_classes([obj])
    elif isinstance(obj, t.Pod):
        priority, runtime = state.classes(t.PriorityClass), state.classes(t.RuntimeClass)
        if priority or runtime:
            check_pod(obj, priority, runtime)


__all__ = ["IDLE", "KINDS", "TimelineError", "TimelineEvent", "TimelineState", "created", "parse_event",
           "timeline_events"]
