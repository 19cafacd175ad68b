"""Situations: scenarios built around the one situation an invariant is about.

`generators.scenarios()` spreads its draws over every feature, so the situation a rule governs
(two Permit probes, one waiting and one rejecting; PreScore Skip with two feasible nodes) comes up
in a few examples out of hundreds. A situation fixes that skeleton (a probe-only profile with
probes at given points, maybe extenders, at least `min_nodes` nodes) and draws the first pod's
script around it; everything else (the cluster, more pods, their scripts) is drawn as usual. The
suite searches about half its examples here and half in the general scenarios (see focus.py);
the seeds live in seeds.py.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Callable, Mapping, Sequence

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from generators import clusters, extender_scripts, pods, probe_scripts
from reference.scenario import EXTENDER_SCRIPT_ANNOTATION, EXTENDER_URL_PLACEHOLDER, PROBE_SCRIPT_ANNOTATION, Scenario

from .hard_situations import HARD_SITUATIONS, Constrained, Preempting
from .seeds import (Draw, REJECT, Script, condition, extender_failure, extender_rejections, extender_scores,
                    failure_anywhere, filter_rejections, fit_error, loop_stop, node_scores, nominated_first,
                    pick, prescore_skip, refused_at_pre_enqueue, rejected_once, reserve_failure, retried, some,
                    some_nodes_rejected, wait, weighted_scores)

# seed(draw, node names) -> (probe script, extender script) for the first pod.
Seed = Callable[[Draw, Sequence[str]], tuple[Script, Script]]

_KEEP = [{"name": "PrioritySort"}, {"name": "DefaultBinder"}]


@dataclass(frozen=True)
class Situation:
    """`plugins`: v1 point -> probes there, in order (at `bind` they run before DefaultBinder).
    `weights`: score probe -> the weights to draw its weight from (default 1). `extenders`: config
    entries for ext-0, ext-1, ... (urlPrefix is filled in). `seed`: the first pod's scripts.
    `keep`: in-tree plugins kept in multiPoint besides PrioritySort and DefaultBinder. `score_extensions`:
    probes whose args turn NormalizeScore on. `gated`: the first pod carries a scheduling gate.
    `weight`: shares of the draws against the general scenarios' one (0: an even `one_of`)."""

    plugins: Mapping[str, Sequence[str]]
    seed: Seed
    min_nodes: int = 1
    max_nodes: int = 3
    max_pods: int = 3
    min_pods: int = 1
    weights: Mapping[str, Sequence[int]] = field(default_factory=dict)
    extenders: Sequence[Mapping[str, object]] = field(default_factory=tuple)
    keep: Sequence[str] = ()
    score_extensions: Sequence[str] = ()
    gated: bool = False
    weight: int = 0

    def strategy(self) -> SearchStrategy[Scenario]:
        return st.composite(lambda draw: self._draw(draw))()

    def _draw(self, draw: Draw) -> Scenario:
        cluster = draw(clusters(min_nodes=self.min_nodes, max_nodes=self.max_nodes, max_pods=2))
        names = [n["metadata"]["name"] for n in cluster.nodes]
        config = self._config(draw)
        # In the order the points name them: iterating a set of names follows PYTHONHASHSEED, and the draws
        # (and so the ci sample) with it.
        placements = {probe: [p for p in self.plugins if probe in self.plugins[p]]
                      for probe in dict.fromkeys(p for probes in self.plugins.values() for p in probes)}
        ext_verbs = {name: [v for v in ("filter", "prioritize", "bind", "preempt") if f"{v}Verb" in e]
                     for name, e in self._named_extenders()}
        workload = []
        count = draw(st.integers(self.min_pods, self.max_pods))
        for i in range(count):
            pod = draw(pods(name=f"pod-{i}", nodes=names, gates=False))
            probe = draw(probe_scripts(probes=placements, points=list(self.plugins), nodes=names,
                                       per_attempt="preFilter" in self.plugins,
                                       max_permit_timeout=1.0)) if placements else {}
            ext = draw(extender_scripts(extenders=ext_verbs, nodes=names)) if ext_verbs else {}
            if i == 0:
                # The seed's answers replace what was drawn for the same probe (extender) and point (verb).
                for drawn, seeded in zip((probe, ext), self.seed(draw, names)):
                    for name, actions in seeded.items():
                        drawn.setdefault(name, {}).update(actions)
            annotations = {}
            if probe:
                annotations[PROBE_SCRIPT_ANNOTATION] = json.dumps(probe, separators=(",", ":"))
            if ext:
                annotations[EXTENDER_SCRIPT_ANNOTATION] = json.dumps(ext, separators=(",", ":"))
            if annotations:
                pod["metadata"].setdefault("annotations", {}).update(annotations)
            if i == 0 and self.gated:
                pod["spec"]["schedulingGates"] = [{"name": "example.com/gate"}]
            workload.append(pod)
        return Scenario(config=config, nodes=cluster.nodes, pods=cluster.pods, objects=cluster.objects,
                        workload=tuple(workload))

    def _named_extenders(self) -> list[tuple[str, Mapping[str, object]]]:
        return [(f"ext-{i}", e) for i, e in enumerate(self.extenders)]

    def _config(self, draw: Draw) -> dict:
        plugins: dict = {"multiPoint": {"disabled": [{"name": "*"}],
                                        "enabled": [*_KEEP, *({"name": n} for n in self.keep)]}}
        for point, probes in self.plugins.items():
            entries = []
            for probe in probes:
                entry = {"name": probe}
                if point == "score" and probe in self.weights:
                    entry["weight"] = pick(draw, self.weights[probe])
                entries.append(entry)
            if point == "bind":
                plugins[point] = {"disabled": [{"name": "*"}], "enabled": entries + [{"name": "DefaultBinder"}]}
            else:
                plugins[point] = {"enabled": entries}
        profile: dict = {"schedulerName": "default-scheduler", "plugins": plugins}
        if self.score_extensions:
            profile["pluginConfig"] = [{"name": n, "args": {"scoreExtensions": True}} for n in self.score_extensions]
        config = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
                  "profiles": [profile]}
        extenders = [{"urlPrefix": f"{EXTENDER_URL_PLACEHOLDER}/{name}", **e} for name, e in self._named_extenders()]
        if extenders:
            config["extenders"] = extenders
        return config


