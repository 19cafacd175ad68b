"""Mirrors pkg/scheduler/apis/config/validation/validation.go (ValidateKubeSchedulerConfiguration).

Runs on a defaulted configuration (unset numbers count as Go's zero). Plugin args are validated by
the args classes (`from_config`), which carry validation_pluginargs.go's messages.
"""

from __future__ import annotations

from typing import Any, Iterable

from ..errors import ConfigError
from ..registry import PluginArgs, Registry
from ..duration import format_duration
from ..field_errors import FieldError, JSONString, duplicate, invalid, required, to_aggregate
from .model import API_VERSION, Extender, KubeSchedulerConfiguration, PluginSet, Profile
from .resource_names import validate_extended_resource_name

Errors = list[FieldError | ConfigError]

# invalidPluginsByVersion for v1.
REMOVED_PLUGINS = ("AzureDiskLimits", "CinderLimits", "EBSLimits", "GCEPDLimits")
# validatePluginConfig's validator map. Its NodeResourcesFit entry is keyed "NodeResourcesFitArgs",
# which never matches a plugin name, so Fit args are only checked by the plugin factory (NewFit).
VALIDATED_ARGS = ("DefaultPreemption", "InterPodAffinity", "NodeAffinity", "NodeResourcesBalancedAllocation",
                  "NodeResourcesFitArgs", "PodTopologySpread", "VolumeBinding", "DynamicResources")
# stagesToPluginSet: multiPoint, placementGenerate and placementScore are not checked for removed plugins.
CHECKED_STAGES = ("preEnqueue", "queueSort", "preFilter", "filter", "postFilter", "preScore", "score",
                  "reserve", "permit", "preBind", "bind", "postBind", "podGroupPostFilter")


def _removed_message(api_version: str) -> str:
    return f'was invalid in version "{API_VERSION}" (KubeSchedulerConfiguration is version "{api_version}")'


def _internal_plugin_set(ps: PluginSet) -> dict[str, Any]:
    """An internal config.PluginSet as json.Marshal renders it (no json tags, nil slices are null)."""
    def entries(items):
        return [{"Name": p.name, "Weight": p.weight or 0} for p in items] or None
    return {"Enabled": entries(ps.enabled), "Disabled": entries(ps.disabled)}


def _args_json(args: Any) -> Any:
    return args.to_config() if isinstance(args, PluginArgs) else args


def _flatten(err: ConfigError) -> Errors:
    return list(getattr(err, "errors", None) or [err])


def _validate_args(registry: Registry, name: str, args: Any, path: str) -> Errors:
    spec = registry.get(name)
    if spec is None or spec.args_type is None:
        return []
    if isinstance(args, PluginArgs) and not isinstance(args, spec.args_type):
        return [invalid(path, _args_json(args), "has to match plugin args")]
    try:
        spec.args_type.from_config(args.to_config() if isinstance(args, PluginArgs) else args, path)
    except ConfigError as e:
        return _flatten(e)
    return []


def _validate_plugin_config(path: str, api_version: str, profile: Profile, registry: Registry) -> Errors:
    errs: Errors = []
    if profile.plugins is not None:
        for stage in CHECKED_STAGES:
            for i, plugin in enumerate(profile.plugins[stage].enabled):
                if plugin.name in REMOVED_PLUGINS:
                    errs.append(invalid(f"{path}.plugins.{stage}.enabled[{i}]", plugin.name,
                                        _removed_message(api_version)))
    seen: set[str] = set()
    for i, cfg in enumerate(profile.plugin_config):
        cfg_path = f"{path}.pluginConfig[{i}]"
        if cfg.name in seen:
            errs.append(duplicate(cfg_path, cfg.name))
        seen.add(cfg.name)
        if cfg.name in REMOVED_PLUGINS:
            errs.append(invalid(cfg_path, cfg.name, _removed_message(api_version)))
        elif cfg.name in VALIDATED_ARGS:
            errs += _validate_args(registry, cfg.name, cfg.args, f"{cfg_path}.args")
    return errs


def _validate_percentage(path: str, value: int | None) -> Errors:
    if value is not None and not 0 <= value <= 100:
        return [invalid(path, value, "not in valid range [0-100]")]
    return []


def _validate_profile(path: str, api_version: str, profile: Profile, registry: Registry) -> Errors:
    errs: Errors = []
    if not profile.scheduler_name:
        errs.append(required(f"{path}.schedulerName"))
    errs += _validate_percentage(f"{path}.percentageOfNodesToScore", profile.percentage_of_nodes_to_score)
    return errs + _validate_plugin_config(path, api_version, profile, registry)


def _same_plugin_set(a: PluginSet, b: PluginSet) -> bool:
    """Semantic.DeepEqual on internal PluginSets: an unset weight is 0 there."""
    def norm(ps: PluginSet):
        return ([(p.name, p.weight or 0) for p in ps.enabled], [(p.name, p.weight or 0) for p in ps.disabled])
    return norm(a) == norm(b)


