"""Preemption re-activates its preemptor when an eviction fails: the preemptor retries at once, without
waiting for a cluster event (its victims are all still there)."""

from __future__ import annotations

from reference.faults import OPS

from ..recipes.faults import EvictionFails
from .base import invariant
from .faults import fired
from .liveness import REFERENCE_MAX_ATTEMPTS
from .preemption import known_pods, preempted_on, victim_node
from .run import Run


@invariant("preemptor-reactivated",
           "When preemption's deletion of a victim fails (a `fail evict` fault), the preemptor is activated: "
           "a preemptor left unbound makes more attempts than there were failed deletions on its node.",
           "preemption/executor.go prepareCandidateAsync (Activate on an error); scheduling_queue.go "
           "Activate, its ForceActivate event for a pod in flight (spec §2.6, §6.4)",
           requires=("queue-attempts", "virtual-time"), situation=EvictionFails(), rules=("activate",))
def preemptor_reactivated(run: Run) -> None:
    firings = fired(run)
    events = [run.scenario.timeline[e["index"]] for e in run.outcome.timeline
              if isinstance(e.get("index"), int) and 0 <= e["index"] < len(run.scenario.timeline)]
    if not firings or any(e.get("op") not in OPS for e in events) or any(
            (f.get("fault"), f.get("detail")) != ("fail", "evict") for f in firings):
        return  # an event, or another fault, may have let the preemptor in or held it
    pods = known_pods(run)
    for firing in firings:
        victim = pods.get(str(firing.get("pod")))
        node = victim_node(run, victim) if victim is not None else ""
        preemptors = [p for p in run.pod_objects if node and node in preempted_on(run, p)]
        if len(preemptors) != 1:
            continue  # whose preemption failed is not known
        pod = preemptors[0]
        result = run.outcome.pods.get(pod)
        if result is None or result.phase == "bound" or result.attempts >= REFERENCE_MAX_ATTEMPTS:
            continue  # (the reference gives a pod up after that many attempts)
        run.exercise()
        failed = sum(1 for f in firings if pods.get(str(f.get("pod"))) is not None
                     and victim_node(run, pods[str(f.get("pod"))]) == node)
        if result.attempts <= failed:
            raise run.violation(f"{pod}'s preemption on {node} failed to delete {firing.get('pod')} "
                                f"{failed} time(s), but the preemptor made only {result.attempts} attempt(s) "
                                "and was left " + result.phase, pod=pod, plugin="DefaultPreemption",
                                expected=f"more than {failed} attempts (re-activated after each failed "
                                         "deletion)", actual=result.attempts)
