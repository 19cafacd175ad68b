"""`PodInfo`, `NodeInfo` and `Snapshot`, after upstream `framework/types.go` and `cache/snapshot.go`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping

from .resources import Resource, non_zero_requests, pod_requests
from .field_errors import aggregate
from .selectors import LabelSelectorError, label_selector_as_selector, label_selector_matches
from .types import LabelSelector, Node, Pod, PodAffinityTerm, WeightedPodAffinityTerm

DEFAULT_BIND_ALL_HOST_IP = "0.0.0.0"


@dataclass(frozen=True)
class AffinityTerm:
    """A pod (anti-)affinity term resolved against its owner pod's namespace."""

    namespaces: frozenset[str]
    selector: LabelSelector | None
    topology_key: str
    namespace_selector: LabelSelector | None

    @classmethod
    def of(cls, pod: Pod, term: PodAffinityTerm) -> "AffinityTerm":
        """`newAffinityTerm`: raises `LabelSelectorError` when either selector does not parse."""
        label_selector_as_selector(term.label_selector)
        label_selector_as_selector(term.namespace_selector)
        namespaces = frozenset(term.namespaces)
        if not namespaces and term.namespace_selector is None:
            namespaces = frozenset({pod.namespace})
        return cls(namespaces, term.label_selector, term.topology_key, term.namespace_selector)

    def matches(self, pod: Pod, namespace_labels: Mapping[str, str] | None) -> bool:
        """`AffinityTerm.Matches`: namespace listed or selected, then the label selector."""
        in_namespace = pod.namespace in self.namespaces or label_selector_matches(
            self.namespace_selector, namespace_labels or {})
        return in_namespace and label_selector_matches(self.selector, pod.labels)


@dataclass(frozen=True)
class WeightedAffinityTerm:
    term: AffinityTerm
    weight: int


@dataclass(frozen=True)
class PodInfo:
    """`framework.PodInfo`. `parse_error` is `NewPodInfo`'s error: a term list with a selector that
    does not parse is left empty, and the error names it (existing pods' errors are ignored)."""

    pod: Pod
    required_affinity_terms: tuple[AffinityTerm, ...] = ()
    required_anti_affinity_terms: tuple[AffinityTerm, ...] = ()
    preferred_affinity_terms: tuple[WeightedAffinityTerm, ...] = ()
    preferred_anti_affinity_terms: tuple[WeightedAffinityTerm, ...] = ()
    parse_error: str | None = None

    @classmethod
    def of(cls, pod: Pod) -> "PodInfo":
        affinity = pod.affinity
        pa = affinity.pod_affinity if affinity else None
        paa = affinity.pod_anti_affinity if affinity else None
        errors: list[str] = []

        def terms(name: str, v1_terms: Iterable[PodAffinityTerm]) -> tuple[AffinityTerm, ...]:
            try:
                return tuple(AffinityTerm.of(pod, x) for x in v1_terms)
            except LabelSelectorError as err:
                errors.append(f"{name}: {err}")
                return ()

        def weighted(name: str, v1_terms: Iterable[WeightedPodAffinityTerm]) -> tuple[WeightedAffinityTerm, ...]:
            v1_terms = tuple(v1_terms)
            parsed = terms(name, (x.term for x in v1_terms))
            return tuple(WeightedAffinityTerm(t, x.weight) for t, x in zip(parsed, v1_terms))

        return cls(
            pod=pod,
            required_affinity_terms=terms("requiredAffinityTerms", pa.required if pa else ()),
            required_anti_affinity_terms=terms("requiredAntiAffinityTerms", paa.required if paa else ()),
            preferred_affinity_terms=weighted("preferredAffinityTerms", pa.preferred if pa else ()),
            preferred_anti_affinity_terms=weighted("preferredAntiAffinityTerms", paa.preferred if paa else ()),
            parse_error=aggregate(errors) if errors else None,
        )

    @property
    def has_affinity(self) -> bool:
        a = self.pod.affinity
        return a is not None and (a.pod_affinity is not None or a.pod_anti_affinity is not None)


