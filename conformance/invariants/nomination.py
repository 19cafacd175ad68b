"""The nomination a failed attempt leaves: PostFilter's result, kept on a nil one, cleared by any other failure.

Read from schedule_one.go rather than the spec: `schedulingAlgorithm` hands `handleSchedulingFailure` PostFilter's
NominatingInfo after a FitError (nil when PostFilter returned no result) and `clearNominatedNode` on every other
failure; `updatePod` patches `status.nominatedNodeName` only in Override mode.
"""

from __future__ import annotations

from reference.probe import PROBE_NAMES

from ..recipes.first_pod import REJECT, Draw, Script, pick
from ..recipes.situations import Situation
from .attempts import traced_from_start
from .base import invariant
from .run import Record, Run

_KEEP = object()  # a nil PostFilter result: the nomination stays what it was


def postfilter_nomination(records: list[Record]) -> object:
    """What `RunPostFilterPlugins` returns as the nomination, from the attempt's PostFilter records in order:
    the first Success or UnschedulableAndUnresolvable plugin's result, nothing after an Error, else the last
    rejecting plugin's non-noop result; `_KEEP` for a nil result."""
    remembered: object = _KEEP
    for r in records:
        code, nominate = r.get("code"), r.get("nominate")
        if code in ("Success", "UnschedulableAndUnresolvable"):
            return _KEEP if nominate is None else nominate
        if code not in ("Unschedulable", "Pending"):
            return _KEEP  # an Error: upstream returns a nil result
        if nominate is not None:
            remembered = nominate
    return remembered


def expected_nomination(run: Run, pod: str) -> str:
    """The nomination the pod's attempts leave, all of them failed: PostFilter's (or kept), else cleared."""
    nominated = run.pod_objects[pod].nominated_node_name
    for attempt in (a for a in run.attempts(pod) if a > 0):
        postfilter = [r for r in run.probe_records(pod, attempt) if r["point"] == "PostFilter"]
        if not postfilter:
            nominated = ""  # clearNominatedNode: an error, no PostFilter plugins, Reserve/Permit/binding failure
            continue
        result = postfilter_nomination(postfilter)
        nominated = nominated if result is _KEEP else str(result)
    return nominated


def nominations(draw: Draw, nodes) -> tuple[Script, Script]:
    """Every node filtered out, then per attempt a PostFilter answer that nominates, or not, with any code;
    the second attempt (after another pod's binding wakes it) may fail with an error instead."""
    answers = [{"code": "Success", "nominate": pick(draw, nodes)}, {"code": "Error", "nominate": nodes[0]},
               {"code": "Unschedulable", "nominate": pick(draw, nodes)}, {"code": "Unschedulable"},
               {"code": "Success"}]
    script: dict = {"Probe0": {"Filter": {"code": pick(draw, REJECT)},
                               "PostFilter": [pick(draw, answers[:3]), pick(draw, answers)]}}
    if pick(draw, (False, True)):
        script["Probe0"]["PreFilter"] = [{}, {"code": "Error"}]
    return script, {}


@invariant("nomination-after-failure",
           "A pod whose attempts all failed is nominated as its last PostFilter result said (the first Success or "
           "UnschedulableAndUnresolvable plugin's nomination, else the last rejecting plugin's), keeps the "
           "nomination it had when PostFilter returned none (nothing found, or an Error), and has none after any "
           "other failure (an error, no PostFilter plugins, a Reserve, Permit or binding failure).",
           "schedule_one.go schedulingAlgorithm (PostFilter's NominatingInfo, else clearNominatedNode), "
           "handleSchedulingFailure / updatePod (ModeOverride only); framework.go RunPostFilterPlugins",
           requires=("probes", "virtual-time"),
           situation=Situation({"preFilter": ["Probe0"], "filter": ["Probe0"], "postFilter": ["Probe0"]},
                               nominations, min_nodes=2, min_pods=2),
           rules=("postfilter-nomination", "nomination-cleared-on-failure"))
def nomination_after_failure(run: Run) -> None:
    if run.outcome.faults or run.outcome.deleted:
        return  # a failed status patch keeps the old nomination; preemption nominates outside the trace
    for pod in run.live_pods:
        result = run.outcome.pods.get(pod)
        if result is None or result.phase not in ("unschedulable", "error") or not result.condition:
            continue
        if not traced_from_start(run, pod) or any(p not in PROBE_NAMES for p in run.plugins_at(pod, "postFilter")):
            continue
        run.exercise()
        want = expected_nomination(run, pod)
        if result.nominated_node_name != want:
            last = run.attempts(pod)[-1]
            raise run.violation(f"after attempt {last} the pod's nominatedNodeName is "
                                f"{result.nominated_node_name!r}, not what its PostFilter results and failures left",
                                pod=pod, expected=want, actual=result.nominated_node_name,
                                records=tuple(run.probe_records(pod, last)[-4:]))
