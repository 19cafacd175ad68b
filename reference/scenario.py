"""Scenario: what a backend runs, as plain JSON-able data (format: docs/scenario.md)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Mapping

import yaml

from . import codec
from . import types as t
from .admission import check_classes, check_pod
from .errors import ManifestError
from .kinds import MODELLED, OBJECT_KINDS, object_key
from .timeline import TimelineError, timeline_events

FORMAT_VERSION = 1
DEFAULT_DEADLINE = 30.0
PROBE_SCRIPT_ANNOTATION = "sched-conformance.io/probe-script"
EXTENDER_SCRIPT_ANNOTATION = "sched-conformance.io/extender-script"
EXTENDER_URL_PLACEHOLDER = "${EXTENDER_URL}"
_FIELDS = ("version", "config", "nodes", "pods", "objects", "customObjects", "workload", "timeline",
           "deadline")
_DNS_SUBDOMAIN = re.compile(r"[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?")

Manifest = dict[str, Any]


class ScenarioError(ManifestError):
    """A scenario file or mapping is not valid; the message names the field."""


@dataclass(frozen=True)
class Scenario:
    """Nodes, pre-bound pods, other objects, the pods to schedule, and the scheduler config."""

    config: Manifest | None = None
    nodes: tuple[Manifest, ...] = ()
    pods: tuple[Manifest, ...] = ()
    objects: tuple[Manifest, ...] = ()
    workload: tuple[Manifest, ...] = ()
    deadline: float = DEFAULT_DEADLINE
    # Objects of kinds the reference does not model (custom resources a user's plugin reads, e.g. a
    # PodGroup): carried as written, created by backends with an API server, ignored by the reference.
    custom_objects: tuple[Manifest, ...] = ()
    # Cluster events applied while the scheduler works, as written (reference/timeline.py parses them).
    timeline: tuple[Manifest, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"version": FORMAT_VERSION}
        if self.config is not None:
            out["config"] = self.config
        out.update(nodes=list(self.nodes), pods=list(self.pods), objects=list(self.objects),
                   workload=list(self.workload))
        if self.custom_objects:
            out["customObjects"] = list(self.custom_objects)
        if self.timeline:
            out["timeline"] = list(self.timeline)
        if self.deadline != DEFAULT_DEADLINE:
            out["deadline"] = self.deadline
        return out

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, sort_keys=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Scenario":
        if not isinstance(data, Mapping):
            raise ScenarioError(f"scenario: expected a mapping, got {type(data).__name__}")
        unknown = sorted(set(data) - set(_FIELDS))
        if unknown:
            raise ScenarioError(f"scenario.{unknown[0]}: unknown field; known fields: {', '.join(_FIELDS)}")
        version = data.get("version", FORMAT_VERSION)
        if version != FORMAT_VERSION:
            raise ScenarioError(f"scenario.version: {version!r} is not supported; use {FORMAT_VERSION}")
        config = data.get("config")
        if config is not None and not isinstance(config, Mapping):
            raise ScenarioError(f"scenario.config: expected a KubeSchedulerConfiguration mapping, got {config!r}")
        deadline = data.get("deadline", DEFAULT_DEADLINE)
        if isinstance(deadline, bool) or not isinstance(deadline, (int, float)) or deadline <= 0:
            raise ScenarioError(f"scenario.deadline: {deadline!r} is not a positive number of seconds")
        scenario = cls(
            config=dict(config) if config is not None else None,
            nodes=_manifests(data, "nodes", ("Node",)),
            pods=_manifests(data, "pods", ("Pod",)),
            objects=_manifests(data, "objects", OBJECT_KINDS),
            workload=_manifests(data, "workload", ("Pod",)),
            deadline=float(deadline),
            custom_objects=_custom_objects(data),
            timeline=_timeline(data),
        )
        scenario.check()
        return scenario

    @classmethod
    def loads(cls, text: str) -> "Scenario":
        """Read JSON or YAML text."""
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise ScenarioError(f"scenario: not valid JSON or YAML: {str(exc).splitlines()[0]}") from None
        return cls.from_dict(data)

    def check(self) -> None:
        """Every object decodes through the reference codec; names are unique; pods bound or not as placed;
        pods agree with the classes they name as admission would make them (reference/admission.py)."""
        seen: set[tuple[str, str]] = set()
        decoded: dict[str, list[tuple[str, object]]] = {}
        for section in ("nodes", "pods", "objects", "workload"):
            for i, manifest in enumerate(getattr(self, section)):
                path = f"scenario.{section}[{i}]"
                try:
                    obj = codec.from_manifest(manifest)
                except ManifestError as exc:
                    raise ScenarioError(f"{path}: {exc}") from None
                decoded.setdefault(section, []).append((path, obj))
                key = (manifest["kind"], _key(manifest))
                if key in seen:
                    raise ScenarioError(f"{path}: duplicate {manifest['kind']} {key[1]!r}; names must be unique")
                seen.add(key)
                if section == "pods" and not getattr(obj, "node_name", ""):
                    raise ScenarioError(f"{path}.spec.nodeName: a pre-bound pod needs a node; "
                                        "put unbound pods in scenario.workload")
                if section == "workload" and getattr(obj, "node_name", ""):
                    raise ScenarioError(f"{path}.spec.nodeName: a workload pod must not be bound; "
                                        "put bound pods in scenario.pods")
        self._check_admission(decoded)
        for i, manifest in enumerate(self.custom_objects):
            key = ("custom", custom_key(manifest))
            if key in seen:
                raise ScenarioError(f"scenario.customObjects[{i}]: duplicate {manifest['kind']} {key[1]!r}; "
                                    "names must be unique")
            seen.add(key)
        try:
            timeline_events(self)
        except TimelineError as exc:
            raise ScenarioError(str(exc)) from None

    @staticmethod
    def _check_admission(decoded: dict[str, list[tuple[str, object]]]) -> None:
        objects = decoded.get("objects", [])
        try:
            check_classes(obj for _, obj in objects)
        except ManifestError as exc:
            raise ScenarioError(f"scenario.objects: {exc}") from None
        priority = {o.name: o for _, o in objects if isinstance(o, t.PriorityClass)}
        runtime = {o.name: o for _, o in objects if isinstance(o, t.RuntimeClass)}
        if not priority and not runtime:
            return
        for path, pod in (*decoded.get("pods", []), *decoded.get("workload", [])):
            try:
                check_pod(pod, priority, runtime)  # type: ignore[arg-type]
            except ManifestError as exc:
                raise ScenarioError(f"{path}.{exc}") from None

    # --- conveniences ---------------------------------------------------------------------------

    def workload_keys(self) -> list[str]:
        return [_key(m) for m in self.workload]

    def node_names(self) -> list[str]:
        return [m["metadata"]["name"] for m in self.nodes]


_key = object_key


def _manifests(data: Mapping[str, Any], section: str, kinds: tuple[str, ...]) -> tuple[Manifest, ...]:
    items = data.get(section) or []
    if not isinstance(items, list):
        raise ScenarioError(f"scenario.{section}: expected a list of manifests, got {type(items).__name__}")
    out = []
    for i, m in enumerate(items):
        if not isinstance(m, Mapping):
            raise ScenarioError(f"scenario.{section}[{i}]: expected a manifest mapping, got {m!r}")
        if m.get("kind") not in kinds:
            raise ScenarioError(f"scenario.{section}[{i}].kind: {m.get('kind')!r} does not belong here; "
                                f"expected one of {', '.join(kinds)}")
        out.append(dict(m))
    return tuple(out)


def _timeline(data: Mapping[str, Any]) -> tuple[Manifest, ...]:
    """`timeline` as written; each event's shape is checked by `check` (reference/timeline.py)."""
    items = data.get("timeline") or []
    if not isinstance(items, list):
        raise ScenarioError(f"scenario.timeline: expected a list of events, got {type(items).__name__}")
    return tuple(dict(e) if isinstance(e, Mapping) else e for e in items)


