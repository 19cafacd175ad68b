"""Feature detectors over generated scenarios: which interesting things a scenario contains.

Each detector answers for one unit (a pod, a node, a scenario, a script action), so the coverage
test can state "at least 5% of pods carry an affinity term" and similar floors.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

from generators._profiles import default_layout
from reference.probe import PROBE_NAMES
from reference import codec
from reference.quantity import resource_value
from reference.resources import pod_requests
from reference.scenario import EXTENDER_SCRIPT_ANNOTATION, PROBE_SCRIPT_ANNOTATION, Scenario

Detector = Callable[[Any], bool]
GI, TI = 1024 ** 3, 1024 ** 4


def _spec(pod) -> dict:
    return pod["spec"]


def _containers(pod) -> list[dict]:
    return [*_spec(pod).get("initContainers", []), *_spec(pod)["containers"]]


def _requested(pod, name: str) -> int:
    """The pod's request of `name` as the scheduler sums it (containers, sidecars, init containers, overhead)."""
    return pod_requests(codec.pod_from_manifest(pod)).get(name, 0)


def _spelled(pod, name: str, test: Callable[[str], bool]) -> Iterator[bool]:
    for c in _containers(pod):
        for section in c.get("resources", {}).values():
            if name in section:
                yield test(section[name])


def _affinity(kind: str) -> Detector:
    return lambda pod: kind in _spec(pod).get("affinity", {})


POD_FEATURES: dict[str, tuple[float, Detector]] = {
    "any affinity": (0.05, lambda p: "affinity" in _spec(p)),
    "node affinity": (0.03, _affinity("nodeAffinity")),
    "pod affinity": (0.03, _affinity("podAffinity")),
    "pod anti-affinity": (0.03, _affinity("podAntiAffinity")),
    "spread constraints": (0.05, lambda p: "topologySpreadConstraints" in _spec(p)),
    "tolerations": (0.05, lambda p: "tolerations" in _spec(p)),
    "nodeSelector": (0.05, lambda p: "nodeSelector" in _spec(p)),
    "init containers": (0.05, lambda p: any("restartPolicy" not in c for c in _spec(p).get("initContainers", []))),
    "sidecars": (0.01, lambda p: any(c.get("restartPolicy") == "Always" for c in _containers(p))),
    "several containers": (0.1, lambda p: len(_spec(p)["containers"]) > 1),
    "overhead": (0.03, lambda p: "overhead" in _spec(p)),
    "requests": (0.3, lambda p: any("requests" in c.get("resources", {}) for c in _containers(p))),
    "limits": (0.05, lambda p: any("limits" in c.get("resources", {}) for c in _containers(p))),
    "no requests": (0.1, lambda p: not any(c.get("resources") for c in _containers(p))),
    "request over 16 cores": (0.01, lambda p: _requested(p, "cpu") > 16_000),
    "request over 64 GiB": (0.004, lambda p: _requested(p, "memory") > 64 * GI),
    "fractional cores": (0.01, lambda p: any(_spelled(p, "cpu", lambda q: "." in q))),
    "gpu request": (0.02, lambda p: any("example.com/gpu" in c.get("resources", {}).get("requests", {})
                                        for c in _containers(p))),
    "priority": (0.15, lambda p: "priority" in _spec(p)),
    "preemptionPolicy Never": (0.01, lambda p: _spec(p).get("preemptionPolicy") == "Never"),
    "host ports": (0.05, lambda p: any(port.get("hostPort") for c in _containers(p) for port in c.get("ports", []))),
    "owner reference": (0.005, lambda p: "ownerReferences" in p["metadata"]),
    "other namespace": (0.03, lambda p: p["metadata"]["namespace"] != "default"),
}
WORKLOAD_FEATURES: dict[str, tuple[float, Detector]] = {
    "scheduling gates": (0.03, lambda p: "schedulingGates" in _spec(p)),
    "second profile": (0.05, lambda p: _spec(p).get("schedulerName", "default-scheduler") != "default-scheduler"),
    "probe script": (0.3, lambda p: PROBE_SCRIPT_ANNOTATION in p["metadata"].get("annotations", {})),
    "extender script": (0.1, lambda p: EXTENDER_SCRIPT_ANNOTATION in p["metadata"].get("annotations", {})),
}


def _allocatable(node, name: str) -> int:
    value = node["status"]["allocatable"].get(name)
    return -1 if value is None else resource_value(name, value)


