"""`nodes()`: Node manifests with pooled labels, taints, allocatable resources and images."""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from reference.quantity import CPU, MEMORY, PODS

from ._draw import Draw, Manifest, flag, optional, pick, subset
from ._node_terms import draw_taint_list
from ._quantities import CAPACITIES, draw_amount, draw_spelling
from .pools import DISK, GPU, HOSTNAME, IMAGES, NODE_LABEL_VALUES, RANK, REGION, ZONE

# How often a node carries each optional label: zones often, so that spreading has domains.
_LABEL_PERCENT = {ZONE: 60, REGION: 35, DISK: 30, RANK: 30}
_RESERVED_MILLI_CPU = (0, 100, 500)


def draw_allocatable(draw: Draw, *, gpu: bool) -> dict[str, int]:
    out = {name: draw_amount(draw, name, pool=CAPACITIES) for name in (CPU, MEMORY, PODS)}
    if gpu:
        gpus = optional(draw, 30, lambda d: pick(d, CAPACITIES[GPU]))
        if gpus is not None:
            out[GPU] = gpus
    return out


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
    # Capacity is allocatable plus what the kubelet reserves; the scheduler reads only allocatable.
    capacity = dict(allocatable, **{CPU: allocatable[CPU] + pick(draw, _RESERVED_MILLI_CPU)})
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

    Shrinks towards a schedulable, untainted node with only the hostname label and ample
    allocatable (8 CPU, 16Gi, 110 pods).
    """
    if not isinstance(name, str) or not name:
        raise ValueError(f"nodes(name={name!r}): pass a DNS-1123 node name such as 'node-0'")
    return st.composite(lambda draw: draw_node(draw, name, taints=taints, unschedulable=unschedulable, gpu=gpu))()


__all__ = ["draw_allocatable", "draw_node", "nodes"]
