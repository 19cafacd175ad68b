"""A deleted node's pods are deleted after it (pod GC): a plugin whose hint skips Node/Delete but queues on the
deletion of the pods that kept the pod out loses no wake-up; one that skips both does. A fake driver (no Go)."""

from __future__ import annotations

import pytest

from conformance.contracts import REGISTRY, ContractViolation
from conformance.contracts.inputs import PluginInput, WithEvents, _deletions


class RepelledDriver:
    """A Filter that rejects the pod on every node while any pod runs on node-0 (as a running pod's anti-affinity
    over a zone would); hints: Node/Delete says QueueSkip, AssignedPod/Delete says `pod_delete_queues`."""
    points = frozenset({"filter"})
    plugin = "Fake"

    def __init__(self, pod_delete_queues: bool) -> None:
        self.pod_delete_queues = pod_delete_queues
        self.hinted: list[str] = []

    def run(self, calls):
        out, pods = [], []
        for call in calls:
            if call["point"] == "snapshot":
                pods = call["pods"]
                out.append({})
            elif call["point"] == "filter":
                repelled = any(p["spec"]["nodeName"] == "node-0" for p in pods)
                out.append({"code": "Unschedulable" if repelled else "Success"})
            else:
                event = call["event"]
                node = event["kind"] == "node"
                self.hinted.append(f"{event['kind']}/{event['action']}")
                out.append({"code": "Success", "hint": {
                    "events": ["NodeDelete" if node else "AssignedPodDelete"], "registered": [],
                    "queue": False if node else self.pod_delete_queues}})
        return out


def _node(name: str) -> dict:
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name}}


def _example() -> WithEvents:
    running = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "running-0", "namespace": "default"},
               "spec": {"nodeName": "node-0", "containers": [{"name": "c", "image": "i"}]}}
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "pod-0", "namespace": "default"},
           "spec": {"containers": [{"name": "c", "image": "i"}]}}
    inp = PluginInput((_node("node-0"), _node("node-1")), (running,), pod)
    node_delete = [e for e in _deletions(inp) if e.event == {"kind": "node", "action": "delete", "old": inp.nodes[0]}]
    return WithEvents(inp, tuple(node_delete))


def test_the_deletion_of_the_nodes_pods_that_follows_may_requeue_the_pod():
    driver = RepelledDriver(pod_delete_queues=True)
    assert REGISTRY["queueing-hint-no-lost-wakeup"].check(driver, _example())
    assert driver.hinted == ["node/delete", "pod/delete"], "the pod's deletion was asked too"


def test_a_lost_wakeup_names_the_deletions_that_follow():
    with pytest.raises(ContractViolation, match=r"node node-0 delete: cluster events NodeDelete\) .* every hint said "
                                                r"QueueSkip; nor does any for the deletions of its 1 pod\(s\) that "
                                                r"follow \(AssignedPodDelete\)"):
        REGISTRY["queueing-hint-no-lost-wakeup"].check(RepelledDriver(pod_delete_queues=False), _example())
