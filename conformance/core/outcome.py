"""Outcome: what a backend's scheduler did with a scenario (format: docs/scenario.md)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Mapping

PHASES = ("bound", "unschedulable", "error", "gated", "waiting", "pending")


@dataclass(frozen=True)
class PodOutcome:
    phase: str
    node: str = ""
    attempts: int = 0
    condition: Mapping[str, str] | None = None
    nominated_node_name: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"phase": self.phase, "node": self.node, "attempts": self.attempts,
                "condition": dict(self.condition) if self.condition else None,
                "nominatedNodeName": self.nominated_node_name}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "PodOutcome":
        phase = d.get("phase")
        if phase not in PHASES:
            raise ValueError(f"outcome pod phase {phase!r} is not one of {', '.join(PHASES)}")
        return cls(phase, d.get("node") or "", int(d.get("attempts") or 0), d.get("condition"),
                   d.get("nominatedNodeName") or "")


@dataclass(frozen=True)
class Outcome:
    backend: str
    kubernetes_version: str
    pods: Mapping[str, PodOutcome]
    bindings: tuple[Mapping[str, Any], ...] = ()
    deleted: tuple[str, ...] = ()
    events: tuple[Mapping[str, Any], ...] = ()
    trace: tuple[Mapping[str, Any], ...] = ()
    plugins: Mapping[str, Mapping[str, list]] = field(default_factory=dict)
    # Calls of observed plugins (any plugin, not only probes), with their own seq and attempt count.
    observed: tuple[Mapping[str, Any], ...] = ()
    # Calls of the user's own extenders through the suite's recording proxy (conformance/extender/proxy.py).
    exchanges: tuple[Mapping[str, Any], ...] = ()
    # The scenario's timeline events that applied, in order: {"index": i, "at": virtual seconds}.
    timeline: tuple[Mapping[str, Any], ...] = ()
    # Each firing of a timeline fault (docs/scenario.md, Faults), in order:
    # {"index": i, "at": virtual seconds, "pod": key, "fault": op, "detail": call or point}.
    faults: tuple[Mapping[str, Any], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"backend": self.backend, "kubernetesVersion": self.kubernetes_version,
                "pods": {k: v.to_dict() for k, v in self.pods.items()},
                "bindings": [dict(b) for b in self.bindings], "deleted": list(self.deleted),
                "events": [dict(e) for e in self.events], "trace": [dict(r) for r in self.trace],
                "plugins": {k: dict(v) for k, v in self.plugins.items()},
                **({"observed": [dict(r) for r in self.observed]} if self.observed else {}),
                **({"exchanges": [dict(e) for e in self.exchanges]} if self.exchanges else {}),
                **({"timeline": [dict(e) for e in self.timeline]} if self.timeline else {}),
                **({"faults": [dict(f) for f in self.faults]} if self.faults else {})}

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Outcome":
        return cls(backend=str(d.get("backend", "")), kubernetes_version=str(d.get("kubernetesVersion", "")),
                   pods={k: PodOutcome.from_dict(v) for k, v in (d.get("pods") or {}).items()},
                   bindings=tuple(d.get("bindings") or ()), deleted=tuple(d.get("deleted") or ()),
                   events=tuple(d.get("events") or ()), trace=tuple(d.get("trace") or ()),
                   plugins=dict(d.get("plugins") or {}), observed=tuple(d.get("observed") or ()),
                   exchanges=tuple(d.get("exchanges") or ()), timeline=tuple(d.get("timeline") or ()),
                   faults=tuple(d.get("faults") or ()))

    # --- trace queries used by invariants -------------------------------------------------------

    def calls(self, *, pod: str | None = None, point: str | None = None, plugin: str | None = None,
              attempt: int | None = None) -> list[Mapping[str, Any]]:
        return [r for r in self.trace
                if (pod is None or r.get("pod") == pod) and (point is None or r.get("point") == point)
                and (plugin is None or r.get("plugin") == plugin) and (attempt is None or r.get("attempt") == attempt)]

    def attempts_of(self, pod: str) -> list[int]:
        """The probe cycle numbers seen for `pod`, ascending (0 = PreEnqueue before any cycle)."""
        return sorted({r["attempt"] for r in self.trace if r.get("pod") == pod and "attempt" in r})


__all__ = ["Outcome", "PHASES", "PodOutcome"]
