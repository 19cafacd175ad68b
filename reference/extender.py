"""Mirrors pkg/scheduler/extender.go: HTTPExtender, the scheduler's client of an HTTP extender.

The JSON wire types and the HTTP/TLS transport live in `extender_wire.py`.
"""

from __future__ import annotations

import base64
import binascii

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence

from .duration import parse_duration
from .errors import ConfigError
from .extender_wire import (
    ExtenderError, HostPriority, MetaVictims, TLSConfig, Victims, binding_args, decode_binding_result,
    decode_filter_result, decode_host_priorities, decode_preemption_result, extender_args,
    make_ssl_context, post, preemption_args)
from .gofmt import marshal, quote
from .nodeinfo import NodeInfo
from .types import Node, Pod

DEFAULT_EXTENDER_TIMEOUT = 5.0  # seconds; DefaultExtenderTimeout

NodeLookup = Callable[[str], Any] | Mapping[str, Any]


@dataclass(frozen=True)
class ManagedResource:
    name: str
    ignored_by_scheduler: bool = False


class HTTPExtender:
    """One configured extender. Methods mirror upstream's; errors raise `ExtenderError`."""

    def __init__(self, *, url_prefix: str, filter_verb: str = "", prioritize_verb: str = "",
                 preempt_verb: str = "", bind_verb: str = "", weight: int = 0, enable_https: bool = False,
                 tls_config: TLSConfig | None = None, http_timeout_seconds: float = DEFAULT_EXTENDER_TIMEOUT,
                 node_cache_capable: bool = False,
                 managed_resources: Iterable[ManagedResource | tuple[str, bool]] = (),
                 ignorable: bool = False) -> None:
        self.url_prefix = url_prefix
        self.filter_verb, self.prioritize_verb = filter_verb, prioritize_verb
        self.preempt_verb, self.bind_verb = preempt_verb, bind_verb
        self.weight = weight
        self.node_cache_capable = node_cache_capable
        self.ignorable = ignorable
        self.managed_resources = tuple(
            r if isinstance(r, ManagedResource) else ManagedResource(*r) for r in managed_resources)
        self._managed = frozenset(r.name for r in self.managed_resources)
        # NewHTTPExtender replaces a zero timeout; http.Client has no deadline when it is negative.
        timeout = http_timeout_seconds or DEFAULT_EXTENDER_TIMEOUT
        self.http_timeout_seconds: float | None = timeout if timeout > 0 else None
        self._tls = make_ssl_context(enable_https, tls_config)

    @classmethod
    def from_config(cls, raw: Mapping[str, Any], path: str = "extenders[0]") -> "HTTPExtender":
        """Build from one `KubeSchedulerConfiguration.extenders[]` entry (v1 JSON names)."""
        return cls(**_kwargs_from_config(raw, path))

    @classmethod
    def of(cls, config: Any) -> "HTTPExtender":
        """Build from an object with the snake_case fields (`reference.config.model.Extender`)."""
        return cls(
            url_prefix=config.url_prefix, filter_verb=config.filter_verb,
            prioritize_verb=config.prioritize_verb, preempt_verb=config.preempt_verb,
            bind_verb=config.bind_verb, weight=config.weight, enable_https=config.enable_https,
            tls_config=config.tls_config, http_timeout_seconds=config.http_timeout,
            node_cache_capable=config.node_cache_capable, ignorable=config.ignorable,
            managed_resources=[(r.name, r.ignored_by_scheduler) for r in config.managed_resources])

    # --- capabilities ------------------------------------------------------------------------

    @property
    def name(self) -> str:
        return self.url_prefix

    def is_ignorable(self) -> bool:
        return self.ignorable

    def supports_preemption(self) -> bool:
        return bool(self.preempt_verb)

    def is_binder(self) -> bool:
        return bool(self.bind_verb)

    def is_prioritizer(self) -> bool:
        return bool(self.prioritize_verb)

    def is_filter(self) -> bool:
        return bool(self.filter_verb)

    def is_interested(self, pod: Pod) -> bool:
        """True without managed resources, else when any (init) container requests or limits one."""
        if not self._managed:
            return True
        return any(self._managed.intersection(c.requests) or self._managed.intersection(c.limits)
                   for c in (*pod.containers, *pod.init_containers))

    # --- calls -------------------------------------------------------------------------------

    def filter(self, pod: Pod, nodes: Sequence[NodeInfo | Node]
               ) -> tuple[list[Any], dict[str, str], dict[str, str]]:
        """(feasible, failed, failed-and-unresolvable). Returns the kind of node object it was given.

        A node-cache-capable extender's names map back to the given objects. Otherwise the nodes
        come from the response, and NodeInfos are fresh ones without pods, as upstream's are.
        """
        nodes = list(nodes)
        if not self.filter_verb:
            return nodes, {}, {}
        plain = [_node_of(n) for n in nodes]
        result = decode_filter_result(self._send(self.filter_verb, extender_args(pod, plain, self.node_cache_capable)))
        if result.error:
            raise ExtenderError(result.error)
        feasible: list[Any] = []
        if self.node_cache_capable and result.node_names is not None:
            given = {node.name: obj for node, obj in zip(plain, nodes)}
            for name in result.node_names:
                if name not in given:
                    raise ExtenderError(f"extender {quote(self.url_prefix)} claims a filtered node "
                                        f"{quote(name)} which is not found in the input node list")
                feasible.append(given[name])
        elif result.nodes is not None:
            infos = not nodes or isinstance(nodes[0], NodeInfo)
            feasible = [NodeInfo.of(n) if infos else n for n in result.nodes]
        return feasible, dict(result.failed_nodes or {}), dict(result.failed_and_unresolvable_nodes or {})

    def prioritize(self, pod: Pod, nodes: Sequence[NodeInfo | Node]) -> tuple[list[HostPriority], int]:
        """(host priorities, weight); all zeros with weight 0 when there is no prioritize verb."""
        plain = [_node_of(n) for n in nodes]
        if not self.prioritize_verb:
            return [HostPriority(n.name, 0) for n in plain], 0
        body = self._send(self.prioritize_verb, extender_args(pod, plain, self.node_cache_capable))
        return decode_host_priorities(body), self.weight

    def bind(self, pod: Pod, node_name: str) -> None:
        if not self.is_binder():
            raise ExtenderError("unexpected empty bindVerb in extender")
        error = decode_binding_result(self._send(self.bind_verb, binding_args(pod, node_name)))
        if error:
            raise ExtenderError(error)

    def process_preemption(self, pod: Pod, victims: Mapping[str, tuple[Sequence[Pod], int]],
                           node_pods: NodeLookup) -> dict[str, Victims]:
        """Send the candidates; map the returned UIDs back to pods through `node_pods`.

        `node_pods` is a Snapshot, a mapping or a callable from node name to a NodeInfo or a list
        of pods (None when unknown).
        """
        if not self.supports_preemption():
            raise ExtenderError(f"preempt verb is not defined for extender {self.url_prefix} "
                                "but run into ProcessPreemption")
        sent = {node: Victims(list(pods), count) for node, (pods, count) in victims.items()}
        body = self._send(self.preempt_verb, preemption_args(pod, sent, self.node_cache_capable))
        return self.convert_to_victims(decode_preemption_result(body), node_pods)

    def convert_to_victims(self, meta: Mapping[str, MetaVictims | None], node_pods: NodeLookup
                           ) -> dict[str, Victims]:
        """`convertToVictims`. Where Go dereferences a nil pointer and panics, this raises."""
        out: dict[str, Victims] = {}
        for node_name, meta_victims in meta.items():
            pods = _pods_on(node_pods, node_name)
            if meta_victims is None:
                raise ExtenderError(f"extender {self.url_prefix} returned null victims for node {node_name}"
                                    " (upstream kube-scheduler panics here)")
            found = []
            for uid in meta_victims.pods:
                if uid is None:
                    raise ExtenderError(f"extender {self.url_prefix} returned a null victim pod on node "
                                        f"{node_name} (upstream kube-scheduler panics here)")
                pod = next((p for p in pods if p.effective_uid == uid), None)
                if pod is None:
                    raise ExtenderError(f"extender: {self.url_prefix} claims to preempt pod (UID: &{{{uid}}}) "
                                        f"on node: {node_name}, but the pod is not found on that node")
                found.append(pod)
            out[node_name] = Victims(found, meta_victims.num_pdb_violations)
        return out

    def _send(self, action: str, args: Any) -> bytes:
        return post(self.url_prefix, action, marshal(args), timeout=self.http_timeout_seconds, tls=self._tls)


