"""Ports imagelocality/image_locality_test.go: TestImageLocalityPriority and TestNormalizedImageName, whole.

Left out: TestImageSignature (pod signatures are not modelled).
"""

import hashlib

import pytest

from reference.cycle_state import CycleState
from reference.interfaces import MAX_NODE_SCORE
from reference.plugins.image_locality import ImageLocality, calculate_priority, normalized_image_name
from reference.types import Container, ContainerImage, Node, Pod
from tests.builders import FakeHandle

MB = 1024 * 1024


def images(*entries):
    return tuple(ContainerImage(names=tuple(names), size_bytes=size * MB) for names, size in entries)


NODE_40_300_2000 = images((["gcr.io/40:latest", "gcr.io/40:v1", "gcr.io/40:v1"], 40),
                          (["gcr.io/300:latest", "gcr.io/300:v1"], 300), (["gcr.io/2000:latest"], 2000))
NODE_250_10 = images((["gcr.io/250:latest"], 250), (["gcr.io/10:latest", "gcr.io/10:v1"], 10))
NODE_600_40_900 = images((["gcr.io/600:latest"], 600), (["gcr.io/40:latest"], 40), (["gcr.io/900:latest"], 900))
NODE_300_600_900 = images((["gcr.io/300:latest"], 300), (["gcr.io/600:latest"], 600), (["gcr.io/900:latest"], 900))
NODE_4000_30 = images((["gcr.io/4000:latest"], 4000), (["gcr.io/30:latest"], 30))
NODE_20_30_40 = images((["gcr.io/20:latest"], 20), (["gcr.io/30:latest"], 30), (["gcr.io/40:latest"], 40))
NO_IMAGES = ()


def pod_of(*container_images, init=(), image_volumes=()):
    return Pod(name="p", containers=tuple(Container(name=f"c{i}", image=im) for i, im in enumerate(container_images)),
               init_containers=tuple(Container(name=f"i{i}", image=im) for i, im in enumerate(init)),
               volumes=tuple({"name": "imageVolume", "image": {"reference": ref}} for ref in image_volumes))


CASES = [
    pytest.param(pod_of("gcr.io/40", "gcr.io/250"), [NODE_40_300_2000, NODE_250_10], [0, 5],
                 id="two images spread on two nodes, prefer the larger image one"),
    pytest.param(pod_of("gcr.io/40", "gcr.io/300"), [NODE_40_300_2000, NODE_250_10], [7, 0],
                 id="two images on one node, prefer this node"),
    pytest.param(pod_of("gcr.io/10", "gcr.io/4000"), [NODE_4000_30, NODE_250_10], [MAX_NODE_SCORE, 0],
                 id="if exceed limit, use limit"),
    pytest.param(pod_of("gcr.io/10", "gcr.io/4000"), [NODE_4000_30, NODE_250_10, NO_IMAGES], [66, 0, 0],
                 id="if exceed limit, use limit (with node which has no images present)"),
    pytest.param(pod_of("gcr.io/300", "gcr.io/600", "gcr.io/900"), [NODE_600_40_900, NODE_300_600_900, NO_IMAGES],
                 [32, 36, 0], id="pod with multiple large images, node2 is preferred"),
    pytest.param(pod_of("gcr.io/30", "gcr.io/40"), [NODE_20_30_40, NODE_4000_30], [1, 0],
                 id="pod with multiple small images"),
    pytest.param(pod_of("gcr.io/30", image_volumes=["gcr.io/300"]), [NODE_300_600_900, NODE_4000_30], [6, 0],
                 id="pod with ImageVolume"),
    pytest.param(pod_of("gcr.io/30", "gcr.io/300"), [NODE_300_600_900, NODE_4000_30], [6, 0],
                 id="same images as ImageVolume pod but as regular container images"),
    pytest.param(pod_of("gcr.io/30", init=["gcr.io/300"]), [NODE_40_300_2000, NODE_20_30_40], [6, 0],
                 id="include InitContainers: two images spread on two nodes, prefer the larger image one"),
]


@pytest.mark.parametrize("pod,node_images,expected", CASES)
def test_image_locality_priority(pod, node_images, expected):
    nodes = [Node(name=f"node{i + 1}", images=imgs) for i, imgs in enumerate(node_images)]
    handle = FakeHandle(nodes)
    plugin = ImageLocality.new(None, handle)
    got = []
    for n in nodes:
        score, status = plugin.score(CycleState(), pod, handle.snapshot().get(n.name))
        assert status.is_success()
        got.append(score)
    assert got == expected


def _fake_digest(content):
    return "sha256:" + hashlib.sha256(content.encode()).hexdigest()


@pytest.mark.parametrize("name,want", [
    pytest.param("root", "root:latest", id="add :latest postfix 1"),
    pytest.param("gcr.io:5000/root", "gcr.io:5000/root:latest", id="add :latest postfix 2"),
    pytest.param("root:tag", "root:tag", id="keep it as is 1"),
    pytest.param("root@" + _fake_digest("root"), "root@" + _fake_digest("root"), id="keep it as is 2"),
])
def test_normalized_image_name(name, want):
    assert normalized_image_name(name) == want


def test_pod_without_images_scores_zero():
    assert calculate_priority(0, 0) == 0
