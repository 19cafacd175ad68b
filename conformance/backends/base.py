"""The Backend protocol: run a Scenario, return an Outcome, declare what you can observe."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Collection, Mapping, Protocol, runtime_checkable

from reference.faults import OPS as FAULT_OPS
from reference.scenario import Scenario

from ..core.errors import BackendFailure
from ..core.outcome import Outcome

CAPABILITIES = {
    "probes": "probe plugins can be configured and the trace is filled",
    "extenders": "${EXTENDER_URL} extenders reach the suite's extender server",
    "config-per-scenario": "each scenario's scheduler config is honoured",
    "virtual-time": "timeouts and backoff cost no wall time",
    "preemption": "victims are really deleted and reported",
    "plugin-list": "the built framework's plugins per point are reported",
    "queue-attempts": "attempts come from the scheduling queue itself",
    "creation-order": "workload pods are queued together, in the scenario's order (equal priorities pop in it)",
    "extender-exchanges": "calls of the user's own extenders are recorded (request, answer) in `exchanges`",
    "observed-plugins": "every call of the configured (non-probe) plugins is recorded in `observed`",
    "custom-objects": "the scenario's `customObjects` (kinds the reference does not model, e.g. a plugin's CRDs) "
                      "are created on an API server, where the user's plugins read them",
    "reference-release": "runs the Kubernetes minor release the reference models (its default plugins and "
                         "their expansion)",
    "fault-fail": "timeline faults `op: fail` make the scheduler's own API calls (binding, status patch, victim "
                  "delete, event write) answer with an error",
    "fault-vanish": "timeline faults `op: vanish` delete a pod, its chosen node or a victim when a pod reaches an "
                    "extension point",
    "fault-restart": "timeline faults `op: restart` restart the scheduler when a pod reaches an extension point; "
                     "the new one starts from what the API server holds",
    "fault-lag": "timeline faults `op: lag` deliver a node's watch events to the scheduler a virtual delay "
                 "late",
}


@runtime_checkable
class Backend(Protocol):
    name: str
    capabilities: frozenset[str]
    kubernetes_version: str

    def run(self, scenario: Scenario) -> Outcome:
        """Run one scenario from a clean state; raise BackendFailure when the backend itself breaks."""
        ...

    def close(self) -> None:
        """Release processes, servers and cluster objects; safe to call twice."""
        ...


def refuse_faults(scenario: Scenario, backend: str, capabilities: frozenset[str],
                  details: Mapping[str, Collection[str]] | None = None,
                  errors: Collection[str] | None = None) -> None:
    """Refuse, before anything starts, a scenario with a timeline fault whose op the backend cannot inject,
    or (`details`: op -> the calls of `fail`, the points of `vanish`/`restart` it can) not at that call or
    point, or (`errors`: the errors its `fail` answers) with another error."""
    for i, entry in enumerate(scenario.timeline):
        op = entry.get("op") if isinstance(entry, dict) else None
        if op not in FAULT_OPS:
            continue
        if f"fault-{op}" not in capabilities:
            raise BackendFailure(f"scenario.timeline[{i}]: backend {backend!r} cannot inject a {op} fault (no "
                                 f"capability fault-{op}); drop the fault or run it on --backend reference")
        if op == "fail" and errors is not None and entry.get("error") not in errors:
            only = ", ".join(errors)
            raise BackendFailure(f"scenario.timeline[{i}].error: backend {backend!r} cannot answer a call "
                                 f"with {entry.get('error')!r} (only {only}); use one of those or run it on "
                                 "--backend upstream or reference")
        field = "call" if op == "fail" else "point"
        if details is not None and op in details and entry.get(field) not in details[op]:
            raise BackendFailure(f"scenario.timeline[{i}].{field}: backend {backend!r} cannot inject a {op} "
                                 f"fault at {field} {entry.get(field)!r} (only at {', '.join(details[op])}); "
                                 "use one of those or run it on --backend upstream or reference")


def injectable(scenario: Scenario, backend: Any) -> Scenario:
    """`scenario` without the fault entries `backend` would refuse (its `check_faults(scenario)` when it has
    one, else `refuse_faults` on its capabilities): what a drawn scenario keeps for that backend."""
    check = getattr(backend, "check_faults", None) or (
        lambda sc: refuse_faults(sc, backend.name, frozenset(backend.capabilities)))
    kept = []
    for entry in scenario.timeline:
        if isinstance(entry, dict) and entry.get("op") in FAULT_OPS:
            try:
                check(replace(scenario, timeline=(entry,)))
            except BackendFailure:
                continue
        kept.append(entry)
    return scenario if len(kept) == len(scenario.timeline) else replace(scenario, timeline=tuple(kept))


__all__ = ["CAPABILITIES", "Backend", "injectable", "refuse_faults"]
