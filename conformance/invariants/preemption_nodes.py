"""Which nodes preemption's dry run tries: only those whose filter status was Unschedulable, never an
UnschedulableAndUnresolvable one (preemption.go findCandidates: `NodesForStatusCode(Unschedulable)`). Read from
upstream's code rather than the spec; seen in the probes' trace, since the dry run calls RemovePod and Filter."""

from __future__ import annotations

import json
from dataclasses import dataclass

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from reference.scenario import PROBE_SCRIPT_ANNOTATION, Scenario

from ..recipes.first_pod import Draw
from ..recipes.situations import _priority_pod
from .attempts import may_be_nominated, traced_from_start
from .base import invariant
from .run import Run

_UAU = "UnschedulableAndUnresolvable"
_NODE_POINTS = ("AddPod", "RemovePod", "Filter")


@dataclass(frozen=True)
class UnresolvableNodes:
    """Two or three 2-CPU nodes with a pod of low priority each; a 1-CPU preemptor of high priority that Probe0
    (at PreFilter and Filter, after the default plugins) finds UnschedulableAndUnresolvable on some nodes, the
    nodes with room (their pod takes 1 CPU); the others are full (their pod takes 2), so that the preemptor
    needs preemption there."""

    def strategy(self) -> SearchStrategy[Scenario]:
        return st.composite(lambda draw: self._draw(draw))()

    def _draw(self, draw: Draw) -> Scenario:
        names = [f"node-{i}" for i in range(draw(st.integers(2, 3)))]
        unresolvable = draw(st.lists(st.sampled_from(names), min_size=1, max_size=len(names), unique=True))
        alloc = {"cpu": "2", "memory": "4Gi", "pods": "110"}
        nodes = tuple({"apiVersion": "v1", "kind": "Node", "metadata": {"name": n, "labels": {
            "kubernetes.io/hostname": n}}, "status": {"capacity": alloc, "allocatable": alloc}} for n in names)
        bound = tuple(_priority_pod(f"low-{i}", "1" if n in unresolvable else "2", 100, n)
                      for i, n in enumerate(names))
        preemptor = _priority_pod("pod-0", "1", 1000)
        preemptor["metadata"]["annotations"] = {PROBE_SCRIPT_ANNOTATION: _json({"Probe0": {"Filter": {
            "code": "Success", "byNode": {n: {"code": _UAU} for n in unresolvable}}}})}
        probes = [{"name": "Probe0"}]
        config = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
                  "profiles": [{"schedulerName": "default-scheduler", "plugins": {
                      "preFilter": {"enabled": probes}, "filter": {"enabled": probes}}}]}
        return Scenario(config=config, nodes=nodes, pods=bound, workload=(preemptor,))


def _json(value) -> str:
    return json.dumps(value, separators=(",", ":"))


def _every_attempt_traced(run: Run, pod: str) -> bool:
    """The probes counted every scheduling attempt: their count is the queue's, or every attempt starts at a probe."""
    attempts = [a for a in run.attempts(pod) if a > 0]
    result = run.outcome.pods.get(pod)
    if "queue-attempts" in run.capabilities and result is not None and attempts and result.attempts == attempts[-1]:
        return True
    return traced_from_start(run, pod)


@invariant("preemption-skips-unresolvable-nodes",
           "Once a Filter plugin answered UnschedulableAndUnresolvable for a node, the attempt calls no AddPod, "
           "RemovePod or Filter on it again: preemption's dry run tries only the nodes found Unschedulable (an "
           "attempt that may begin on a nominated node is not judged: that node is filtered first, then again).",
           "preemption/preemption.go findCandidates (NodeToStatus.NodesForStatusCode(Unschedulable)); framework.go "
           "RunFilterPluginsWithNominatedPods (no second pass after a rejection)",
           situation=UnresolvableNodes(), rules=("preemption-tries-unschedulable-nodes",))
def preemption_skips_unresolvable_nodes(run: Run) -> None:
    for pod in run.live_pods:
        if not _every_attempt_traced(run, pod):
            continue  # the probes' first attempt may be a later one, begun on a nomination
        created_nominated = bool(run.pod_objects[pod].nominated_node_name)
        for attempt in (a for a in run.attempts(pod) if a > 0):
            first = attempt == min(a for a in run.attempts(pod) if a > 0)
            if (created_nominated or not first) and may_be_nominated(run, pod, attempt):
                continue  # the pod's first attempt cannot begin on a nomination it was not created with
            unresolvable: dict[str, dict] = {}
            for r in run.probe_records(pod, attempt):
                node = r.get("node")
                if r["point"] not in _NODE_POINTS:
                    continue
                if node in unresolvable:
                    raise run.violation(f"{r['plugin']} {r['point']} on {node} after a Filter plugin found it "
                                        "UnschedulableAndUnresolvable in the same attempt", pod=pod,
                                        plugin=str(r["plugin"]), expected=f"no more calls on {node}",
                                        actual=r["point"], records=(unresolvable[node], r))
                if r["point"] == "Filter" and r.get("code") == _UAU:
                    run.exercise()
                    unresolvable[node] = r
