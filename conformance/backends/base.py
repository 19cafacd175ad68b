"""The Backend protocol: run a Scenario, return an Outcome, declare what you can observe."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

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


def refuse_faults(scenario: Scenario, backend: str, capabilities: frozenset[str]) -> None:
    """Refuse, before anything starts, a scenario with a timeline fault whose op the backend cannot inject."""
    for i, entry in enumerate(scenario.timeline):
        op = entry.get("op") if isinstance(entry, dict) else None
        if op in FAULT_OPS and f"fault-{op}" not in capabilities:
            raise BackendFailure(f"scenario.timeline[{i}]: backend {backend!r} cannot inject a {op} fault (no "
                                 f"capability fault-{op}); drop the fault or run it on --backend reference")


__all__ = ["CAPABILITIES", "Backend", "refuse_faults"]
