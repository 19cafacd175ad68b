"""Invalid configs: a valid config plus one defect, each paired with upstream's error text.

Texts are copied from v1.37.2: pkg/scheduler/apis/config/validation (validation.go,
validation_pluginargs.go), framework/runtime/framework.go (NewFramework), profile/profile.go,
scheduler.go (buildExtenders), and the strict decoder. Field paths are computed from the config,
since the defect lands after whatever the valid config already holds.
"""

from __future__ import annotations

import copy
from typing import Callable, NamedTuple

from ._draw import Draw, Manifest, pick
from .pools import SCHEDULER_NAMES

_REMOVED = ("AzureDiskLimits", "CinderLimits", "EBSLimits", "GCEPDLimits")
_V1 = "kubescheduler.config.k8s.io/v1"
_QUEUE_SORT = {"Enabled": [{"Name": "PrioritySort", "Weight": 0}], "Disabled": None}
_FIT_TYPES = '"LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"'


class InvalidConfig(NamedTuple):
    """A config upstream rejects, and a substring of the error it rejects it with."""

    config: Manifest
    error: str


def _profiles(config: Manifest) -> list[Manifest]:
    return config.setdefault("profiles", [{"schedulerName": SCHEDULER_NAMES[0]}])


def _plugin_set(profile: Manifest, point: str) -> Manifest:
    return profile.setdefault("plugins", {}).setdefault(point, {})


def _enabled(profile: Manifest, point: str) -> list[Manifest]:
    return _plugin_set(profile, point).setdefault("enabled", [])


def _in_profile(profile: Manifest, message: str) -> str:
    """profile.go NewMap's wrapping of a NewFramework error."""
    return f"creating profile for scheduler name {profile['schedulerName']}: {message}"


def _pick_profile(draw: Draw, config: Manifest) -> tuple[int, Manifest]:
    profiles = _profiles(config)
    i = pick(draw, range(len(profiles)))
    return i, profiles[i]


def _parallelism(draw: Draw, config: Manifest) -> str:
    config["parallelism"] = value = pick(draw, (0, -1))
    return f"parallelism: Invalid value: {value}: should be an integer value greater than zero"


def _percentage(draw: Draw, config: Manifest) -> str:
    value = pick(draw, (101, -1))
    if pick(draw, (False, True)):
        i, profile = _pick_profile(draw, config)
        profile["percentageOfNodesToScore"] = value
        return f"profiles[{i}].percentageOfNodesToScore: Invalid value: {value}: not in valid range [0-100]"
    config["percentageOfNodesToScore"] = value
    return f"percentageOfNodesToScore: Invalid value: {value}: not in valid range [0-100]"


def _initial_backoff(draw: Draw, config: Manifest) -> str:
    config["podInitialBackoffSeconds"] = value = pick(draw, (0, -1))
    return f"podInitialBackoffSeconds: Invalid value: {value}: must be greater than 0"


def _max_backoff(draw: Draw, config: Manifest) -> str:
    config.update(podInitialBackoffSeconds=2, podMaxBackoffSeconds=1)
    return "podMaxBackoffSeconds: Invalid value: 1: must be greater than or equal to PodInitialBackoffSeconds"


def _duplicate_name(draw: Draw, config: Manifest) -> str:
    profiles = _profiles(config)
    i = pick(draw, range(len(profiles)))
    profiles.append(copy.deepcopy(profiles[i]))
    return f"profiles[{len(profiles) - 1}].schedulerName: Duplicate value: {{}}"


def _empty_name(draw: Draw, config: Manifest) -> str:
    i, profile = _pick_profile(draw, config)
    profile["schedulerName"] = ""
    return f"profiles[{i}].schedulerName: Required value"


def _removed_plugin(draw: Draw, config: Manifest) -> str:
    i, profile = _pick_profile(draw, config)
    name = pick(draw, _REMOVED)
    if pick(draw, (False, True)):
        configs = profile.setdefault("pluginConfig", [])
        configs.append({"name": name})
        where = f"profiles[{i}].pluginConfig[{len(configs) - 1}]"
    else:
        enabled = _enabled(profile, "filter")
        enabled.append({"name": name})
        where = f"profiles[{i}].plugins.filter.enabled[{len(enabled) - 1}]"
    return (f'{where}: Invalid value: "{name}": was invalid in version "{_V1}" '
            f'(KubeSchedulerConfiguration is version "{_V1}")')


def _duplicate_plugin_config(draw: Draw, config: Manifest) -> str:
    i, profile = _pick_profile(draw, config)
    configs = profile.setdefault("pluginConfig", [])
    name = pick(draw, ("InterPodAffinity", "DefaultPreemption", "NodeResourcesFit"))
    copies = 1 if any(c["name"] == name for c in configs) else 2
    configs.extend({"name": name, "args": {}} for _ in range(copies))
    return f'profiles[{i}].pluginConfig[{len(configs) - 1}]: Duplicate value: "{name}"'


