"""Updates of the pending pod itself (upstream's TargetPod events): the inputs make only those the API server
allows, the property judges the pod as updated, and the driver derives and hints them as PriorityQueue.Update."""

from __future__ import annotations

import pytest

from conformance.contracts import REGISTRY, ContractViolation
from conformance.contracts.calls import snapshot
from conformance.contracts.inputs import PluginInput, WithEvent, WithEvents, with_events
from conformance.contracts.inputs_target import UNSCHEDULABLE_TOLERATION, relaxed_pods
from reference.quantity import resource_value

from ..generators.apirules import pod_errors
from ..generators.support import sample
from .conftest import needs_go


def _shape(resources: dict, name: str) -> str:
    """qos.go resourceQOS: one resource's QoS shape in a container."""
    request = resource_value(name, (resources.get("requests") or {}).get(name, "0"))
    limit = resource_value(name, (resources.get("limits") or {}).get(name, "0"))
    return "Burstable" if request != limit else "BestEffort" if request == 0 else "Guaranteed"


def _qos(pod: dict) -> str:
    """qos.go ComputePodQOS, written from upstream apart from the code under test."""
    shapes = set()
    for c in pod["spec"].get("initContainers", []) + pod["spec"]["containers"]:
        resources = c.get("resources") or {}
        if not resources.get("requests") and not resources.get("limits"):
            shapes.add("BestEffort")
        else:
            per = {_shape(resources, name) for name in ("cpu", "memory")}
            shapes.add(per.pop() if len(per) == 1 else "Burstable")
    return shapes.pop() if len(shapes) == 1 else "Burstable"


def _without(manifest: dict, *keys: str) -> dict:
    return {k: v for k, v in manifest.items() if k not in keys}


@pytest.mark.parametrize("target", [True, False], ids=["the pending pod", "a bound pod"])
def test_the_inputs_update_a_pod_only_as_the_api_server_allows(target):
    changed = set()
    # Bound pods are updated in about 1 event of 8, and given a toleration in 1 of 16 of those: 300 inputs hold ~10.
    updates = [e for w in sample(with_events(), 120 if target else 300) for e in w.events
               if (e.event["kind"], e.event["action"]) == ("pod", "update") and bool(e.event.get("target")) == target]
    for ex in updates:
        old, new = ex.event["old"], ex.event["new"]
        if target:
            assert ex.input.pod is old and ex.after.pod is new
            assert "nodeName" not in new["spec"] and not new["spec"].get("schedulingGates")
        else:
            assert ex.after.pod is ex.input.pod and new in ex.after.pods and old in ex.input.pods
            assert new["spec"]["nodeName"] == old["spec"]["nodeName"]
        assert not pod_errors(new), pod_errors(new)
        assert (new["metadata"]["name"], new["metadata"]["namespace"]) == (old["metadata"]["name"],
                                                                           old["metadata"]["namespace"])
        assert _without(new["metadata"], "labels") == _without(old["metadata"], "labels")
        assert _without(new["spec"], "tolerations", "containers") == _without(old["spec"], "tolerations", "containers")
        kept = old["spec"].get("tolerations", [])
        assert new["spec"].get("tolerations", [])[:len(kept)] == kept, "tolerations are only added"
        for before, after in zip(old["spec"]["containers"], new["spec"]["containers"], strict=True):
            requests, lowered = (before.get("resources") or {}).get("requests", {}), \
                (after.get("resources") or {}).get("requests", {})
            assert _without(after, "resources") == _without(before, "resources")
            assert _without(after.get("resources", {}), "requests") == _without(before.get("resources", {}), "requests")
            assert lowered.keys() == requests.keys(), "pods/resize removes no request"
            for name in requests:
                if lowered[name] != requests[name]:
                    assert name in ("cpu", "memory"), "pods/resize changes cpu and memory only"
                    assert 1 <= resource_value(name, lowered[name]) < resource_value(name, requests[name])
        assert _qos(new) == _qos(old), "pods/resize keeps the QoS class"
        pinned = {k for c in old["spec"].get("topologySpreadConstraints", []) for k in c.get("matchLabelKeys", [])}
        assert {k: v for k, v in new["metadata"].get("labels", {}).items() if k in pinned} == \
            {k: v for k, v in old["metadata"].get("labels", {}).items() if k in pinned}
        changed |= {k for k in ("tolerations", "containers") if new["spec"].get(k) != old["spec"].get(k)}
        changed |= {"labels"} if new["metadata"].get("labels") != old["metadata"].get("labels") else set()
    assert changed == {"labels", "tolerations", "containers"}, changed


def _pod(**spec) -> dict:
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "pod-0", "namespace": "default", "labels": {"app": "web", "tier": "front"}},
            "spec": {"containers": [{"name": "c0", "image": "i"}], **spec}}


