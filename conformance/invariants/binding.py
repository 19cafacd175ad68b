"""Bind, PostBind, and what a binding may do to the cluster."""

from __future__ import annotations

from collections import Counter

from reference import codec
from reference.resources import pod_requests

from .base import Violation, invariant
from .run import Run, first_stop_passed


@invariant("bind-first-non-skip", "Bind stops at the first plugin that does not return Skip.",
           "framework.go RunBindPlugins (spec §2.16)")
def bind_first_non_skip(run: Run) -> None:
    for pod in run.live_pods:
        for attempt in run.attempts(pod):
            records = run.records(pod, attempt, "Bind")
            i = first_stop_passed(records, lambda code: code != "Skip")
            if i is not None:
                raise Violation("bind-first-non-skip", "a Bind plugin ran after an earlier one did not Skip",
                                pod=pod, plugin=records[i + 1]["plugin"], status=records[i].get("code"),
                                actual=[(x["plugin"], x.get("code")) for x in records], records=tuple(records))


@invariant("extender-binder-first",
           "An interested, non-ignorable binder extender binds instead of the Bind plugins.",
           "schedule_one.go bind / extendersBinding (spec §2.16, §4.5)", requires=("probes", "extenders"))
def extender_binder_first(run: Run) -> None:
    binders = [e for e in run.config.extenders if e.bind_verb and not e.ignorable and not e.managed_resources]
    if not binders:
        return
    for pod in run.live_pods:
        plugin_binds = run.outcome.calls(pod=pod, point="Bind")
        if plugin_binds:
            raise Violation("extender-binder-first", "Bind plugins ran although a binder extender is configured",
                            pod=pod, plugin=plugin_binds[0]["plugin"], records=tuple(plugin_binds))


@invariant("postbind-iff-bound",
           "PostBind runs exactly once per PostBind plugin, in order, iff the attempt bound the pod.",
           "schedule_one.go bindingCycle; framework.go RunPostBindPlugins (spec §2.17)")
def postbind_iff_bound(run: Run) -> None:
    for pod in run.live_pods:
        for attempt in run.attempts(pod):
            post = [r["plugin"] for r in run.records(pod, attempt, "PostBind")]
            expected = run.probes_at(pod, "postBind") if run.final_attempt_bound(pod, attempt) else []
            if post != expected:
                what = "PostBind ran although the attempt did not bind" if not expected else \
                    "PostBind did not run exactly once per plugin after the binding"
                raise Violation("postbind-iff-bound", f"{what} (attempt {attempt})", pod=pod,
                                expected=expected, actual=post, records=tuple(run.probe_records(pod, attempt)[-8:]))


@invariant("bound-at-most-once", "A pod is bound at most once.", "schedule_one.go assume/bind (spec §2.11)",
           requires=())
def bound_at_most_once(run: Run) -> None:
    counts = Counter(b["pod"] for b in run.outcome.bindings)
    for pod, n in counts.items():
        if n > 1:
            raise Violation("bound-at-most-once", f"the pod was bound {n} times", pod=pod, expected=1, actual=n,
                            records=tuple(b for b in run.outcome.bindings if b["pod"] == pod))


@invariant("capacity-respected",
           "With NodeResourcesFit filtering, no binding takes a node past its allocatable resources or pod count.",
           "noderesources/fit.go fitsRequest (spec §8.2)", requires=())
def capacity_respected(run: Run) -> None:
    nodes = {m["metadata"]["name"]: codec.node_from_manifest(m) for m in run.scenario.nodes}
    used: dict[str, Counter] = {n: Counter() for n in nodes}
    for m in run.scenario.pods:
        pod = codec.pod_from_manifest(m)
        if pod.node_name in used:
            used[pod.node_name].update(_requests(pod))
    deleted = set(run.outcome.deleted)
    for m in run.scenario.pods:
        pod = codec.pod_from_manifest(m)
        if pod.key in deleted and pod.node_name in used:
            used[pod.node_name].subtract(_requests(pod))
    for b in run.outcome.bindings:
        pod = run.pod_objects.get(b["pod"])
        node = nodes.get(b["node"])
        # A workload pod deleted later (a preemption victim) held its node only until then; the
        # outcome does not say when, so like the deleted initial pods it is left out.
        if pod is None or node is None or pod.key in deleted:
            continue
        after = used[node.name] + Counter(_requests(pod))
        used[node.name] = after
        if "NodeResourcesFit" not in run.plugins_at(pod.key, "filter"):
            continue
        for resource in _requests(pod):
            if resource in _ignored(run, pod.key):
                continue
            if after[resource] > node.allocatable.get(resource, 0):
                raise Violation("capacity-respected", f"node {node.name} is over its allocatable {resource}",
                                pod=pod.key, plugin="NodeResourcesFit",
                                expected=f"<= {node.allocatable.get(resource, 0)}", actual=after[resource])


def _requests(pod) -> dict[str, int]:
    req = dict(pod_requests(pod))
    req["pods"] = 1
    return {k: v for k, v in req.items() if v}


def _ignored(run: Run, pod: str) -> set[str]:
    """Resources NodeResourcesFit is configured to ignore (names, and every scalar one when groups are set)."""
    args = run.profiles[run.profile_of(pod)].plugin_args.get("NodeResourcesFit")
    names = set(getattr(args, "ignored_resources", ()) or ())
    groups = set(getattr(args, "ignored_resource_groups", ()) or ())
    return names | {r for r in _requests(run.pod_objects[pod]) if "/" in r and r.split("/")[0] in groups}