class HostPortInfo:
    """Used host ports: ip -> {(protocol, port)}; 0.0.0.0 conflicts with every ip."""

    def __init__(self) -> None:
        self._ports: dict[str, set[tuple[str, int]]] = {}

    @staticmethod
    def _sanitize(ip: str, protocol: str) -> tuple[str, str]:
        return ip or DEFAULT_BIND_ALL_HOST_IP, protocol or "TCP"

    def add(self, ip: str, protocol: str, port: int) -> None:
        if port <= 0:
            return
        ip, protocol = self._sanitize(ip, protocol)
        self._ports.setdefault(ip, set()).add((protocol, port))

    def remove(self, ip: str, protocol: str, port: int) -> None:
        if port <= 0:
            return
        ip, protocol = self._sanitize(ip, protocol)
        entries = self._ports.get(ip)
        if entries is not None:
            entries.discard((protocol, port))
            if not entries:
                del self._ports[ip]

    def check_conflict(self, ip: str, protocol: str, port: int) -> bool:
        if port <= 0:
            return False
        ip, protocol = self._sanitize(ip, protocol)
        pp = (protocol, port)
        if ip == DEFAULT_BIND_ALL_HOST_IP:
            return any(pp in entries for entries in self._ports.values())
        return any(pp in self._ports.get(key, ()) for key in (DEFAULT_BIND_ALL_HOST_IP, ip))

    def __len__(self) -> int:
        return sum(len(v) for v in self._ports.values())

    def clone(self) -> "HostPortInfo":
        other = HostPortInfo()
        other._ports = {ip: set(v) for ip, v in self._ports.items()}
        return other


@dataclass(frozen=True)
class ImageStateSummary:
    size: int
    num_nodes: int


def _host_ports(pod: Pod) -> Iterable[tuple[str, str, int]]:
    """`util.GetHostPorts`: sidecar init containers first, then regular containers."""
    for c in (*(c for c in pod.init_containers if c.is_sidecar), *pod.containers):
        for p in c.ports:
            yield p.host_ip, p.protocol, p.host_port


@dataclass
class NodeInfo:
    """Aggregated per-node state the plugins read. `node` may be None for pods of unknown nodes."""

    node: Node | None = None
    pods: list[PodInfo] = field(default_factory=list)
    pods_with_affinity: list[PodInfo] = field(default_factory=list)
    pods_with_required_anti_affinity: list[PodInfo] = field(default_factory=list)
    used_ports: HostPortInfo = field(default_factory=HostPortInfo)
    requested: Resource = field(default_factory=Resource)
    non_zero_requested: Resource = field(default_factory=Resource)
    allocatable: Resource = field(default_factory=Resource)
    image_states: dict[str, ImageStateSummary] = field(default_factory=dict)

    @classmethod
    def of(cls, node: Node | None, pods: Iterable[Pod] = ()) -> "NodeInfo":
        info = cls()
        if node is not None:
            info.set_node(node)
        for pod in pods:
            info.add_pod(pod)
        return info

    @property
    def name(self) -> str:
        return self.node.name if self.node else ""

    def set_node(self, node: Node) -> None:
        self.node = node
        self.allocatable = Resource.from_list(node.allocatable)

    def add_pod(self, pod: Pod | PodInfo) -> None:
        info = pod if isinstance(pod, PodInfo) else PodInfo.of(pod)
        self.pods.append(info)
        if info.has_affinity:
            self.pods_with_affinity.append(info)
        if info.required_anti_affinity_terms:
            self.pods_with_required_anti_affinity.append(info)
        self._update(info.pod, +1)

    def remove_pod(self, pod: Pod) -> bool:
        """Remove by UID; returns False when the pod is not on this node (upstream errors)."""
        uid = pod.effective_uid
        for i, info in enumerate(self.pods):
            if info.pod.effective_uid == uid:
                del self.pods[i]
                self.pods_with_affinity = [p for p in self.pods_with_affinity if p.pod.effective_uid != uid]
                self.pods_with_required_anti_affinity = [
                    p for p in self.pods_with_required_anti_affinity if p.pod.effective_uid != uid]
                self._update(info.pod, -1)
                return True
        return False

    def _update(self, pod: Pod, sign: int) -> None:
        self.requested.add_resource(Resource.from_list(pod_requests(pod)), sign)
        cpu, mem = non_zero_requests(pod)
        self.non_zero_requested.milli_cpu += sign * cpu
        self.non_zero_requested.memory += sign * mem
        for ip, protocol, port in _host_ports(pod):
            (self.used_ports.add if sign > 0 else self.used_ports.remove)(ip, protocol, port)

    def clone(self) -> "NodeInfo":
        return NodeInfo(
            node=self.node, pods=list(self.pods), pods_with_affinity=list(self.pods_with_affinity),
            pods_with_required_anti_affinity=list(self.pods_with_required_anti_affinity),
            used_ports=self.used_ports.clone(), requested=self.requested.clone(),
            non_zero_requested=self.non_zero_requested.clone(), allocatable=self.allocatable.clone(),
            image_states=dict(self.image_states))


