"""Preemption scenarios by construction: every node is full of lower-priority pods, and a
higher-priority workload pod fits one node only once some of them are evicted."""

from __future__ import annotations

from typing import Sequence


from reference.quantity import CPU, PODS, resource_value

from ._clusters import Owners
from ._draw import Draw, Manifest, count, pick
from ._pods import draw_pod
from ._quantities import draw_spelling
from .pools import PRIORITY_CLASSES

LOW = tuple(c for c in PRIORITY_CLASSES if (c.value or 0) < 1000)
HIGH = tuple(c for c in PRIORITY_CLASSES if c.name == "high-priority")


def _only_cpu(pod: Manifest, milli_cpu: int, draw: Draw) -> Manifest:
    """Make `milli_cpu` the pod's whole request: the first container asks for it, nothing else asks."""
    spec = pod["spec"]
    for key in ("initContainers", "overhead", "runtimeClassName"):
        spec.pop(key, None)
    for container in spec["containers"]:
        container.pop("resources", None)
    spec["containers"][0]["resources"] = {"requests": {CPU: draw_spelling(draw, CPU, milli_cpu)}}
    return pod


def _allocatable(node: Manifest, resource: str) -> int:
    return resource_value(resource, node["status"]["allocatable"][resource])


def draw_victims(draw: Draw, nodes: list[Manifest], *, owners: Owners, namespaces: Sequence[str]) -> list[Manifest]:
    """1-2 low-priority pods per node whose CPU requests add up to the node's allocatable CPU."""
    names = [n["metadata"]["name"] for n in nodes]
    victims: list[Manifest] = []
    for node in nodes:
        cpu = _allocatable(node, CPU)
        here = min(count(draw, 1, 2), _allocatable(node, PODS))
        if here <= 0:
            continue
        shares = [cpu // here] * (here - 1)
        for share in [*shares, cpu - sum(shares)]:
            pod = draw_pod(draw, f"running-{len(victims)}", namespaces=namespaces, nodes=names, priorities=LOW,
                           owners=owners.references)
            pod["spec"]["nodeName"] = node["metadata"]["name"]
            # A victim's required anti-affinity could bar the preemptor from nodes it is not on,
            # where evicting cannot help.
            affinity = pod["spec"].get("affinity", {})
            if "podAntiAffinity" in affinity:
                affinity["podAntiAffinity"].pop("requiredDuringSchedulingIgnoredDuringExecution", None)
                if not affinity["podAntiAffinity"]:
                    del affinity["podAntiAffinity"]
                if not affinity:
                    del pod["spec"]["affinity"]
            victims.append(owners.adopt(_only_cpu(pod, share, draw)))
    return victims


def draw_target(draw: Draw, nodes: list[Manifest]) -> Manifest:
    """The node the preemptor will fit on once victims are gone: no taints, schedulable, and room
    for at least one pod and some CPU (an empty node gets the ample defaults)."""
    target = pick(draw, nodes)
    target.pop("spec", None)
    for resource, ample in ((CPU, "8"), (PODS, "110")):
        if _allocatable(target, resource) <= 0:
            target["status"]["allocatable"][resource] = target["status"]["capacity"][resource] = ample
    return target


def draw_preemptor(draw: Draw, nodes: list[Manifest], target: Manifest, *, scheduler_names: Sequence[str],
                   namespaces: Sequence[str]) -> Manifest:
    """A high-priority pod asking for up to the target node's CPU, without node or pod constraints."""
    cpu = _allocatable(target, CPU)
    pod = draw_pod(draw, "pod-0", namespaces=namespaces, scheduler_names=scheduler_names,
                   nodes=[n["metadata"]["name"] for n in nodes], priorities=HIGH)
    for key in ("nodeSelector", "affinity", "topologySpreadConstraints", "schedulingGates"):
        pod["spec"].pop(key, None)
    return _only_cpu(pod, max(1, pick(draw, (cpu, cpu // 2))), draw)


__all__ = ["HIGH", "LOW", "draw_preemptor", "draw_target", "draw_victims"]
