"""Bind, PostBind, and what a binding may do to the cluster."""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from reference.resources import pod_requests

from ..recipes.constrained import Constrained
from ..recipes.first_pod import pick
from ..recipes.situations import Situation
from .base import invariant
from .judge import Judge
from .run import Run, first_stop_passed


@invariant("bind-first-non-skip", "Bind stops at the first plugin that does not return Skip.",
           "framework.go RunBindPlugins (spec §2.16)",
           situation=Situation(
               {"bind": ["Probe0", "Probe1"]},
               lambda draw, nodes: ({"Probe0": {"Bind": {"code": pick(draw, ("Success", "Skip", "Error"))}},
                                     "Probe1": {"Bind": {"code": pick(draw, ("Success", "Skip", "Error"))}}}, {})),
           rules=("code-matrix-binding", "bind-first-non-skip"))
def bind_first_non_skip(run: Run) -> None:
    for pod in run.live_pods:
        for attempt in run.attempts(pod):
            records = run.records(pod, attempt, "Bind")
            plugins = run.plugins_at(pod, "bind")
            if any(r.get("code") != "Skip" and r["plugin"] in plugins[:-1] for r in records):
                run.exercise()  # a later Bind plugin was configured
            i = first_stop_passed(records, lambda code: code != "Skip")
            if i is not None:
                raise run.violation("a Bind plugin ran after an earlier one did not Skip",
                                    pod=pod, plugin=records[i + 1]["plugin"], status=records[i].get("code"),
                                    actual=[(x["plugin"], x.get("code")) for x in records], records=tuple(records))


@invariant("extender-binder-first",
           "An interested, non-ignorable binder extender binds instead of the Bind plugins.",
           "schedule_one.go bind / extendersBinding (spec §2.16, §4.5)", requires=("probes", "extenders"),
           situation=Situation(
               {"preFilter": ["Probe0"], "bind": ["Probe0"]},
               lambda draw, nodes: ({"Probe0": {"Bind": {"code": pick(draw, ("Skip", "Success", "Error"))}}}, {}),
               extenders=({"bindVerb": "bind", "filterVerb": "filter"},)),
           focus={"points": ("PreFilter", "Bind"), "extenders": 1},
           rules=("extender-binds-first",))
def extender_binder_first(run: Run) -> None:
    binders = [e for e in run.config.extenders if e.bind_verb and not e.ignorable and not e.managed_resources]
    if not binders:
        return
    for pod in run.live_pods:
        if run.bound_in(pod) or run.extender_records(pod, "bind"):
            run.exercise()
        plugin_binds = run.outcome.calls(pod=pod, point="Bind")
        if plugin_binds:
            raise run.violation("Bind plugins ran although a binder extender is configured",
                                pod=pod, plugin=plugin_binds[0]["plugin"], records=tuple(plugin_binds))


@invariant("postbind-iff-bound",
           "PostBind runs exactly once per PostBind plugin, in order, iff the attempt bound the pod.",
           "schedule_one.go bindingCycle; framework.go RunPostBindPlugins (spec §2.17)",
           situation=Situation(
               {"bind": ["Probe0"], "postBind": ["Probe1"]},
               lambda draw, nodes: ({"Probe0": {"Bind": {"code": pick(draw, ("Error", "Unschedulable", "Success",
                                                                              "Skip"))}}}, {})),
           rules=("postbind-iff-bound",))
def postbind_iff_bound(run: Run) -> None:
    for pod in run.live_pods:
        for attempt in run.attempts(pod):
            post = [r["plugin"] for r in run.records(pod, attempt, "PostBind")]
            expected = run.probes_at(pod, "postBind") if run.final_attempt_bound(pod, attempt) else []
            if run.probes_at(pod, "postBind") and (expected or run.records(pod, attempt, "Bind")
                                                  or run.records(pod, attempt, "PreBind")):
                run.exercise()  # the attempt reached binding
            if post != expected:
                what = "PostBind ran although the attempt did not bind" if not expected else \
                    "PostBind did not run exactly once per plugin after the binding"
                raise run.violation(f"{what} (attempt {attempt})", pod=pod,
                                    expected=expected, actual=post, records=tuple(run.probe_records(pod, attempt)[-8:]))


