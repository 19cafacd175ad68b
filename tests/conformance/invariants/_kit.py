"""Builders for invariant tests: node and pod manifests with scripts, probe-only configs, reference runs,
and outcomes edited by hand (the way a broken backend would report them)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any, Callable, Iterable, Mapping

import pytest

from conformance.backends.reference import ReferenceBackend
from conformance.extender.server import ExtenderServer
from conformance.invariants import Run, Violation
from conformance.invariants.base import Invariant
from reference.scenario import EXTENDER_SCRIPT_ANNOTATION, PROBE_SCRIPT_ANNOTATION, Scenario

API = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration"}
CAPABILITIES = ReferenceBackend.capabilities


def node(name: str = "node-0", *, cpu: str = "4", pods: str = "110") -> dict[str, Any]:
    alloc = {"cpu": cpu, "memory": "8Gi", "pods": pods}
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name}},
            "status": {"allocatable": alloc, "capacity": alloc}}


def pod(name: str = "pod-0", *, priority: int | None = None, probes: Mapping | None = None,
        extenders: Mapping | None = None, cpu: str | None = None, on: str | None = None, gates: Iterable[str] = (),
        policy: str | None = None) -> dict[str, Any]:
    """A pod; `on` binds it (for `Scenario.pods`), `probes`/`extenders` become its script annotations."""
    container: dict[str, Any] = {"name": "c", "image": "registry.k8s.io/pause:3.10"}
    if cpu:
        container["resources"] = {"requests": {"cpu": cpu}}
    spec: dict[str, Any] = {"containers": [container]}
    if priority is not None:
        spec["priority"] = priority
    if policy:
        spec["preemptionPolicy"] = policy
    if on:
        spec["nodeName"] = on
    if gates:
        spec["schedulingGates"] = [{"name": g} for g in gates]
    annotations = {}
    if probes is not None:
        annotations[PROBE_SCRIPT_ANNOTATION] = json.dumps(probes)
    if extenders is not None:
        annotations[EXTENDER_SCRIPT_ANNOTATION] = json.dumps(extenders)
    meta: dict[str, Any] = {"name": name, "namespace": "default"}
    if annotations:
        meta["annotations"] = annotations
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}


def ported(name: str, *, sidecar: bool = False, ip: str = "", port: int = 8080) -> dict[str, Any]:
    """`pod(name)` asking for host port `port` (on `ip`), in its container or in a sidecar (a restartable init
    container)."""
    wanted = {"containerPort": port, "hostPort": port, "protocol": "TCP", **({"hostIP": ip} if ip else {})}
    manifest = pod(name)
    if sidecar:
        manifest["spec"]["initContainers"] = [{"name": "side", "image": "registry.k8s.io/pause:3.10",
                                               "restartPolicy": "Always", "ports": [wanted]}]
    else:
        manifest["spec"]["containers"][0]["ports"] = [wanted]
    return manifest


def extender(name: str = "ext-0", *, verbs: Iterable[str] = ("filter",), weight: int = 1,
             ignorable: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"urlPrefix": f"${{EXTENDER_URL}}/{name}", **{f"{v}Verb": v for v in verbs}}
    if "prioritize" in verbs:
        out["weight"] = weight
    if ignorable:
        out["ignorable"] = True
    return out


def config(points: Mapping[str, Iterable[str] | Mapping] | None = None, *, multi_point: Iterable[str] = ("Probe0",),
           defaults: bool = False, extenders: Iterable[Mapping] = ()) -> dict[str, Any]:
    """One profile: probes in multiPoint, or at the given points (v1 names: plugin names in order, or
    a whole plugin set); without `defaults` only PrioritySort and DefaultBinder stay of the defaults."""
    plugins: dict[str, Any] = {}
    multi = [{"name": n} for n in multi_point] if points is None else []
    if not defaults:
        plugins["multiPoint"] = {"disabled": [{"name": "*"}],
                                 "enabled": [{"name": "PrioritySort"}, {"name": "DefaultBinder"}, *multi]}
    elif multi:
        plugins["multiPoint"] = {"enabled": multi}
    for point, names in (points or {}).items():
        plugins[point] = dict(names) if isinstance(names, Mapping) else {"enabled": [{"name": n} for n in names]}
    out = {**API, "profiles": [{"schedulerName": "default-scheduler", "plugins": plugins}]}
    extenders = list(extenders)
    if extenders:
        out["extenders"] = extenders
    return out


def scenario(workload: Iterable[Mapping], *, nodes: Iterable[Mapping] | None = None, cfg: Mapping | None = None,
             bound: Iterable[Mapping] = ()) -> Scenario:
    return Scenario(config=dict(cfg) if cfg is not None else None,
                    nodes=tuple(nodes if nodes is not None else (node(),)), pods=tuple(bound),
                    workload=tuple(workload))


def run_on_reference(sc: Scenario, *, server: ExtenderServer | None = None,
                     hook: Callable | None = None) -> Run:
    backend = ReferenceBackend(extender_server=server, hook=hook)
    return Run(sc, backend.run(sc), frozenset(CAPABILITIES))


def edited(run: Run, *, capabilities: Iterable[str] | None = None, **fields: Any) -> Run:
    """The same run with outcome fields replaced (what a backend with that behaviour would report)."""
    outcome = dataclasses.replace(run.outcome, **fields)
    caps = frozenset(capabilities) if capabilities is not None else run.capabilities
    return Run(run.scenario, outcome, caps)


def with_pod(run: Run, pod_key: str, **fields: Any) -> Run:
    pods = dict(run.outcome.pods)
    pods[pod_key] = dataclasses.replace(pods[pod_key], **fields)
    return edited(run, pods=pods)


def violation(inv: Invariant, run: Run) -> Violation:
    with pytest.raises(Violation) as info:
        inv.check(run)
    assert info.value.invariant == inv.id
    return info.value


def violated(invariant_id: str, run: Run) -> bool:
    """Whether the registered invariant `invariant_id` finds a violation in `run`."""
    from conformance.invariants import REGISTRY
    try:
        REGISTRY[invariant_id].check(run)
    except Violation:
        return True
    return False


__all__ = ["API", "CAPABILITIES", "config", "edited", "extender", "node", "pod", "ported",
           "run_on_reference", "scenario", "violated", "violation", "with_pod"]
