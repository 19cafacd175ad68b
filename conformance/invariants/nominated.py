"""Nominated pods while filtering: each Filter pass on a node first adds the nominated pods of at least the
pod's priority through the PreFilter plugins' AddPod, and only those.

The trace shows a nomination only where a probe's PostFilter made it (`nominate`); it stands until the
nominated pod's next cycle (assume deletes it, a later failure may replace it), so a pod filtered in
between sees it. Runs where something else could have ended it are not judged: a timeline event or a
fault (the pod gone, the scheduler restarted), or DefaultPreemption, which clears the nominations of
lower-priority pods on the node it preempts on.
"""

from __future__ import annotations

from ..recipes.first_pod import nominated_first
from ..recipes.situations import Situation
from reference.probe import PROBE_NAMES

from .base import invariant
from .filtering import filtering_phase, skipped_at_prefilter
from .run import Record, Run


def _nominations(run: Run) -> list[tuple[str, str, int, int]]:
    """(pod, node, seq of the nominating PostFilter record, seq of its next record that is not PreEnqueue,
    or infinity) for each nomination a probe's PostFilter made with a Success (which ends the PostFilter
    loop), of pods whose every cycle starts with a probe's PreFilter record (so none is invisible)."""
    out = []
    for pod in run.pods:
        if not run.probes_at(pod, "preFilter"):
            continue
        records = [r for r in run.outcome.calls(pod=pod) if "plugin" in r and r.get("point") != "PreEnqueue"]
        for i, r in enumerate(records):
            if r["point"] == "PostFilter" and r.get("nominate") and r.get("code") == "Success":
                until = records[i + 1]["seq"] if i + 1 < len(records) else float("inf")
                out.append((pod, r["nominate"], r["seq"], until))
    return out


def nominated_on(run: Run, pod: str, node: str, seq: int) -> list[str]:
    """The pods (not `pod`, of at least its priority) a probe surely kept nominated to `node` at `seq`."""
    priority = run.pod_objects[pod].effective_priority
    return [n for n, where, since, until in _nominations(run) if where == node and n != pod
            and since < seq < until and run.pod_objects[n].effective_priority >= priority]


_NOMINATED_FIRST = Situation({p: ["Probe0"] for p in ("preFilter", "filter", "postFilter", "reserve")},
                             nominated_first, min_pods=2, weight=2)


@invariant("nominated-pods-added",
           "Filtering a node that holds a pod nominated there of at least the pod's priority calls AddPod on "
           "every PreFilter plugin that did not skip, before that node's Filter plugins.",
           "framework.go RunFilterPluginsWithNominatedPods, addGENominatedPods, RunPreFilterExtensionAddPod "
           "(spec §2.4, §2.5)",
           situation=_NOMINATED_FIRST,
           focus={"points": ("PreFilter", "Filter", "PostFilter", "AddPod", "RemovePod")},
           rules=("add-remove-pod-skip", "extensions-in-their-phase"))
def nominated_pods_added(run: Run) -> None:
    if run.outcome.timeline or run.outcome.faults or any(
            "DefaultPreemption" in run.plugins_at(k, "postFilter") for k in run.pods):
        return
    for pod in run.live_pods:
        for attempt in run.attempts(pod):
            phase = filtering_phase(run, pod, attempt)
            if not phase:
                continue
            prefilter = run.records(pod, attempt, "PreFilter")
            skipped = skipped_at_prefilter(run, pod, attempt)
            expected = [p for p in run.probes_at(pod, "preFilter") if p not in skipped
                        and any(r["plugin"] == p and r.get("code") == "Success" for r in prefilter)]
            first: dict[str, Record] = {}
            for r in phase:
                first.setdefault(r["node"], r)
            for node, r in first.items():
                nominated = nominated_on(run, pod, node, r["seq"])
                if nominated and expected:
                    _check_added(run, pod, attempt, node, nominated, expected, r)


def _check_added(run: Run, pod: str, attempt: int, node: str, nominated: list[str], expected: list[str],
                 filtered: Record) -> None:
    run.exercise()
    added = {r["plugin"] for r in run.records(pod, attempt, "AddPod") if r.get("node") == node
             and r["seq"] < filtered["seq"]}
    missing = [p for p in expected if p not in added]
    if missing:
        raise run.violation(f"node {node} was filtered (attempt {attempt}) while {nominated[0]} was "
                            f"nominated there, but {missing[0]}'s AddPod was not called first", pod=pod,
                            plugin=missing[0],
                            expected=f"AddPod on {node} by {', '.join(expected)}",
                            actual=f"AddPod by {', '.join(sorted(added)) or 'none'}", records=(filtered,))


# Points where a probe's answer may nominate its pod to the chosen node for expectation (nnn-for-expectation).
_EXPECTING = ("Permit", "PreBindPreFlight")


def _possible_nominations(run: Run) -> dict[str, list[tuple[str, int]]] | None:
    """Node -> (pod, priority) of every pod that may be nominated there at some point of the run: created or
    ended nominated, nominated by a probe's PostFilter, or nominated for expectation at a probe's Permit or
    PreBindPreFlight; None where a nomination may not show in the trace (a plugin at PostFilter, Permit or
    PreBind that is not a probe, e.g. DefaultPreemption, which also calls AddPod itself; a fault)."""
    if run.outcome.faults or any(p not in PROBE_NAMES for k in run.pods
                                 for point in ("postFilter", "permit", "preBind")
                                 for p in run.plugins_at(k, point)):
        return None
    out: dict[str, list[tuple[str, int]]] = {}
    for pod, obj in run.pod_objects.items():
        result = run.outcome.pods.get(pod)
        nodes = {obj.nominated_node_name, result.nominated_node_name if result else ""}
        for r in run.records(pod):
            if r.get("point") == "PostFilter":
                nodes.add(r.get("nominate") or "")
            elif r.get("point") in _EXPECTING:
                nodes.add(r.get("node") or "")
        for node in nodes - {""}:
            out.setdefault(node, []).append((pod, obj.effective_priority))
    return out


@invariant("lower-priority-nominations-ignored",
           "Filtering adds only the pods nominated to a node of at least the pod's priority: AddPod is not "
           "called on a node where no such pod may be nominated.",
           "framework.go addGENominatedPods (`GetPodPriority(pi.GetPod()) >= GetPodPriority(pod)`), "
           "RunFilterPluginsWithNominatedPods (spec §2.4, §2.5)",
           situation=_NOMINATED_FIRST,
           focus={"points": ("PreFilter", "Filter", "PostFilter", "AddPod", "RemovePod")},
           rules=("nominated-pods-two-passes",))
def lower_priority_nominations_ignored(run: Run) -> None:
    nominations = _possible_nominations(run)
    if nominations is None:
        return
    for pod in run.pods:
        priority = run.pod_objects[pod].effective_priority
        filtered = {r.get("node") for r in run.outcome.calls(pod=pod, point="Filter")}
        if any(p < priority for node in filtered for n, p in nominations.get(node, ()) if n != pod):
            run.exercise()  # filtered a node where only a lower-priority pod may be nominated
        for r in run.outcome.calls(pod=pod, point="AddPod"):
            if "plugin" not in r:
                continue
            others = [(n, p) for n, p in nominations.get(r.get("node"), ()) if n != pod]
            if not any(p >= priority for _, p in others):
                lower = f" (only {others[0][0]}, priority {others[0][1]})" if others else ""
                raise run.violation(f"AddPod was called on {r.get('node')} (attempt {r.get('attempt')}) "
                                    f"where no pod of at least priority {priority} may be nominated{lower}",
                                    pod=pod, plugin=r["plugin"], records=(r,))
