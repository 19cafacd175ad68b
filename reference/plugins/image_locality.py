"""Mirrors pkg/scheduler/framework/plugins/imagelocality/image_locality.go."""

from __future__ import annotations

from typing import Iterator, Mapping

from ..cycle_state import CycleState
from ..interfaces import MAX_NODE_SCORE, Handle, ScorePlugin
from ..nodeinfo import ImageStateSummary, NodeInfo
from ..status import SUCCESS, Status
from ..types import Pod
from .helper import go_div

NAME = "ImageLocality"

MB = 1024 * 1024
MIN_THRESHOLD = 23 * MB
MAX_CONTAINER_THRESHOLD = 1000 * MB


def normalized_image_name(name: str) -> str:
    """Append ":latest" unless a ':' follows the last '/' (a tag, or a digest's algorithm)."""
    return name + ":latest" if name.rfind(":") <= name.rfind("/") else name


def scaled_image_score(state: ImageStateSummary, total_num_nodes: int) -> int:
    """The image size damped by the fraction of nodes that have it (float math, truncated, like Go)."""
    spread = float(state.num_nodes) / float(total_num_nodes)
    return int(float(state.size) * spread)


def _image_volume_references(pod: Pod) -> Iterator[str]:
    """References of `image` volumes; the other volume kinds do not count."""
    for volume in pod.volumes:
        image = volume.get("image") if isinstance(volume, Mapping) else None
        if image is not None:
            yield str(image.get("reference") or "")


def sum_image_scores(node_info: NodeInfo, pod: Pod, total_num_nodes: int) -> tuple[int, int]:
    """(sum of scaled sizes of the pod's images present on the node, number of images the pod asks for)."""
    images = [c.image for c in pod.init_containers] + [c.image for c in pod.containers]
    images += list(_image_volume_references(pod))
    total = 0
    for image in images:
        state = node_info.image_states.get(normalized_image_name(image))
        if state is not None:
            total += scaled_image_score(state, total_num_nodes)
    return total, len(images)


def calculate_priority(sum_scores: int, image_count: int) -> int:
    """Clamp to [23 MiB, 1000 MiB x images] and scale linearly to [0, 100]."""
    max_threshold = MAX_CONTAINER_THRESHOLD * image_count
    if sum_scores < MIN_THRESHOLD:
        sum_scores = MIN_THRESHOLD
    elif sum_scores > max_threshold:
        sum_scores = max_threshold
    return go_div(MAX_NODE_SCORE * (sum_scores - MIN_THRESHOLD), max_threshold - MIN_THRESHOLD)


class ImageLocality(ScorePlugin):
    NAME = NAME

    def __init__(self, handle: Handle) -> None:
        self._handle = handle

    @classmethod
    def new(cls, args: object, handle: Handle) -> "ImageLocality":
        return cls(handle)

    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> tuple[int, Status]:
        total_num_nodes = len(self._handle.snapshot().node_info_list)
        image_scores, image_count = sum_image_scores(node_info, pod, total_num_nodes)
        return calculate_priority(image_scores, image_count), SUCCESS
