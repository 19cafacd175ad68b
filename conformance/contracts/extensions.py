"""PreFilterExtensions AddPod/RemovePod agree with PreFilter recomputed on the changed snapshot."""

from __future__ import annotations

from .base import ContractViolation, Property, brief, register, run_checked
from .calls import Call, Outcome, filtering, outcomes, snapshot
from .inputs import WithOther
from .inputs_objects import with_other_and_objects


def _incremental(driver, ex: WithOther, add: bool) -> bool:
    before, after = (ex.input, ex.with_other()) if add else (ex.with_other(), ex.input)
    point = "addPod" if add else "removePod"
    pod = ex.input.pod
    calls: list[Call] = [snapshot(before), {"point": "preFilter", "state": "a", "pod": pod}, snapshot(after),
                         {"point": point, "state": "a", "pod": pod, "other": ex.other, "node": ex.node, "when": 1}]
    first_incremental = len(calls)
    for name in after.node_names:
        calls.append({"point": "filter", "state": "a", "pod": pod, "node": name, "when": 1})
    fresh_pre = len(calls)
    filtering(driver.points, after, pod, "b", calls)
    results = run_checked(driver, calls)
    if results[1].get("code") != "Success" or results[3].get("skipped"):
        return False  # PreFilter rejected or skipped: the framework calls no extension
    if results[3].get("code") != "Success":
        raise ContractViolation("prefilter-extensions-consistent", f"{point}({ex.other['metadata']['name']} on "
                                f"{ex.node}) failed: {brief(results[3])}", calls, results)
    incremental = outcomes(after, calls, results, 1, first_incremental)
    fresh = outcomes(after, calls, results, fresh_pre, fresh_pre + 1)
    for name in after.node_names:
        if incremental[name] != fresh[name]:
            raise ContractViolation(
                "prefilter-extensions-consistent",
                f"after PreFilter and {point}({ex.other['metadata']['name']} on {ex.node}), Filter on node {name} "
                f"answers {_say(incremental[name])}; PreFilter recomputed on the snapshot with that pod "
                f"{'added' if add else 'removed'} answers {_say(fresh[name])}", calls, results)
    return True


def _say(outcome: Outcome) -> str:
    code, reasons = outcome
    return code + (f" {list(reasons)}" if reasons else "")


def _consistent(driver, ex: WithOther) -> bool:
    return _incremental(driver, ex, add=True) | _incremental(driver, ex, add=False)


register(Property(
    "prefilter-extensions-consistent", "PreFilter on a snapshot, then AddPod(p) / RemovePod(p), gives the same "
    "Filter answer (status code and reasons) on every node as PreFilter recomputed on the snapshot with p added / "
    "removed",
    "staging/src/k8s.io/kube-scheduler/framework/interface.go PreFilterExtensions; used by "
    "pkg/scheduler/schedule_one.go addGENominatedPods and framework/preemption SelectVictimsOnNode (the code "
    "decides whether preemption tries the node: UnschedulableAndUnresolvable nodes are no candidates; the reasons "
    "reach the FailedScheduling event)",
    frozenset({"preFilterExtensions"}), with_other_and_objects, _consistent))