def _custom_objects(data: Mapping[str, Any]) -> tuple[Manifest, ...]:
    """`customObjects`: any kind the reference does not model, with an API group, a kind and a name."""
    items = data.get("customObjects") or []
    if not isinstance(items, list):
        raise ScenarioError(f"scenario.customObjects: expected a list of manifests, got {type(items).__name__}")
    out = []
    for i, m in enumerate(items):
        where = f"scenario.customObjects[{i}]"
        if not isinstance(m, Mapping):
            raise ScenarioError(f"{where}: expected a manifest mapping, got {m!r}")
        api_version, kind = m.get("apiVersion"), m.get("kind")
        if not isinstance(api_version, str) or api_version.count("/") != 1:
            raise ScenarioError(f"{where}.apiVersion: {api_version!r} is not GROUP/VERSION "
                                "(e.g. scheduling.x-k8s.io/v1alpha1); core objects go in nodes, pods or objects")
        if not isinstance(kind, str) or not kind[:1].isupper():
            raise ScenarioError(f"{where}.kind: {kind!r} is not a Kind (e.g. PodGroup)")
        if kind in MODELLED:
            raise ScenarioError(f"{where}.kind: {kind} is modelled by the reference; "
                                f"put it in {'nodes' if kind == 'Node' else 'pods' if kind == 'Pod' else 'objects'}")
        meta = m.get("metadata")
        name = meta.get("name") if isinstance(meta, Mapping) else None
        if not isinstance(name, str) or not _DNS_SUBDOMAIN.fullmatch(name):
            raise ScenarioError(f"{where}.metadata.name: {name!r} is not a DNS subdomain name "
                                "(lowercase letters, digits, '-' and '.')")
        namespace = meta.get("namespace")
        if namespace is not None and (not isinstance(namespace, str) or not _DNS_SUBDOMAIN.fullmatch(namespace)):
            raise ScenarioError(f"{where}.metadata.namespace: {namespace!r} is not a namespace name")
        out.append(dict(m))
    return tuple(out)


def custom_key(m: Mapping[str, Any]) -> str:
    """`apiVersion Kind [namespace/]name` of a custom object (namespace as written: the API decides
    whether the kind is namespaced)."""
    meta = m.get("metadata") or {}
    where = f"{meta['namespace']}/{meta['name']}" if meta.get("namespace") else str(meta.get("name", ""))
    return f"{m.get('apiVersion')} {m.get('kind')} {where}"


def pod_key(m: Mapping[str, Any]) -> str:
    """`namespace/name` of a pod manifest."""
    return _key(m)


__all__ = ["EXTENDER_SCRIPT_ANNOTATION", "EXTENDER_URL_PLACEHOLDER", "PROBE_SCRIPT_ANNOTATION", "Scenario",
           "ScenarioError", "custom_key", "pod_key"]