def test_the_pod_relaxations_lift_one_constraint_each():
    pod = _pod(topologySpreadConstraints=[{"maxSkew": 1, "topologyKey": "kubernetes.io/hostname",
                                           "whenUnsatisfiable": "DoNotSchedule", "matchLabelKeys": ["tier"],
                                           "labelSelector": {"matchLabels": {"app": "web"}}}],
               containers=[
                   {"name": "c0", "image": "i", "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}},
                   {"name": "c1", "image": "i", "resources": {"requests": {"cpu": "1", "memory": "64Mi"},
                                                              "limits": {"cpu": "1", "memory": "128Mi"}}}])
    taint = {"key": "example.com/dedicated", "value": "team-a", "effect": "NoSchedule"}
    cordoned = {"taints": [taint], "unschedulable": True}
    nodes = [{"metadata": {"name": "node-0"}, "spec": cordoned}, {"metadata": {"name": "node-1"}},
             {"metadata": {"name": "node-2"}, "spec": cordoned}]  # the same tolerations once
    unlabelled, tolerant, small = relaxed_pods(pod, nodes)
    assert unlabelled["metadata"]["labels"] == {"tier": "front"}  # matchLabelKeys' key stays
    assert tolerant["spec"]["tolerations"] == [{"key": "example.com/dedicated", "operator": "Exists",
                                                "effect": "NoSchedule"}, UNSCHEDULABLE_TOLERATION]
    c0, c1 = small["spec"]["containers"]
    assert c0["resources"]["requests"] == {"cpu": "1m", "memory": "1"}
    assert c1["resources"] == {"requests": {"cpu": "1", "memory": "1"}, "limits": {"cpu": "1", "memory": "128Mi"}}
    relaxed = _pod(tolerations=tolerant["spec"]["tolerations"])
    relaxed["metadata"].pop("labels")
    assert relaxed_pods(relaxed, nodes) == [], "only updates that change the pod"


class TolerationsDriver:
    """A Filter that lets a pod through only with a toleration, whose hints say QueueSkip; records the calls."""
    points = frozenset({"filter"})
    plugin = "Fake"

    def __init__(self):
        self.calls = []

    def run(self, calls):
        self.calls += calls
        return [{"code": "Success" if c["pod"]["spec"].get("tolerations") else "Unschedulable"}
                if c["point"] == "filter" else
                {"code": "Success", "hint": {"events": ["TargetPodUpdatePodToleration"], "registered": [],
                                             "queue": False}} if c["point"] == "hint" else {} for c in calls]


def test_the_property_judges_and_hints_the_updated_pod():
    pod = _pod()
    new = _pod(tolerations=[UNSCHEDULABLE_TOLERATION])
    node = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-0"}}
    inp = PluginInput((node,), (), pod)
    updated = WithEvent(inp, _target(pod, new), PluginInput((node,), (), new))
    driver = TolerationsDriver()
    with pytest.raises(ContractViolation, match=r"after the event \(pod pod-0 update \(target\): cluster events "
                                                r"TargetPodUpdatePodToleration\) its PreFilter/Filter accept it on "
                                                r"node-0"):
        REGISTRY["queueing-hint-no-lost-wakeup"].check(driver, WithEvents(inp, (updated,)))
    after = [c for c in driver.calls if c.get("state", "").startswith("after") or c["point"] == "hint"]
    assert after and all(c["pod"] is new for c in after)


def _target(old: dict, new: dict) -> dict:
    return {"kind": "pod", "action": "update", "target": True, "old": old, "new": new}


RESOURCES = {"requests": {"cpu": "2"}}


@needs_go
@pytest.mark.parametrize("plugin, new, events, registered", [
    ("TaintToleration", _pod(tolerations=[UNSCHEDULABLE_TOLERATION]), ["TargetPodUpdatePodToleration"],
     ["TargetPod/UpdatePodToleration"]),
    ("InterPodAffinity", {**_pod(), "metadata": {"name": "pod-0", "namespace": "default"}},
     ["TargetPodUpdatePodLabel"], ["TargetPod/UpdatePodLabel"]),
    ("NodeResourcesFit", _pod(containers=[{"name": "c0", "image": "i", "resources": {"requests": {"cpu": "1"}}}]),
     ["TargetPodUpdatePodScaleDown"], ["TargetPod/UpdatePodScaleDown"]),
])
def test_the_driver_derives_upstreams_events_for_the_pods_own_update(stock, plugin, new, events, registered):
    """v1.37 PriorityQueue.Update: PodSchedulingPropertiesChange(new, old, isTargetPod=true)."""
    old = _pod(containers=[{"name": "c0", "image": "i", "resources": RESOURCES}]) if plugin == "NodeResourcesFit" \
        else _pod()
    inp = PluginInput(({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-0"}},), (), old)
    result = stock.driver(plugin).run([snapshot(inp), {"point": "hint", "pod": new, "event": _target(old, new)}])[1]
    assert result["hint"] == {"events": events, "registered": registered, "queue": True}, result