_CLASSES = {1000: "high-priority", 100: "low-priority"}


@dataclass(frozen=True)
class EqualPriorityPreemption:
    """The default profile; one or two nodes full of pods of the preemptor's own priority (and maybe a
    lower one): only victims of lower priority may be evicted, so the preemptor mostly stays pending."""

    def strategy(self) -> SearchStrategy[Scenario]:
        return st.composite(lambda draw: self._draw(draw))()

    def _draw(self, draw: Draw) -> Scenario:
        nodes, bound = _full_nodes(draw, (1500, 1800), (100, 1000))
        preemptor = _priority_pod("pod-0", pick(draw, ("1", "1500m", "600m")), 1000)
        return Scenario(nodes=tuple(nodes), pods=tuple(bound), workload=(preemptor,))


def _priority_pod(name: str, cpu: str, priority: int, node: str = "") -> dict:
    # Classes of generators.pools (the backends know them), as admission would fill them in.
    spec: dict = {"priorityClassName": _CLASSES[priority], "priority": priority, "containers": [
        {"name": "c0", "image": "registry.k8s.io/pause:3.10", "resources": {"requests": {"cpu": cpu}}}]}
    if node:
        spec["nodeName"] = node
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "default"}, "spec": spec}


def _full_nodes(draw: Draw, running_millis: Sequence[int], low_priorities: Sequence[int]) -> tuple[list, list]:
    """One or two 2-CPU nodes, each with a running pod of priority 1000 and maybe a small one of one of
    `low_priorities`."""
    nodes, bound = [], []
    for i in range(draw(st.integers(1, 2))):
        name = f"node-{i}"
        alloc = {"cpu": "2", "memory": "4Gi", "pods": "110"}
        nodes.append({"apiVersion": "v1", "kind": "Node",
                      "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name}},
                      "status": {"capacity": alloc, "allocatable": alloc}})
        bound.append(_priority_pod(f"running-{i}", f"{pick(draw, running_millis)}m", 1000, name))
        if draw(st.booleans()):
            bound.append(_priority_pod(f"low-{i}", "200m", pick(draw, low_priorities), name))
    return nodes, bound


# Two reserve probes: the forward-order Unreserve counterexample must shrink to that many.
_RESERVE = Situation({"reserve": ["Probe0", "Probe1"], "permit": ["Probe1"]}, reserve_failure)
_FILTER_PLACES = {"preFilter": ["Probe0"], "filter": ["Probe0", "Probe1"], "postFilter": ["Probe1"],
                  "reserve": ["Probe1"]}
