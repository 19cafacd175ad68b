"""Scenarios where a pod the scheduler is working on goes away, for the deletion rules: `DeletedOrRecreated`
(the timeline deletes a pod while it waits at Permit, or deletes a bound one and creates it again), and
`PreemptedWhileWaiting` (a preemptor evicts a pod that waits at Permit)."""

from __future__ import annotations

import json
from dataclasses import dataclass

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from reference.scenario import PROBE_SCRIPT_ANNOTATION, Scenario

from .constrained import _pod as _priority_pod
from .events import _node, _pod

# Probe0 where it shows an attempt (PreFilter), holds the pod (Permit) and lets it go (Unreserve); not at
# PreEnqueue or Bind, where it could hold back a pod created again.
_CONFIG = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
           "profiles": [{"schedulerName": "default-scheduler", "plugins": {
               p: {"enabled": [{"name": "Probe0"}]} for p in ("preFilter", "reserve", "permit")}}]}


def _scripted(manifest: dict, script: dict) -> dict:
    meta = {**manifest["metadata"], "annotations": {PROBE_SCRIPT_ANNOTATION: json.dumps(script)}}
    return {**manifest, "metadata": meta}


@dataclass(frozen=True)
class DeletedOrRecreated:
    """Probe0 beside the default plugins (at PreFilter, Reserve and Permit), one node; pod-0 waits at
    Permit (until its timeout, or an allow that comes after its deletion) and the timeline deletes it while
    it waits; or pod-0 binds and the timeline deletes it and creates it again. Maybe a second pod. Shrinks
    towards pod-0 deleted while it waits until its timeout, alone. `weight`: shares of the search's draws
    (see search.py)."""

    weight: int = 2

    def strategy(self) -> SearchStrategy[Scenario]:
        return st.composite(self._draw)()

    def _draw(self, draw) -> Scenario:
        recreate = draw(st.booleans())
        permit: dict = {"code": "Wait", "timeout": draw(st.sampled_from(("10s", "3s")))}
        if draw(st.booleans()):
            permit["then"] = {"signal": "allow", "after": "2s"}
        first = _pod("pod-0", draw(st.sampled_from(("1", "500m"))))
        workload = [first if recreate else _scripted(first, {"Probe0": {"Permit": permit}})]
        if draw(st.booleans()):
            workload.append(_pod("pod-1", draw(st.sampled_from(("1", "500m")))))
        delete = {"when": draw(st.sampled_from((1, 2))), "op": "delete", "kind": "Pod", "name": "pod-0"}
        timeline = [delete]
        if recreate:
            timeline.append({"when": delete["when"] + 1, "op": "create", "object": first})
        return Scenario(config=_CONFIG, nodes=(_node("node-0", "2", "", "", ""),), workload=tuple(workload),
                        timeline=tuple(timeline))


@dataclass(frozen=True)
class PreemptedWhileWaiting:
    """Probe0 beside the default plugins (at PreFilter, Reserve and Permit), one node of 1 or 2 CPUs: pod-0
    (low-priority) waits at Permit (until its timeout, or an allow after 3s), maybe beside a bound pod of
    low or high priority; pod-1 (high-priority), created at 1s, needs a CPU and preempts. Shrinks towards
    pod-0 alone on one CPU, waiting until its timeout."""

    weight: int = 2

    def strategy(self) -> SearchStrategy[Scenario]:
        return st.composite(self._draw)()

    def _draw(self, draw) -> Scenario:
        cpus = draw(st.sampled_from(("1", "2")))
        permit: dict = {"code": "Wait", "timeout": "10s"}
        if draw(st.booleans()):
            permit["then"] = {"signal": "allow", "after": "3s"}
        waiting = _scripted(_priority_pod("pod-0", "1", 100), {"Probe0": {"Permit": permit}})
        bound = (_priority_pod("running-0", "1", draw(st.sampled_from((100, 1000))), node="node-0"),) \
            if cpus == "2" else ()
        preemptor = _priority_pod("pod-1", "1", 1000)
        return Scenario(config=_CONFIG, nodes=(_node("node-0", cpus, "", "", ""),), pods=bound,
                        workload=(waiting,), timeline=({"when": 1, "op": "create", "object": preemptor},))


__all__ = ["DeletedOrRecreated", "PreemptedWhileWaiting"]
