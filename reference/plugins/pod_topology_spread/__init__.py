"""Mirrors pkg/scheduler/framework/plugins/podtopologyspread/ (common.go, filtering.go, scoring.go, plugin.go).

The modules here follow those files one to one; `args` holds PodTopologySpreadArgs.
"""

from .args import LIST_DEFAULTING, SYSTEM_DEFAULTING, PodTopologySpreadArgs
from .common import Constraint
from .filtering import ERR_REASON_CONSTRAINTS_NOT_MATCH, ERR_REASON_NODE_LABEL_NOT_MATCH
from .plugin import NAME, SYSTEM_DEFAULT_CONSTRAINTS, PodTopologySpread

__all__ = [
    "Constraint",
    "ERR_REASON_CONSTRAINTS_NOT_MATCH",
    "ERR_REASON_NODE_LABEL_NOT_MATCH",
    "LIST_DEFAULTING",
    "NAME",
    "PodTopologySpread",
    "PodTopologySpreadArgs",
    "SYSTEM_DEFAULTING",
    "SYSTEM_DEFAULT_CONSTRAINTS",
]
