"""Small fixed scenarios for the cluster tests (plain manifests, as scenario files hold them)."""

from typing import Any

from reference.scenario import Scenario


def node(name: str, cpu: str = "2", **labels: str) -> dict[str, Any]:
    res = {"cpu": cpu, "memory": "4Gi", "pods": "110"}
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name, **labels}},
            "status": {"allocatable": dict(res), "capacity": dict(res)}}


def pod(name: str, cpu: str = "100m", *, namespace: str = "default", priority: int | None = None,
        node_name: str = "", **spec: Any) -> dict[str, Any]:
    manifest: dict[str, Any] = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": namespace},
                                "spec": {"containers": [{"name": "c", "image": "app", "resources": {"requests": {"cpu": cpu}}}],
                                         **spec}}
    if priority is not None:
        manifest["spec"]["priority"] = priority
    if node_name:
        manifest["spec"]["nodeName"] = node_name
    return manifest


def scenario(**data: Any) -> Scenario:
    return Scenario.from_dict(data)


# A fixed set whose outcome does not depend on pop order or ties (each pod has one best node).
FIXED = [
    scenario(nodes=[node("node-0", "2"), node("node-1", "4")], workload=[pod("pod-0", "1")]),
    scenario(nodes=[node("node-0", "1")], workload=[pod("pod-0", "2")]),
    scenario(nodes=[node("node-0", "4"), node("node-1", "4", zone="b")],
             workload=[pod("pod-0", nodeSelector={"zone": "b"})]),
    scenario(nodes=[node("node-0", "2")], pods=[pod("low", "2", priority=1, node_name="node-0")],
             workload=[pod("pod-0", "1", priority=100)]),
    scenario(nodes=[node("node-0", "2"), node("node-1", "2")],
             workload=[pod("pod-0", "100m", schedulingGates=[{"name": "wait"}])]),
]
