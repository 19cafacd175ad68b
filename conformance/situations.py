"""Situations: scenarios built around the one situation an invariant is about.

`generators.scenarios()` spreads its draws over every feature, so the situation a rule governs
(two Permit probes, one waiting and one rejecting; PreScore Skip with two feasible nodes) comes up
in a few examples out of hundreds. A situation fixes that skeleton (a probe-only profile with
probes at given points, maybe extenders, at least `min_nodes` nodes) and draws the first pod's
script around it; everything else (the cluster, more pods, their scripts) is drawn as usual. The
suite searches half its examples here and half in the general scenarios (see focus.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from generators import clusters, extender_scripts, pods, probe_scripts
from reference.scenario import EXTENDER_SCRIPT_ANNOTATION, EXTENDER_URL_PLACEHOLDER, PROBE_SCRIPT_ANNOTATION, Scenario

from .hard_situations import HARD_SITUATIONS, Constrained, Preempting

Draw = Callable[[SearchStrategy], object]
Script = dict
# seed(draw, node names) -> (probe script, extender script) for the first pod.
Seed = Callable[[Draw, Sequence[str]], tuple[Script, Script]]

_KEEP = [{"name": "PrioritySort"}, {"name": "DefaultBinder"}]
_REJECT = ("Unschedulable", "UnschedulableAndUnresolvable")


@dataclass(frozen=True)
class Situation:
    """`plugins`: v1 point -> probes there, in order (at `bind` they run before DefaultBinder).
    `weights`: score probe -> the weights to draw its weight from (default 1). `extenders`: config
    entries for ext-0, ext-1, ... (urlPrefix is filled in). `seed`: the first pod's scripts.
    `keep`: in-tree plugins kept in multiPoint besides PrioritySort and DefaultBinder. `score_extensions`:
    probes whose args turn NormalizeScore on. `gated`: the first pod carries a scheduling gate."""

    plugins: Mapping[str, Sequence[str]]
    seed: Seed
    min_nodes: int = 1
    max_nodes: int = 3
    max_pods: int = 3
    weights: Mapping[str, Sequence[int]] = field(default_factory=dict)
    extenders: Sequence[Mapping[str, object]] = field(default_factory=tuple)
    keep: Sequence[str] = ()
    score_extensions: Sequence[str] = ()
    gated: bool = False

    def strategy(self) -> SearchStrategy[Scenario]:
        return st.composite(lambda draw: self._draw(draw))()

    def _draw(self, draw: Draw) -> Scenario:
        cluster = draw(clusters(min_nodes=self.min_nodes, max_nodes=self.max_nodes, max_pods=2))
        names = [n["metadata"]["name"] for n in cluster.nodes]
        config = self._config(draw)
        placements = {probe: [p for p in self.plugins if probe in self.plugins[p]]
                      for probe in {p for probes in self.plugins.values() for p in probes}}
        ext_verbs = {name: [v for v in ("filter", "prioritize", "bind", "preempt") if f"{v}Verb" in e]
                     for name, e in self._named_extenders()}
        workload = []
        count = draw(st.integers(1, self.max_pods))
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
                    entry["weight"] = _pick(draw, self.weights[probe])
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


# --- seeds: small helpers that draw the first pod's decisive answers ---------------------------------

def _pick(draw: Draw, pool: Sequence) -> object:
    return draw(st.sampled_from(tuple(pool)))


def _some(draw: Draw, nodes: Sequence[str], *, min_size: int = 1, max_size: int | None = None) -> list[str]:
    return draw(st.lists(st.sampled_from(tuple(nodes)), min_size=min_size,
                         max_size=len(nodes) if max_size is None else max_size, unique=True))


def _filter_rejections(draw: Draw, nodes: Sequence[str]) -> dict:
    """Filter answers that reject some nodes, each with its own reason."""
    rejected = _some(draw, nodes)
    return {"code": "Success", "byNode": {n: {"code": _pick(draw, _REJECT), "reasons": [f"no room on {n}"]}
                                          for n in rejected}}


def _node_scores(draw: Draw, nodes: Sequence[str], pool: Sequence[int]) -> dict:
    return {"score": _pick(draw, pool), "byNode": {n: {"score": _pick(draw, pool)} for n in _some(draw, nodes)}}


def _wait(draw: Draw) -> dict:
    action = {"code": "Wait", "timeout": _pick(draw, ("500ms", "1s"))}
    signal = _pick(draw, (None, "allow", "reject"))
    if signal:
        action["then"] = {"signal": signal, "after": "100ms"}
    return action


def _reserve_failure(draw: Draw, nodes: Sequence[str]) -> tuple[Script, Script]:
    """A failure after Reserve began: either reserve probe rejects or errs, or Permit rejects."""
    probe, point = _pick(draw, (("Probe0", "Reserve"), ("Probe1", "Reserve"), ("Probe1", "Permit")))
    return {probe: {point: {"code": _pick(draw, (*_REJECT, "Error"))}}}, {}


def _fit_error(draw: Draw, nodes: Sequence[str]) -> tuple[Script, Script]:
    """One way for the pod to fail with a FitError: every node filtered out with per-node reasons
    (then maybe a PostFilter message), a PreFilter rejection, or a Reserve or Permit rejection."""
    kind = _pick(draw, ("filter", "postfilter", "prefilter", "reserve", "permit"))
    reject = {"code": _pick(draw, _REJECT), "reasons": [_pick(draw, ("probe says no", "out of luck"))]}
    if kind in ("filter", "postfilter"):
        script = {"Probe0": {"Filter": {"code": "Success", "byNode": {
            n: {"code": _pick(draw, _REJECT), "reasons": [_pick(draw, ("full", "tainted", "too far"))]}
            for n in nodes}}}}
        if kind == "postfilter":
            script["Probe1"] = {"PostFilter": {"code": "Unschedulable", "reasons": ["no preemption helps"]}}
        return script, {}
    point = {"prefilter": "PreFilter", "reserve": "Reserve", "permit": "Permit"}[kind]
    return {"Probe2": {point: reject}}, {}


def _condition(draw: Draw, nodes: Sequence[str]) -> tuple[Script, Script]:
    """One failing answer at any point: a rejection, Pending, or an error."""
    # PreScore and PreBindPreFlight twice: their rejections are the ones upstream turns into errors.
    point = _pick(draw, ("PreScore", "PreBindPreFlight", "PreBind", "Bind", "Permit", "Reserve", "Filter", "PreFilter",
                         "PreScore", "PreBindPreFlight"))
    return {"Probe0": {point: {"code": _pick(draw, ("Pending", "Unschedulable", "Error", "Pending",
                                                    "UnschedulableAndUnresolvable"))}}}, {}


def _extender_failure(draw: Draw, nodes: Sequence[str]) -> tuple[Script, Script]:
    failure = {"error": "extender says no"} if draw(st.booleans()) else {"status": _pick(draw, (500, 404))}
    return {}, {"ext-0": {_pick(draw, ("filter", "prioritize")): failure}}


def _extender_rejections(draw: Draw, nodes: Sequence[str]) -> tuple[Script, Script]:
    """The extender fails some nodes (FailedNodes or FailedAndUnresolvableNodes), rarely all."""
    failed = _some(draw, nodes, max_size=len(nodes) - 1) if draw(st.integers(0, 4)) else list(nodes)
    key = _pick(draw, ("fail", "unresolvable"))
    # Probe0 lets the attempt through, so that a node gets chosen.
    return {"Probe0": {"PreFilter": {}, "Reserve": {}}}, {"ext-0": {"filter": {key: {n: "extender: no" for n in failed}}}}


def _extender_scores(draw: Draw, nodes: Sequence[str]) -> tuple[Script, Script]:
    """ext-1 (weight 1) scores node a 10; ext-0 (weight 5) scores node b lower: only the weights,
    scaled by MaxNodeScore / MaxExtenderPriority, make b the best node."""
    a, b = _some(draw, nodes, min_size=2, max_size=2)
    return {}, {"ext-0": {"prioritize": {"scores": {b: _pick(draw, (3, 5, 8))}}},
                "ext-1": {"prioritize": {"scores": {a: 10}}}}


def _prescore_skip(draw: Draw, nodes: Sequence[str]) -> tuple[Script, Script]:
    """One probe skips at PreScore, the other succeeds there, so both get to answer."""
    skipping = _pick(draw, ("Probe0", "Probe1"))
    other = "Probe1" if skipping == "Probe0" else "Probe0"
    return {skipping: {"PreScore": {"code": "Skip"}}, other: {"PreScore": {}}}, {}


def _weighted_scores(draw: Draw, nodes: Sequence[str]) -> tuple[Script, Script]:
    """Probe0 (weight 1) prefers node a, Probe1 (weight 2 or more) prefers node b less strongly:
    the weighted totals pick b, unweighted ones a."""
    a, b = _some(draw, nodes, min_size=2, max_size=2)
    return ({"Probe0": {"Score": {"score": 0, "byNode": {a: {"score": _pick(draw, (100, 90))}}}},
             "Probe1": {"Score": {"score": 0, "byNode": {b: {"score": _pick(draw, (60, 70))}}}}}, {})


def _failure_anywhere(draw: Draw, nodes: Sequence[str]) -> tuple[Script, Script]:
    """Probe0 fails one point of the attempt (an error, a rejection, or a code the point turns into an
    error; at Filter an error on one node, the others passing); Probe1, next at every point, shows
    whether the loop and the attempt went on."""
    point = _pick(draw, ("Filter", "PreFilter", "Reserve", "PreScore", "Score", "NormalizeScore", "PreBindPreFlight",
                         "PreBind"))
    codes = {"Filter": ("Error", "Skip", "Wait"), "PreFilter": ("Error", "Pending", "Unschedulable",
                                                                 "UnschedulableAndUnresolvable", "Wait")}
    action = {"code": _pick(draw, codes.get(point, ("Error", "Unschedulable", "Error", "Pending")))}
    if point == "Filter" and draw(st.integers(0, 3)):
        action = {"code": "Success", "byNode": {_pick(draw, nodes): action}}
    return {"Probe0": {point: action}}, {}


def _loop_stop(draw: Draw, nodes: Sequence[str]) -> tuple[Script, Script]:
    """Probe0's answer at one point, whether it stops that point's loop or goes on to Probe1."""
    point = _pick(draw, ("PreFilter", "Permit", "PreScore", "PreBindPreFlight", "PreBind", "Bind", "PostFilter",
                         "Reserve"))
    codes = {"Bind": ("Skip", "Success", "Error"), "Permit": ("Wait", "Success", "Unschedulable", "Error"),
             "PostFilter": ("Unschedulable", "Pending", "Success", "UnschedulableAndUnresolvable")}.get(
        point, ("Success", "Skip", "Unschedulable", "UnschedulableAndUnresolvable", "Error", "Pending"))
    action: dict = {"code": _pick(draw, codes)}
    if point == "Permit" and action["code"] == "Wait":
        action.update(timeout="1s", then={"signal": "allow", "after": "100ms"})
    script: dict = {"Probe0": {point: action}}
    if point == "PostFilter":
        script["Probe2"] = {"Filter": {"code": _pick(draw, _REJECT)}}
    return script, {}


def _some_nodes_rejected(draw: Draw, nodes: Sequence[str]) -> tuple[Script, Script]:
    """Probe0 rejects some nodes but leaves two or more to score; Probe1 may skip at PreScore."""
    rejected = _some(draw, nodes, min_size=0, max_size=len(nodes) - 2)
    script: dict = {"Probe0": {"Filter": {"code": "Success", "byNode": {n: {"code": _pick(draw, _REJECT)}
                                                                        for n in rejected}}}}
    if draw(st.booleans()):
        script["Probe1"] = {"PreScore": {"code": "Skip"}}
    script["Probe2"] = {"Score": _node_scores(draw, nodes, (0, 100, 50))}
    return script, {}


def _refused_at_pre_enqueue(draw: Draw, nodes: Sequence[str]) -> tuple[Script, Script]:
    probe = _pick(draw, ("Probe0", "Probe1"))
    # Error and Skip first: the codes an implementation is most tempted to let through.
    return {probe: {"PreEnqueue": {"code": _pick(draw, ("Error", "Skip", "Unschedulable", "Error", "Pending", "Wait",
                                                         "UnschedulableAndUnresolvable", "Success"))}}}, {}


def _retried(draw: Draw, nodes: Sequence[str]) -> tuple[Script, Script]:
    """The first attempt fails with an error (so the pod retries after its backoff), the next ones pass."""
    point = _pick(draw, ("Reserve", "PreFilter", "Filter"))
    return {"Probe0": {point: [{"code": "Error"}, {}]}}, {}


_CLASSES = {1000: "high-priority", 100: "low-priority"}


@dataclass(frozen=True)
class TightCapacity:
    """The default profile; one to three small nodes and pods requesting a good part of one, so that
    bindings use up the nodes and later pods are rejected for lack of room."""

    def strategy(self) -> SearchStrategy[Scenario]:
        return st.composite(lambda draw: self._draw(draw))()

    def _draw(self, draw: Draw) -> Scenario:
        nodes = []
        for i in range(draw(st.integers(1, 3))):
            alloc = {"cpu": _pick(draw, ("1", "2")), "memory": _pick(draw, ("1Gi", "2Gi")), "pods": "110"}
            nodes.append({"apiVersion": "v1", "kind": "Node",
                          "metadata": {"name": f"node-{i}", "labels": {"kubernetes.io/hostname": f"node-{i}"}},
                          "status": {"capacity": alloc, "allocatable": alloc}})
        workload = []
        for i in range(draw(st.integers(1, 4))):
            requests = {"cpu": _pick(draw, ("500m", "300m", "800m")), "memory": _pick(draw, ("256Mi", "700Mi"))}
            workload.append({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": f"pod-{i}", "namespace": "default"},
                             "spec": {"containers": [{"name": "c0", "image": "registry.k8s.io/pause:3.10",
                                                      "resources": {"requests": requests}}]}})
        return Scenario(nodes=tuple(nodes), workload=tuple(workload))


@dataclass(frozen=True)
class EqualPriorityPreemption:
    """The default profile; one or two nodes full of pods of the preemptor's own priority (and maybe a
    lower one): only victims of lower priority may be evicted, so the preemptor mostly stays pending."""

    def strategy(self) -> SearchStrategy[Scenario]:
        return st.composite(lambda draw: self._draw(draw))()

    def _draw(self, draw: Draw) -> Scenario:
        def pod(name: str, cpu: str, priority: int, node: str = "") -> dict:
            # Classes of generators.pools (the backends know them), as admission would fill them in.
            spec: dict = {"priorityClassName": _CLASSES[priority], "priority": priority, "containers": [
                {"name": "c0", "image": "registry.k8s.io/pause:3.10", "resources": {"requests": {"cpu": cpu}}}]}
            if node:
                spec["nodeName"] = node
            return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "default"}, "spec": spec}
        count = draw(st.integers(1, 2))
        nodes, bound = [], []
        for i in range(count):
            name = f"node-{i}"
            alloc = {"cpu": "2", "memory": "4Gi", "pods": "110"}
            nodes.append({"apiVersion": "v1", "kind": "Node",
                          "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name}},
                          "status": {"capacity": alloc, "allocatable": alloc}})
            bound.append(pod(f"running-{i}", _pick(draw, ("1500m", "1800m")), 1000, name))
            if draw(st.booleans()):
                bound.append(pod(f"low-{i}", "200m", _pick(draw, (100, 1000)), name))
        preemptor = pod("pod-0", _pick(draw, ("1", "1500m", "600m")), 1000)
        return Scenario(nodes=tuple(nodes), pods=tuple(bound), workload=(preemptor,))


# Two reserve probes: the forward-order Unreserve counterexample must shrink to that many.
_RESERVE = Situation({"reserve": ["Probe0", "Probe1"], "permit": ["Probe1"]}, _reserve_failure)
_FILTER_PLACES = {"preFilter": ["Probe0"], "filter": ["Probe0", "Probe1"], "postFilter": ["Probe1"],
                  "reserve": ["Probe1"]}
_POINTS = ("preFilter", "filter", "preScore", "score", "reserve", "preBind", "bind")
SITUATIONS: dict[str, Situation | EqualPriorityPreemption | Constrained | Preempting | TightCapacity] = {
    "preemption-evicts-lower-priority-only": EqualPriorityPreemption(),
    "capacity-respected": TightCapacity(),
    "failure-ends-attempt": Situation({p: ["Probe0", "Probe1"] for p in _POINTS}, _failure_anywhere, min_nodes=2,
                                      score_extensions=("Probe0",)),
    "plugins-run-until-stop": Situation(
        {**{p: ["Probe0", "Probe1"] for p in ("preFilter", "postFilter", "preScore", "score", "reserve", "permit",
                                              "preBind", "bind", "postBind")}, "filter": ["Probe2"]},
        _loop_stop, min_nodes=2),
    "score-calls-complete": Situation(
        {"preFilter": ["Probe0"], "filter": ["Probe0"], "preScore": ["Probe1"], "score": ["Probe1", "Probe2"]},
        _some_nodes_rejected, min_nodes=3, max_nodes=4, score_extensions=("Probe2",)),
    "preenqueue-gates": Situation({"preEnqueue": ["Probe0", "Probe1"], "preFilter": ["Probe0"]},
                                  _refused_at_pre_enqueue),
    "gated-pods-never-prefiltered": Situation({"preFilter": ["Probe0"]}, lambda draw, nodes: ({}, {}),
                                              keep=("SchedulingGates",), gated=True),
    "cycle-state-fresh": Situation({"preFilter": ["Probe0"], "filter": ["Probe0"], "reserve": ["Probe0"]}, _retried),
    "filter-short-circuit": Situation(
        {"filter": ["Probe0", "Probe1", "Probe2"]}, min_nodes=2,
        seed=lambda draw, nodes: ({_pick(draw, ("Probe0", "Probe1")): {"Filter": _filter_rejections(draw, nodes)}},
                                  {})),
    "extender-prioritize-errors-tolerated": Situation(
        {"preFilter": ["Probe0"], "reserve": ["Probe0"]},
        lambda draw, nodes: ({}, {"ext-0": {"prioritize": {"error": "extender says no"} if draw(st.booleans())
                                            else {"status": _pick(draw, (500, 404))}}}),
        min_nodes=2, extenders=({"filterVerb": "filter", "prioritizeVerb": "prioritize", "weight": 1},)),
    "unreserve-reverse-order": _RESERVE,
    "reserve-short-circuit": _RESERVE,
    "prefilter-skip-pairing": Situation(
        {"preFilter": ["Probe0", "Probe1"], "filter": ["Probe0", "Probe1"]},
        lambda draw, nodes: ({_pick(draw, ("Probe0", "Probe1")): {"PreFilter": {"code": "Skip"}}}, {})),
    "prefilter-result-restricts": Situation(
        {"preFilter": ["Probe0"], "filter": ["Probe1"]}, min_nodes=2,
        seed=lambda draw, nodes: ({"Probe0": {"PreFilter": {"result": _some(draw, nodes, max_size=len(nodes) - 1)}}},
                                  {})),
    "postfilter-only-without-feasible-node": Situation(
        _FILTER_PLACES, lambda draw, nodes: ({"Probe0": {"Filter": _filter_rejections(draw, nodes)},
                                              "Probe1": {"PostFilter": {"code": _pick(draw, ("Unschedulable",
                                                                                              "Success"))}}}, {})),
    "chosen-node-passed-filters": Situation(
        {"filter": ["Probe0"], "score": ["Probe1"]}, min_nodes=2,
        seed=lambda draw, nodes: ({"Probe0": {"Filter": _filter_rejections(draw, nodes)},
                                   "Probe1": {"Score": _node_scores(draw, nodes, (0, 100, 50))}}, {})),
    "score-range-enforced": Situation(
        {"score": ["Probe0", "Probe1"]}, min_nodes=2,
        seed=lambda draw, nodes: ({"Probe0": {"Score": _node_scores(draw, nodes, (-1, 101, 2 ** 40, 50))}}, {})),
    "chosen-node-has-max-score": Situation(
        {"score": ["Probe0", "Probe1"]}, _weighted_scores, min_nodes=2, weights={"Probe1": (2, 5, 10)}),
    "prescore-skip-pairing": Situation(
        {"preScore": ["Probe0", "Probe1"], "score": ["Probe0", "Probe1"]}, _prescore_skip, min_nodes=2),
    "permit-wait-resolution": Situation(
        {"permit": ["Probe0", "Probe1"]}, lambda draw, nodes: ({"Probe0": {"Permit": _wait(draw)}}, {})),
    "permit-reject-wins": Situation(
        {"permit": ["Probe0", "Probe1"]},
        lambda draw, nodes: ({"Probe0": {"Permit": _wait(draw)},
                              "Probe1": {"Permit": {"code": _pick(draw, (*_REJECT, "Error"))}}}, {})),
    "bind-first-non-skip": Situation(
        {"bind": ["Probe0", "Probe1"]},
        lambda draw, nodes: ({"Probe0": {"Bind": {"code": _pick(draw, ("Success", "Skip", "Error"))}},
                              "Probe1": {"Bind": {"code": _pick(draw, ("Success", "Skip", "Error"))}}}, {})),
    "extender-binder-first": Situation(
        {"preFilter": ["Probe0"], "bind": ["Probe0"]},
        lambda draw, nodes: ({"Probe0": {"Bind": {"code": _pick(draw, ("Skip", "Success", "Error"))}}}, {}),
        extenders=({"bindVerb": "bind", "filterVerb": "filter"},)),
    "postbind-iff-bound": Situation(
        {"bind": ["Probe0"], "postBind": ["Probe1"]},
        lambda draw, nodes: ({"Probe0": {"Bind": {"code": _pick(draw, ("Error", "Unschedulable", "Success",
                                                                       "Skip"))}}}, {})),
    "fit-error-message": Situation(
        {"preFilter": ["Probe2"], "filter": ["Probe0"], "postFilter": ["Probe1"], "reserve": ["Probe2"],
         "permit": ["Probe2"]}, _fit_error, min_nodes=2),
    "condition-classification": Situation(
        {p: ["Probe0"] for p in ("preFilter", "filter", "preScore", "reserve", "permit", "preBind", "bind")},
        _condition, min_nodes=2),
    "ignorable-extender-errors-tolerated": Situation(
        {"reserve": ["Probe0"]}, _extender_failure, min_nodes=2,
        extenders=({"filterVerb": "filter", "prioritizeVerb": "prioritize", "weight": 1, "ignorable": True},)),
    "extender-filter-error-fails": Situation(
        {"reserve": ["Probe0"]}, _extender_failure, min_nodes=2,
        extenders=({"filterVerb": "filter", "prioritizeVerb": "prioritize", "weight": 1},)),
    "extender-filter-respected": Situation(
        {"preFilter": ["Probe0"], "reserve": ["Probe0"]}, _extender_rejections, min_nodes=2,
        extenders=({"filterVerb": "filter"},)),
    "extender-scores-scaled": Situation(
        {"preFilter": ["Probe0"], "reserve": ["Probe0"]}, _extender_scores, min_nodes=2,
        extenders=({"prioritizeVerb": "prioritize", "weight": 5}, {"prioritizeVerb": "prioritize", "weight": 1})),
}


SITUATIONS.update(HARD_SITUATIONS)
# Where the ci sample reached a rule in under 30% of its examples, the situation takes this many shares
# of the draws to the general scenarios' one (`weight`, see search.default_strategy).
WEIGHTS = {"prescore-skip-pairing": 2, "extender-filter-respected": 2}


def situation_for(invariant_id: str) -> Situation | EqualPriorityPreemption | Constrained | Preempting | TightCapacity | None:
    return SITUATIONS.get(invariant_id)


__all__ = ["SITUATIONS", "WEIGHTS", "Constrained", "EqualPriorityPreemption", "Preempting", "Situation",
           "TightCapacity", "situation_for"]
