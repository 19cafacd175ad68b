"""Hypothesis strategies for valid, shrinkable Kubernetes scheduling scenarios (imports `reference` only).

Every strategy takes keyword-only options, builds valid objects directly from small pools
(`generators.pools`), and shrinks towards the simplest value its docstring names.
"""

from . import pools
from ._base_config import BaseConfig
from ._clusters import Cluster, clusters
from ._configs import scheduler_configs
from ._extenders import extender_scripts
from ._domain import Domain, DomainError, decorate_node, decorate_pod, with_domain
from ._extras import Extras, with_extras
from ._faults import faults, with_faults
from ._invalid import InvalidConfig
from ._node_terms import node_affinities, node_selector_terms, taints, tolerations
from ._nodes import nodes
from ._plugin_args import plugin_args
from ._pod_terms import pod_affinity_terms, topology_spread_constraints
from ._pods import pods
from ._probes import EXTENSION_POINTS, probe_scripts
from ._quantities import quantities, resource_lists
from ._scenarios import scenarios
from ._timeline import timelines, with_timeline

__all__ = [
    "BaseConfig",
    "Cluster",
    "Domain",
    "DomainError",
    "EXTENSION_POINTS",
    "Extras",
    "InvalidConfig",
    "clusters",
    "decorate_node",
    "decorate_pod",
    "extender_scripts",
    "faults",
    "node_affinities",
    "node_selector_terms",
    "nodes",
    "plugin_args",
    "pod_affinity_terms",
    "pods",
    "pools",
    "probe_scripts",
    "quantities",
    "resource_lists",
    "scenarios",
    "scheduler_configs",
    "taints",
    "timelines",
    "tolerations",
    "topology_spread_constraints",
    "with_domain",
    "with_extras",
    "with_faults",
    "with_timeline",
]
