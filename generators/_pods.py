"""`pods()`: Pod manifests in the form the API server stores them, with every feature the scheduler reads.

"As stored" matters because the scheduler sees pods after admission and defaulting: limits never
come without requests (defaulting copies limits into missing requests), extended resources carry
equal requests and limits, overhead comes with its RuntimeClass and priority with its
PriorityClass (their admission plugins reject anything else). Every backend then reads the same pod.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from reference.config.resource_names import is_dns1123_subdomain
from reference.quantity import CPU, MEMORY

from ._draw import Draw, Manifest, elements, flag, optional, pick, subset, together
from ._node_terms import draw_toleration
from ._pod_terms import draw_affinity, draw_spread_constraints
from ._quantities import draw_amount, draw_spelling
from .pools import (GPU, HOST_PORTS, HOSTNAME, IMAGE_NAMES, NODE_LABEL_VALUES, NODE_NAMES, POD_LABEL_VALUES,
                     PRIORITY_CLASSES, RUNTIME_CLASSES, SCHEDULING_GATES, PriorityClass)

DEFAULT_SCHEDULER = "default-scheduler"
_LABEL_PERCENT = {"app": 70, "tier": 30}
_REQUEST_PERCENT = {CPU: 70, MEMORY: 50, GPU: 10}
_NODE_SELECTOR_KEYS = (HOSTNAME, *NODE_LABEL_VALUES)


def _draw_resources(draw: Draw) -> Manifest:
    """Nothing, requests, or requests with limits (never limits alone: see the module docstring)."""
    mode = pick(draw, ("none", "requests", "requests", "limits"))
    if mode == "none":
        return {}
    return together(draw, lambda d: _draw_amounts(d, with_limits=mode == "limits"))


def _draw_amounts(draw: Draw, *, with_limits: bool) -> Manifest:
    requests = {}
    for name, percent in _REQUEST_PERCENT.items():
        amount = optional(draw, percent, lambda d: draw_amount(d, name))
        if amount is not None:
            requests[name] = amount
    limits: dict[str, int] = {}
    if with_limits:
        limits = {name: value + pick(draw, (0, value, 500)) for name, value in requests.items() if name != GPU}
    if GPU in requests:
        limits[GPU] = requests[GPU]  # extended resources cannot be overcommitted: limit == request
    out: Manifest = {}
    if requests:
        out["requests"] = {k: draw_spelling(draw, k, v) for k, v in requests.items()}
    if limits:
        out["limits"] = {k: draw_spelling(draw, k, v) for k, v in limits.items()}
    return out


def _draw_container(draw: Draw, name: str) -> Manifest:
    container: Manifest = {"name": name, "image": pick(draw, IMAGE_NAMES)}
    resources = _draw_resources(draw)
    if resources:
        container["resources"] = resources
    return container


def _draw_init_container(draw: Draw, i: int) -> Manifest:
    init = _draw_container(draw, f"init{i}")
    if draw(flag(40)):
        init["restartPolicy"] = "Always"  # a sidecar: runs alongside the containers
    return init


def _draw_host_ports(draw: Draw, containers: list[Manifest]) -> None:
    """Host ports unique per pod by (protocol, hostIP, port), as AccumulateUniqueHostPorts requires."""
    specs = subset(draw, [(port, protocol) for port in HOST_PORTS for protocol in ("TCP", "UDP")],
                   min_size=1, max_size=2)
    for port, protocol in specs:
        entry: Manifest = {"containerPort": port, "hostPort": port, "protocol": protocol}
        if draw(flag(10)):
            entry["hostIP"] = "127.0.0.1"
        containers[pick(draw, range(len(containers)))].setdefault("ports", []).append(entry)


def _draw_priority(draw: Draw, spec: Manifest, classes: Sequence[PriorityClass]) -> None:
    cls = (optional(draw, 40, lambda d: pick(d, classes[1:])) if len(classes) > 1 else None) or classes[0]
    if cls.name:
        spec.update(priorityClassName=cls.name, priority=cls.value)
        if cls.preemption_policy:
            spec["preemptionPolicy"] = cls.preemption_policy


def _draw_node_selector(draw: Draw, nodes: Sequence[str]) -> dict[str, str]:
    keys = subset(draw, _NODE_SELECTOR_KEYS, min_size=1, max_size=2)
    return {k: pick(draw, nodes if k == HOSTNAME else NODE_LABEL_VALUES[k]) for k in keys}


def draw_pod(draw: Draw, name: str, *, namespaces: Sequence[str] = ("default",), node_name: str = "",
             scheduler_names: Sequence[str] = (DEFAULT_SCHEDULER,), nodes: Sequence[str] = NODE_NAMES[:4],
             priorities: Sequence[PriorityClass] = PRIORITY_CLASSES, gates: bool = False,
             owners: Sequence[Manifest] = ()) -> Manifest:
    other_namespace = optional(draw, 20, lambda d: pick(d, namespaces[1:])) if len(namespaces) > 1 else None
    metadata: Manifest = {"name": name, "namespace": other_namespace or namespaces[0]}
    labels = {}
    for key, percent in _LABEL_PERCENT.items():
        value = optional(draw, percent, lambda d: pick(d, POD_LABEL_VALUES[key]))
        if value is not None:
            labels[key] = value
    if labels:
        metadata["labels"] = labels
    if owners:
        owner = optional(draw, 30, lambda d: dict(pick(d, owners), controller=True))
        if owner:
            metadata["ownerReferences"] = [owner]

    spec: Manifest = {}
    scheduler = pick(draw, scheduler_names)
    if scheduler != DEFAULT_SCHEDULER:
        spec["schedulerName"] = scheduler
    if node_name:
        spec["nodeName"] = node_name
    _draw_priority(draw, spec, priorities)
    containers = elements(draw, 1, 3, lambda d, i: _draw_container(d, f"c{i}"), more=45)
    init_containers = optional(draw, 20, lambda d: elements(d, 1, 2, _draw_init_container, more=30)) or []
    sidecars = [c for c in init_containers if c.get("restartPolicy") == "Always"]
    optional(draw, 15, lambda d: _draw_host_ports(d, containers + sidecars))
    if init_containers:
        spec["initContainers"] = init_containers
    spec["containers"] = containers
    runtime = optional(draw, 10, lambda d: pick(d, RUNTIME_CLASSES))
    if runtime:
        spec.update(runtimeClassName=runtime.name, overhead=dict(runtime.overhead))
    features = {
        "nodeSelector": (15, lambda d: _draw_node_selector(d, nodes)),
        "affinity": (25, lambda d: draw_affinity(d, nodes=nodes, namespaces=namespaces)),
        "tolerations": (25, lambda d: elements(d, 1, 2, lambda d, i: draw_toleration(d), more=30)),
        "topologySpreadConstraints": (20, lambda d: draw_spread_constraints(d, 2)),
    }
    if gates and not node_name:
        features["schedulingGates"] = (10, lambda d: [{"name": g} for g in subset(
            d, SCHEDULING_GATES, min_size=1, max_size=2)])
    for field, (percent, build) in features.items():
        value = optional(draw, percent, build)
        if value is not None:
            spec[field] = value
    return {"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": spec}


def check_name(name: str, where: str) -> str:
    errors = is_dns1123_subdomain(name) if isinstance(name, str) else ["must be a string"]
    if errors:
        raise ValueError(f"{where}={name!r}: {errors[0]}; use a name such as 'pod-0'")
    return name


def pods(*, name: str = "pod-0", namespaces: Sequence[str] = ("default",), node_name: str = "",
         scheduler_names: Sequence[str] = (DEFAULT_SCHEDULER,), nodes: Sequence[str] = NODE_NAMES[:4],
         priorities: Sequence[PriorityClass] = PRIORITY_CLASSES, gates: bool = True,
         owners: Sequence[Mapping[str, object]] = ()) -> SearchStrategy[Manifest]:
    """Pod manifests named `name`: 1-3 containers, sometimes init containers and sidecars, each with
    no resources, requests, or requests and limits (from millicores to more cores, memory and GPUs than
    the largest node has); sometimes overhead (with its RuntimeClass),
    a priority class, host ports, tolerations, a nodeSelector, affinity, spread constraints,
    scheduling gates (if `gates` and no `node_name`), an owner reference (one of `owners`, as
    controller). The namespace is one of `namespaces`, the schedulerName one of `scheduler_names`,
    hostname values in selectors come from `nodes`, and `node_name` binds the pod.

    Shrinks towards a pod in the first namespace with one container of the first image and no
    requests, labels, priority or constraints.
    """
    check_name(name, "pods(name")
    if node_name:
        check_name(node_name, "pods(node_name")
    for label, pool in (("namespaces", namespaces), ("scheduler_names", scheduler_names), ("nodes", nodes),
                        ("priorities", priorities)):
        if isinstance(pool, str) or not pool:
            raise ValueError(f"pods({label}={pool!r}): pass a non-empty sequence")
    args = dict(namespaces=tuple(namespaces), node_name=node_name, scheduler_names=tuple(scheduler_names),
                nodes=tuple(nodes), priorities=tuple(priorities), gates=gates, owners=tuple(dict(o) for o in owners))
    return st.composite(lambda draw: draw_pod(draw, name, **args))()


__all__ = ["DEFAULT_SCHEDULER", "check_name", "draw_pod", "pods"]
