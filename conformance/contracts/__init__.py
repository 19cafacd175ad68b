"""Plugin contract properties: one plugin, in-tree or the user's, driven directly (`sched-conformance check-plugin`).

Each property has an id, a statement and the upstream source of its rule (`REGISTRY`); `find_violation`
searches one property on one plugin through the plugin driver (harness/driver) and shrinks a failure.
"""

from . import binding, extensions, hints, ordering, purity, races, reserve, scoring  # noqa: F401 - they register
from .base import PANIC, REGISTRY, ContractViolation, Property
from .driver import DriverCrash, DriverError, PluginDriver, UnknownPlugin
from .search import ContractFailure, SharedSearches, Tally, find_violation, find_violations

__all__ = ["ContractFailure", "ContractViolation", "DriverCrash", "DriverError", "PANIC", "PluginDriver",
           "Property", "REGISTRY", "SharedSearches", "Tally", "UnknownPlugin", "find_violation",
           "find_violations"]
