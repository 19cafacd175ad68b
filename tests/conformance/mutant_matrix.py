"""Every mutant the matrix (conformance/invariants/proofs.py) names, with its witness: rule_mutants.py's, and
those of issue 32's pending rule directions (pending_mutants.py, pending_mutants_2.py, pending_witnesses.py,
pending_mutants_h32c.py, pending_mutants_h32code.py), the fault rules' (pending_mutants_h31.py), plus the event
rules' mutants, imported from their own test module (which searches for them itself)."""

from __future__ import annotations

from typing import Callable

from reference.scenario import Scenario
from reference.scheduler.scheduler import Scheduler

from .invariants.test_event_rules import MUTANTS as EVENT_MUTANTS
from .pending_mutants import NEW_RULE_MUTANTS, NEW_RULE_MUTANTS_2
from .pending_mutants_2 import NEW_RULE_MUTANTS_3, NEW_RULE_MUTANTS_4, NEW_RULE_MUTANTS_5
from .pending_mutants_h31 import FAULT_MUTANTS, FAULT_WITNESSES
from .pending_mutants_h32c import NEW_RULE_MUTANTS_H32C, WITNESSES_H32C
from .pending_mutants_h32code import NEW_RULE_MUTANTS_H32CODE, WITNESSES_H32CODE
from .pending_mutants_h32d import NEW_RULE_MUTANTS_H32D, WITNESSES_H32D
from .pending_witnesses import PENDING_WITNESSES
from .rule_mutants import ALL_HOOKS as RULE_HOOKS
from .rule_mutants import OLDER_MUTANTS, RuleMutant
from .rule_mutants import RULE_MUTANTS as FIRST_RULE_MUTANTS
from .rule_mutants import WITNESSES as RULE_WITNESSES

PENDING_MUTANTS: list[RuleMutant] = (NEW_RULE_MUTANTS + NEW_RULE_MUTANTS_2 + NEW_RULE_MUTANTS_3
                                     + NEW_RULE_MUTANTS_4 + NEW_RULE_MUTANTS_5 + NEW_RULE_MUTANTS_H32C
                                     + NEW_RULE_MUTANTS_H32CODE + NEW_RULE_MUTANTS_H32D + FAULT_MUTANTS)
RULE_MUTANTS: list[RuleMutant] = FIRST_RULE_MUTANTS + PENDING_MUTANTS
WITNESSES: dict[str, Callable[[], Scenario]] = {**RULE_WITNESSES, **PENDING_WITNESSES, **WITNESSES_H32C,
                                                **WITNESSES_H32CODE, **WITNESSES_H32D, **FAULT_WITNESSES}
ALL_HOOKS: dict[str, Callable[[Scheduler], None]] = {
    **RULE_HOOKS, **{m.name: m.hook for m in PENDING_MUTANTS},
    **{name: hook for name, (hook, _) in EVENT_MUTANTS.items()}}

__all__ = ["ALL_HOOKS", "OLDER_MUTANTS", "RULE_MUTANTS", "WITNESSES"]
