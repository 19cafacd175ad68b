"""The small pools every strategy draws names and values from; each pool's first element is the simplest.

Public because backends that talk to a real API server need them: a pod naming a PriorityClass
or RuntimeClass is admitted only if the class exists (see PRIORITY_CLASSES, RUNTIME_CLASSES).

Values are chosen so that a real API server accepts them (DNS-1123 names, qualified label keys,
valid label values) and so that independent draws collide often: a pod's selector names labels
other pods carry, a toleration names the taints nodes carry, requests land exactly on capacity.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

HOSTNAME = "kubernetes.io/hostname"
ZONE = "topology.kubernetes.io/zone"
REGION = "topology.kubernetes.io/region"
DISK = "example.com/disk"
RANK = "example.com/rank"  # integer values, so that Gt and Lt have something to compare

ZONES = ("zone-a", "zone-b", "zone-c")
REGIONS = ("region-a", "region-b")
# Node label keys other than the hostname (whose value is always the node's name).
NODE_LABEL_VALUES: Mapping[str, tuple[str, ...]] = {ZONE: ZONES, REGION: REGIONS, DISK: ("ssd", "hdd"),
                                                    RANK: ("1", "2", "3")}
TOPOLOGY_KEYS = (HOSTNAME, ZONE, REGION)
NODE_NAMES = tuple(f"node-{i}" for i in range(16))

POD_LABEL_VALUES: Mapping[str, tuple[str, ...]] = {"app": ("web", "db", "cache"), "tier": ("front", "back")}

TAINT_KEYS = ("example.com/dedicated", "example.com/maintenance")
TAINT_VALUES = ("", "team-a")
TAINT_EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")

GPU = "example.com/gpu"
MI = 1024 ** 2
GI = 1024 ** 3
TI = 1024 ** 4

# Node status images; sizes straddle ImageLocality's thresholds (23 MB per image, 1000 MB per container).
IMAGES: tuple[tuple[str, int], ...] = (
    ("registry.k8s.io/pause:3.10", 736_000),
    ("redis:7.4", 45_000_000),
    ("nginx:1.27", 190_000_000),
    ("postgres:17", 430_000_000),
    ("pytorch/pytorch:2.5.1", 3_500_000_000),
)
IMAGE_NAMES = tuple(name for name, _ in IMAGES)

SCHEDULING_GATES = ("example.com/gate-a", "example.com/gate-b")
HOST_PORTS = (8080, 9090)
SCHEDULER_NAMES = ("default-scheduler", "scheduler-1", "scheduler-2")
EXTENDER_NAMES = ("ext-0", "ext-1", "ext-2")


@dataclass(frozen=True)
class PriorityClass:
    """A PriorityClass a real cluster needs before pods naming it are admitted: the Priority
    admission plugin rejects a pod whose `priority` differs from its class's value."""

    name: str
    value: int | None
    preemption_policy: str | None = None


# The first entry is "no class": the pod carries no priority fields (admission gives it 0).
PRIORITY_CLASSES = (
    PriorityClass("", None),
    PriorityClass("low-priority", 100),
    PriorityClass("high-priority", 1000),
    PriorityClass("high-priority-nonpreempting", 1000, "Never"),
    PriorityClass("negative-priority", -10),
)


@dataclass(frozen=True)
class RuntimeClass:
    """A RuntimeClass with pod overhead: the RuntimeClass admission plugin rejects a pod whose
    `overhead` is set without a runtimeClassName whose overhead is the same."""

    name: str
    overhead: Mapping[str, str]


RUNTIME_CLASSES = (
    RuntimeClass("runc-overhead", {"cpu": "100m", "memory": "64Mi"}),
    RuntimeClass("kata", {"cpu": "250m", "memory": "160Mi"}),
    RuntimeClass("kata-large-vm", {"cpu": "1.5", "memory": "1.5Gi"}),
)

# Namespaces other than "default" need their Namespace object in the scenario.
NAMESPACES = ("default", "team-a")
NAMESPACE_LABELS: Mapping[str, Mapping[str, str]] = {
    "team-a": {"kubernetes.io/metadata.name": "team-a", "team": "a"},
}

__all__ = [
    "DISK", "EXTENDER_NAMES", "GI", "GPU", "HOSTNAME", "HOST_PORTS", "IMAGES", "IMAGE_NAMES", "MI", "NAMESPACES",
    "NAMESPACE_LABELS", "NODE_LABEL_VALUES", "NODE_NAMES", "POD_LABEL_VALUES", "PRIORITY_CLASSES", "PriorityClass",
    "RANK", "REGION", "REGIONS", "RUNTIME_CLASSES", "RuntimeClass", "SCHEDULER_NAMES", "SCHEDULING_GATES",
    "TAINT_EFFECTS", "TAINT_KEYS", "TAINT_VALUES", "TI", "TOPOLOGY_KEYS", "ZONE", "ZONES",
]
