"""Nominated pods while filtering: each Filter pass on a node first adds the nominated pods of at least the
pod's priority through the PreFilter plugins' AddPod.

The trace shows a nomination only where a probe's PostFilter made it (`nominate`); it stands until the
nominated pod's next cycle (assume deletes it, a later failure may replace it), so a pod filtered in
between sees it. Runs where something else could have ended it are not judged: a timeline event or a
fault (the pod gone, the scheduler restarted), or DefaultPreemption, which clears the nominations of
lower-priority pods on the node it preempts on.
"""

from __future__ import annotations

from ..recipes.first_pod import nominated_first
from ..recipes.situations import Situation
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


@invariant("nominated-pods-added",
           "Filtering a node that holds a pod nominated there of at least the pod's priority calls AddPod on "
           "every PreFilter plugin that did not skip, before that node's Filter plugins.",
           "framework.go RunFilterPluginsWithNominatedPods, addGENominatedPods, RunPreFilterExtensionAddPod "
           "(spec §2.4, §2.5)",
           situation=Situation(
               {p: ["Probe0"] for p in ("preFilter", "filter", "postFilter", "reserve")}, nominated_first,
               min_pods=2, weight=2),
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
