"""The fault rules' mutants in the matrix (issue 31 leftovers): test_faults.py's broken schedulers given
witnesses here, and the "too much" direction of each fault rule: Unreserve where the binding did not fail or
twice, room freed that a pod still held."""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from reference.nodeinfo import Snapshot
from reference.scenario import Scenario
from reference.scheduler.scheduler import Scheduler

from .invariants._kit import node, pod, scenario
from .invariants.test_faults import (RESERVE_PROBES, drops_pod_after_failed_binding, fail_bind,
                                     keeps_failed_binding_assumed, no_unreserve_on_failed_binding)
from .rule_mutants import RuleMutant


def _unreserve_after_binding(sched: Scheduler) -> None:
    """A binding that went through also runs Unreserve, as if it had failed (the reservation is dropped
    under a bound pod)."""
    bind = sched._bind

    def bind_then_unreserve(fw, state, p, host):
        status = bind(fw, state, p, host)
        if status.is_success():
            fw.run_reserve_plugins_unreserve(state, p, host)
        return status
    sched._bind = bind_then_unreserve


def _unreserve_twice_on_failed_binding(sched: Scheduler) -> None:
    """A failed binding runs every Unreserve twice (a plugin frees its reservation two times)."""
    handle = sched._handle_binding_failure

    def twice(fw, state, qpi, p, host, failure):
        fw.run_reserve_plugins_unreserve(state, p, host)
        handle(fw, state, qpi, p, host, failure)
    sched._handle_binding_failure = twice


def _failed_binding_frees_bound_pods(sched: Scheduler) -> None:
    """A failed binding's ForgetPod drops every bound pod from the cache too: the room they still hold is
    offered to the next cycles (until the scheduler restarts)."""
    handle, snapshot = sched._handle_binding_failure, sched._snapshot
    forgotten: set[str] = set()

    def forget_all(fw, state, qpi, p, host, failure):
        forgotten.update(uid for uid, stored in sched.store.pods.items() if stored.node_name)
        handle(fw, state, qpi, p, host, failure)
    sched._handle_binding_failure = forget_all
    sched._snapshot = lambda: _without(snapshot(), forgotten, sched)


def _without(snap: Snapshot, uids: set[str], sched: Scheduler) -> Snapshot:
    if not uids:
        return snap
    pods = [p for p in sched.store.pods.values() if p.node_name and p.effective_uid not in uids]
    pods += [p for uid, p in sched.assumed.items() if not sched.store.pods.get(uid, p).node_name]
    return Snapshot(sched.store.nodes.values(), pods, sched.store.namespace_labels())


FAULT_MUTANTS: list[RuleMutant] = [
    RuleMutant("no-unreserve-on-failed-binding", no_unreserve_on_failed_binding),
    RuleMutant("keeps-failed-binding-assumed", keeps_failed_binding_assumed),
    RuleMutant("drops-pod-after-failed-binding", drops_pod_after_failed_binding),
    RuleMutant("unreserve-after-binding", _unreserve_after_binding),
    RuleMutant("unreserve-twice-on-failed-binding", _unreserve_twice_on_failed_binding),
    RuleMutant("failed-binding-frees-bound-pods", _failed_binding_frees_bound_pods),
]


def _faulted(*timeline: dict, workload=(pod("pod-0", cpu="100m"),), nodes=(node(),), cfg=None,
             bound=()) -> Callable[[], Scenario]:
    return lambda: replace(scenario(workload, nodes=nodes, cfg=cfg, bound=bound), timeline=timeline)


FAULT_WITNESSES: dict[str, Callable[[], Scenario]] = {
    "no-unreserve-on-failed-binding": _faulted(fail_bind(pod="pod-0"), cfg=RESERVE_PROBES),
    "keeps-failed-binding-assumed": _faulted(fail_bind(pod="pod-0")),
    "drops-pod-after-failed-binding": _faulted(fail_bind(pod="pod-0")),
    # An internal error is retried (util.BindPod) and the second try binds: no Unreserve is owed.
    "unreserve-after-binding": _faulted(fail_bind("internal", pod="pod-0"), cfg=RESERVE_PROBES),
    "unreserve-twice-on-failed-binding": _faulted(fail_bind(pod="pod-0"), cfg=RESERVE_PROBES),
    # pod-0 does not fit next to running-0 on node-0, so it goes to node-1, whose binding fails; with
    # running-0's room freed the retry prefers the emptier node-0, which cannot hold both.
    "failed-binding-frees-bound-pods": _faulted(
        fail_bind(pod="pod-0"), workload=(pod("pod-0", cpu="3"),),
        nodes=(node("node-0", cpu="8"), node("node-1")), bound=(pod("running-0", cpu="6", on="node-0"),)),
}

__all__ = ["FAULT_MUTANTS", "FAULT_WITNESSES"]
