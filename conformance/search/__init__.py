"""Searching for counterexamples: the one engine (`run_search`), the settings profiles, and the search of one
invariant on one backend."""

from .engine import SHRINK_SECONDS, Found, Replay, run_search
from .invariants import Exercised, Failure, check, default_strategy, find_violation, scenario_size
from .profiles import PROFILES, for_profile

__all__ = ["Exercised", "Failure", "Found", "PROFILES", "Replay", "SHRINK_SECONDS", "check", "default_strategy",
           "find_violation", "for_profile", "run_search", "scenario_size"]
