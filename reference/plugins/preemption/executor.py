"""Mirrors pkg/scheduler/framework/preemption/executor.go (the pod preemptor path).

SchedulerAsyncPreemption is on by default in v1.37.1: upstream's PostFilter returns Success as soon
as the candidate is chosen and a goroutine evicts the victims. The reference runs that goroutine's
work synchronously (`prepare_candidate_async`), so its effects are visible when PostFilter returns
and its errors, as upstream, never change PostFilter's result.
"""

from __future__ import annotations

import logging
from typing import Any

from ...types import Pod
from .evaluator import Candidate

log = logging.getLogger(__name__)


def lower_priority_nominated_pods(handle: Any, priority: int, node_name: str) -> list[Pod]:
    """`getLowerPriorityNominatedPods`: pods nominated to `node_name` with a lower priority."""
    nominator = getattr(handle, "nominator", None)
    if nominator is None:
        return []
    return [pi.pod for pi in nominator.nominated_pods_for_node(node_name) if pi.pod.effective_priority < priority]


def preempt_pod(handle: Any, victim: Pod, plugin_name: str) -> tuple[bool, str | None]:
    """`Executor.PreemptPod`: reject a waiting victim in memory, else delete it via the client.

    Returns (preempted in memory, error). Pods in PreBind are not modelled (upstream cancels their
    binding first). The DisruptionTarget condition patch before deletion is not modelled either."""
    waiting = handle.get_waiting_pod(victim.effective_uid)
    if waiting is not None and waiting.preempt(plugin_name, "preempted"):
        return True, None
    err = handle.client.delete_pod(victim)
    return False, err


def prepare_candidate_async(handle: Any, candidate: Candidate, preemptor: Pod, plugin_name: str) -> None:
    """`prepareCandidateAsync`, run to completion: skip victims already being deleted (and do nothing
    at all when none is left), clear lower-priority nominations on the node, then preempt each victim.

    ClusterClient has no pod-status patch yet: nominations are cleared only when the client offers
    `clear_nominated_node_name(pod)`."""
    victims = [v for v in candidate.victims.pods if v.deletion_timestamp is None]
    if not victims:
        return
    clear = getattr(handle.client, "clear_nominated_node_name", None)
    if clear is not None:
        for pod in lower_priority_nominated_pods(handle, preemptor.effective_priority, candidate.name):
            err = clear(pod)
            if err:
                log.warning("Cannot clear 'NominatedNodeName' field from lower priority pods: %s", err)
    # Upstream evicts all but the last victim in parallel and skips the last one after an error.
    for victim in victims[:-1]:
        _, err = preempt_pod(handle, victim, plugin_name)
        if err:
            log.warning("Error occurred during async preemption: %s", err)
            return
    preempt_pod(handle, victims[-1], plugin_name)