def normalized_image_name(name: str) -> str:
    """Append ":latest" when the image has neither tag nor digest (imagelocality)."""
    if "@" in name or ":" in name.rsplit("/", 1)[-1]:
        return name
    return name + ":latest"


class Snapshot:
    """An immutable view of the cluster for one scheduling cycle (`cache.Snapshot`)."""

    def __init__(self, nodes: Iterable[Node], pods: Iterable[Pod],
                 namespaces: Mapping[str, Mapping[str, str]] | None = None) -> None:
        node_list = list(nodes)
        by_node: dict[str, list[Pod]] = {n.name: [] for n in node_list}
        for pod in pods:
            if pod.node_name in by_node:
                by_node[pod.node_name].append(pod)
        self.node_info_list: list[NodeInfo] = [NodeInfo.of(n, by_node[n.name]) for n in node_list]
        self._by_name = {info.name: info for info in self.node_info_list}
        self.namespace_labels: dict[str, Mapping[str, str]] = dict(namespaces or {})
        self._used_pvcs: set[str] | None = None
        self._set_image_states(node_list)

    def _set_image_states(self, nodes: list[Node]) -> None:
        """Node image names are used as reported (cache.go); only pod images get normalized."""
        sizes: dict[str, int] = {}
        holders: dict[str, set[str]] = {}
        for node in nodes:
            for image in node.images:
                for name in image.names:
                    sizes.setdefault(name, image.size_bytes)  # the cache keeps the first size seen
                    holders.setdefault(name, set()).add(node.name)
        for info in self.node_info_list:
            assert info.node is not None
            info.image_states = {name: ImageStateSummary(sizes[name], len(holders[name]))
                                 for image in info.node.images for name in image.names}

    def get(self, node_name: str) -> NodeInfo | None:
        return self._by_name.get(node_name)

    def __len__(self) -> int:
        return len(self.node_info_list)

    def is_pvc_used_by_pods(self, key: str) -> bool:
        """`IsPVCUsedByPods`: a pod on some node mounts the claim `namespace/name` (PodPVCKeys)."""
        if self._used_pvcs is None:
            self._used_pvcs = {f"{p.pod.namespace}/{v['persistentVolumeClaim'].get('claimName', '')}"
                               for info in self.node_info_list for p in info.pods for v in p.pod.volumes
                               if v.get("persistentVolumeClaim") is not None}
        return key in self._used_pvcs

    def have_pods_with_affinity_list(self) -> list[NodeInfo]:
        return [n for n in self.node_info_list if n.pods_with_affinity]

    def have_pods_with_required_anti_affinity_list(self) -> list[NodeInfo]:
        return [n for n in self.node_info_list if n.pods_with_required_anti_affinity]


__all__ = [
    "AffinityTerm",
    "HostPortInfo",
    "ImageStateSummary",
    "NodeInfo",
    "PodInfo",
    "Snapshot",
    "WeightedAffinityTerm",
    "normalized_image_name",
]
