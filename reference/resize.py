"""Which requests of a pod pods/resize may lower (pkg/apis/core/validation ValidatePodResize, qos.ComputePodQOS).

Only cpu and memory resize in place; the QoS class must not change and no request may be removed, so only a request
above 1 unit whose limit is unset or above it is lowered, to at least 1 unit: each container keeps its QoS shape.
Init containers are left alone (their resize needs a feature gate).
"""

from __future__ import annotations

from typing import Any, Mapping

from .quantity import CPU, MEMORY, format_resource, resource_value

Manifest = Mapping[str, Any]


def lowerable(pod: Manifest) -> list[tuple[int, str, int]]:
    """(container index, resource, request) of each request pods/resize may lower."""
    out = []
    for i, container in enumerate(pod["spec"]["containers"]):
        resources = container.get("resources") or {}
        limits = resources.get("limits") or {}
        for name in (CPU, MEMORY):
            if name not in (resources.get("requests") or {}):
                continue
            request = resource_value(name, resources["requests"][name])
            if request > 1 and (name not in limits or resource_value(name, limits[name]) > request):
                out.append((i, name, request))
    return out


def with_requests(pod: Manifest, lowered: Mapping[tuple[int, str], int]) -> dict[str, Any]:
    """The pod with these (container index, resource) requests set to the values given."""
    containers = []
    for i, container in enumerate(pod["spec"]["containers"]):
        changes = {name: format_resource(name, value) for (j, name), value in lowered.items() if j == i}
        if changes:
            resources = container["resources"]
            container = {**container, "resources": {**resources, "requests": {**resources["requests"], **changes}}}
        containers.append(container)
    return {**pod, "spec": {**pod["spec"], "containers": containers}}


def halved(pod: Manifest) -> dict[str, Any] | None:
    """The pod with every lowerable request halved, or None when none is."""
    found = lowerable(pod)
    return with_requests(pod, {(i, name): request // 2 for i, name, request in found}) if found else None


__all__ = ["halved", "lowerable", "with_requests"]
