"""Manifests and configs for the golden probe scenarios: probes only, so every decision is scripted."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from reference.scenario import PROBE_SCRIPT_ANNOTATION, Scenario

Manifest = dict[str, Any]


def config(*probes: str, normalize: Iterable[str] = (), extra: Mapping[str, Iterable[str]] | None = None) -> Manifest:
    """A profile of `probes` at every point (multiPoint) and no default plugin but the ones a profile
    needs: PrioritySort (queue sort) and DefaultBinder, which binds when every probe skips Bind.
    `normalize` probes get `scoreExtensions: true`; `extra` enables in-tree plugins at single points
    (upstream runs them after the probes there)."""
    normalize = set(normalize)
    unknown = normalize - set(probes)
    if unknown:
        raise ValueError(f"normalize names {sorted(unknown)} outside the profile's probes {list(probes)}; "
                         "name only probes of the profile")
    plugins: Manifest = {"multiPoint": {"enabled": [{"name": p} for p in probes], "disabled": [{"name": "*"}]},
                         "queueSort": {"enabled": [{"name": "PrioritySort"}]},
                         "bind": {"enabled": [{"name": "DefaultBinder"}]}}
    for point, names in (extra or {}).items():
        plugins.setdefault(point, {"enabled": []})["enabled"] += [{"name": n} for n in names]
    profile: Manifest = {"schedulerName": "default-scheduler", "plugins": plugins}
    if normalize:
        profile["pluginConfig"] = [{"name": p, "args": {"scoreExtensions": True}} for p in probes if p in normalize]
    return {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
            "profiles": [profile]}


def node(name: str, cpu: str = "4") -> Manifest:
    resources = {"cpu": cpu, "memory": "8Gi", "pods": "110"}
    return {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name}},
            "status": {"capacity": resources, "allocatable": resources}}


def pod(name: str, script: Manifest | None = None, *, node_name: str = "", priority: int | None = None,
        cpu: str = "100m") -> Manifest:
    meta: Manifest = {"name": name, "namespace": "default"}
    if script is not None:
        meta["annotations"] = {PROBE_SCRIPT_ANNOTATION: json.dumps(script, sort_keys=True)}
    spec: Manifest = {"containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": cpu}}}]}
    if node_name:
        spec["nodeName"] = node_name
    if priority is not None:
        spec["priority"] = priority
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}


def scenario(*workload: Manifest, probes: Iterable[str] = ("Probe0",), nodes: Iterable[str] = ("node-0",),
             normalize: Iterable[str] = (), extra: Mapping[str, Iterable[str]] | None = None,
             pods: Iterable[Manifest] = (), node_cpu: str = "4", deadline: float = 10) -> Scenario:
    return Scenario.from_dict({"version": 1, "config": config(*probes, normalize=normalize, extra=extra),
                               "nodes": [node(n, node_cpu) for n in nodes], "pods": list(pods),
                               "workload": list(workload), "deadline": deadline})


@dataclass(frozen=True)
class Golden:
    """One golden file: `name` is its file name (without .json), `about` the behaviour it pins."""

    name: str
    about: str
    scenario: Scenario
