"""The scheduler's status PATCH goes out only when it changes something (schedule_one.go updatePod: no call when
neither the PodScheduled condition nor, in Override mode, the nomination differs). A call shows only where a
`fail` fault on `status` fires on it, so only those firings are judged."""

from __future__ import annotations

import json
from dataclasses import dataclass

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from reference.scenario import PROBE_SCRIPT_ANNOTATION, Scenario

from ..recipes.first_pod import REJECT, Draw, pick
from .attempts import may_be_nominated, traced_from_start
from .base import invariant
from .faults import fired
from .queue import attempt_end
from .run import Run


@dataclass(frozen=True)
class RepeatedRejections:
    """One pod Probe0 rejects on every node at every attempt, alike or not; node label changes retry it; a
    status fault armed after its first failure fails its next status call, if one goes out."""

    def strategy(self) -> SearchStrategy[Scenario]:
        return st.composite(lambda draw: self._draw(draw))()

    def _draw(self, draw: Draw) -> Scenario:
        names = [f"node-{i}" for i in range(draw(st.integers(1, 2)))]
        alloc = {"cpu": "2", "memory": "4Gi", "pods": "110"}
        nodes = tuple({"apiVersion": "v1", "kind": "Node", "metadata": {"name": n, "labels": {
            "kubernetes.io/hostname": n}}, "status": {"capacity": alloc, "allocatable": alloc}} for n in names)
        reasons = [pick(draw, (["no"], ["no"], ["full"])) for _ in range(3)]
        script = {"Probe0": {"Filter": [{"code": pick(draw, REJECT), "reasons": r} for r in reasons]}}
        annotations = {PROBE_SCRIPT_ANNOTATION: json.dumps(script, separators=(",", ":"))}
        pod = {"apiVersion": "v1", "kind": "Pod",
               "metadata": {"name": "pod-0", "namespace": "default", "annotations": annotations},
               "spec": {"containers": [{"name": "c0", "image": "registry.k8s.io/pause:3.10"}]}}
        fault = {"when": 1, "op": "fail", "call": "status", "error": pick(draw, ("timeout", "conflict")),
                 "pod": "default/pod-0"}
        retries = [{"when": 5 * (i + 1), "op": "update", "kind": "Node", "name": names[0],
                    "patch": {"metadata": {"labels": {"retry": str(i)}}}} for i in range(draw(st.integers(1, 2)))]
        config = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
                  "profiles": [{"schedulerName": "default-scheduler", "plugins": {"multiPoint": {
                      "disabled": [{"name": "*"}], "enabled": [{"name": "PrioritySort"}, {"name": "DefaultBinder"},
                                                             {"name": "Probe0"}]}}}]}
        return Scenario(config=config, nodes=nodes, workload=(pod,), timeline=(fault, *retries))


@invariant("status-patched-on-change",
           "A status fault fires only on a patch that changes something: never at the failure of an attempt whose "
           "FailedScheduling message repeats the previous failure's, for a pod never nominated.",
           "schedule_one.go updatePod (podutil.UpdatePodCondition; nnnNeedsUpdate; no patch when neither changes)",
           requires=("probes", "virtual-time", "fault-fail"), situation=RepeatedRejections(),
           rules=("status-patch-on-change",))
def status_patched_on_change(run: Run) -> None:
    firings = fired(run, "fail", "status")
    if not firings or fired(run, "restart") or fired(run, "vanish") or fired(run, "fail", "event"):
        return  # a restart or a vanished object changes what the scheduler holds; a dropped event hides a failure
    for pod in run.live_pods:
        times = [f.get("at") for f in firings if f.get("pod") == pod]
        if not times or not traced_from_start(run, pod):
            continue
        attempts = [a for a in run.attempts(pod) if a > 0]
        if any(may_be_nominated(run, pod, a) for a in attempts):
            continue  # a nomination is patched too
        messages = [str(e.get("message", "")) for e in run.outcome.events
                    if e.get("pod") == pod and e.get("reason") == "FailedScheduling"]
        failed = attempts[:len(messages)]
        if len(messages) != len(attempts) - (run.outcome.pods[pod].phase in ("bound", "waiting")):
            continue  # the events do not line up with the attempts
        for i in range(1, len(failed)):
            if messages[i] != messages[i - 1]:
                continue
            at = attempt_end(run, pod, failed[i])
            previous = attempt_end(run, pod, failed[i - 1])
            run.exercise()
            if at in times and previous != at:
                raise run.violation(f"a status patch went out at attempt {failed[i]}'s failure, which repeats the "
                                    "previous condition", pod=pod, expected="no status call",
                                    actual=f"a status fault fired at {at:g}s")
