"""The differential: two backends agree where upstream is deterministic (`compare`), searched over drawn
scenarios (`search`), with timelines too (`timeline`)."""

from .compare import (DIFFERENTIAL, Disagreement, best_nodes, call_multiset, calls_disagreement, disagreements,
                      errored_in_parallel, choice_is_open, compare, first_open_choice, first_preemption, horizon,
                      partial_dry_run, settled, single_feasible)
from .search import (FAULT_SHARE, FAULTS, TIMELINE_EVENTS, TIMELINE_SHARE, fault_scenarios_for,
                     find_disagreement, run_both, scenarios_for, timeline_scenarios_for)

__all__ = ["DIFFERENTIAL", "FAULTS", "FAULT_SHARE", "TIMELINE_EVENTS", "TIMELINE_SHARE", "Disagreement",
           "best_nodes", "call_multiset", "calls_disagreement", "choice_is_open", "compare", "disagreements",
           "errored_in_parallel", "fault_scenarios_for", "find_disagreement", "first_open_choice",
           "first_preemption", "horizon", "partial_dry_run", "run_both", "scenarios_for", "settled",
           "single_feasible", "timeline_scenarios_for"]
