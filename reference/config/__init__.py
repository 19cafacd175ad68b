"""The KubeSchedulerConfiguration v1 layer of the reference (pinned: Kubernetes v1.37.2).

load (decode.py, load.py) -> defaults (default_plugins.py, defaults.py) -> validation
(validation.py) -> framework expansion (expand.py, profiles.py). Every function that needs plugin
knowledge takes `registry=`, defaulting to `reference.plugins.in_tree_registry()`.
"""

from .decode import decode_config, parse_document
from .default_plugins import FEATURE_DEFAULTS, default_plugins, merge_plugin_set, merge_plugins
from .defaults import set_defaults, set_profile_defaults
from ..duration import format_duration, parse_duration
from .expand import ExpandedProfile, expand_profile
from .load import load_config
from .model import (
    API_VERSION,
    DEFAULT_SCHEDULER_NAME,
    KIND,
    PLUGIN_SET_NAMES,
    WORKLOAD_POINT_NAMES,
    ClientConnection,
    Extender,
    ExtenderManagedResource,
    ExtenderTLSConfig,
    KubeSchedulerConfiguration,
    LeaderElection,
    PluginConfig,
    PluginEntry,
    PluginSet,
    Plugins,
    Profile,
)
from .opaque import OpaquePlugin, opaque_registry
from .points import PlacementGeneratePlugin, PlacementScorePlugin, PodGroupPostFilterPlugin, implements
from .profiles import apply_extender_ignored_resources, effective_plugins, expand_config, list_plugins
from .validation import validate_config, validation_errors

__all__ = [
    "API_VERSION",
    "ClientConnection",
    "DEFAULT_SCHEDULER_NAME",
    "ExpandedProfile",
    "Extender",
    "ExtenderManagedResource",
    "ExtenderTLSConfig",
    "FEATURE_DEFAULTS",
    "KIND",
    "KubeSchedulerConfiguration",
    "LeaderElection",
    "PLUGIN_SET_NAMES",
    "OpaquePlugin",
    "PlacementGeneratePlugin",
    "PlacementScorePlugin",
    "PluginConfig",
    "PluginEntry",
    "PluginSet",
    "Plugins",
    "PodGroupPostFilterPlugin",
    "Profile",
    "WORKLOAD_POINT_NAMES",
    "apply_extender_ignored_resources",
    "decode_config",
    "default_plugins",
    "effective_plugins",
    "expand_config",
    "expand_profile",
    "format_duration",
    "implements",
    "list_plugins",
    "load_config",
    "merge_plugin_set",
    "merge_plugins",
    "parse_document",
    "parse_duration",
    "set_defaults",
    "set_profile_defaults",
    "validate_config",
    "opaque_registry",
    "validation_errors",
]
