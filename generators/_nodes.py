"""`nodes()`: Node manifests with pooled labels, taints, allocatable resources and images."""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from reference.quantity import CPU, MEMORY, PODS

from ._draw import Draw, Manifest, flag, optional, pick, subset
from ._node_terms import draw_taint_list
from ._quantities import CAPACITIES, draw_amount, draw_spelling
from .pools import DISK, GI, GPU, HOSTNAME, IMAGES, MI, NODE_LABEL_VALUES, RANK, REGION, ZONE

# How often a node carries each optional label: zones often, so that spreading has domains.
_LABEL_PERCENT = {ZONE: 60, REGION: 35, DISK: 30, RANK: 30}
# Capacity minus allocatable, as a kubelet reports it: kube- and system-reserved plus the eviction threshold
# for cpu and memory (a fixed amount, or a few percent on large machines), unhealthy devices for a device
# plugin's resource; none for pods. The first (none) is the simplest.
_RESERVED_FIXED: dict[str, tuple[int, ...]] = {CPU: (0, 100, 500), MEMORY: (0, 100 * MI, GI), GPU: (0, 1)}
_RESERVED_PERCENT = {CPU: (6, 1), MEMORY: (5, MI)}  # (percent of allocatable, rounded down to a multiple of)


def _reserved(draw: Draw, name: str, allocatable: int) -> int:
    choices = _RESERVED_FIXED.get(name, (0,))
    if name in _RESERVED_PERCENT:
        percent, unit = _RESERVED_PERCENT[name]
        choices += (allocatable * percent // 100 // unit * unit,)
    return pick(draw, choices)


def draw_allocatable(draw: Draw, *, gpu: bool) -> dict[str, int]:
    out = {name: draw_amount(draw, name, pool=CAPACITIES) for name in (CPU, MEMORY, PODS)}
    if gpu:
        gpus = optional(draw, 30, lambda d: draw_amount(d, GPU, pool=CAPACITIES))
        if gpus is not None:
            out[GPU] = gpus
    return out


def draw_capacity(draw: Draw, allocatable: dict[str, int]) -> dict[str, int]:
    """Allocatable plus what the kubelet reserves (the scheduler reads only allocatable)."""
    return {name: value + _reserved(draw, name, value) for name, value in allocatable.items()}


def draw_node(draw: Draw, name: str, *, taints: bool = True, unschedulable: bool = True,
              gpu: bool = True) -> Manifest:
    labels = {HOSTNAME: name}
    for key, percent in _LABEL_PERCENT.items():
        value = optional(draw, percent, lambda d: pick(d, NODE_LABEL_VALUES[key]))
        if value is not None:
            labels[key] = value
    spec: Manifest = {}
    node_taints = optional(draw, 15, lambda d: draw_taint_list(d, 2)) if taints else None
    if node_taints:
        spec["taints"] = node_taints
    if unschedulable and draw(flag(5)):
        spec["unschedulable"] = True
    allocatable = draw_allocatable(draw, gpu=gpu)
    capacity = draw_capacity(draw, allocatable)
    status: Manifest = {
        "capacity": {k: draw_spelling(draw, k, v) for k, v in capacity.items()},
        "allocatable": {k: draw_spelling(draw, k, v) for k, v in allocatable.items()},
    }
    images = optional(draw, 40, lambda d: subset(d, IMAGES, min_size=1, max_size=3))
    if images:
        status["images"] = [{"names": [image], "sizeBytes": size} for image, size in images]
    node: Manifest = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": labels}}
    if spec:
        node["spec"] = spec
    node["status"] = status
    return node


def nodes(*, name: str = "node-0", taints: bool = True, unschedulable: bool = True,
          gpu: bool = True) -> SearchStrategy[Manifest]:
    """Node manifests named `name`: the hostname label, sometimes zone/region/disk/rank labels,
    taints (if `taints`), `spec.unschedulable` (if `unschedulable`), allocatable and capacity with
    cpu, memory, pods and sometimes example.com/gpu (if `gpu`), and sometimes status images.
    Allocatable spans real machines (up to 192 cores, 4 TiB, 512 pods, 16 GPUs); capacity is at
    least allocatable, as kubelets report it.

    Shrinks towards a schedulable, untainted node with only the hostname label and ample
    allocatable (8 CPU, 16Gi, 110 pods).
    """
    if not isinstance(name, str) or not name:
        raise ValueError(f"nodes(name={name!r}): pass a DNS-1123 node name such as 'node-0'")
    return st.composite(lambda draw: draw_node(draw, name, taints=taints, unschedulable=unschedulable, gpu=gpu))()


__all__ = ["draw_allocatable", "draw_capacity", "draw_node", "nodes"]
