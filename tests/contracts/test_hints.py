"""queueing-hint-no-lost-wakeup's rules on a fake driver (no Go): a node the plugin opens to the pod needs a Queue
even when it let the pod through elsewhere; a deleted node's pods are deleted after it (pod GC), so a plugin whose
hint skips Node/Delete but queues on the deletion of the pods that kept the pod out loses no wake-up."""

from __future__ import annotations

import pytest

from conformance.contracts import REGISTRY, ContractViolation
from conformance.contracts.inputs import PluginInput, WithEvents, _room_freed


class RepelledDriver:
    """A Filter that rejects the pod on every node (`everywhere`; as a running pod's anti-affinity over a zone
    would) or on node-0 alone (as a full node would) while any pod runs on node-0; hints: Node/Delete says
    QueueSkip, AssignedPod/Delete says `pod_delete_queues`."""
    points = frozenset({"filter"})
    plugin = "Fake"

    def __init__(self, pod_delete_queues: bool, everywhere: bool = True) -> None:
        self.pod_delete_queues, self.everywhere = pod_delete_queues, everywhere
        self.hinted: list[str] = []

    def run(self, calls):
        out, pods = [], []
        for call in calls:
            if call["point"] == "snapshot":
                pods = call["pods"]
                out.append({})
            elif call["point"] == "filter":
                repelled = any(p["spec"]["nodeName"] == "node-0" for p in pods) and \
                    (self.everywhere or call["node"] == "node-0")
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


def _example(event: str = "node") -> WithEvents:
    running = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "running-0", "namespace": "default"},
               "spec": {"nodeName": "node-0", "containers": [{"name": "c", "image": "i"}]}}
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "pod-0", "namespace": "default"},
           "spec": {"containers": [{"name": "c", "image": "i"}]}}
    inp = PluginInput((_node("node-0"), _node("node-1")), (running,), pod)
    old = inp.nodes[0] if event == "node" else running
    return WithEvents(inp, tuple(e for e in _room_freed(inp) if e.event == {"kind": event, "action": "delete",
                                                                            "old": old}))


def test_the_deletion_of_the_nodes_pods_that_follows_may_requeue_the_pod():
    driver = RepelledDriver(pod_delete_queues=True)
    assert REGISTRY["queueing-hint-no-lost-wakeup"].check(driver, _example())
    assert driver.hinted == ["node/delete", "pod/delete"], "the pod's deletion was asked too"


def test_a_lost_wakeup_names_the_deletions_that_follow():
    with pytest.raises(ContractViolation, match=r"node node-0 delete: cluster events NodeDelete\) .* every hint said "
                                                r"QueueSkip; nor does any for the deletions of its 1 pod\(s\) that "
                                                r"follow \(AssignedPodDelete\)"):
        REGISTRY["queueing-hint-no-lost-wakeup"].check(RepelledDriver(pod_delete_queues=False), _example())


def test_a_node_opened_to_the_pod_needs_a_queue_where_it_passed_elsewhere():
    """Upstream lists the plugin among the pod's unschedulable plugins when it rejected one node and the others
    rejected the rest: only its hint can then requeue the pod for the event that frees node-0."""
    with pytest.raises(ContractViolation, match=r"the plugin rejected pod-0 \(Unschedulable\) on node-0 and let it "
                                                r"through on node-1; after the event \(pod running-0 delete: .* accept "
                                                r"it on node-0, .* where the other plugins reject node-1"):
        REGISTRY["queueing-hint-no-lost-wakeup"].check(RepelledDriver(False, everywhere=False), _example("pod"))
    assert REGISTRY["queueing-hint-no-lost-wakeup"].check(RepelledDriver(True, everywhere=False), _example("pod"))


def test_a_plugin_that_rejects_the_pod_nowhere_is_not_asked():
    driver = RepelledDriver(False, everywhere=False)
    inp = _example("pod").input
    free = WithEvents(PluginInput(inp.nodes, (), inp.pod), _example("pod").events)
    assert not REGISTRY["queueing-hint-no-lost-wakeup"].check(driver, free)
    assert driver.hinted == []
