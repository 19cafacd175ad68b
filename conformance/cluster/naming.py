"""Names and labels that mark what the suite creates, and the scenario <-> cluster namespace map."""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import socket
import time
from dataclasses import dataclass
from typing import Mapping

RUN_LABEL = "sched-conformance.io/run"  # on every object the suite creates; cleanup selects on it
SCENARIO_LABEL = "sched-conformance.io/scenario"
OWNER_ANNOTATION = "sched-conformance.io/owner"  # host:pid of the process that created the run
STARTED_ANNOTATION = "sched-conformance.io/started"  # unix seconds
NAMESPACE_PREFIX = "scc"
MAX_NAME = 63
MAX_SUBDOMAIN = 253


def new_run_id() -> str:
    return secrets.token_hex(4)


def owner() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def run_metadata(run_id: str, now: float | None = None) -> tuple[dict[str, str], dict[str, str]]:
    """(labels, annotations) for top-level objects: which run, who made it and when."""
    return ({RUN_LABEL: run_id},
            {OWNER_ANNOTATION: owner(), STARTED_ANNOTATION: str(int(now if now is not None else time.time()))})


def _dns_label(text: str) -> str:
    return re.sub(r"[^a-z0-9-]", "-", text.lower()).strip("-") or "x"


@dataclass(frozen=True)
class NamespaceMap:
    """Scenario namespace <-> a namespace of this run and scenario (`scc-<run>-<n>-<namespace>`).

    Each scenario gets fresh namespaces, so nothing from one scenario (late trace records, events)
    can be mistaken for the next one's, although pod names repeat.
    """

    run_id: str
    scenario: int
    forward: Mapping[str, str]

    @classmethod
    def of(cls, run_id: str, scenario: int, namespaces: list[str]) -> "NamespaceMap":
        prefix = f"{NAMESPACE_PREFIX}-{run_id}-{scenario}-"
        out = {}
        for ns in sorted(set(namespaces)):
            name = prefix + _dns_label(ns)
            if len(name) > MAX_NAME or _dns_label(ns) != ns:
                name = prefix + hashlib.sha256(ns.encode()).hexdigest()[:10]
            out[ns] = name
        return cls(run_id, scenario, out)

    def to_cluster(self, namespace: str) -> str:
        return self.forward[namespace]

    def to_scenario(self, namespace: str) -> str:
        for ns, cluster in self.forward.items():
            if cluster == namespace:
                return ns
        return namespace

    def key_to_scenario(self, key: str) -> str:
        ns, sep, name = key.partition("/")
        return f"{self.to_scenario(ns)}/{name}" if sep else key

    def key_to_cluster(self, key: str) -> str:
        ns, sep, name = key.partition("/")
        return f"{self.forward.get(ns, ns)}/{name}" if sep else key

    def text_to_scenario(self, text: str) -> str:
        """Messages name pods as `namespace/name` (e.g. "Successfully assigned ns/pod to node")."""
        for ns, cluster in sorted(self.forward.items(), key=lambda kv: -len(kv[1])):
            text = text.replace(cluster + "/", ns + "/")
        return text


def scenario_scoped(nsmap: NamespaceMap, name: str) -> str:
    """A cluster-scoped object's name for one scenario of one run (`scc-<run>-<n>-<name>`), a DNS subdomain."""
    prefix = f"{NAMESPACE_PREFIX}-{nsmap.run_id}-{nsmap.scenario}-"
    return prefix + name if len(prefix + name) <= MAX_SUBDOMAIN else prefix + hashlib.sha256(name.encode()).hexdigest()[:10]


__all__ = ["NAMESPACE_PREFIX", "NamespaceMap", "OWNER_ANNOTATION", "RUN_LABEL", "SCENARIO_LABEL",
           "STARTED_ANNOTATION", "new_run_id", "owner", "run_metadata", "scenario_scoped"]