_POINTS = ("preFilter", "filter", "preScore", "score", "reserve", "preBind", "bind")
SITUATIONS: dict[str, Situation | EqualPriorityPreemption | Constrained | Preempting] = {
    "preemption-evicts-lower-priority-only": EqualPriorityPreemption(),
    "failure-ends-attempt": Situation({p: ["Probe0", "Probe1"] for p in _POINTS}, failure_anywhere, min_nodes=2,
                                      score_extensions=("Probe0",)),
    "plugins-run-until-stop": Situation(
        {**{p: ["Probe0", "Probe1"] for p in ("preFilter", "postFilter", "preScore", "score", "reserve", "permit",
                                              "preBind", "bind", "postBind")}, "filter": ["Probe2"]},
        loop_stop, min_nodes=2),
    "score-calls-complete": Situation(
        {"preFilter": ["Probe0"], "filter": ["Probe0"], "preScore": ["Probe1"], "score": ["Probe1", "Probe2"]},
        some_nodes_rejected, min_nodes=3, max_nodes=4, score_extensions=("Probe2",)),
    "preenqueue-gates": Situation({"preEnqueue": ["Probe0", "Probe1"], "preFilter": ["Probe0"]},
                                  refused_at_pre_enqueue),
    "gated-pods-never-prefiltered": Situation({"preFilter": ["Probe0"]}, lambda draw, nodes: ({}, {}),
                                              keep=("SchedulingGates",), gated=True),
    "rejected-pod-waits-for-event": Situation(
        {p: ["Probe0"] for p in ("preFilter", "filter", "postFilter", "reserve", "permit")}, rejected_once),
    "remove-pod-only-in-preemption": Situation(
        {p: ["Probe0"] for p in ("preFilter", "filter", "postFilter", "reserve")}, nominated_first, min_pods=2),
    "cycle-state-fresh": Situation({"preFilter": ["Probe0"], "filter": ["Probe0"], "reserve": ["Probe0"]}, retried),
    "filter-short-circuit": Situation(
        {"filter": ["Probe0", "Probe1", "Probe2"]}, min_nodes=2,
        seed=lambda draw, nodes: ({pick(draw, ("Probe0", "Probe1")): {"Filter": filter_rejections(draw, nodes)}},
                                  {})),
    "extender-prioritize-errors-tolerated": Situation(
        {"preFilter": ["Probe0"], "reserve": ["Probe0"]},
        lambda draw, nodes: ({}, {"ext-0": {"prioritize": {"error": "extender says no"} if draw(st.booleans())
                                            else {"status": pick(draw, (500, 404))}}}),
        min_nodes=2, extenders=({"filterVerb": "filter", "prioritizeVerb": "prioritize", "weight": 1},)),
    "unreserve-reverse-order": _RESERVE,
    "reserve-short-circuit": _RESERVE,
    "prefilter-skip-pairing": Situation(
        {"preFilter": ["Probe0", "Probe1"], "filter": ["Probe0", "Probe1"]},
        lambda draw, nodes: ({pick(draw, ("Probe0", "Probe1")): {"PreFilter": {"code": "Skip"}}}, {})),
    "prefilter-result-restricts": Situation(
        {"preFilter": ["Probe0"], "filter": ["Probe1"]}, min_nodes=2,
        seed=lambda draw, nodes: ({"Probe0": {"PreFilter": {"result": some(draw, nodes, max_size=len(nodes) - 1)}}},
                                  {})),
    "postfilter-only-without-feasible-node": Situation(
        _FILTER_PLACES, lambda draw, nodes: ({"Probe0": {"Filter": filter_rejections(draw, nodes)},
                                              "Probe1": {"PostFilter": {"code": pick(draw, ("Unschedulable",
                                                                                              "Success"))}}}, {})),
    "chosen-node-passed-filters": Situation(
        {"filter": ["Probe0"], "score": ["Probe1"]}, min_nodes=2,
        seed=lambda draw, nodes: ({"Probe0": {"Filter": filter_rejections(draw, nodes)},
                                   "Probe1": {"Score": node_scores(draw, nodes, (0, 100, 50))}}, {})),
    "score-range-enforced": Situation(
        {"score": ["Probe0", "Probe1"]}, min_nodes=2,
        seed=lambda draw, nodes: ({"Probe0": {"Score": node_scores(draw, nodes, (-1, 101, 2 ** 40, 50))}}, {})),
    "chosen-node-has-max-score": Situation(
        {"score": ["Probe0", "Probe1"]}, weighted_scores, min_nodes=2, weights={"Probe1": (2, 5, 10)}),
    "prescore-skip-pairing": Situation(
        {"preScore": ["Probe0", "Probe1"], "score": ["Probe0", "Probe1"]}, prescore_skip, min_nodes=2),
    "permit-wait-resolution": Situation(
        {"permit": ["Probe0", "Probe1"]}, lambda draw, nodes: ({"Probe0": {"Permit": wait(draw)}}, {})),
    "permit-reject-wins": Situation(
        {"permit": ["Probe0", "Probe1"]},
        lambda draw, nodes: ({"Probe0": {"Permit": wait(draw)},
                              "Probe1": {"Permit": {"code": pick(draw, (*REJECT, "Error"))}}}, {})),
    "bind-first-non-skip": Situation(
        {"bind": ["Probe0", "Probe1"]},
        lambda draw, nodes: ({"Probe0": {"Bind": {"code": pick(draw, ("Success", "Skip", "Error"))}},
                              "Probe1": {"Bind": {"code": pick(draw, ("Success", "Skip", "Error"))}}}, {})),
    "extender-binder-first": Situation(
        {"preFilter": ["Probe0"], "bind": ["Probe0"]},
        lambda draw, nodes: ({"Probe0": {"Bind": {"code": pick(draw, ("Skip", "Success", "Error"))}}}, {}),
        extenders=({"bindVerb": "bind", "filterVerb": "filter"},)),
    "postbind-iff-bound": Situation(
        {"bind": ["Probe0"], "postBind": ["Probe1"]},
        lambda draw, nodes: ({"Probe0": {"Bind": {"code": pick(draw, ("Error", "Unschedulable", "Success",
                                                                       "Skip"))}}}, {})),
    "fit-error-message": Situation(
        {"preFilter": ["Probe2"], "filter": ["Probe0"], "postFilter": ["Probe1"], "reserve": ["Probe2"],
         "permit": ["Probe2"]}, fit_error, min_nodes=2),
    "condition-classification": Situation(
        {p: ["Probe0"] for p in ("preFilter", "filter", "preScore", "reserve", "permit", "preBind", "bind")},
        condition, min_nodes=2),
    "ignorable-extender-errors-tolerated": Situation(
        {"reserve": ["Probe0"]}, extender_failure, min_nodes=2,
        extenders=({"filterVerb": "filter", "prioritizeVerb": "prioritize", "weight": 1, "ignorable": True},)),
    "extender-filter-error-fails": Situation(
        {"reserve": ["Probe0"]}, extender_failure, min_nodes=2,
        extenders=({"filterVerb": "filter", "prioritizeVerb": "prioritize", "weight": 1},)),
    "extender-filter-respected": Situation(
        {"preFilter": ["Probe0"], "reserve": ["Probe0"]}, extender_rejections, min_nodes=2,
        extenders=({"filterVerb": "filter"},)),
    "extender-scores-scaled": Situation(
        {"preFilter": ["Probe0"], "reserve": ["Probe0"]}, extender_scores, min_nodes=2,
        # ext-1 manages a resource no pod requests: it is never asked, and the extenders after it still are.
        extenders=({"prioritizeVerb": "prioritize", "weight": 5},
                   {"prioritizeVerb": "prioritize", "weight": 2, "managedResources": [{"name": "example.com/unused"}]},
                   {"prioritizeVerb": "prioritize", "weight": 1})),
}


SITUATIONS.update(HARD_SITUATIONS)
# Where the ci sample reached a rule in under 30% of its examples, the situation takes this many shares
# of the draws to the general scenarios' one (`weight`, see search.default_strategy).
WEIGHTS = {"prescore-skip-pairing": 2, "extender-filter-respected": 2, "rejected-pod-waits-for-event": 2,
           "remove-pod-only-in-preemption": 2}
SITUATIONS.update({key: replace(SITUATIONS[key], weight=weight) for key, weight in WEIGHTS.items()})


def situation_for(invariant_id: str) -> Situation | EqualPriorityPreemption | Constrained | Preempting | None:
    return SITUATIONS.get(invariant_id)


__all__ = ["SITUATIONS", "WEIGHTS", "Constrained", "EqualPriorityPreemption", "Preempting", "Situation",
           "situation_for"]
