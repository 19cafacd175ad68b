"""The nominator: pods nominated to nodes, after upstream pkg/scheduler/backend/queue/nominator.go (v1.37.2)."""

from __future__ import annotations

from ..interfaces import NominatingInfo, NominatingMode
from ..nodeinfo import PodInfo
from ..types import Pod


class Nominator:
    def __init__(self) -> None:
        self._nominated: dict[str, PodInfo] = {}
        self._nominated_node: dict[str, str] = {}

    def add_nominated_pod(self, info: PodInfo, nominating: NominatingInfo | None) -> None:
        uid = info.pod.effective_uid
        if nominating is not None and nominating.mode is NominatingMode.OVERRIDE:
            node = nominating.nominated_node_name
        else:
            node = info.pod.nominated_node_name
        self.delete_nominated_pod_if_exists(info.pod)
        if node:
            self._nominated[uid] = info
            self._nominated_node[uid] = node

    def update_nominated_pod(self, old: Pod, info: PodInfo) -> None:
        """`UpdateNominatedPod`: an in-memory nomination survives an update only when neither
        object names a node; otherwise the new object's nominatedNodeName decides."""
        uid = old.effective_uid
        nominating = None
        if not old.nominated_node_name and not info.pod.nominated_node_name and uid in self._nominated_node:
            nominating = NominatingInfo(self._nominated_node[uid], NominatingMode.OVERRIDE)
        self.delete_nominated_pod_if_exists(old)
        self.add_nominated_pod(info, nominating)

    def delete_nominated_pod_if_exists(self, pod: Pod) -> None:
        self._nominated.pop(pod.effective_uid, None)
        self._nominated_node.pop(pod.effective_uid, None)

    def nominated_pods_for_node(self, node_name: str) -> list[PodInfo]:
        return [self._nominated[u] for u, n in self._nominated_node.items() if n == node_name]

    def nominated_node(self, pod: Pod) -> str:
        return self._nominated_node.get(pod.effective_uid, "")


__all__ = ["Nominator"]
