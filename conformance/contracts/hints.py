"""Queueing hints lose no wake-up: an event after which the plugin would let its rejected pod through requeues it."""

from __future__ import annotations

from .base import ContractViolation, Property, register, run_checked
from .calls import Call, filtering, snapshot, verdicts
from .inputs import WithEvent, WithEvents, with_events


def _event_text(event: dict) -> str:
    obj = event.get("new") or event.get("old")
    return f"{event['kind']} {obj['metadata']['name']} {event['action']}" + (" (target)" if event.get("target") else "")


def _no_lost_wakeup(driver, examples: WithEvents) -> bool:
    """Every event of the example in one sequence: the verdicts before, then per event the verdicts after it and
    the queue's hint, both for the pod as the queue holds it after the event (the updated pod after its own
    update, which PriorityQueue.Update stores before it asks the hints). The verdicts before are asked alone
    first: most pods pass somewhere, and then no event needs trying."""
    pod = examples.input.pod
    calls: list[Call] = [snapshot(examples.input)]
    pre_before = filtering(driver.points, examples.input, pod, "before", calls)
    first_before = (pre_before if pre_before is not None else 0) + 1
    if any(verdicts(examples.input, calls, run_checked(driver, calls), pre_before, first_before).values()):
        return False  # the plugin did not reject the pod
    after_at = []
    for i, ex in enumerate(examples.events):
        calls.append(snapshot(ex.after))
        first_after_pre = len(calls)
        pre_after = filtering(driver.points, ex.after, ex.after.pod, f"after-{i}", calls)
        after_at.append((pre_after, (pre_after + 1) if pre_after is not None else first_after_pre, len(calls)))
        calls.append({"point": "hint", "pod": ex.after.pod, "event": ex.event})
    results = run_checked(driver, calls)
    before = verdicts(examples.input, calls, results, pre_before, first_before)
    if any(before.values()):
        return False  # the plugin did not reject the pod
    exercised = False
    for ex, (pre_after, first_after, hint_at) in zip(examples.events, after_at):
        after = verdicts(ex.after, calls, results, pre_after, first_after)
        if any(after.values()):
            exercised = True
            _check_hint(ex, pod, after, calls, results, hint_at)
    return exercised


def _check_hint(ex: WithEvent, pod: dict, after: dict, calls: list[Call], results: list, hint_at: int) -> None:
    hint = results[hint_at]["hint"]
    if not hint["queue"]:
        rejection = next((results[i]["code"] for i in range(len(results))
                          if calls[i]["point"] in ("preFilter", "filter") and calls[i]["state"] == "before"
                          and not results[i].get("skipped") and results[i].get("code") not in ("Success", "Skip")),
                         "its PreFilter result left out every node")
        accepted = ", ".join(n for n, ok in after.items() if ok)
        registered = ", ".join(hint["registered"]) or "no registration of the plugin matches them"
        raise ContractViolation(
            "queueing-hint-no-lost-wakeup",
            f"the plugin rejected {pod['metadata']['name']} ({rejection}) on every node; after the event "
            f"({_event_text(ex.event)}: cluster events {', '.join(hint['events'])}) its PreFilter/Filter accept it "
            f"on {accepted}, but the queue would not requeue it (matching registrations: {registered}; every hint "
            f"said QueueSkip): the pod waits for the 5-minute flush", calls, results)


register(Property(
    "queueing-hint-no-lost-wakeup", "for a pod the plugin rejected (Unschedulable or UnschedulableAndUnresolvable) "
    "and a node or assigned-pod event, or an update of the pod itself, after which the plugin's PreFilter/Filter "
    "accept it, the plugin registered that event (EventsToRegister) and its QueueingHintFn returns Queue",
    "staging/src/k8s.io/kube-scheduler/framework/interface.go EnqueueExtensions; pkg/scheduler/backend/queue/"
    "scheduling_queue.go isPodWorthRequeuing, Update (the pod's own update); pkg/scheduler/eventhandlers.go (the "
    "events of each change)",
    frozenset({"preFilter", "filter"}), with_events, _no_lost_wakeup))
