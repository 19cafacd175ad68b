"""A pure-Python reference implementation of the Kubernetes scheduling framework (v1.37.2).

The public names below are imported on first use, so `import reference` stays cheap.

PYTEST_DONT_REWRITE: `sched-conformance run` imports this package before `pytest.main` marks the installed
distribution's packages for assertion rewriting; without the marker pytest warns, an error under `-W error`."""

from __future__ import annotations

from .lazy_exports import lazy_exports

# name -> the module that defines it
_PUBLIC = {
    "BindPlugin": "reference.interfaces", "Code": "reference.status", "FilterPlugin": "reference.interfaces",
    "Handle": "reference.interfaces", "MAX_NODE_SCORE": "reference.interfaces", "MIN_NODE_SCORE": "reference.interfaces",
    "NodeScore": "reference.interfaces", "NodeToStatus": "reference.interfaces", "PermitPlugin": "reference.interfaces",
    "Plugin": "reference.interfaces", "PluginArgs": "reference.registry", "PluginSpec": "reference.registry",
    "PostBindPlugin": "reference.interfaces", "PostFilterPlugin": "reference.interfaces",
    "PostFilterResult": "reference.interfaces", "PreBindPlugin": "reference.interfaces",
    "PreEnqueuePlugin": "reference.interfaces", "PreFilterPlugin": "reference.interfaces",
    "PreFilterResult": "reference.interfaces", "PreScorePlugin": "reference.interfaces",
    "QueueSortPlugin": "reference.interfaces", "ReferenceError_": "reference.errors", "Registry": "reference.registry",
    "ReservePlugin": "reference.interfaces", "Scenario": "reference.scenario", "ScenarioError": "reference.scenario",
    "Scheduler": "reference.scheduler.scheduler", "ScorePlugin": "reference.interfaces", "Status": "reference.status",
    "VirtualClock": "reference.scheduler.clock", "build_scheduler": "reference.scheduler.build",
    "expand_config": "reference.config", "in_tree_registry": "reference.plugins", "load_config": "reference.config",
    "probe_registry": "reference.probe",
}
__all__ = sorted(_PUBLIC)

__getattr__, __dir__ = lazy_exports("reference", _PUBLIC, globals())
