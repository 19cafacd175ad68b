"""Situations: scenarios built around the one situation an invariant is about.

`generators.scenarios()` spreads its draws over every feature, so the situation a rule governs
(two Permit probes, one waiting and one rejecting; PreScore Skip with two feasible nodes) comes up
in a few examples out of hundreds. A situation fixes that skeleton (a probe-only profile with
probes at given points, maybe extenders, at least `min_nodes` nodes) and draws the first pod's
script around it; everything else (the cluster, more pods, their scripts) is drawn as usual. The
suite searches about half its examples here and half in the general scenarios (see focus.py);
the first pod's answers live in first_pod.py; each invariant names its situation where it is
defined (`@invariant(..., situation=...)`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from generators import clusters, extender_scripts, pods, probe_scripts
from reference.scenario import EXTENDER_SCRIPT_ANNOTATION, EXTENDER_URL_PLACEHOLDER, PROBE_SCRIPT_ANNOTATION, Scenario

from .first_pod import Draw, Script, pick

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


@dataclass(frozen=True)
class Either:
    """One of several situations (each drawn about as often), with `weight` shares against the general
    scenarios' one."""

    options: tuple
    weight: int = 2

    def strategy(self) -> SearchStrategy[Scenario]:
        return st.one_of(*(o.strategy() for o in self.options))


__all__ = ["Either", "EqualPriorityPreemption", "Situation"]
