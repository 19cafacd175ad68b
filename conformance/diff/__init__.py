"""Upgrade gating: `sched-conformance diff` runs the same scenarios on two scheduler builds, classifies and
groups what changed, shrinks each group, reports it and checks it against a baseline."""

from .baseline import BaselineError
from .compare import KINDS, ScenarioDiff, SideResult, differences
from .groups import Group, cause_key, group, shrink
from .scenarios import Drawn, fixed_scenarios
from .sides import Side, SideBuildError, make_sides

__all__ = ["BaselineError", "Drawn", "Group", "KINDS", "ScenarioDiff", "Side", "SideBuildError", "SideResult",
           "cause_key", "differences", "fixed_scenarios", "group", "make_sides", "shrink"]
