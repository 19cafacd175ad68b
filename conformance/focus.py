"""Which scenarios each invariant theme draws: focused generators find and shrink bugs faster."""

from __future__ import annotations

from typing import Any

from .invariants import Invariant

_BY_THEME: dict[str, dict[str, Any]] = {
    "filtering": {"points": ("PreFilter", "Filter", "PostFilter", "AddPod", "RemovePod"), "gates": True},
    "scoring": {"points": ("PreFilter", "Filter", "PreScore", "Score", "NormalizeScore"), "default_plugins": False},
    "reserve": {"points": ("PreFilter", "Reserve", "Permit", "PreBind", "Bind")},
    "permit": {"points": ("PreFilter", "Reserve", "Permit")},
    "binding": {"points": ("PreFilter", "Reserve", "PreBind", "Bind", "PostBind")},
    "extenders": {"points": ("PreFilter", "Filter", "Score", "Reserve", "Bind"), "extenders": 2,
                  "default_plugins": False},
    "queue": {"points": ("PreFilter",), "max_pods": 4, "default_plugins": False},
    "preemption": {"preemption": True, "probes": 0, "max_pods": 8},
    "outcome": {"default_plugins": False, "max_permit_timeout": 1.0, "max_pods": 6},
    "config": {"profiles": 3, "probes": 3},
    # Outcome-only rules: the stock plugins decide, so no probes; often several pods and nodes.
    "placement": {"probes": 0, "default_plugins": True, "max_pods": 6},
    "topology": {"probes": 0, "default_plugins": True, "max_pods": 6},
    "liveness": {"probes": 0, "default_plugins": True, "max_pods": 6},
    "disruption": {"preemption": True, "probes": 0, "max_pods": 3},
    "points": {"default_plugins": False, "max_pods": 3},
}
_BY_ID: dict[str, dict[str, Any]] = {
    "extender-binder-first": {"points": ("PreFilter", "Bind"), "extenders": 1},
    "capacity-respected": {"probes": 0, "default_plugins": True, "max_pods": 6},
    "bound-at-most-once": {"points": ("PreFilter", "Bind")},
    "gated-pods-never-prefiltered": {"points": ("PreFilter",), "gates": True},
    "calls-match-profile": {"profiles": 3, "probes": 3, "default_plugins": False},
    "preenqueue-gates": {"points": ("PreEnqueue", "PreFilter"), "max_pods": 3, "default_plugins": False},
    "extender-scores-scaled": {"points": ("PreFilter", "Reserve"), "extenders": 3, "default_plugins": False,
                               "max_pods": 6},
    "fit-error-message": {"points": ("PreFilter", "Filter", "PostFilter", "Reserve", "Permit"), "extenders": 1,
                          "default_plugins": False, "max_pods": 6},
    "condition-classification": {"points": ("PreFilter", "PreScore", "Score", "Reserve", "Permit", "PreBind", "Bind"),
                                 "default_plugins": False, "max_pods": 6},
}


def scenario_options(inv: Invariant) -> dict[str, Any]:
    """Keyword options for `generators.scenarios()` that focus on `inv`."""
    return dict(_BY_ID.get(inv.id, _BY_THEME.get(inv.theme, {})))


__all__ = ["scenario_options"]
