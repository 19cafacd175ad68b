"""Mirrors pkg/scheduler/framework/plugins/interpodaffinity/ (filtering.go, scoring.go, plugin.go).

The modules here follow those files one to one; `terms` holds the term parsing and namespace
merging upstream spreads over framework.NewPodInfo and plugin.go, `args` InterPodAffinityArgs.
"""

from .args import InterPodAffinityArgs
from .filtering import (ERR_REASON_AFFINITY_RULES_NOT_MATCH, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
                        ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH)
from .plugin import NAME, InterPodAffinity

__all__ = [
    "ERR_REASON_AFFINITY_RULES_NOT_MATCH",
    "ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH",
    "ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH",
    "InterPodAffinity",
    "InterPodAffinityArgs",
    "NAME",
]