NODE_FEATURES: dict[str, tuple[float, Detector]] = {
    "taints": (0.05, lambda n: "taints" in n.get("spec", {})),
    "unschedulable": (0.01, lambda n: n.get("spec", {}).get("unschedulable", False)),
    "zone label": (0.3, lambda n: "topology.kubernetes.io/zone" in n["metadata"]["labels"]),
    "region label": (0.1, lambda n: "topology.kubernetes.io/region" in n["metadata"]["labels"]),
    "rank label": (0.1, lambda n: "example.com/rank" in n["metadata"]["labels"]),
    "gpu allocatable": (0.1, lambda n: _allocatable(n, "example.com/gpu") > 0),
    "images": (0.2, lambda n: "images" in n["status"]),
    "few pod slots": (0.1, lambda n: 0 <= _allocatable(n, "pods") <= 4),
    "little cpu": (0.1, lambda n: _allocatable(n, "cpu") <= 1000),
    "more than 16 cores": (0.04, lambda n: _allocatable(n, "cpu") > 16_000),
    "at least 96 cores": (0.02, lambda n: _allocatable(n, "cpu") >= 96_000),
    "more than 1 TiB": (0.015, lambda n: _allocatable(n, "memory") > TI),
    "more than 110 pod slots": (0.05, lambda n: _allocatable(n, "pods") > 110),
    "more than 4 gpus": (0.01, lambda n: _allocatable(n, "example.com/gpu") > 4),
    "system reserved": (0.2, lambda n: any(resource_value(k, v) > _allocatable(n, k)
                                           for k, v in n["status"]["capacity"].items())),
}


def _profiles(s: Scenario) -> list[dict]:
    return (s.config or {}).get("profiles", [])


def _plugin_sets(s: Scenario) -> Iterator[tuple[str, dict]]:
    for profile in _profiles(s):
        yield from profile.get("plugins", {}).items()


def _kinds(s: Scenario) -> set[str]:
    return {m["kind"] for m in s.objects}


def _default_disabled(s: Scenario) -> bool:
    defaults = set(default_layout().multi_point)
    return any(e["name"] in defaults for _, ps in _plugin_sets(s) for e in ps.get("disabled", []))


SCENARIO_FEATURES: dict[str, tuple[float, Detector]] = {
    "probes": (0.5, lambda s: any(e["name"] in PROBE_NAMES for _, ps in _plugin_sets(s)
                                  for e in ps.get("enabled", []))),
    "probes in multiPoint": (0.2, lambda s: any(e["name"] in PROBE_NAMES for point, ps in _plugin_sets(s)
                                                if point == "multiPoint" for e in ps.get("enabled", []))),
    "probes at one point": (0.2, lambda s: any(e["name"] in PROBE_NAMES for point, ps in _plugin_sets(s)
                                               if point != "multiPoint" for e in ps.get("enabled", []))),
    "probe before a default plugin": (0.05, lambda s: any(
        ps.get("enabled", [{}])[0].get("name") in PROBE_NAMES and len(ps["enabled"]) > 1
        and any(e["name"] not in PROBE_NAMES for e in ps["enabled"])
        for _, ps in _plugin_sets(s) if {"name": "*"} in ps.get("disabled", []))),
    "two profiles": (0.2, lambda s: len(_profiles(s)) > 1),
    "only probes": (0.15, lambda s: any({"name": "*"} in p.get("plugins", {}).get("multiPoint", {}).get("disabled", [])
                                        for p in _profiles(s))),
    "default plugin disabled": (0.05, _default_disabled),
    "star at a point": (0.1, lambda s: any({"name": "*"} in ps.get("disabled", []) for point, ps in _plugin_sets(s)
                                           if point != "multiPoint")),
    "re-weighted": (0.1, lambda s: any("weight" in e for _, ps in _plugin_sets(s) for e in ps.get("enabled", []))),
    "plugin args": (0.1, lambda s: any(c["name"] not in PROBE_NAMES for p in _profiles(s)
                                       for c in p.get("pluginConfig", []))),
    "scoreExtensions": (0.05, lambda s: any(c["name"] in PROBE_NAMES for p in _profiles(s)
                                            for c in p.get("pluginConfig", []))),
    "extenders": (0.3, lambda s: bool((s.config or {}).get("extenders"))),
    "binder extender": (0.05, lambda s: any("bindVerb" in e for e in (s.config or {}).get("extenders", []))),
    "managed resources": (0.03, lambda s: any("managedResources" in e for e in (s.config or {}).get("extenders", []))),
    "bound pods": (0.15, lambda s: bool(s.pods)),
    "several nodes": (0.3, lambda s: len(s.nodes) > 1),
    "Service": (0.05, lambda s: "Service" in _kinds(s)),
    "ReplicaSet": (0.05, lambda s: "ReplicaSet" in _kinds(s)),
    "PodDisruptionBudget": (0.05, lambda s: "PodDisruptionBudget" in _kinds(s)),
    "Namespace": (0.03, lambda s: "Namespace" in _kinds(s)),
}


