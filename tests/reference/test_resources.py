"""Direct tests of reference.resources.pod_requests, ported from component-helpers
resource/helpers_test.go: the request half of TestPodRequestsAndLimits, the spec-only rows of
TestPodResourceRequests (restartable init containers / sidecars, overhead) and the
NonMissingContainerRequests rows of TestPodRequestsAndLimitsVerticalScalingWrappers.

Left out: rows that read pod status (UseStatusResources: resize conditions, allocated/actuated
resources), pod-level resources (`spec.resources`), DRA claims, and everything about limits; the
reference models none of these. Quantities are converted to reference integers (milli-CPU, bytes).
"""

import pytest

from reference.resources import (NON_ZERO_DEFAULTS, is_extended_resource_name, is_native_resource, is_scalar_resource,
                                 pod_requests)
from reference.types import Container, Pod

GI = 1024 ** 3
MI = 1024 ** 2


def get_pod(cpu_request=None, memory_request=None, cpu_overhead=None, memory_overhead=None):
    """helpers_test.go `getPod`: the same requests on one container and one init container."""
    requests = {k: v for k, v in (("cpu", cpu_request), ("memory", memory_request)) if v is not None}
    overhead = {k: v for k, v in (("cpu", cpu_overhead), ("memory", memory_overhead)) if v is not None}
    return Pod(name="foo", containers=(Container("foo", requests=requests),),
               init_containers=(Container("init-foo", requests=requests),), overhead=overhead)


REQUESTS_AND_OVERHEAD = [
    ("just-limit-no-overhead", get_pod(), {}),
    ("just-overhead", get_pod(cpu_overhead=5000, memory_overhead=5), {"cpu": 5000, "memory": 5}),
    ("req-and-overhead", get_pod(1000, 10, 5000, 5), {"cpu": 6000, "memory": 15}),
    ("all-req-lim-and-overhead", get_pod(1000, 10, 5000, 5), {"cpu": 6000, "memory": 15}),
    ("req-some-lim-and-overhead", get_pod(1000, 10, 5000, 5), {"cpu": 6000, "memory": 15}),
]


@pytest.mark.parametrize("pod,expected", [c[1:] for c in REQUESTS_AND_OVERHEAD],
                         ids=[c[0] for c in REQUESTS_AND_OVERHEAD])
def test_pod_requests_and_limits(pod, expected):
    assert pod_requests(pod) == expected


def c(name="", cpu=None, sidecar=False):
    return Container(name, requests={} if cpu is None else {"cpu": cpu}, restart_policy="Always" if sidecar else None)


POD_RESOURCE_REQUESTS = [
    ("nil options, larger init container", (c(cpu=4000),), (c(cpu=1000),), {}, False, {"cpu": 4000}),
    ("nil options, larger containers", (c(cpu=2000),), (c(cpu=2000), c(cpu=3000)), {}, False, {"cpu": 5000}),
    ("pod overhead excluded", (c(cpu=2000),), (c(cpu=2000), c(cpu=3000)), {"cpu": 1000}, True, {"cpu": 5000}),
    ("pod overhead included", (c(cpu=2000),), (c(cpu=2000), c(cpu=3000)), {"cpu": 1000, "memory": GI}, False,
     {"cpu": 6000, "memory": GI}),
    ("resized, infeasible, but don't use status", (), (c("container-1", 4000),), {}, False, {"cpu": 4000}),
    ("resized, restartable init container, infeasible, but don't use status",
     (c("restartable-init-1", 4000, sidecar=True),), (), {}, False, {"cpu": 4000}),
    ("restartable init container", (c("restartable-init-1", 1000, sidecar=True),), (c("container-1", 1000),), {},
     False, {"cpu": 2000}),
    ("multiple restartable init containers",
     (c("init-1", 5000), c("restartable-init-1", 1000, True), c("restartable-init-2", 2000, True),
      c("restartable-init-3", 3000, True)), (c("container-1", 1000),), {}, False, {"cpu": 7000}),
    ("multiple restartable and regular init containers",
     (c("init-1", 5000), c("restartable-init-1", 1000, True), c("restartable-init-2", 2000, True), c("init-2", 5000),
      c("restartable-init-3", 3000, True)), (c("container-1", 1000),), {}, False, {"cpu": 8000}),
    ("restartable-init, init and regular", (c("restartable-init-1", 10000, True), c("init-1", 200000)),
     (c("container-1", 100000),), {}, False, {"cpu": 210000}),
]


