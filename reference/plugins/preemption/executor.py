"""Mirrors pkg/scheduler/framework/preemption/executor.go (the pod preemptor path).

SchedulerAsyncPreemption is on by default in v1.37.2: upstream's PostFilter returns Success as soon
as the candidate is chosen and a goroutine evicts the victims. The reference runs that goroutine's
work synchronously (`prepare_candidate_async`), so its effects are visible when PostFilter returns
and its errors, as upstream, never change PostFilter's result.
"""

from __future__ import annotations

import logging

from ...field_errors import aggregate
from ...interfaces import ClusterClient, Handle
from ...types import Pod
from .evaluator import Candidate

log = logging.getLogger(__name__)

# The status a waiting victim is preempted in memory with (PreemptPod: waitingPod.Preempt(pluginName, ...)).
PREEMPTED_MESSAGE = "preempted"


def lower_priority_nominated_pods(handle: Handle, priority: int, node_name: str) -> list[Pod]:
    """`getLowerPriorityNominatedPods`: pods nominated to `node_name` with a lower priority."""
    return [pi.pod for pi in handle.nominator.nominated_pods_for_node(node_name)
            if pi.pod.effective_priority < priority]


def clear_nominated_node_name(client: ClusterClient, pods: list[Pod]) -> str | None:
    """`clearNominatedNodeName` without an API cacher (SchedulerAsyncAPICalls is off by default): one
    status patch per pod that still names a node; the errors aggregated, or None."""
    errors = [err for pod in pods if pod.nominated_node_name and (err := client.clear_nominated_node_name(pod))]
    return aggregate(errors) if errors else None


def preempt_pod(handle: Handle, victim: Pod, plugin_name: str) -> tuple[bool, str | None]:
    """`Executor.PreemptPod`: reject a waiting victim in memory, else delete it via the client.

    Returns (preempted in memory, error). Pods in PreBind are not modelled (upstream cancels their
    binding first). A victim found gone (NotFound) is no error: "Victim Pod is already deleted"."""
    waiting = handle.get_waiting_pod(victim.effective_uid)
    if waiting is not None and waiting.preempt(plugin_name, PREEMPTED_MESSAGE):
        return True, None
    err = handle.client.add_disruption_target(victim)
    if err is None:
        err = handle.client.delete_pod(victim)
    if err == f'pods "{victim.name}" not found':
        return False, None  # "Victim Pod is already deleted": not an error
    return False, err


def prepare_candidate_async(handle: Handle, candidate: Candidate, preemptor: Pod, plugin_name: str) -> None:
    """`prepareCandidateAsync`, run to completion: skip victims already being deleted (and do nothing
    at all when none is left), clear lower-priority nominations on the node, then preempt each victim;
    after an error the preemptor is activated (`fh.Activate`), lest it wait in the unschedulable pool.
    Not modelled: the activation when the last victim was preempted in memory (a waiting pod)."""
    victims = [v for v in candidate.victims.pods if v.deletion_timestamp is None]
    if not victims:
        return
    faults = getattr(handle.client, "faults", None)  # a timeline fault may delete the first victim first
    if faults is not None:
        faults.reached("preempt", preemptor, candidate.name, victims[0])
    nominated = lower_priority_nominated_pods(handle, preemptor.effective_priority, candidate.name)
    err = clear_nominated_node_name(handle.client, nominated)
    failed = bool(err)
    if err:
        log.warning("Cannot clear 'NominatedNodeName' field from lower priority pods on the same target node: %s",
                    err)
    # Upstream evicts all but the last victim in parallel and skips the last one after an error.
    for victim in victims[:-1]:
        _, err = preempt_pod(handle, victim, plugin_name)
        if err:
            log.warning("Error occurred during async preemption: %s", err)
            handle.activate([preemptor])
            return
    _, err = preempt_pod(handle, victims[-1], plugin_name)
    if err or failed:
        handle.activate([preemptor])