_BAD_ARGS = (
    ("InterPodAffinity", {"hardPodAffinityWeight": 101},
     "hardPodAffinityWeight: Invalid value: 101: not in valid range [0, 100]"),
    ("DefaultPreemption", {"minCandidateNodesPercentage": 101},
     "minCandidateNodesPercentage: Invalid value: 101: not in valid range [0, 100]"),
    ("DefaultPreemption", {"minCandidateNodesAbsolute": -1},
     "minCandidateNodesAbsolute: Invalid value: -1: not in valid range [0, inf)"),
    ("NodeResourcesBalancedAllocation", {"resources": [{"name": "cpu", "weight": 2}]},
     "resources[0].weight: Invalid value: 2: must be 1"),
    ("PodTopologySpread", {"defaultingType": "System", "defaultConstraints": [
        {"maxSkew": 1, "topologyKey": "kubernetes.io/hostname", "whenUnsatisfiable": "DoNotSchedule"}]},
     'defaultingType: Invalid value: "System": when .defaultConstraints are not empty'),
    ("PodTopologySpread", {"defaultingType": "List", "defaultConstraints": [
        {"maxSkew": 0, "topologyKey": "kubernetes.io/hostname", "whenUnsatisfiable": "DoNotSchedule"}]},
     "defaultConstraints[0].maxSkew: Invalid value: 0: not in valid range (0, inf)"),
)


def _bad_args(draw: Draw, config: Manifest) -> str:
    i, profile = _pick_profile(draw, config)
    name, args, message = pick(draw, _BAD_ARGS)
    configs = [c for c in profile.get("pluginConfig", []) if c["name"] != name]
    configs.append({"name": name, "args": copy.deepcopy(args)})
    profile["pluginConfig"] = configs
    return f"profiles[{i}].pluginConfig[{len(configs) - 1}].args.{message}"


def _runs(profile: Manifest, name: str) -> bool:
    """Whether the profile instantiates plugin `name` (a default in multiPoint, or enabled anywhere)."""
    plugins = profile.get("plugins", {})
    disabled = {e["name"] for e in plugins.get("multiPoint", {}).get("disabled", [])}
    explicit = any(e["name"] == name for s in plugins.values() for e in s.get("enabled", []))
    return explicit or not ({"*", name} & disabled)


def _bad_fit_args(draw: Draw, config: Manifest) -> str:
    # Fit args are validated only by the plugin factory (the validator map's key is
    # "NodeResourcesFitArgs"), so the profile must run NodeResourcesFit for the error to appear.
    _, profile = _pick_profile(draw, config)
    if not _runs(profile, "NodeResourcesFit"):
        _enabled(profile, "filter").append({"name": "NodeResourcesFit"})
    configs = [c for c in profile.get("pluginConfig", []) if c["name"] != "NodeResourcesFit"]
    profile["pluginConfig"] = configs + [{"name": "NodeResourcesFit", "args": {"scoringStrategy": {"type": "Bogus"}}}]
    return _in_profile(profile, f'initializing plugin "NodeResourcesFit": scoringStrategy.type: '
                                f'Unsupported value: "Bogus": supported values: {_FIT_TYPES}')


def _unknown_plugin(draw: Draw, config: Manifest) -> str:
    _, profile = _pick_profile(draw, config)
    _enabled(profile, "filter").append({"name": "NoSuchPlugin"})
    return _in_profile(profile, 'FilterPlugin "NoSuchPlugin" does not exist')


def _not_extending(draw: Draw, config: Manifest) -> str:
    _, profile = _pick_profile(draw, config)
    name = pick(draw, ("ImageLocality", "PrioritySort", "DefaultBinder"))
    _enabled(profile, "filter").append({"name": name})
    return _in_profile(profile, f'plugin "{name}" does not extend FilterPlugin plugin')


def _twice_at_point(draw: Draw, config: Manifest) -> str:
    _, profile = _pick_profile(draw, config)
    enabled = _enabled(profile, "score")
    present = sum(e["name"] == "NodeResourcesFit" for e in enabled)
    enabled.extend({"name": "NodeResourcesFit"} for _ in range(max(0, 2 - present)))
    return _in_profile(profile, 'plugin "NodeResourcesFit" already registered as "ScorePlugin"')


def _no_binder(draw: Draw, config: Manifest) -> str:
    _, profile = _pick_profile(draw, config)
    profile.setdefault("plugins", {})["bind"] = {"disabled": [{"name": "*"}]}
    return _in_profile(profile, f'at least one bind plugin is needed for profile with scheduler name '
                                f'"{profile["schedulerName"]}"')


