"""PriorityClass and RuntimeClass in `Scenario.objects`: decoded and validated as the API server does,
and pods naming them checked as the Priority and RuntimeClass admission plugins would."""

import pytest

from reference import types as t
from reference.codec import from_manifest
from reference.errors import ManifestError
from reference.scenario import Scenario, ScenarioError


def _pc(name="high", value=1000, **extra):
    return {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": name},
            "value": value, **extra}


def _rc(name="kata", overhead=None, **extra):
    m = {"apiVersion": "node.k8s.io/v1", "kind": "RuntimeClass", "metadata": {"name": name}, "handler": "kata", **extra}
    if overhead is not None:
        m["overhead"] = {"podFixed": overhead}
    return m


def _pod(**spec):
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
            "spec": {"containers": [{"name": "c", "image": "x"}], **spec}}


def _scenario(objects, **spec):
    return Scenario.from_dict({"objects": objects, "workload": [_pod(**spec)]})


def test_classes_decode():
    assert from_manifest(_pc(preemptionPolicy="Never")) == t.PriorityClass("high", 1000, "Never")
    assert from_manifest(_rc(overhead={"cpu": "250m", "memory": "1Ki"})) == \
        t.RuntimeClass("kata", "kata", {"cpu": 250, "memory": 1024})
    assert from_manifest(_rc()).overhead is None


@pytest.mark.parametrize("manifest, message", [
    (_pc(value=None), "value is missing"),
    (_pc(value=2**31), "not a 32-bit integer"),
    (_pc(value=1_000_000_001), "above 1000000000"),
    (_pc(name="system-mine"), "'system-' prefix is reserved"),
    (_pc(name="High"), "RFC 1123 subdomain"),
    (_pc(preemptionPolicy="PreemptNever"), "'PreemptNever' is not one of PreemptLowerPriority, Never"),
    (_rc(handler=""), "handler '' is not a DNS label"),
    (_rc(handler="a.b"), "handler 'a.b' is not a DNS label"),
], ids=["no-value", "int32", "user-max", "system-prefix", "name", "policy", "no-handler", "handler-label"])
def test_invalid_classes_are_refused_naming_the_field(manifest, message):
    with pytest.raises(ManifestError, match=message.replace("(", r"\(")):
        from_manifest(manifest)


@pytest.mark.parametrize("objects, spec", [
    ([_pc()], {"priorityClassName": "high", "priority": 1000}),
    ([_pc(preemptionPolicy="Never")], {"priorityClassName": "high", "priority": 1000, "preemptionPolicy": "Never"}),
    ([_rc(overhead={"cpu": "250m"})], {"runtimeClassName": "kata", "overhead": {"cpu": "0.25"}}),
    ([_rc()], {"runtimeClassName": "kata"}),
    ([_pc()], {"priorityClassName": "other", "priority": 5}),
    ([_pc(), _rc()], {}),
], ids=["priority", "never", "overhead-equal-quantity", "no-overhead", "class-not-in-scenario", "unnamed"])
def test_pods_as_admission_leaves_them_are_accepted(objects, spec):
    assert _scenario(objects, **spec).objects[0]["metadata"]["name"] in ("high", "kata")


@pytest.mark.parametrize("objects, spec, message", [
    ([_pc()], {"priorityClassName": "high"}, r"workload\[0\]\.spec\.priority: missing.*set priority: 1000"),
    ([_pc()], {"priorityClassName": "high", "priority": 5},
     r"the integer value of priority \(5\) must not be provided in pod spec; priority admission controller computed 1000"),
    ([_pc(preemptionPolicy="Never")], {"priorityClassName": "high", "priority": 1000},
     "'PreemptLowerPriority' differs from 'Never'.*set preemptionPolicy: Never"),
    ([_pc()], {"priorityClassName": "high", "priority": 1000, "preemptionPolicy": "Never"},
     "'Never' differs from 'PreemptLowerPriority'"),
    ([_rc(overhead={"cpu": "250m"})], {"runtimeClassName": "kata"}, r"spec\.overhead: missing"),
    ([_rc(overhead={"cpu": "250m"})], {"runtimeClassName": "kata", "overhead": {"cpu": "100m"}},
     "Pod's Overhead doesn't match RuntimeClass's defined Overhead"),
    ([_rc()], {"runtimeClassName": "kata", "overhead": {"cpu": "100m"}},
     "Pod Overhead set without corresponding RuntimeClass defined Overhead"),
    ([_pc(globalDefault=True)], {}, r"scenario\.objects: PriorityClass high: globalDefault"),
    ([_rc(scheduling={"nodeSelector": {"a": "b"}})], {}, "RuntimeClass kata: scheduling"),
    ([_pc(), _pc()], {}, "duplicate PriorityClass 'high'"),
], ids=["priority-missing", "priority-differs", "policy-missing", "policy-differs", "overhead-missing",
        "overhead-differs", "overhead-without-class-overhead", "global-default", "runtime-scheduling", "duplicate"])
def test_what_admission_would_refuse_or_change_is_refused(objects, spec, message):
    with pytest.raises(ScenarioError, match=message):
        _scenario(objects, **spec)


def test_bound_pods_are_checked_too():
    bound = _pod(priorityClassName="high", nodeName="node-0")
    with pytest.raises(ScenarioError, match=r"scenario\.pods\[0\]\.spec\.priority: missing"):
        Scenario.from_dict({"objects": [_pc()], "pods": [bound]})


def test_the_reference_schedules_a_scenario_with_classes_like_one_without():
    from conformance.backends.reference import ReferenceBackend
    node = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-0"},
            "status": {"allocatable": {"cpu": "1", "pods": "10"}, "capacity": {"cpu": "1", "pods": "10"}}}
    low = _pod(priority=1, nodeName="node-0", containers=[{"name": "c", "image": "x", "resources": {"requests": {"cpu": "1"}}}])
    low["metadata"]["name"] = "low"
    high = _pod(priorityClassName="high", priority=1000, runtimeClassName="kata", overhead={"cpu": "250m"})
    with_classes = Scenario.from_dict({"nodes": [node], "pods": [low], "objects": [_pc(), _rc(overhead={"cpu": "250m"})],
                                       "workload": [high]})
    without = Scenario.from_dict({**with_classes.to_dict(), "objects": []})
    backend = ReferenceBackend()
    a, b = backend.run(with_classes), backend.run(without)
    assert a.pods == b.pods and a.deleted == b.deleted == ("default/low",)