@invariant("bound-at-most-once",
           "A pod is bound at most once, across failed bindings and scheduler restarts (timeline faults); a pod "
           "the timeline deletes and creates again is a new pod.",
           "schedule_one.go assume/bind (spec §2.11); after a restart the informers list bound pods as assigned "
           "(eventhandlers.go addPod: to the cache, not the queue); registry/core/pod/storage BindingREST refuses "
           "a second binding",
           requires=(),
           focus={"points": ("PreFilter", "Bind")},
           rules=("assume-before-reserve", "bound-once"))
def bound_at_most_once(run: Run) -> None:
    if run.outcome.bindings:
        run.exercise()
    created: dict[str, list[float]] = {}  # pod -> when the timeline created it (again)
    for k, event in enumerate(run.cluster.applied if run.outcome.timeline else ()):
        if event.kind == "Pod" and event.op == "create":
            created.setdefault(event.key, []).append(run.cluster.times[k + 1])
    last: dict[str, Mapping[str, Any]] = {}
    for b in run.outcome.bindings:
        pod, before = b["pod"], last.get(b["pod"])
        if before is not None and not any(before.get("t", 0.0) <= t <= b.get("t", 0.0)
                                          for t in created.get(pod, ())):
            bound = tuple(x for x in run.outcome.bindings if x["pod"] == pod)
            raise run.violation(f"the pod was bound {len(bound)} times", pod=pod, expected=1, actual=len(bound),
                                records=bound)
        last[pod] = b


@invariant("capacity-respected",
           "With NodeResourcesFit filtering, no node holds more than its allocatable resources or pod count, "
           "requests summed as upstream sums them (containers, init containers, sidecars, overhead).",
           "noderesources/fit.go fitsRequest; component-helpers resource.PodRequests (spec §8.1, §8.2)",
           requires=(),
           situation=Constrained("resources"),
           focus={"probes": 0, "default_plugins": True, "max_pods": 6},
           rules=("chosen-node-feasible", "assume-before-reserve", "capacity"))
def capacity_respected(run: Run) -> None:
    judge = Judge.of(run)
    if judge is None:
        return
    by_node: dict[str, list[str]] = {}
    for key, node in judge.placed.items():
        if judge.judgeable(key) and judge.filter_plugin(key, "NodeResourcesFit") is not None:
            by_node.setdefault(node, []).append(key)
            run.exercise()
    for node, keys in by_node.items():
        base = [p for p in judge.definite if p.node_name == node]
        used = Counter()
        for p in base:
            used.update(_requests(p))
        for k in keys:
            used.update(_requests(run.pod_objects[k]))
        allocatable = judge.nodes[node].allocatable
        over = [r for r, v in used.items() if v > allocatable.get(r, 0)]
        # The last pod scheduled of a group saw the others: try each resource's requesters, then each pod alone.
        groups = [[k for k in keys if _requests(run.pod_objects[k]).get(r)] for r in over] + [[k] for k in keys]
        for group in (g for g in groups if g):
            statuses = judge.group_rejected("NodeResourcesFit", group, None if judge.changed else base)
            if statuses:
                last = group[-1]
                raise run.violation(f"node {node} is over its allocatable "
                                    f"{', '.join(over) or 'resources'}: {', '.join(group)} cannot all fit next to "
                                    f"{', '.join(p.key for p in base) or 'no bound pod'}, so the one scheduled last must "
                                    f"have been rejected ({statuses[last].message()})",
                                    pod=last, plugin="NodeResourcesFit", status=statuses[last].message(),
                                    expected={r: allocatable.get(r, 0) for r in over},
                                    actual={r: used[r] for r in over})


def _requests(pod) -> dict[str, int]:
    req = dict(pod_requests(pod))
    req["pods"] = 1
    return {k: v for k, v in req.items() if v}
