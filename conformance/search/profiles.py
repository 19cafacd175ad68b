"""Hypothesis settings profiles of the suite, registered in one place."""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, Phase, settings

from ..options import PROFILES  # the names, for the CLI's and pytest's choices without importing Hypothesis

# A directory of Hypothesis' example database kept between runs (a CI cache): failures found by one run
# replay first in the next, in every profile. Set by --example-db (conformance/options).
EXAMPLE_DB_ENV = "SCHED_CONFORMANCE_EXAMPLE_DB"
_SUPPRESS = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]


def register() -> None:
    # Every profile derives from Hypothesis' own defaults, not from the profile loaded in this process:
    # Hypothesis loads its "ci" profile (derandomized) whenever $CI is set, which would make dev and
    # thorough runs draw the same examples every time in the user's CI.
    base = settings.get_profile("default")
    settings.register_profile("sched-conformance-dev", base, max_examples=30, deadline=None,
                              suppress_health_check=_SUPPRESS)
    # ci: the same examples every run (derandomized), the seed and blob printed, no deadline.
    settings.register_profile("sched-conformance-ci", base, max_examples=100, deadline=None, derandomize=True,
                              print_blob=True, suppress_health_check=_SUPPRESS, database=None)
    # mutation: benchmarks/mutation.py runs the whole suite once per mutant of the reference; few
    # derandomized examples, no shrinking (a kill needs no small counterexample).
    settings.register_profile("sched-conformance-mutation", base, max_examples=25, deadline=None,
                              derandomize=True, suppress_health_check=_SUPPRESS, database=None,
                              phases=(Phase.explicit, Phase.reuse, Phase.generate))
    settings.register_profile("sched-conformance-thorough", base, max_examples=500, deadline=None,
                              suppress_health_check=_SUPPRESS)


def for_profile(name: str) -> settings:
    if name not in PROFILES:
        raise ValueError(f"conformance profile {name!r} is unknown; use one of {', '.join(PROFILES)}")
    register()
    return settings.get_profile(f"sched-conformance-{name}")


def example_database() -> Any:
    """The example database $SCHED_CONFORMANCE_EXAMPLE_DB names, or None."""
    directory = os.environ.get(EXAMPLE_DB_ENV)
    if not directory:
        return None
    from hypothesis.database import DirectoryBasedExampleDatabase
    return DirectoryBasedExampleDatabase(directory)


__all__ = ["EXAMPLE_DB_ENV", "PROFILES", "example_database", "for_profile", "register"]
