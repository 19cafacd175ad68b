"""Which scenarios each invariant theme draws (an invariant may declare its own `focus`): focused generators
find and shrink bugs faster."""

from __future__ import annotations

from typing import Any

from ..invariants.base import Invariant

THEMES: dict[str, dict[str, Any]] = {
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
    "faults": {"faults": 1, "max_nodes": 2, "max_pods": 3},
}


def scenario_options(inv: Invariant) -> dict[str, Any]:
    """Keyword options for `generators.scenarios()` that focus on `inv`: its own (`@invariant(focus=...)`), or
    its theme's."""
    return dict(inv.focus if inv.focus is not None else THEMES.get(inv.theme, {}))


__all__ = ["THEMES", "scenario_options"]
