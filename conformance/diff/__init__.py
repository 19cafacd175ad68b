"""Upgrade gating: `sched-conformance diff` runs the same scenarios on two scheduler builds, classifies and
groups what changed, shrinks each group, reports it and checks it against a baseline.

The public names are imported on first use, so the CLI builds its parser without importing Hypothesis
(which pytest must import first to rewrite it, in `sched-conformance run`)."""

from __future__ import annotations

from reference.lazy_exports import lazy_exports

# name -> the module that defines it
_PUBLIC = {
    "BaselineError": "conformance.diff.baseline", "Drawn": "conformance.diff.scenarios",
    "Group": "conformance.diff.groups", "KINDS": "conformance.diff.compare", "ScenarioDiff": "conformance.diff.compare",
    "Side": "conformance.diff.sides", "SideBuildError": "conformance.diff.sides",
    "SideResult": "conformance.diff.compare", "cause_key": "conformance.diff.groups",
    "differences": "conformance.diff.compare", "fixed_scenarios": "conformance.diff.scenarios",
    "group": "conformance.diff.groups", "make_sides": "conformance.diff.sides", "shrink": "conformance.diff.groups",
}
__all__ = sorted(_PUBLIC)

__getattr__, __dir__ = lazy_exports("conformance.diff", _PUBLIC, globals())
