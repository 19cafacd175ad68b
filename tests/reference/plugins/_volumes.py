"""A plugin handle over a few storage objects and a snapshot, as upstream's tests give the volume plugins
fake listers (pkg/scheduler/framework/plugins/*/..._test.go)."""

from __future__ import annotations

from typing import Any

from reference.nodeinfo import Snapshot
from reference.scheduler.api_server import ClusterStore
from reference.types import Node, Pod


class VolumeHandle:
    def __init__(self, *objects: Any, nodes: tuple[Node, ...] = (), pods: tuple[Pod, ...] = ()) -> None:
        self._client = ClusterStore()
        for obj in objects:
            self._client.volumes.put(obj)
        self._snapshot = Snapshot(nodes, pods)

    def snapshot(self) -> Snapshot:
        return self._snapshot
