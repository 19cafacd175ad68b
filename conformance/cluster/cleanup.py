"""Finding and removing what the suite created: a scenario's objects, a run, stale runs, everything.

Selection is by the run label alone, so cleanup never touches an object the suite did not make.
Namespaced objects live in run namespaces; emptying one deletes every object in it (all of which
the run made, or the scheduler made about the run's pods: events).
"""

from __future__ import annotations

import socket
import time
from dataclasses import dataclass
from typing import Callable, Iterable

from . import processes
from .kube import Kube, KubeError, path
from .naming import OWNER_ANNOTATION, RUN_LABEL, SCENARIO_LABEL, STARTED_ANNOTATION

# CRDs last: a run's CRDs (--crd) go after its objects; deleting one deletes its custom objects too.
TOP_LEVEL = ("Namespace", "Node", "PriorityClass", "RuntimeClass", "CustomResourceDefinition")
IN_NAMESPACE = ("Pod", "PodDisruptionBudget", "Service", "ReplicaSet", "ReplicationController", "StatefulSet",
                "ServiceAccount", "Event")
STALE_AFTER = 3 * 3600.0


@dataclass(frozen=True)
class Found:
    kind: str
    name: str
    run: str
    owner: str = ""
    started: float = 0.0


def find(kube: Kube, run_id: str | None = None) -> list[Found]:
    """Top-level objects of `run_id`, or of every run when None."""
    selector = f"{RUN_LABEL}={run_id}" if run_id else RUN_LABEL
    out = []
    for kind in TOP_LEVEL:
        items, _ = kube.list(path(kind), label_selector=selector)
        for obj in items:
            meta = obj.get("metadata") or {}
            notes = meta.get("annotations") or {}
            try:
                started = float(notes.get(STARTED_ANNOTATION, 0))
            except ValueError:
                started = 0.0
            out.append(Found(kind, meta["name"], (meta.get("labels") or {}).get(RUN_LABEL, ""),
                             notes.get(OWNER_ANNOTATION, ""), started))
    return out


def stale_runs(found: Iterable[Found], *, now: float, host: str, pid_alive: Callable[[int], bool],
               max_age: float = STALE_AFTER) -> set[str]:
    """Runs whose creating process on this host is gone, or that started more than `max_age` ago.

    A run of another host that is younger than `max_age` may still be going: it is left alone.
    """
    by_run: dict[str, list[Found]] = {}
    for f in found:
        by_run.setdefault(f.run, []).append(f)
    stale = set()
    for run, items in by_run.items():
        owners = {f.owner for f in items if f.owner}
        started = max((f.started for f in items), default=0.0)
        dead_here = any(o.rpartition(":")[0] == host and o.rpartition(":")[2].isdigit()
                        and not pid_alive(int(o.rpartition(":")[2])) for o in owners)
        if dead_here or not owners or (started and now - started > max_age):
            stale.add(run)
    return stale


def empty_namespace(kube: Kube, namespace: str, *, selector: str | None = None) -> None:
    for kind in IN_NAMESPACE:
        try:
            kube.delete_collection(path(kind, namespace), label_selector=selector,
                                   grace=0 if kind == "Pod" else None)
        except KubeError as exc:
            if exc.status != 404:
                raise


def delete_namespace(kube: Kube, name: str, *, finalize: bool) -> bool:
    """Empty and delete; with `finalize` (no namespace controller runs) also drop its finalizer."""
    empty_namespace(kube, name)
    found = kube.delete(path("Namespace", name=name))
    if finalize:
        ns = kube.get(path("Namespace", name=name))
        if ns is not None:
            ns.setdefault("spec", {})["finalizers"] = []
            try:
                kube.put(path("Namespace", name=name, sub="finalize"), ns)
            except KubeError as exc:
                if exc.status not in (404, 409):
                    raise
    return found


def remove(kube: Kube, found: Iterable[Found], *, finalize: bool) -> list[str]:
    """Delete the objects (namespaces emptied first); one message per object removed."""
    messages = []
    for f in sorted(found, key=lambda f: TOP_LEVEL.index(f.kind)):
        if f.kind == "Namespace":
            gone = delete_namespace(kube, f.name, finalize=finalize)
        else:
            gone = kube.delete(path(f.kind, name=f.name))
        if gone:
            messages.append(f"deleted {f.kind} {f.name} (run {f.run})")
    return messages


def remove_scenario(kube: Kube, run_id: str, scenario: int, namespaces: Iterable[str], *, finalize: bool) -> None:
    """A scenario's pods go first (grace 0: no kubelet will confirm), then its namespaces, nodes and
    the classes it carried (the classes made from bare priorities and overheads live for the run)."""
    selector = f"{RUN_LABEL}={run_id},{SCENARIO_LABEL}={scenario}"
    for ns in namespaces:
        delete_namespace(kube, ns, finalize=finalize)
    for kind in ("Node", "PriorityClass", "RuntimeClass"):
        kube.delete_collection(path(kind), label_selector=selector)


def sweep(kube: Kube, *, finalize: bool, max_age: float = STALE_AFTER, keep: str | None = None) -> list[str]:
    """Remove stale runs (not `keep`): what an interrupted earlier run left behind."""
    found = [f for f in find(kube) if f.run != keep]
    stale = stale_runs(found, now=time.time(), host=socket.gethostname(),
                       pid_alive=lambda pid: processes.alive(pid), max_age=max_age)
    return remove(kube, [f for f in found if f.run in stale], finalize=finalize)


def wait_gone(kube: Kube, run_id: str | None, timeout: float) -> list[Found]:
    """What is still there after `timeout` (namespaces may take a while where a controller finalizes them)."""
    deadline = time.monotonic() + timeout
    while True:
        left = find(kube, run_id)
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.2)


__all__ = ["Found", "IN_NAMESPACE", "STALE_AFTER", "TOP_LEVEL", "delete_namespace", "empty_namespace", "find",
           "remove", "remove_scenario", "stale_runs", "sweep", "wait_gone"]