def _node_of(node: NodeInfo | Node) -> Node:
    if isinstance(node, NodeInfo):
        assert node.node is not None, "extenders are only called with NodeInfos of known nodes"
        return node.node
    return node


def _pods_on(node_pods: NodeLookup, node_name: str) -> list[Pod]:
    """`nodeInfos.Get(nodeName)` then its pods; the snapshot's error text when the node is unknown."""
    found = node_pods(node_name) if callable(node_pods) else node_pods.get(node_name)
    if isinstance(found, NodeInfo) and found.node is None:
        found = None
    if found is None:
        raise ExtenderError(f"nodeinfo not found for node name {quote(node_name)}")
    return [getattr(p, "pod", p) for p in getattr(found, "pods", found)]


# --- v1 configuration --------------------------------------------------------------------------

def parse_go_duration(text: str) -> float:
    """`time.ParseDuration` in seconds ("1m30s", "500ms", "-1.5h"), with Go's error texts."""
    return parse_duration(text)


_CONFIG_FIELDS: dict[str, tuple[str, type]] = {
    "urlPrefix": ("url_prefix", str), "filterVerb": ("filter_verb", str),
    "preemptVerb": ("preempt_verb", str), "prioritizeVerb": ("prioritize_verb", str),
    "weight": ("weight", int), "bindVerb": ("bind_verb", str), "enableHTTPS": ("enable_https", bool),
    "nodeCacheCapable": ("node_cache_capable", bool), "ignorable": ("ignorable", bool),
}
_TLS_FIELDS: dict[str, tuple[str, type]] = {
    "insecure": ("insecure", bool), "serverName": ("server_name", str), "certFile": ("cert_file", str),
    "keyFile": ("key_file", str), "caFile": ("ca_file", str), "certData": ("cert_data", bytes),
    "keyData": ("key_data", bytes), "caData": ("ca_data", bytes),
}


