"""Domain types: the parts of Kubernetes objects the scheduler reads, as frozen dataclasses.

Resource quantities are integers: milli-CPU for `cpu`, whole units (bytes, counts) otherwise.
Only `codec` knows the manifest shape.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

ResourceList = Mapping[str, int]

DEFAULT_SCHEDULER_NAME = "default-scheduler"
DEFAULT_NAMESPACE = "default"

# Taint effects and operators, spelled as in the API.
NO_SCHEDULE = "NoSchedule"
PREFER_NO_SCHEDULE = "PreferNoSchedule"
NO_EXECUTE = "NoExecute"


@dataclass(frozen=True)
class Taint:
    key: str
    effect: str
    value: str = ""


@dataclass(frozen=True)
class Toleration:
    key: str = ""
    operator: str = "Equal"
    value: str = ""
    effect: str = ""
    toleration_seconds: int | None = None

    def tolerates(self, taint: Taint) -> bool:
        """`Toleration.ToleratesTaint` (k8s.io/api/core/v1/toleration.go)."""
        if self.effect and self.effect != taint.effect:
            return False
        if self.key and self.key != taint.key:
            return False
        if self.operator == "Exists":
            return True
        if self.operator in ("", "Equal"):
            return self.value == taint.value
        return False


@dataclass(frozen=True)
class NodeSelectorRequirement:
    key: str
    operator: str
    values: tuple[str, ...] = ()


@dataclass(frozen=True)
class NodeSelectorTerm:
    match_expressions: tuple[NodeSelectorRequirement, ...] = ()
    match_fields: tuple[NodeSelectorRequirement, ...] = ()


@dataclass(frozen=True)
class NodeSelector:
    terms: tuple[NodeSelectorTerm, ...] = ()


@dataclass(frozen=True)
class PreferredSchedulingTerm:
    weight: int
    preference: NodeSelectorTerm


@dataclass(frozen=True)
class NodeAffinity:
    required: NodeSelector | None = None
    preferred: tuple[PreferredSchedulingTerm, ...] = ()


@dataclass(frozen=True)
class LabelSelectorRequirement:
    key: str
    operator: str
    values: tuple[str, ...] = ()


@dataclass(frozen=True)
class LabelSelector:
    match_labels: Mapping[str, str] = field(default_factory=dict)
    match_expressions: tuple[LabelSelectorRequirement, ...] = ()


@dataclass(frozen=True)
class PodAffinityTerm:
    topology_key: str
    label_selector: LabelSelector | None = None
    namespaces: tuple[str, ...] = ()
    namespace_selector: LabelSelector | None = None
    match_label_keys: tuple[str, ...] = ()
    mismatch_label_keys: tuple[str, ...] = ()


@dataclass(frozen=True)
class WeightedPodAffinityTerm:
    weight: int
    term: PodAffinityTerm


@dataclass(frozen=True)
class PodAffinity:
    required: tuple[PodAffinityTerm, ...] = ()
    preferred: tuple[WeightedPodAffinityTerm, ...] = ()


@dataclass(frozen=True)
class Affinity:
    node_affinity: NodeAffinity | None = None
    pod_affinity: PodAffinity | None = None
    pod_anti_affinity: PodAffinity | None = None


@dataclass(frozen=True)
class TopologySpreadConstraint:
    max_skew: int
    topology_key: str
    when_unsatisfiable: str
    label_selector: LabelSelector | None = None
    min_domains: int | None = None
    node_affinity_policy: str | None = None
    node_taints_policy: str | None = None
    match_label_keys: tuple[str, ...] = ()


@dataclass(frozen=True)
class ContainerPort:
    container_port: int
    host_port: int = 0
    protocol: str = "TCP"
    host_ip: str = ""
    name: str = ""


@dataclass(frozen=True)
class Container:
    name: str
    image: str = ""
    requests: ResourceList = field(default_factory=dict)
    limits: ResourceList = field(default_factory=dict)
    ports: tuple[ContainerPort, ...] = ()
    restart_policy: str | None = None  # "Always" on an init container makes it a sidecar

    @property
    def is_sidecar(self) -> bool:
        return self.restart_policy == "Always"


@dataclass(frozen=True)
class OwnerReference:
    kind: str
    name: str
    api_version: str = "apps/v1"
    uid: str = ""
    controller: bool = False


@dataclass(frozen=True)
class PodCondition:
    """A `status.conditions` entry. The scheduler reads DisruptionTarget (preemption) and writes PodScheduled."""

    type: str
    status: str
    reason: str = ""
    message: str = ""


@dataclass(frozen=True)
class Pod:
    name: str
    namespace: str = DEFAULT_NAMESPACE
    uid: str = ""
    labels: Mapping[str, str] = field(default_factory=dict)
    annotations: Mapping[str, str] = field(default_factory=dict)
    owner_references: tuple[OwnerReference, ...] = ()
    containers: tuple[Container, ...] = ()
    init_containers: tuple[Container, ...] = ()
    overhead: ResourceList = field(default_factory=dict)
    priority: int | None = None
    priority_class_name: str = ""
    preemption_policy: str | None = None
    runtime_class_name: str = ""
    node_name: str = ""
    node_selector: Mapping[str, str] = field(default_factory=dict)
    affinity: Affinity | None = None
    tolerations: tuple[Toleration, ...] = ()
    topology_spread_constraints: tuple[TopologySpreadConstraint, ...] = ()
    scheduling_gates: tuple[str, ...] = ()
    scheduler_name: str = DEFAULT_SCHEDULER_NAME
    volumes: tuple[Mapping, ...] = ()
    resource_claims: tuple[Mapping, ...] = ()
    nominated_node_name: str = ""
    phase: str = ""
    conditions: tuple[PodCondition, ...] = ()
    deletion_timestamp: str | None = None
    start_time: float | None = None

    @property
    def key(self) -> str:
        """"namespace/name", the key upstream uses in events and PodsToActivate."""
        return f"{self.namespace}/{self.name}"

    @property
    def effective_uid(self) -> str:
        return self.uid or self.key

    @property
    def effective_priority(self) -> int:
        """`corev1helpers.PodPriority`: nil counts as 0."""
        return self.priority or 0


@dataclass(frozen=True)
class ContainerImage:
    names: tuple[str, ...]
    size_bytes: int = 0


@dataclass(frozen=True)
class Node:
    name: str
    uid: str = ""
    labels: Mapping[str, str] = field(default_factory=dict)
    annotations: Mapping[str, str] = field(default_factory=dict)
    taints: tuple[Taint, ...] = ()
    unschedulable: bool = False
    capacity: ResourceList = field(default_factory=dict)
    allocatable: ResourceList = field(default_factory=dict)
    images: tuple[ContainerImage, ...] = ()
    declared_features: tuple[str, ...] = ()  # status.declaredFeatures, sorted as the kubelet writes them


@dataclass(frozen=True)
class Namespace:
    name: str
    labels: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Workload:
    """A Service, ReplicaSet, ReplicationController or StatefulSet: something that selects pods.

    Services and ReplicationControllers select with a plain map (`match_labels`); the others with
    a full LabelSelector. PodTopologySpread's system defaults read them.
    """

    kind: str
    name: str
    namespace: str = DEFAULT_NAMESPACE
    selector: LabelSelector = field(default_factory=LabelSelector)


@dataclass(frozen=True)
class PodDisruptionBudget:
    name: str
    namespace: str = DEFAULT_NAMESPACE
    selector: LabelSelector | None = None
    min_available: int | str | None = None
    max_unavailable: int | str | None = None
    disruptions_allowed: int = 0
    disrupted_pods: Mapping[str, str] = field(default_factory=dict)  # status.disruptedPods: pod name -> RFC 3339 time


@dataclass(frozen=True)
class PriorityClass:
    """scheduling.k8s.io/v1. The scheduler never reads it: the Priority admission plugin copies
    `value` and `preemption_policy` into each pod that names the class."""

    name: str
    value: int
    preemption_policy: str = "PreemptLowerPriority"
    global_default: bool = False


@dataclass(frozen=True)
class RuntimeClass:
    """node.k8s.io/v1. The RuntimeClass admission plugin copies `overhead` (overhead.podFixed; None:
    no overhead) into each pod that names the class; the scheduler reads only the pod's copy."""

    name: str
    handler: str
    overhead: ResourceList | None = None
    has_scheduling: bool = False


__all__ = [
    "Affinity",
    "Container",
    "ContainerImage",
    "ContainerPort",
    "LabelSelector",
    "LabelSelectorRequirement",
    "Namespace",
    "Node",
    "NodeAffinity",
    "NodeSelector",
    "NodeSelectorRequirement",
    "NodeSelectorTerm",
    "OwnerReference",
    "Pod",
    "PodAffinity",
    "PodAffinityTerm",
    "PodCondition",
    "PodDisruptionBudget",
    "PreferredSchedulingTerm",
    "PriorityClass",
    "ResourceList",
    "RuntimeClass",
    "Taint",
    "Toleration",
    "TopologySpreadConstraint",
    "WeightedPodAffinityTerm",
    "Workload",
]
