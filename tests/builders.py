"""Small builders for tests, in the spirit of upstream's `st.MakePod()` / `st.MakeNode()`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping

from reference.nodeinfo import NodeInfo, PodInfo, Snapshot
from reference.quantity import resource_value
from reference.types import Container, Node, Pod, PodDisruptionBudget, Workload

MI = 1024 * 1024
GI = 1024 * MI


def container(name: str = "c", *, requests: Mapping[str, int] | None = None, image: str = "",
              **kwargs) -> Container:
    return Container(name=name, image=image, requests=dict(requests or {}), **kwargs)


def pod(name: str = "p", *, requests: Iterable[Mapping[str, int]] = (), **kwargs) -> Pod:
    """A pod with one container per `requests` entry (cpu in milli, memory in bytes)."""
    containers = kwargs.pop("containers", None)
    if containers is None:
        containers = tuple(container(f"c{i}", requests=r) for i, r in enumerate(requests))
    kwargs.setdefault("uid", name)
    return Pod(name=name, containers=tuple(containers), **kwargs)


def node(name: str = "n", *, allocatable: Mapping[str, int] | None = None, **kwargs) -> Node:
    alloc = dict(allocatable or {})
    return Node(name=name, allocatable=alloc, capacity=alloc, **kwargs)


def node_info(n: Node | None, *pods: Pod) -> NodeInfo:
    return NodeInfo.of(n, pods)


def pod_with_volumes(*volumes: Mapping) -> Pod:
    return Pod(name="p", volumes=tuple(volumes))


# --- upstream's resource builders, with quantity strings as in the Go tables ------------------

def quantities(m: Mapping[str, str]) -> dict[str, int]:
    """Quantity strings -> reference integers, rounded as the codec does."""
    return {k: resource_value(k, v) for k, v in m.items()}


def st_node(name: str = "", capacity: Mapping[str, str] | None = None) -> Node:
    """`st.MakeNode().Name(name).Capacity(capacity)`: pods defaults to 32."""
    alloc = {"pods": 32, **quantities(capacity or {})}
    return Node(name=name, capacity=alloc, allocatable=alloc)


def st_nodes(*capacities: Mapping[str, str]) -> list[Node]:
    """`st_node("node1", c1)`, `st_node("node2", c2)`, ..."""
    return [st_node(f"node{i + 1}", c) for i, c in enumerate(capacities)]


def st_pod(*reqs: Mapping[str, str], name: str = "p", node: str = "", sidecars: Iterable[Mapping[str, str]] = (),
           nominated: str = "") -> Pod:
    """`st.MakePod().Node(node).Req(r1).Req(r2)...`: one container per request map, sidecars as
    restartable init containers."""
    return Pod(name=name, uid=name, node_name=node, nominated_node_name=nominated,
               containers=tuple(Container(f"con{i}", requests=quantities(r)) for i, r in enumerate(reqs)),
               init_containers=tuple(Container(f"sidecar-con{i}", requests=quantities(r), restart_policy="Always")
                                     for i, r in enumerate(sidecars)))


def make_node(name: str, milli_cpu: int, memory: int, extended: Mapping[str, int] | None = None) -> Node:
    """noderesources util_test.go `makeNode`: cpu and memory (and extended resources), no pod count."""
    alloc = {**(extended or {}), "cpu": milli_cpu, "memory": memory}
    return Node(name=name, capacity=alloc, allocatable=alloc)


@dataclass
class FakeClient:
    """Records writes; answers list calls from its fields."""

    pdbs: list[PodDisruptionBudget] = field(default_factory=list)
    workload_objects: list[Workload] = field(default_factory=list)
    bindings: list[tuple[str, str]] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    cleared: list[str] = field(default_factory=list)  # pods whose nominatedNodeName was cleared

    def bind(self, pod: Pod, node_name: str, *, retry: bool = False) -> str | None:
        self.bindings.append((pod.key, node_name))
        return None

    def delete_pod(self, pod: Pod) -> str | None:
        self.deleted.append(pod.key)
        return None

    def add_disruption_target(self, pod: Pod) -> str | None:
        return None

    def clear_nominated_node_name(self, pod: Pod) -> str | None:
        self.cleared.append(pod.key)
        return None

    def pod_disruption_budgets(self) -> list[PodDisruptionBudget]:
        return list(self.pdbs)

    def workloads(self) -> list[Workload]:
        return list(self.workload_objects)


class FakeNominator:
    """Fixed nominations: node name -> pods nominated to it."""

    def __init__(self, by_node: Mapping[str, Iterable[Pod]] | None = None) -> None:
        self.by_node = {name: list(pods) for name, pods in (by_node or {}).items()}

    def nominated_pods_for_node(self, node_name: str) -> list[PodInfo]:
        return [PodInfo.of(p) for p in self.by_node.get(node_name, [])]


class FakeHandle:
    """A handle over a fixed snapshot, for plugin unit tests that need no framework."""

    def __init__(self, nodes: Iterable[Node] = (), pods: Iterable[Pod] = (),
                 namespaces: Mapping[str, Mapping[str, str]] | None = None,
                 client: FakeClient | None = None, nominator: FakeNominator | None = None) -> None:
        self._snapshot = Snapshot(nodes, pods, namespaces)
        self._client = client or FakeClient()
        self.nominator = nominator or FakeNominator()

    def snapshot(self) -> Snapshot:
        return self._snapshot

    @property
    def client(self) -> FakeClient:
        return self._client

    def activate(self, pods) -> None:
        self.activated = [*getattr(self, "activated", []), *pods]

    def node_infos(self) -> list[NodeInfo]:
        return self._snapshot.node_info_list

    def get(self, name: str) -> NodeInfo:
        info = self._snapshot.get(name)
        assert info is not None, name
        return info
