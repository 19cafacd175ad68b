"""A scenario's timeline applied through the API server (format: docs/scenario.md, Timeline).

Each event's object is adapted as the scenario's own are (adapt.py): before and after the event, as
manifests of the scenario (reference/timeline.py's TimelineState). An update sends the API server the
difference of the two adapted objects as merge patches (application/merge-patch+json), split the way
the API server takes them: the object itself; a pod's container resources through the `resize`
subresource (ValidatePodUpdate refuses them on the pod itself; ValidatePodResize, v1.37, takes a pending
pod; an API server before v1.33 has no subresource and gets them on the pod itself); a node's
status through `status`. A pod's tolerations are the live ones plus the added ones, since
admission (DefaultTolerationSeconds) added some the scenario does not know and none may be removed.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from reference.faults import Fault
from reference.scenario import Scenario
from reference.timeline import TimelineEvent, TimelineState, timeline_events

from ..core.errors import BackendFailure
from . import apply
from .adapt import Adapter, Plan
from .cleanup import delete_namespace
from .kube import Kube, KubeError, path
from .naming import NamespaceMap
from .requeue import at_least

Manifest = dict[str, Any]
_STATUS_KINDS = ("Node",)  # the only kind whose status a timeline changes


class TimelinePlayer:
    """Applies one scenario's events in order (`apply_next`); tracks the workload they change.

    `workload`: cluster keys of the pending pods the outcome reports (the plan's, plus the pending pods
    the timeline creates, minus those it deletes).
    """

    def __init__(self, kube: Kube, adapter: Adapter, scenario: Scenario, nsmap: NamespaceMap, plan: Plan, *,
                 workload: set[str], finalize: bool, deleted_by_scheduler: Callable[[str], bool],
                 server_version: str = "", arm: Callable[[Fault], None] | None = None) -> None:
        """`arm(fault)`: a fault entry applies (conformance/cluster/faults.py); without it none may come."""
        self.kube, self.adapter, self.nsmap, self.finalize = kube, adapter, nsmap, finalize
        self.resize_subresource = has_resize_subresource(server_version)
        self.events = timeline_events(scenario)
        self.state = TimelineState.of(scenario)
        self.renamed = dict(plan.renamed)
        self.workload = workload
        self.seen = set(workload)  # every pod ever in the workload (the trace keeps those deleted)
        self.deleted_by_scheduler = deleted_by_scheduler
        self.next = 0
        self.arm = arm

    @property
    def pending(self) -> TimelineEvent | Fault | None:
        return self.events[self.next] if self.next < len(self.events) else None

    def apply_next(self, before_delete: Callable[[str], None]) -> bool:
        """Apply the next event; `before_delete(uid)` runs before a pod is deleted. False when the event does
        not apply: an update of a pending pod the API server refuses because the scheduler bound it first to a
        node the timeline has deleted since ("node not found": wall-clock timing; the timeline meant a pending
        pod). Any other refusal raises BackendFailure naming the event and quoting the API server."""
        event = self.events[self.next]
        self.next += 1
        if isinstance(event, Fault):
            if self.arm is None:
                raise BackendFailure(f"scenario.timeline[{event.index}]: this cluster cannot inject faults")
            self.arm(event)
            return True
        old = self.state.get(event.kind, event.key)
        new = self.state.apply(event)
        try:
            if event.op == "create":
                self._create(new)
            elif event.op == "delete":
                self._delete(event, old, before_delete)
            else:
                self._update(event, old, new)
            return True
        except KubeError as exc:
            if exc.status == 403 and self._bound_to_a_deleted_node(event, old):
                return False
            raise BackendFailure(f"scenario.timeline[{event.index}] ({event.op} {event.kind} {event.key}): "
                                 f"{self.nsmap.text_to_scenario(f'the API server refused it: {exc.message}')}") \
                from None
        except BackendFailure as exc:  # apply's and adapt's failures name the object already
            raise BackendFailure(f"scenario.timeline[{event.index}] ({event.op} {event.kind} {event.key}): "
                                 f"{self.nsmap.text_to_scenario(str(exc))}") from None

    def _bound_to_a_deleted_node(self, event: TimelineEvent, old: Manifest | None) -> bool:
        """Whether the event updates a pod the timeline holds pending that the scheduler has bound since, to a
        node that is gone."""
        if event.kind != "Pod" or event.op != "update" or old is None or (old.get("spec") or {}).get("nodeName"):
            return False
        meta = self._adapt(old)[0]["metadata"]
        live = self.kube.get(path("Pod", meta["namespace"], meta["name"]))
        node = (live or {}).get("spec", {}).get("nodeName")
        return bool(node) and self.kube.get(path("Node", None, node)) is None

    # --- the three operations ----------------------------------------------------------------------

    def _adapt(self, m: Manifest) -> tuple[Manifest, Manifest, dict[str, Manifest]]:
        classes: dict[str, Manifest] = {}
        obj, status = self.adapter.one(m, self.nsmap, self.renamed, classes)
        return obj, status, classes

    def _create(self, m: Manifest) -> None:
        obj, status, classes = self._adapt(m)
        for cls in classes.values():  # bare priorities and overheads: the run's classes, maybe new
            try:
                self.kube.create(path(cls["kind"]), cls)
            except KubeError as exc:
                if exc.status != 409:
                    raise
        if obj["kind"] == "Pod":
            self._link_owners(obj)
        apply.create_object(self.kube, obj, status)
        if obj["kind"] == "Pod" and not obj["spec"].get("nodeName"):
            self.workload.add(_key(obj))
            self.seen.add(_key(obj))

    def _delete(self, event: TimelineEvent, old: Manifest | None,
                before_delete: Callable[[str], None]) -> None:
        obj, _, _ = self._adapt(old or {})
        meta = obj["metadata"]
        if event.kind == "Namespace":
            if not delete_namespace(self.kube, meta["name"], finalize=self.finalize):
                raise BackendFailure(f"the API server has no Namespace {event.key}")
            return
        if event.kind == "Pod":
            key = _key(obj)
            self.workload.discard(key)
            live = self.kube.get(path("Pod", meta["namespace"], meta["name"]))
            if live is None or self.deleted_by_scheduler(key):
                return  # a preemption victim: the deletion stays the scheduler's
            before_delete(live["metadata"]["uid"])  # by uid: the timeline may create the pod again
        grace = 0 if event.kind == "Pod" else None  # no kubelet confirms a graceful deletion
        found = self.kube.delete(path(event.kind, meta.get("namespace"), meta["name"]), grace=grace)
        if not found and event.kind != "Pod":  # a pod may be going by preemption, unseen yet
            raise BackendFailure(f"the API server has no {event.kind} {event.key}")

    def _update(self, event: TimelineEvent, old: Manifest | None, new: Manifest | None) -> None:
        before, _, _ = self._adapt(old or {})
        after, _, _ = self._adapt(new or {})
        meta = after["metadata"]
        url = path(event.kind, meta.get("namespace"), meta["name"])
        if event.kind == "Pod" and self.deleted_by_scheduler(_key(after)):
            return  # gone by preemption: the event changes nothing
        patch = merge_diff(before, after)
        status = patch.pop("status", None)
        resize = None
        if event.kind == "Pod":
            status = None  # the scheduler's; a timeline never changes it
            live = self.kube.get(url)
            if live is None:
                raise BackendFailure(f"the API server has no Pod {event.key}, which neither the timeline "
                                     "nor the scheduler deleted")
            spec = patch.get("spec") or {}
            resize = _resize(live, after, spec)
            if "tolerations" in spec:
                spec["tolerations"] = _added(live, before, after)
            if not spec:
                patch.pop("spec", None)
        if patch:
            self.kube.merge_patch(url, patch)
        if resize:  # before v1.33 there is no subresource: the pod itself takes it (behind a feature gate)
            self.kube.merge_patch(f"{url}/resize" if self.resize_subresource else url, resize)
        if status and event.kind in _STATUS_KINDS:
            self.kube.merge_patch(f"{url}/status", {"status": status})

    def _link_owners(self, pod: Manifest) -> None:
        """Owner references get the owner's uid, as `apply.setup` gives them the created owners'."""
        ns = pod["metadata"]["namespace"]
        uids = {}
        for ref in pod["metadata"].get("ownerReferences") or []:
            kind, name = ref.get("kind", ""), ref.get("name", "")
            try:
                found = self.kube.get(path(kind, ns, name)) if kind in apply.OWNER_API_VERSIONS else None
            except (KeyError, KubeError):
                found = None
            if found:
                uids[(kind, ns, name)] = found["metadata"]["uid"]
        apply.link_owners(pod, uids)


def has_resize_subresource(version: str) -> bool:
    """Whether an API server of `version` (a gitVersion, "v1.37.2") serves pods/resize (v1.33 and later;
    assumed when the version does not parse)."""
    return at_least(version, 33)


def merge_diff(old: Any, new: Any) -> Manifest:
    """The RFC 7386 merge patch that turns mapping `old` into `new` (lists and scalars whole; null
    removes)."""
    out: Manifest = {}
    for key in old.keys() | new.keys():
        if key not in new:
            out[key] = None
        elif isinstance(old.get(key), Mapping) and isinstance(new[key], Mapping):
            sub = merge_diff(old[key], new[key])
            if sub:
                out[key] = sub
        elif old.get(key) != new[key]:
            out[key] = new[key]
    return out


def _resize(live: Mapping[str, Any], after: Mapping[str, Any], spec: Manifest) -> Manifest | None:
    """The `resize` body when the patch changes container resources (taken out of `spec`): the live
    containers, each with its new resources (the subresource takes only resources; lists go whole)."""
    body: Manifest = {}
    for field in ("initContainers", "containers"):
        if field not in spec:
            continue
        spec.pop(field)
        wanted = {c["name"]: c.get("resources") or {} for c in after["spec"].get(field) or []}
        body[field] = [{**c, "resources": wanted.get(c["name"], c.get("resources") or {})}
                       for c in live["spec"].get(field) or []]
    return {"spec": body} if body else None


def _added(live: Mapping[str, Any], before: Mapping[str, Any], after: Mapping[str, Any]) -> list[Manifest]:
    kept = list(live["spec"].get("tolerations") or [])
    known = before["spec"].get("tolerations") or []
    return kept + [t for t in after["spec"].get("tolerations") or [] if t not in known and t not in kept]


def _key(obj: Mapping[str, Any]) -> str:
    return f"{obj['metadata'].get('namespace', '')}/{obj['metadata']['name']}"


__all__ = ["TimelinePlayer", "has_resize_subresource", "merge_diff"]
