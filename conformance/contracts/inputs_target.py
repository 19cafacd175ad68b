"""Updates of the pending pod itself (upstream's TargetPod events), only those the API server allows on a pod
that is neither bound nor gated (pkg/apis/core/validation ValidatePodUpdate and, for resources, ValidatePodResize
through the pods/resize subresource):

- labels: free (metadata). The keys a spread constraint's matchLabelKeys names stay as they are: the API server
  merged their values into its labelSelector when it stored the pod (pod strategy mutateTopologySpreadConstraints),
  which the generated pods do not show, so a change of them would be judged on a selector no real pod has.
- tolerations: only added (validateOnlyAddedTolerations: an existing one may change only its tolerationSeconds).
- cpu and memory requests of the containers: lowered through pods/resize, which a pod with no running container
  may take (isPodResizeRequestSupported), as far as reference/resize.py says the QoS class is kept.

nodeSelector and node affinity change only while the pod is gated, scheduling gates are only removed: the pods
here are not gated, so neither changes.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Any, Iterable

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from generators.pools import POD_LABEL_VALUES, TAINT_EFFECTS, TAINT_KEYS
from reference.resize import halved, lowerable, with_requests

Manifest = dict[str, Any]
UNSCHEDULABLE_TOLERATION = {"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule"}
# What a drawn update adds, one at a time: each pooled taint key per effect, a cordon's, every taint (empty key).
_ADDED_TOLERATIONS = tuple({"key": k, "operator": "Exists", "effect": e} for k in TAINT_KEYS for e in TAINT_EFFECTS) \
    + (UNSCHEDULABLE_TOLERATION, {"operator": "Exists"})


@lru_cache(maxsize=None)
def _index(size: int) -> SearchStrategy[int]:  # built once per size: building costs more than drawing
    return st.integers(0, size - 1)


def _pinned_keys(pod: Manifest) -> set[str]:
    return {key for c in pod["spec"].get("topologySpreadConstraints") or () for key in c.get("matchLabelKeys") or ()}


def _with_labels(pod: Manifest, labels: dict[str, str]) -> Manifest:
    metadata = {k: v for k, v in pod["metadata"].items() if k != "labels"}
    if labels:
        metadata["labels"] = labels
    return {**pod, "metadata": metadata}


def _with_tolerations(pod: Manifest, added: Iterable[Manifest]) -> Manifest:
    return {**pod, "spec": {**pod["spec"], "tolerations": list(pod["spec"].get("tolerations") or ()) + list(added)}}


def pod_updates(pod: Manifest) -> list[Manifest]:
    """The updates a drawn one is picked from, the simplest first: each assignment of the pool labels to its free
    label keys (none first), each of `_ADDED_TOLERATIONS` added, its lowerable requests halved."""
    pinned = _pinned_keys(pod)
    kept = {k: v for k, v in (pod["metadata"].get("labels") or {}).items() if k in pinned}
    free = [k for k in POD_LABEL_VALUES if k not in pinned]
    out = [_with_labels(pod, {**kept, **{k: v for k, v in zip(free, values) if v}})
           for values in product(*(("", *POD_LABEL_VALUES[k]) for k in free))]
    out += [_with_tolerations(pod, [t]) for t in _ADDED_TOLERATIONS]
    if (lower := halved(pod)) is not None:
        out.append(lower)
    return out


def draw_pod_update(draw: Any, pod: Manifest) -> Manifest:
    """One of `pod_updates`, in one choice; shrinks towards the pod with its free labels removed."""
    updates = pod_updates(pod)
    return updates[draw(_index(len(updates)))]


def _toleration_of(taint: Manifest) -> Manifest:
    return {"key": taint["key"], "operator": "Exists", "effect": taint["effect"]}


def relaxed_pods(pod: Manifest, nodes: Iterable[Manifest]) -> list[Manifest]:
    """Each update of the pod that lifts one kind of constraint on its own: its free labels removed (an existing
    pod's anti-affinity may stop matching it), per node every taint of it (and the unschedulable taint of a
    cordoned node) tolerated, its lowerable requests lowered to 1 unit. Only those that change the pod."""
    out = []
    labels = pod["metadata"].get("labels") or {}
    pinned = _pinned_keys(pod)
    if set(labels) - pinned:
        out.append(_with_labels(pod, {k: v for k, v in labels.items() if k in pinned}))
    has = pod["spec"].get("tolerations") or []
    for node in nodes:
        spec = node.get("spec") or {}
        needed = [_toleration_of(t) for t in spec.get("taints") or ()]
        if spec.get("unschedulable"):
            needed.append(UNSCHEDULABLE_TOLERATION)
        added = [t for i, t in enumerate(needed) if t not in has and t not in needed[:i]]
        if added and (new := _with_tolerations(pod, added)) not in out:
            out.append(new)
    if (lowered := lowered_pod(pod)) is not None:
        out.append(lowered)
    return out


def lowered_pod(pod: Manifest) -> Manifest | None:
    """The pod with its lowerable requests lowered to 1 unit through pods/resize (pending or bound alike), or None
    when it has none."""
    found = lowerable(pod)
    return with_requests(pod, {(i, name): 1 for i, name, _ in found}) if found else None


__all__ = ["UNSCHEDULABLE_TOLERATION", "draw_pod_update", "lowered_pod", "pod_updates", "relaxed_pods"]