def _no_queue_sort(draw: Draw, config: Manifest) -> str:
    profiles = _profiles(config)
    for profile in profiles:  # identical in every profile, or validation objects first
        profile.setdefault("plugins", {})["queueSort"] = {"disabled": [{"name": "*"}]}
    return _in_profile(profiles[0], f'only one queue sort plugin required for profile with scheduler name '
                                    f'"{profiles[0]["schedulerName"]}", but got 0')


def _queue_sort_differs(draw: Draw, config: Manifest) -> str:
    profiles = _profiles(config)
    if len(profiles) == 1:
        profiles.append({"schedulerName": f"scheduler-{len(profiles)}"})
    j = pick(draw, range(1, len(profiles)))
    profiles[j].setdefault("plugins", {})["queueSort"] = {"enabled": [{"name": "PrioritySort"}]}
    return (f'profiles[{j}].plugins.queueSort: Invalid value: {{"Enabled":[{{"Name":"PrioritySort","Weight":0}}],'
            f'"Disabled":null}}: must be the same for all profiles')


def _extender(config: Manifest, **fields: object) -> int:
    extenders = config.setdefault("extenders", [])
    extenders.append({"urlPrefix": "${EXTENDER_URL}/ext-bad", **fields})
    return len(extenders) - 1


def _extender_weight(draw: Draw, config: Manifest) -> str:
    weight = pick(draw, (0, -1))
    k = _extender(config, prioritizeVerb="prioritize", **({"weight": weight} if weight else {}))
    return f"extenders[{k}].weight: Invalid value: {weight}: must have a positive weight applied to it"


def _two_binders(draw: Draw, config: Manifest) -> str:
    while sum(1 for e in config.get("extenders", []) if e.get("bindVerb")) < 2:
        _extender(config, bindVerb="bind")
    return 'extenders: Invalid value: "found 2 extenders implementing bind": only one extender can implement bind'


def _managed_name(draw: Draw, config: Manifest) -> str:
    name = pick(draw, ("gpu", "cpu"))
    k = _extender(config, filterVerb="filter", managedResources=[{"name": name}])
    return f'extenders[{k}].managedResources[0].name: Invalid value: "{name}": is an invalid extended resource name'


def _managed_twice(draw: Draw, config: Manifest) -> str:
    k = _extender(config, filterVerb="filter",
                  managedResources=[{"name": "example.com/tpu"}, {"name": "example.com/tpu"}])
    return (f'extenders[{k}].managedResources[1].name: Invalid value: "example.com/tpu": '
            f'duplicate extender managed resource name')


def _ignored_without_fit(draw: Draw, config: Manifest) -> str:
    # A profile that never enables NodeResourcesFit gets no Fit args by defaulting.
    profiles = _profiles(config)
    profiles.append({"schedulerName": f"scheduler-{len(profiles)}", "plugins": {"multiPoint": {
        "enabled": [{"name": "PrioritySort"}, {"name": "DefaultBinder"}], "disabled": [{"name": "*"}]}}})
    _extender(config, filterVerb="filter", managedResources=[{"name": "example.com/tpu", "ignoredByScheduler": True}])
    return "couldn't build extenders: can't find NodeResourcesFitArgs in plugin config"


def _unknown_field(draw: Draw, config: Manifest) -> str:
    name = pick(draw, ("profile", "extender", "percentageOfNodeToScore"))
    config[name] = []
    return f'unknown field "{name}"'


def _api_version(draw: Draw, config: Manifest) -> str:
    config["apiVersion"] = version = pick(draw, ("kubescheduler.config.k8s.io/v1beta3", "v1"))
    return f'no kind "KubeSchedulerConfiguration" is registered for version "{version}"'


DEFECTS: dict[str, Callable[[Draw, Manifest], str]] = {
    "parallelism": _parallelism, "percentage": _percentage, "initial-backoff": _initial_backoff,
    "max-backoff": _max_backoff, "duplicate-name": _duplicate_name, "empty-name": _empty_name,
    "removed-plugin": _removed_plugin, "duplicate-plugin-config": _duplicate_plugin_config, "bad-args": _bad_args,
    "bad-fit-args": _bad_fit_args, "unknown-plugin": _unknown_plugin, "not-extending": _not_extending,
    "twice-at-point": _twice_at_point, "no-binder": _no_binder, "no-queue-sort": _no_queue_sort,
    "queue-sort-differs": _queue_sort_differs, "extender-weight": _extender_weight, "two-binders": _two_binders,
    "managed-name": _managed_name, "managed-twice": _managed_twice, "ignored-without-fit": _ignored_without_fit,
    "unknown-field": _unknown_field, "api-version": _api_version,
}


def draw_invalid_config(draw: Draw, valid: Manifest) -> InvalidConfig:
    """`valid` (a drawn config, left as it is) with one defect."""
    config = copy.deepcopy(valid)
    defect = DEFECTS[pick(draw, tuple(DEFECTS))]
    return InvalidConfig(config, defect(draw, config))


__all__ = ["DEFECTS", "InvalidConfig", "draw_invalid_config"]