def _typed(value: Any, kind: type, path: str) -> Any:
    if kind is bytes:
        try:
            return base64.b64decode(_typed(value, str, path), validate=True)
        except binascii.Error:
            raise ConfigError(f"illegal base64 data: {value!r}", path) from None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ConfigError(f"expected {kind.__name__}, got {value!r}", path)
    return value


def _scalars(raw: Any, fields: Mapping[str, tuple[str, type]], extra: Iterable[str], path: str) -> dict[str, Any]:
    if not isinstance(raw, Mapping):
        raise ConfigError(f"expected an object, got {raw!r}", path)
    for key in raw:
        if key not in fields and key not in extra:
            raise ConfigError(f'unknown field "{key}"', path)
    return {fields[k][0]: _typed(v, fields[k][1], f"{path}.{k}")
            for k, v in raw.items() if k in fields and v is not None}


def _kwargs_from_config(raw: Mapping[str, Any], path: str) -> dict[str, Any]:
    kwargs = _scalars(raw, _CONFIG_FIELDS, ("httpTimeout", "tlsConfig", "managedResources"), path)
    kwargs.setdefault("url_prefix", "")
    timeout = raw.get("httpTimeout")
    if isinstance(timeout, str):
        try:
            kwargs["http_timeout_seconds"] = parse_go_duration(timeout)
        except ValueError as err:
            raise ConfigError(str(err), f"{path}.httpTimeout") from None
    elif timeout is not None:
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
            raise ConfigError(f"expected a duration string or seconds, got {timeout!r}", f"{path}.httpTimeout")
        kwargs["http_timeout_seconds"] = float(timeout)
    if raw.get("tlsConfig") is not None:
        kwargs["tls_config"] = TLSConfig(**_scalars(raw["tlsConfig"], _TLS_FIELDS, (), f"{path}.tlsConfig"))
    resources = []
    for i, item in enumerate(_typed(raw.get("managedResources") or [], list, f"{path}.managedResources")):
        where = f"{path}.managedResources[{i}]"
        fields = _scalars(item, {"name": ("name", str), "ignoredByScheduler": ("ignored_by_scheduler", bool)},
                          (), where)
        resources.append(ManagedResource(fields.get("name", ""), fields.get("ignored_by_scheduler", False)))
    kwargs["managed_resources"] = resources
    return kwargs


__all__ = [
    "DEFAULT_EXTENDER_TIMEOUT",
    "ExtenderError",
    "HTTPExtender",
    "HostPriority",
    "ManagedResource",
    "MetaVictims",
    "TLSConfig",
    "Victims",
    "parse_go_duration",
]
