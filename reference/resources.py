"""Resource arithmetic: `framework.Resource` and component-helpers `PodRequests`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from .content import label_key_errors
from .quantity import CPU, EPHEMERAL_STORAGE, MEMORY, PODS
from .types import Container, Pod

# pkg/scheduler/util/pod_resources.go: requests assumed for containers that set none (scoring only).
DEFAULT_MILLI_CPU_REQUEST = 100
DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024
NON_ZERO_DEFAULTS = {CPU: DEFAULT_MILLI_CPU_REQUEST, MEMORY: DEFAULT_MEMORY_REQUEST}


# k8s.io/api/core/v1 resource name prefixes.
DEFAULT_NAMESPACE_PREFIX = "kubernetes.io/"
HUGE_PAGES_PREFIX = "hugepages-"
ATTACHABLE_VOLUMES_PREFIX = "attachable-volumes-"
REQUESTS_PREFIX = "requests."


def is_native_resource(name: str) -> bool:
    """`v1helper.IsNativeResource`: no domain, or the kubernetes.io domain (`IsPrefixedNativeResource`)."""
    return "/" not in name or DEFAULT_NAMESPACE_PREFIX in name


def is_extended_resource_name(name: str) -> bool:
    """`v1helper.IsExtendedResourceName`: outside kubernetes.io, and a valid quota name ("requests." + name)."""
    if is_native_resource(name) or name.startswith(REQUESTS_PREFIX):
        return False
    return not label_key_errors(REQUESTS_PREFIX + name)


def is_scalar_resource(name: str) -> bool:
    """`schedutil.IsScalarResourceName`: extended, hugepages, prefixed-native or attachable-volume."""
    return (is_extended_resource_name(name) or name.startswith((HUGE_PAGES_PREFIX, ATTACHABLE_VOLUMES_PREFIX))
            or DEFAULT_NAMESPACE_PREFIX in name)


@dataclass
class Resource:
    milli_cpu: int = 0
    memory: int = 0
    ephemeral_storage: int = 0
    allowed_pod_number: int = 0
    scalar_resources: dict[str, int] = field(default_factory=dict)

    @classmethod
    def from_list(cls, resources: Mapping[str, int]) -> "Resource":
        r = cls()
        r.add(resources)
        return r

    def add(self, resources: Mapping[str, int]) -> None:
        for name, value in resources.items():
            if name == CPU:
                self.milli_cpu += value
            elif name == MEMORY:
                self.memory += value
            elif name == EPHEMERAL_STORAGE:
                self.ephemeral_storage += value
            elif name == PODS:
                self.allowed_pod_number += value
            elif is_scalar_resource(name):
                self.scalar_resources[name] = self.scalar_resources.get(name, 0) + value

    def get(self, name: str) -> int:
        if name == CPU:
            return self.milli_cpu
        if name == MEMORY:
            return self.memory
        if name == EPHEMERAL_STORAGE:
            return self.ephemeral_storage
        if name == PODS:
            return self.allowed_pod_number
        return self.scalar_resources.get(name, 0)

    def add_resource(self, other: "Resource", sign: int = 1) -> None:
        self.milli_cpu += sign * other.milli_cpu
        self.memory += sign * other.memory
        self.ephemeral_storage += sign * other.ephemeral_storage
        self.allowed_pod_number += sign * other.allowed_pod_number
        for name, value in other.scalar_resources.items():
            self.scalar_resources[name] = self.scalar_resources.get(name, 0) + sign * value

    def clone(self) -> "Resource":
        return Resource(self.milli_cpu, self.memory, self.ephemeral_storage, self.allowed_pod_number,
                        dict(self.scalar_resources))

    def is_zero(self) -> bool:
        return not (self.milli_cpu or self.memory or self.ephemeral_storage or self.allowed_pod_number
                    or any(self.scalar_resources.values()))


def _add(total: dict[str, int], more: Mapping[str, int]) -> None:
    for name, value in more.items():
        total[name] = total.get(name, 0) + value


def _max_into(total: dict[str, int], other: Mapping[str, int]) -> None:
    for name, value in other.items():
        if name not in total or value > total[name]:
            total[name] = value


def _requests(c: Container, non_missing: Mapping[str, int] | None) -> dict[str, int]:
    reqs = dict(c.requests)
    if non_missing:
        for name, default in non_missing.items():
            reqs.setdefault(name, default)
    return reqs


def pod_requests(pod: Pod, *, non_missing: Mapping[str, int] | None = None,
                 exclude_overhead: bool = False) -> dict[str, int]:
    """`resourcehelper.PodRequests`: containers + sidecars vs. each init container, per resource.

    `non_missing` fills cpu/memory a container leaves unset (explicit zero stays zero).
    """
    reqs: dict[str, int] = {}
    for c in pod.containers:
        _add(reqs, _requests(c, non_missing))
    sidecars: dict[str, int] = {}
    init_max: dict[str, int] = {}
    for c in pod.init_containers:
        creqs = _requests(c, non_missing)
        if c.is_sidecar:
            _add(reqs, creqs)
            _add(sidecars, creqs)
            effective = sidecars
        else:
            effective = dict(creqs)
            _add(effective, sidecars)
        _max_into(init_max, effective)
    _max_into(reqs, init_max)
    if not exclude_overhead:
        _add(reqs, pod.overhead)
    return reqs


def non_zero_requests(pod: Pod) -> tuple[int, int]:
    """(milli-CPU, memory) with the scoring defaults for containers that set none."""
    reqs = pod_requests(pod, non_missing=NON_ZERO_DEFAULTS)
    return reqs.get(CPU, 0), reqs.get(MEMORY, 0)


__all__ = [
    "DEFAULT_MEMORY_REQUEST",
    "DEFAULT_MILLI_CPU_REQUEST",
    "NON_ZERO_DEFAULTS",
    "Resource",
    "is_extended_resource_name",
    "is_native_resource",
    "is_scalar_resource",
    "non_zero_requests",
    "pod_requests",
]