def _validate_common_queue_sort(profiles: tuple[Profile, ...]) -> Errors:
    errs: Errors = []
    first = profiles[0]
    canon = first.plugins.queueSort if first.plugins is not None else PluginSet()
    name = canon.enabled[0].name if canon.enabled else ""
    if len(canon.enabled) > 1:
        errs.append(invalid("profiles[0].plugins.queueSort.Enabled", len(canon.enabled),
                            "only one queue sort plugin can be enabled"))
    canon_args = None
    for cfg in first.plugin_config:
        if name and cfg.name == name:
            canon_args = cfg.args
    for i, profile in enumerate(profiles[1:], start=1):
        current = profile.plugins.queueSort if profile.plugins is not None else PluginSet()
        if not _same_plugin_set(canon, current):
            errs.append(invalid(f"profiles[{i}].plugins.queueSort", _internal_plugin_set(current),
                                "must be the same for all profiles"))
        for cfg in profile.plugin_config:
            if cfg.name == name and cfg.args != canon_args:
                errs.append(invalid(f"profiles[{i}].pluginConfig.args", _args_json(cfg.args),
                                    "queueSort must be the same for all profiles"))
    return errs


def validate_extenders(extenders: Iterable[Extender], path: str = "extenders") -> Errors:
    """`validateExtenders`."""
    errs: Errors = []
    binders = 0
    managed: set[str] = set()
    for i, extender in enumerate(extenders):
        ext_path = f"{path}[{i}]"
        if extender.prioritize_verb and extender.weight <= 0:
            errs.append(invalid(f"{ext_path}.weight", extender.weight,
                                "must have a positive weight applied to it"))
        if extender.bind_verb:
            binders += 1
        for j, resource in enumerate(extender.managed_resources):
            name_path = f"{ext_path}.managedResources[{j}].name"
            errs += [invalid(name_path, JSONString(resource.name), msg)
                     for msg in validate_extended_resource_name(resource.name)]
            if resource.name in managed:
                errs.append(invalid(name_path, resource.name, "duplicate extender managed resource name"))
            managed.add(resource.name)
    if binders > 1:
        errs.append(invalid(path, f"found {binders} extenders implementing bind",
                            "only one extender can implement bind"))
    return errs


def _validate_component_base(config: KubeSchedulerConfiguration) -> Errors:
    """component-base ValidateClientConnectionConfiguration / ValidateLeaderElectionConfiguration."""
    errs: Errors = []
    if config.client_connection.burst < 0:
        errs.append(invalid("clientConnection.burst", config.client_connection.burst,
                            "must be non-negative"))
    le = config.leader_election
    if le.leader_elect:
        for attr, key in (("lease_duration", "leaseDuration"), ("renew_deadline", "renewDeadline"),
                          ("retry_period", "retryPeriod")):
            if getattr(le, attr) <= 0:
                errs.append(invalid(f"leaderElection.{key}", JSONString(format_duration(getattr(le, attr))),
                                    "must be greater than zero"))
        if le.lease_duration <= le.renew_deadline:
            errs.append(invalid("leaderElection.leaseDuration", JSONString(format_duration(le.renew_deadline)),
                                "must be greater than `RenewDeadline`"))
        for attr, key in (("resource_lock", "resourceLock"), ("resource_namespace", "resourceNamespace"),
                          ("resource_name", "resourceName")):
            if not getattr(le, attr):
                errs.append(required(f"leaderElection.{key}"))
        if le.resource_lock != "leases":
            errs.append(invalid("leaderElection.resourceLock", le.resource_lock,
                                'resourceLock value must be "leases"'))
    return errs


def validation_errors(config: KubeSchedulerConfiguration, *, registry: Registry | None = None) -> Errors:
    """Every validation error, in upstream's order."""
    if registry is None:
        from ..plugins import in_tree_registry
        registry = in_tree_registry()
    errs = _validate_component_base(config)
    if (config.parallelism or 0) <= 0:
        errs.append(invalid("parallelism", config.parallelism or 0,
                            "should be an integer value greater than zero"))
    if not config.profiles:
        errs.append(required("profiles"))
    else:
        seen: dict[str, int] = {}
        for i, profile in enumerate(config.profiles):
            errs += _validate_profile(f"profiles[{i}]", config.api_version, profile, registry)
            name = profile.scheduler_name or ""
            if name in seen:
                # The bad value is a *field.Path, whose fields are unexported: json.Marshal gives {}.
                errs.append(duplicate(f"profiles[{i}].schedulerName", {}))
            seen[name] = i
        errs += _validate_common_queue_sort(config.profiles)
    errs += _validate_percentage("percentageOfNodesToScore", config.percentage_of_nodes_to_score)
    initial = config.pod_initial_backoff_seconds or 0
    maximum = config.pod_max_backoff_seconds or 0
    if initial <= 0:
        errs.append(invalid("podInitialBackoffSeconds", initial, "must be greater than 0"))
    if maximum < initial:
        errs.append(invalid("podMaxBackoffSeconds", maximum,
                            "must be greater than or equal to PodInitialBackoffSeconds"))
    return errs + validate_extenders(config.extenders)


def validate_config(config: KubeSchedulerConfiguration, *, registry: Registry | None = None) -> None:
    """Raise one ConfigError aggregating every error (`[a, b]` when several), as upstream does."""
    error = to_aggregate(validation_errors(config, registry=registry))
    if error is not None:
        raise error


__all__ = ["REMOVED_PLUGINS", "VALIDATED_ARGS", "validate_config", "validate_extenders", "validation_errors"]