def probe_actions(script: dict) -> Iterator[tuple[str, Any]]:
    """(point, action or per-attempt list) for every scripted (probe, point) of a probe script."""
    for points in script.values():
        yield from points.items()


def _first(value: Any) -> dict:
    return value[0] if isinstance(value, list) else value


def _code(code: str) -> Detector:
    return lambda pa: any(a.get("code") == code for a in (pa[1] if isinstance(pa[1], list) else [pa[1]]))


def _then(signal: str | None) -> Detector:
    def detect(pa) -> bool:
        a = _first(pa[1])
        return pa[0] == "Permit" and a.get("code") == "Wait" and "timeout" in a and (
            a.get("then", {}).get("signal") == signal if signal else "then" not in a)
    return detect


ACTION_FEATURES: dict[str, tuple[float, Detector]] = {
    **{f"code {c}": (0.01, _code(c)) for c in ("Error", "Unschedulable", "UnschedulableAndUnresolvable", "Wait",
                                               "Skip", "Pending")},
    "code Success": (0.01, lambda pa: any(a.get("code", "Skip" if pa[0] == "Bind" else "Success") == "Success"
                                          for a in (pa[1] if isinstance(pa[1], list) else [pa[1]]))),
    "reasons": (0.05, lambda pa: "reasons" in _first(pa[1])),
    "per-node actions": (0.05, lambda pa: "byNode" in _first(pa[1])),
    "per-node filter": (0.003, lambda pa: pa[0] == "Filter" and "byNode" in _first(pa[1])),
    "PreFilter result": (0.005, lambda pa: pa[0] == "PreFilter" and "result" in _first(pa[1])),
    "score in range": (0.005, lambda pa: pa[0] == "Score" and 0 < _first(pa[1]).get("score", 0) <= 100),
    "score out of range": (0.005, lambda pa: pa[0] == "Score" and not 0 <= _first(pa[1]).get("score", 0) <= 100),
    "normalized scores": (0.002, lambda pa: pa[0] == "NormalizeScore" and "scores" in _first(pa[1])),
    "nomination": (0.002, lambda pa: pa[0] == "PostFilter" and "nominate" in _first(pa[1])),
    "wait then allow": (0.001, _then("allow")),
    "wait then reject": (0.001, _then("reject")),
    "wait for the timeout": (0.001, _then(None)),
    "per attempt": (0.02, lambda pa: isinstance(pa[1], list)),
}


def extender_actions(script: dict) -> Iterator[tuple[str, dict]]:
    """(verb, action) for every scripted verb of an extender script."""
    for verbs in script.values():
        yield from verbs.items()


EXTENDER_FEATURES: dict[str, tuple[float, Detector]] = {
    "filter fail": (0.02, lambda va: "fail" in va[1]),
    "filter unresolvable": (0.02, lambda va: "unresolvable" in va[1]),
    "prioritize scores": (0.02, lambda va: "scores" in va[1]),
    "preempt victims": (0.005, lambda va: "victims" in va[1]),
    "error": (0.02, lambda va: "error" in va[1]),
    "HTTP status": (0.02, lambda va: "status" in va[1]),
}


def rates(units: list[Any], features: dict[str, tuple[float, Detector]]) -> dict[str, float]:
    return {name: sum(1 for u in units if detect(u)) / max(1, len(units)) for name, (_, detect) in features.items()}


def shortfalls(units: list[Any], features: dict[str, tuple[float, Detector]]) -> dict[str, tuple[float, float]]:
    """Features below their floor: name -> (rate, floor)."""
    measured = rates(units, features)
    return {n: (measured[n], floor) for n, (floor, _) in features.items() if measured[n] < floor}


__all__ = ["ACTION_FEATURES", "EXTENDER_FEATURES", "NODE_FEATURES", "POD_FEATURES", "SCENARIO_FEATURES",
           "WORKLOAD_FEATURES", "extender_actions", "probe_actions", "rates", "shortfalls"]