@pytest.mark.parametrize("init_containers,containers,overhead,exclude_overhead,expected",
                         [c_[1:] for c_ in POD_RESOURCE_REQUESTS], ids=[c_[0] for c_ in POD_RESOURCE_REQUESTS])
def test_pod_resource_requests(init_containers, containers, overhead, exclude_overhead, expected):
    pod = Pod(name="p", containers=containers, init_containers=init_containers, overhead=overhead)
    assert pod_requests(pod, exclude_overhead=exclude_overhead) == expected


NON_MISSING = [
    ("non missing container requests applied to init container",
     Pod(name="p", init_containers=(Container("i1", requests={"cpu": 1000}),)), {"cpu": 1000, "memory": 100 * MI}),
    ("non missing container requests applied to regular container",
     Pod(name="p", containers=(Container("c1", requests={"cpu": 1000}),)), {"cpu": 1000, "memory": 100 * MI}),
]


@pytest.mark.parametrize("pod,expected", [c_[1:] for c_ in NON_MISSING], ids=[c_[0] for c_ in NON_MISSING])
def test_non_missing_container_requests(pod, expected):
    assert pod_requests(pod, non_missing={"memory": 100 * MI}) == expected


def test_explicit_zero_request_is_not_replaced_by_the_scoring_default():
    """applyNonMissing fills only resources a container does not list at all."""
    pod = Pod(name="p", containers=(Container("c", requests={"cpu": 0}),))
    assert pod_requests(pod, non_missing=NON_ZERO_DEFAULTS) == {"cpu": 0, "memory": NON_ZERO_DEFAULTS["memory"]}


# --- resource names: v1helper (pkg/apis/core/v1/helper) and schedutil.IsScalarResourceName -------------

@pytest.mark.parametrize("name,want", [
    ("pod.alpha.kubernetes.io/opaque-int-resource-foo", True),
    ("kubernetes.io/resource-foo", True),
    ("foo", True),
    ("a/b", False),
    ("", True),
])
def test_is_native_resource(name, want):
    """helpers_test.go TestIsNativeResource."""
    assert is_native_resource(name) is want


@pytest.mark.parametrize("name,extended,scalar", [
    pytest.param("example.com/gpu", True, True, id="extended"),
    pytest.param("hugepages-2Mi", False, True, id="hugepages"),
    pytest.param("attachable-volumes-aws-ebs", False, True, id="attachable volumes"),
    pytest.param("kubernetes.io/batteries", False, True, id="prefixed native"),
    pytest.param("sub.kubernetes.io/x", False, True, id="prefixed native subdomain"),
    pytest.param("cpu", False, False, id="native"),
    pytest.param("foo", False, False, id="native without domain"),
    pytest.param("requests.example.com/gpu", False, False, id="quota prefix"),
    pytest.param("example.com/a/b", False, False, id="two slashes: not a qualified name"),
    pytest.param("Example.com/gpu", False, False, id="upper-case domain: not a DNS subdomain"),
    pytest.param("example.com/", False, False, id="empty name part"),
    pytest.param("example.com/" + "g" * 64, False, False, id="name part over 63 bytes"),
])
def test_extended_and_scalar_resource_names(name, extended, scalar):
    """`IsExtendedResourceName` needs a valid quota name ("requests." + name); `IsScalarResourceName`
    is extended, hugepages-, attachable-volumes- or kubernetes.io-prefixed, nothing else with a '/'."""
    assert is_extended_resource_name(name) is extended
    assert is_scalar_resource(name) is scalar
