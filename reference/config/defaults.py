"""Mirrors pkg/scheduler/apis/config/v1/defaults.go (SetDefaults_KubeSchedulerConfiguration, setDefaults_KubeSchedulerProfile).

Plugin args defaults come from each plugin's args class (`PluginArgs.from_config`), which applies
the `SetDefaults_<Kind>` of defaults.go for its kind.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping

from ..errors import ConfigError
from ..registry import PluginArgs, Registry
from .default_plugins import default_plugins, merge_plugins
from .model import (
    DEFAULT_EXTENDER_TIMEOUT_SECONDS,
    DEFAULT_SCHEDULER_NAME,
    WORKLOAD_POINT_NAMES,
    ClientConnection,
    KubeSchedulerConfiguration,
    LeaderElection,
    PluginConfig,
    Plugins,
    PLUGIN_SET_NAMES,
    Profile,
)

# `pluginsNames` in defaults.go lists every plugin set except podGroupPostFilter, so a plugin
# enabled only there gets no default args.
_ARGS_DEFAULTED_SETS = tuple(n for n in PLUGIN_SET_NAMES if n != WORKLOAD_POINT_NAMES[2])


def _default_registry(registry: Registry | None) -> Registry:
    if registry is not None:
        return registry
    from ..plugins import in_tree_registry
    return in_tree_registry()


def plugin_names(plugins: Plugins | None) -> list[str]:
    """`pluginsNames`: the sorted, distinct names enabled anywhere (podGroupPostFilter excepted)."""
    if plugins is None:
        return []
    return sorted({p.name for s in _ARGS_DEFAULTED_SETS for p in plugins[s].enabled})


def default_args(registry: Registry, name: str, raw: Mapping | PluginArgs | None, path: str):
    """Apply the args class defaults to `raw`; leave it raw when there is no args class or it is
    invalid (validation, or the plugin factory, reports the error with upstream's message)."""
    spec = registry.get(name)
    if spec is None or spec.args_type is None or isinstance(raw, PluginArgs):
        return raw
    try:
        return spec.args_type.from_config(raw, path)
    except ConfigError:
        return raw


def set_profile_defaults(profile: Profile, index: int, *, registry: Registry | None = None,
                         features: Mapping[str, bool] | None = None) -> Profile:
    """`setDefaults_KubeSchedulerProfile`: merge default plugins, default existing args, add missing args."""
    registry = _default_registry(registry)
    plugins = merge_plugins(default_plugins(features), profile.plugins)
    configs = [
        replace(cfg, args=default_args(registry, cfg.name, cfg.args, f"profiles[{index}].pluginConfig[{j}].args"))
        for j, cfg in enumerate(profile.plugin_config)
    ]
    existing = {cfg.name for cfg in configs}
    for name in plugin_names(plugins):
        spec = registry.get(name)
        if name in existing or spec is None or spec.args_type is None:
            continue
        path = f"profiles[{index}].pluginConfig[{len(configs)}].args"
        configs.append(PluginConfig(name, spec.args_type.from_config(None, path)))
    return replace(profile, plugins=plugins, plugin_config=tuple(configs))


def _leader_election_defaults(le: LeaderElection) -> LeaderElection:
    # defaults.go sets the lock, namespace and name; RecommendedDefaultLeaderElectionConfiguration the rest.
    return replace(
        le,
        resource_lock=le.resource_lock or "leases",
        resource_namespace=le.resource_namespace or "kube-system",
        resource_name=le.resource_name or "kube-scheduler",
        lease_duration=le.lease_duration or 15.0,
        renew_deadline=le.renew_deadline or 10.0,
        retry_period=le.retry_period or 2.0,
        leader_elect=True if le.leader_elect is None else le.leader_elect,
    )


def _client_connection_defaults(cc: ClientConnection) -> ClientConnection:
    return replace(
        cc,
        content_type=cc.content_type or "application/vnd.kubernetes.protobuf",
        qps=cc.qps or 50.0,
        burst=cc.burst or 100,
    )


def set_defaults(config: KubeSchedulerConfiguration, *, registry: Registry | None = None,
                 features: Mapping[str, bool] | None = None) -> KubeSchedulerConfiguration:
    """`SetDefaults_KubeSchedulerConfiguration`, plus NewHTTPExtender's 5s extender timeout."""
    registry = _default_registry(registry)
    profiles = list(config.profiles) or [Profile()]
    # Only a single profile gets the default name; validation requires names otherwise.
    if len(profiles) == 1 and profiles[0].scheduler_name is None:
        profiles[0] = replace(profiles[0], scheduler_name=DEFAULT_SCHEDULER_NAME)
    profiles = [set_profile_defaults(p, i, registry=registry, features=features) for i, p in enumerate(profiles)]
    enable_profiling = True if config.enable_profiling is None else config.enable_profiling
    contention = config.enable_contention_profiling
    if enable_profiling and contention is None:
        contention = True
    extenders = tuple(e if e.http_timeout else replace(e, http_timeout=DEFAULT_EXTENDER_TIMEOUT_SECONDS)
                      for e in config.extenders)
    return replace(
        config,
        parallelism=16 if config.parallelism is None else config.parallelism,
        profiles=tuple(profiles),
        percentage_of_nodes_to_score=(0 if config.percentage_of_nodes_to_score is None
                                      else config.percentage_of_nodes_to_score),
        leader_election=_leader_election_defaults(config.leader_election),
        client_connection=_client_connection_defaults(config.client_connection),
        pod_initial_backoff_seconds=(1 if config.pod_initial_backoff_seconds is None
                                     else config.pod_initial_backoff_seconds),
        pod_max_backoff_seconds=10 if config.pod_max_backoff_seconds is None else config.pod_max_backoff_seconds,
        enable_profiling=enable_profiling,
        enable_contention_profiling=contention,
        extenders=extenders,
    )


__all__ = ["default_args", "plugin_names", "set_defaults", "set_profile_defaults"]
