"""Nominated node names: the store's status patch, the queue's nominator update, and preemption
clearing lower-priority nominations (executor.go `clearNominatedNodeName`, nominator.go
`UpdateNominatedPod`, eventhandlers.go `updatePodInSchedulingQueue`; v1.37.2)."""

from __future__ import annotations

import pytest

from reference.interfaces import NominatingInfo, NominatingMode
from reference.nodeinfo import PodInfo
from reference.plugins.preemption.executor import clear_nominated_node_name
from reference.scheduler.build import build_scheduler
from reference.scheduler.clock import VirtualClock
from reference.scheduler.api_server import ClusterStore
from reference.scheduler.queue import SchedulingQueue
from tests.builders import FakeClient, node, pod


def nominated(queue: SchedulingQueue, node_name: str) -> list[str]:
    return [pi.pod.name for pi in queue.nominated_pods_for_node(node_name)]


# --- TestRemoveNominatedNodeName (executor_test.go) -------------------------------------------------

@pytest.mark.parametrize("current,want_patch", [
    pytest.param("node1", ["default/foo"], id="Should make patch request to clear node name"),
    pytest.param("", [], id="Should not make patch request if nominated node is already cleared"),
])
def test_clear_nominated_node_name_patches_only_pods_that_name_a_node(current, want_patch):
    client = FakeClient()
    assert clear_nominated_node_name(client, [pod("foo", nominated_node_name=current)]) is None
    assert client.cleared == want_patch


def test_clear_nominated_node_name_aggregates_errors():
    class Failing(FakeClient):
        def clear_nominated_node_name(self, p):
            return f'pods "{p.name}" not found'

    pods = [pod(n, nominated_node_name="node1") for n in ("a", "b")]
    assert clear_nominated_node_name(Failing(), pods) == '[pods "a" not found, pods "b" not found]'


# --- the store -------------------------------------------------------------------------------------

def test_store_clear_patches_the_stored_pod_and_reports_the_update():
    store = ClusterStore()
    store.pods["p"] = pod("p", nominated_node_name="node1")
    patches = []
    store.on_pod_status_patched = lambda old, new: patches.append((old.nominated_node_name, new.nominated_node_name))
    assert store.clear_nominated_node_name(pod("p")) is None
    assert store.pods["p"].nominated_node_name == "" and patches == [("node1", "")]
    assert store.clear_nominated_node_name(pod("p")) is None
    assert patches == [("node1", "")], "a patch that changes nothing is no update event"
    assert store.clear_nominated_node_name(pod("gone")) == 'pods "gone" not found'


# --- UpdateNominatedPod ------------------------------------------------------------------------------

def _queue_with(p, nominating):
    queue = SchedulingQueue(VirtualClock(), lambda a, b: False, lambda *_: (True, ""))
    queue.add(p)
    queue.add_nominated_pod(PodInfo.of(p), nominating)
    return queue


def test_update_keeps_an_in_memory_nomination_when_neither_object_names_a_node():
    p = pod("p")
    queue = _queue_with(p, NominatingInfo("node1", NominatingMode.OVERRIDE))
    queue.update_status(p, pod("p", labels={"v": "2"}))
    assert nominated(queue, "node1") == ["p"]


def test_update_drops_the_nomination_the_new_object_no_longer_names():
    p = pod("p", nominated_node_name="node1")
    queue = _queue_with(p, None)
    queue.update_status(p, pod("p"))
    assert nominated(queue, "node1") == []


def test_update_follows_a_changed_nomination_and_refreshes_the_queued_pod():
    p = pod("p", nominated_node_name="node1")
    queue = _queue_with(p, None)
    queue.update_status(p, pod("p", nominated_node_name="node2"))
    assert nominated(queue, "node1") == [] and nominated(queue, "node2") == ["p"]
    assert queue.active[0].pod.nominated_node_name == "node2"


# --- end to end --------------------------------------------------------------------------------------

def test_preemption_clears_the_nomination_of_a_lower_priority_pod_on_the_chosen_node():
    """mid preempts only a pod that is already terminating, so it stays nominated to node1; high then
    preempts on node1, which clears mid's nominatedNodeName (store and nominator) before evicting."""
    sched = build_scheduler(None, seed=1)
    sched.add_node(node("node1", allocatable={"cpu": 2000, "pods": 10}))
    sched.add_pod(pod("term", priority=0, node_name="node1", deletion_timestamp="t", requests=[{"cpu": 1000}]))
    sched.add_pod(pod("live", priority=50, node_name="node1", requests=[{"cpu": 1000}]))
    sched.add_pod(pod("mid", priority=100, requests=[{"cpu": 1000}]))
    sched.run_until_idle()
    assert sched.store.pods["mid"].nominated_node_name == "node1"
    assert nominated(sched.queue, "node1") == ["mid"]

    cleared = []
    clear = sched.store.clear_nominated_node_name
    sched.store.clear_nominated_node_name = lambda p: cleared.append(p.name) or clear(p)
    sched.add_pod(pod("high", priority=1000, requests=[{"cpu": 2000}]))
    sched.run_until_idle()
    assert cleared == ["mid"]
    assert "live" not in sched.store.pods
    assert sched.results()["default/high"].nominated_node_name == "node1"
    assert "mid" not in nominated(sched.queue, "node1")
