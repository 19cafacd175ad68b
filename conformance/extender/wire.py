"""The server side of k8s.io/kube-scheduler/extender/v1: read requests strictly, write Go-shaped results.

The client side (`reference/extender_wire.py`) reads responses as leniently as Go's decoder does.
The server is strict instead: the scheduler sends `json.Marshal` output, so every key is the exact
Go field name, and anything else is a backend speaking the wire format wrongly (HTTP 400). Inside
Pod and Node objects only the fields the server uses are checked.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Mapping, NamedTuple

from reference.gofmt import marshal
from reference.scenario import EXTENDER_SCRIPT_ANNOTATION, pod_key

from ..core.errors import ConformanceError


class RequestError(ConformanceError):
    """A request the server cannot read; answered with HTTP 400 and this one-line message."""


@dataclass(frozen=True)
class PodRef:
    key: str
    uid: str
    script: str | None  # the extender-script annotation, None when absent


@dataclass(frozen=True)
class NodesArgs:
    """`ExtenderArgs`: `items` holds the NodeList items as sent, None for the NodeNames form."""

    pod: PodRef
    names: tuple[str, ...]
    items: tuple[Mapping[str, Any], ...] | None


@dataclass(frozen=True)
class BindArgs:
    """`ExtenderBindingArgs`."""

    namespace: str
    name: str
    uid: str
    node: str

    @property
    def key(self) -> str:
        return pod_key({"metadata": {"namespace": self.namespace, "name": self.name}})


class Victim(NamedTuple):
    uid: str
    key: str | None  # known when the request carried the whole pod (NodeNameToVictims)


@dataclass(frozen=True)
class Candidate:
    victims: tuple[Victim, ...]
    num_pdb_violations: int


@dataclass(frozen=True)
class PreemptArgs:
    """`ExtenderPreemptionArgs`: candidates in request order, whichever of the two maps was set."""

    pod: PodRef
    candidates: Mapping[str, Candidate]


# --- requests -----------------------------------------------------------------------------------

def read_json(body: bytes) -> Any:
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RequestError(f"body is not UTF-8: {exc}") from None
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except ValueError as exc:
        raise RequestError(f"body is not JSON: {exc}") from None
    except RecursionError:
        raise RequestError("body is JSON nested too deeply to read") from None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def extender_args(value: Any) -> NodesArgs:
    fields = _struct(value, "ExtenderArgs", ("Pod", "Nodes", "NodeNames"))
    pod = _pod(fields.get("Pod"), "ExtenderArgs.Pod")
    nodes, names = fields.get("Nodes"), fields.get("NodeNames")
    if (nodes is None) == (names is None):
        got = "neither" if nodes is None else "both"
        raise RequestError(f"ExtenderArgs: set exactly one of Nodes (a NodeList) and NodeNames "
                           f"(nodeCacheCapable), got {got}")
    if names is not None:
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise RequestError(f"ExtenderArgs.NodeNames: expected a list of node names, got {_show(names)}")
        return NodesArgs(pod, tuple(names), None)
    if not isinstance(nodes, dict):
        raise RequestError(f"ExtenderArgs.Nodes: expected a NodeList object, got {_show(nodes)}")
    items = nodes.get("items") or []
    if not isinstance(items, list):
        raise RequestError(f"ExtenderArgs.Nodes.items: expected a list of Nodes, got {_show(items)}")
    found = tuple(_name(item, f"ExtenderArgs.Nodes.items[{i}]", "Node") for i, item in enumerate(items))
    return NodesArgs(pod, found, tuple(items))


def binding_args(value: Any) -> BindArgs:
    fields = _struct(value, "ExtenderBindingArgs", ("PodName", "PodNamespace", "PodUID", "Node"))
    for name, got in fields.items():
        if not isinstance(got, str):
            raise RequestError(f"ExtenderBindingArgs.{name}: expected a string, got {_show(got)}")
    for name in ("PodName", "Node"):
        if not fields.get(name):
            raise RequestError(f"ExtenderBindingArgs.{name}: missing or empty; a binding names a pod and a node")
    return BindArgs(fields.get("PodNamespace", ""), fields["PodName"], fields.get("PodUID", ""), fields["Node"])


def preemption_args(value: Any) -> PreemptArgs:
    fields = _struct(value, "ExtenderPreemptionArgs", ("Pod", "NodeNameToVictims", "NodeNameToMetaVictims"))
    pod = _pod(fields.get("Pod"), "ExtenderPreemptionArgs.Pod")
    full, meta = fields.get("NodeNameToVictims"), fields.get("NodeNameToMetaVictims")
    if (full is None) == (meta is None):
        got = "neither" if full is None else "both"
        raise RequestError(f"ExtenderPreemptionArgs: set exactly one of NodeNameToVictims and "
                           f"NodeNameToMetaVictims (nodeCacheCapable), got {got}")
    field, victims = ("NodeNameToVictims", full) if meta is None else ("NodeNameToMetaVictims", meta)
    if not isinstance(victims, dict):
        raise RequestError(f"ExtenderPreemptionArgs.{field}: expected an object of node -> victims, "
                           f"got {_show(victims)}")
    return PreemptArgs(pod, {node: _candidate(item, f"ExtenderPreemptionArgs.{field}[{node!r}]", meta is None)
                             for node, item in victims.items()})


def _candidate(value: Any, path: str, whole_pods: bool) -> Candidate:
    fields = _struct(value, path, ("Pods", "NumPDBViolations"))
    pdbs = fields.get("NumPDBViolations", 0)
    if isinstance(pdbs, bool) or not isinstance(pdbs, int):
        raise RequestError(f"{path}.NumPDBViolations: expected an integer, got {_show(pdbs)}")
    pods = fields.get("Pods") or []
    if not isinstance(pods, list):
        raise RequestError(f"{path}.Pods: expected a list, got {_show(pods)}")
    if whole_pods:
        refs = [_pod(p, f"{path}.Pods[{i}]") for i, p in enumerate(pods)]
        return Candidate(tuple(Victim(r.uid, r.key) for r in refs), pdbs)
    uids = []
    for i, p in enumerate(pods):
        uid = _struct(p, f"{path}.Pods[{i}]", ("UID",)).get("UID", "")
        if not isinstance(uid, str):
            raise RequestError(f"{path}.Pods[{i}].UID: expected a string, got {_show(uid)}")
        uids.append(Victim(uid, None))
    return Candidate(tuple(uids), pdbs)


def _struct(value: Any, path: str, names: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RequestError(f"{path}: expected a JSON object with {', '.join(names)}, got {_show(value)}")
    unknown = [k for k in value if k not in names]
    if unknown:
        raise RequestError(f"{path}: unknown field {unknown[0]!r}; the Go struct has {', '.join(names)}")
    return value


def _pod(value: Any, path: str) -> PodRef:
    name = _name(value, path, "Pod")
    meta = value["metadata"]
    for field in ("namespace", "uid"):
        if not isinstance(meta.get(field, ""), (str, type(None))):
            raise RequestError(f"{path}.metadata.{field}: expected a string, got {_show(meta[field])}")
    annotations = meta.get("annotations") or {}
    script = annotations.get(EXTENDER_SCRIPT_ANNOTATION) if isinstance(annotations, dict) else None
    if not isinstance(annotations, dict) or not isinstance(script, (str, type(None))):
        raise RequestError(f"{path}.metadata.annotations: expected an object of strings, got {_show(annotations)}")
    return PodRef(pod_key({"metadata": {"namespace": meta.get("namespace"), "name": name}}),
                  meta.get("uid") or "", script)


def _name(value: Any, path: str, kind: str) -> str:
    meta = value.get("metadata") if isinstance(value, dict) else None
    name = meta.get("name") if isinstance(meta, dict) else None
    if not isinstance(name, str) or not name:
        raise RequestError(f"{path}: expected a {kind} object with metadata.name, got {_show(value)}")
    return name


def _show(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


# --- results (Go struct field order; maps sorted like json.Marshal) -----------------------------

def filter_result(args: NodesArgs, passing: list[str], failed: Mapping[str, str],
                  unresolvable: Mapping[str, str], error: str) -> bytes:
    """`ExtenderFilterResult` in the form the request used."""
    keep = set(passing)
    nodes = None if args.items is None else {
        "metadata": {}, "items": [item for name, item in zip(args.names, args.items) if name in keep]}
    return marshal({"Nodes": nodes, "NodeNames": None if args.items is not None else passing,
                    "FailedNodes": _sorted(failed), "FailedAndUnresolvableNodes": _sorted(unresolvable),
                    "Error": error})


def host_priority_list(scores: list[tuple[str, int]]) -> bytes:
    return marshal([{"Host": host, "Score": score} for host, score in scores])


def binding_result(error: str) -> bytes:
    return marshal({"Error": error})


def preemption_result(candidates: Mapping[str, Candidate]) -> bytes:
    """`ExtenderPreemptionResult`: always the UIDs only (NodeNameToMetaVictims), as upstream expects."""
    return marshal({"NodeNameToMetaVictims": {
        node: {"Pods": [{"UID": v.uid} for v in candidates[node].victims],
               "NumPDBViolations": candidates[node].num_pdb_violations}
        for node in sorted(candidates)}})


def _sorted(mapping: Mapping[str, str]) -> dict[str, str]:
    return {key: mapping[key] for key in sorted(mapping)}


__all__ = ["BindArgs", "Candidate", "NodesArgs", "PodRef", "PreemptArgs", "RequestError", "Victim",
           "binding_args", "binding_result", "extender_args", "filter_result", "host_priority_list",
           "preemption_args", "preemption_result", "read_json"]
