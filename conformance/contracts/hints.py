"""Queueing hints lose no wake-up: an event after which the plugin would let its rejected pod through requeues it."""

from __future__ import annotations

from .base import ContractViolation, Property, register, run_checked
from .calls import Call, filtering, snapshot, verdicts
from .inputs import WithEvent, WithEvents, with_events


def _event_text(event: dict) -> str:
    obj = event.get("new") or event.get("old")
    return f"{event['kind']} {obj['metadata']['name']} {event['action']}" + (" (target)" if event.get("target") else "")


def _followers(ex: WithEvent) -> list[dict]:
    """The events a change brings after it: a deleted node's pods are deleted by the pod garbage collector
    (pkg/controller/podgc gcOrphaned), each an AssignedPod/Delete. Upstream's plugins rely on them rather than
    register Node/Delete (InterPodAffinity, PodTopologySpread): the scheduler's snapshot leaves the node's pods out
    at once, but a hint on their deletion requeues the pod well within the 5-minute flush."""
    event = ex.event
    if (event["kind"], event["action"]) != ("node", "delete"):
        return []
    name = event["old"]["metadata"]["name"]
    return [{"kind": "pod", "action": "delete", "old": p} for p in ex.input.pods if p["spec"].get("nodeName") == name]


def _no_lost_wakeup(driver, examples: WithEvents) -> bool:
    """Every event of the example in one sequence: the verdicts before, then per event the verdicts after it and
    the queue's hint, both for the pod as the queue holds it after the event (the updated pod after its own
    update, which PriorityQueue.Update stores before it asks the hints). The verdicts before are asked alone
    first: most pods pass everywhere, and then no event needs trying.

    The plugin need not reject the pod everywhere: upstream lists it among the pod's unschedulable plugins when it
    rejected one node (the other plugins rejected the rest), and then only its hint can requeue the pod for an
    event that lets the pod through there. So a node the plugin accepts after the event and did not before (or
    that is new) must bring Queue."""
    pod = examples.input.pod
    calls: list[Call] = [snapshot(examples.input)]
    pre_before = filtering(driver.points, examples.input, pod, "before", calls)
    first_before = (pre_before if pre_before is not None else 0) + 1
    if all(verdicts(examples.input, calls, run_checked(driver, calls), pre_before, first_before).values()):
        return False  # the plugin rejected the pod nowhere: it is none of its unschedulable plugins
    after_at = []
    for i, ex in enumerate(examples.events):
        calls.append(snapshot(ex.after))
        first_after_pre = len(calls)
        pre_after = filtering(driver.points, ex.after, ex.after.pod, f"after-{i}", calls)
        hints = [ex.event] + _followers(ex)
        after_at.append((pre_after, (pre_after + 1) if pre_after is not None else first_after_pre,
                         range(len(calls), len(calls) + len(hints))))
        calls += [{"point": "hint", "pod": ex.after.pod, "event": event} for event in hints]
    results = run_checked(driver, calls)
    before = verdicts(examples.input, calls, results, pre_before, first_before)
    if all(before.values()):
        return False
    exercised = False
    for ex, (pre_after, first_after, hint_at) in zip(examples.events, after_at):
        after = verdicts(ex.after, calls, results, pre_after, first_after)
        opened = [n for n, ok in after.items() if ok and not before.get(n, False)]
        if opened:
            exercised = True
            _check_hint(ex, pod, before, opened, calls, results, hint_at)
    return exercised


def _check_hint(ex: WithEvent, pod: dict, before: dict[str, bool], opened: list[str], calls: list[Call],
                results: list, hint_at: range) -> None:
    hint, followers = results[hint_at[0]]["hint"], [results[i]["hint"] for i in hint_at[1:]]
    if hint["queue"] or any(f["queue"] for f in followers):
        return
    rejection = next((results[i]["code"] for i in range(len(results))
                      if calls[i]["point"] in ("preFilter", "filter") and calls[i]["state"] == "before"
                      and not results[i].get("skipped") and results[i].get("code") not in ("Success", "Skip")),
                     "its PreFilter result left out the node")
    name = pod["metadata"]["name"]
    passed = [n for n, ok in before.items() if ok]
    rejected = "on every node" if not passed else \
        f"on {', '.join(n for n, ok in before.items() if not ok)} and let it through on {', '.join(passed)}"
    stays = "" if not passed else f"where the other plugins reject {', '.join(passed)} (a nodeSelector, a taint), "
    registered = ", ".join(hint["registered"]) or "no registration of the plugin matches them"
    raise ContractViolation(
        "queueing-hint-no-lost-wakeup",
        f"the plugin rejected {name} ({rejection}) {rejected}; after the event ({_event_text(ex.event)}: cluster "
        f"events {', '.join(hint['events'])}) its PreFilter/Filter accept it on {', '.join(opened)}, but the queue "
        f"would not requeue it (matching registrations: {registered}; every hint said QueueSkip"
        f"{_say_followers(followers)}): {stays}the pod waits for the 5-minute flush", calls, results)


def _say_followers(followers: list[dict]) -> str:
    if not followers:
        return ""
    events = sorted({e for f in followers for e in f["events"]})
    return f"; nor does any for the deletions of its {len(followers)} pod(s) that follow ({', '.join(events)})"


register(Property(
    "queueing-hint-no-lost-wakeup", "for a pod the plugin rejected (Unschedulable or UnschedulableAndUnresolvable) "
    "on some node and a node or assigned-pod event, or an update of the pod itself, after which the plugin's "
    "PreFilter/Filter accept it on a node they did not accept it on before, the plugin registered that event "
    "(EventsToRegister) and its QueueingHintFn returns Queue (for a node deleted, the deletions of its pods that "
    "follow count too)",
    "staging/src/k8s.io/kube-scheduler/framework/interface.go EnqueueExtensions; pkg/scheduler/backend/queue/"
    "scheduling_queue.go isPodWorthRequeuing, Update (the pod's own update); pkg/scheduler/eventhandlers.go (the "
    "events of each change); pkg/controller/podgc gcOrphaned (a deleted node's pods are deleted after it)",
    frozenset({"preFilter", "filter"}), with_events, _no_lost_wakeup))
