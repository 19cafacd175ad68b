"""`scheduler_configs()`: KubeSchedulerConfiguration v1 mappings, valid or (`invalid=True`) paired with
the error upstream reports for them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, Literal, overload

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from reference.probe import PROBE_NAMES

from ._draw import Draw, Manifest, elements, flag, pick
from ._extenders import ExtenderPlan, draw_extenders
from ._invalid import InvalidConfig, draw_invalid_config
from ._probes import CONFIG_POINT, EXTENSION_POINTS, normalize_points
from ._profiles import MODES, PROBE_POINTS, ProfilePlan, draw_profile
from .pools import EXTENDER_NAMES, SCHEDULER_NAMES

API_VERSION = "kubescheduler.config.k8s.io/v1"
KIND = "KubeSchedulerConfiguration"


@dataclass(frozen=True)
class ConfigPlan:
    """A drawn config and what it means: per profile, where each probe runs; the extenders."""

    config: Manifest
    profiles: tuple[ProfilePlan, ...]
    extenders: tuple[ExtenderPlan, ...]

    def profile(self, scheduler_name: str) -> ProfilePlan:
        return next(p for p in self.profiles if p.scheduler_name == scheduler_name)


@dataclass(frozen=True)
class ConfigOptions:
    profiles: int = 1
    probes: int = 0
    points: frozenset[str] = frozenset(EXTENSION_POINTS)
    default_plugins: bool | None = None
    extenders: int = 0
    preemption: bool = False

    @classmethod
    def checked(cls, where: str, *, profiles: int, probes: int, points: Collection[str],
                default_plugins: bool | None, extenders: int, preemption: bool = False) -> "ConfigOptions":
        for name, value, top in (("profiles", profiles, len(SCHEDULER_NAMES)), ("probes", probes, len(PROBE_NAMES)),
                                 ("extenders", extenders, len(EXTENDER_NAMES))):
            low = 1 if name == "profiles" else 0
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= top:
                raise ValueError(f"{where}({name}={value!r}): use an integer from {low} to {top}")
        if default_plugins not in (True, False, None):
            raise ValueError(f"{where}(default_plugins={default_plugins!r}): use True, False or None")
        focus = normalize_points(points, where)
        if probes and not {CONFIG_POINT[p] for p in focus} & set(PROBE_POINTS):
            raise ValueError(f"{where}(points={sorted(points)!r}): probes need at least one extension point")
        return cls(profiles, probes, focus, default_plugins, extenders, preemption)

    def allowed_points(self) -> tuple[str, ...]:
        """Config points probes may be placed at: every point some focused script point maps to."""
        wanted = {CONFIG_POINT[p] for p in self.points}
        return tuple(p for p in PROBE_POINTS if p in wanted)


def _mode(draw: Draw, default_plugins: bool | None) -> str:
    if default_plugins is False:
        return "probes"
    return pick(draw, MODES[:2] if default_plugins else MODES)


def draw_config_plan(draw: Draw, options: ConfigOptions) -> ConfigPlan:
    extender_configs, extender_plans = draw_extenders(draw, options.extenders)
    # Extender resources the scheduler ignores are written into every profile's Fit args
    # (scheduler.go buildExtenders), which must therefore exist.
    fit_args = any(r.get("ignoredByScheduler") for e in extender_configs for r in e.get("managedResources", []))
    drawn = elements(draw, 1, options.profiles, lambda d, i: draw_profile(
        d, scheduler_name=SCHEDULER_NAMES[i], max_probes=options.probes, allowed=options.allowed_points(),
        mode=_mode(d, options.default_plugins), can_disable=options.default_plugins is None,
        preemption=options.preemption, fit_args=fit_args), more=70)
    profiles = [profile for profile, _ in drawn]
    plans = [plan for _, plan in drawn]
    config: Manifest = {"apiVersion": API_VERSION, "kind": KIND}
    if profiles != [{"schedulerName": SCHEDULER_NAMES[0]}]:
        config["profiles"] = profiles
    if draw(flag(10)):
        config["percentageOfNodesToScore"] = pick(draw, (50, 0, 100))
    if draw(flag(10)):
        # Short backoffs keep real-time backends fast; the defaults are 1s and 10s.
        config["podInitialBackoffSeconds"] = 1
        config["podMaxBackoffSeconds"] = pick(draw, (1, 2))
    if draw(flag(5)):
        config["parallelism"] = pick(draw, (1, 4))
    if extender_configs:
        config["extenders"] = extender_configs
    return ConfigPlan(config, tuple(plans), tuple(extender_plans))


@overload
def scheduler_configs(*, profiles: int = ..., probes: int = ..., points: Collection[str] = ...,
                      default_plugins: bool | None = ..., extenders: int = ...,
                      invalid: Literal[False] = ...) -> SearchStrategy[Manifest]: ...


@overload
def scheduler_configs(*, profiles: int = ..., probes: int = ..., points: Collection[str] = ...,
                      default_plugins: bool | None = ..., extenders: int = ...,
                      invalid: Literal[True]) -> SearchStrategy[InvalidConfig]: ...


def scheduler_configs(*, profiles: int = 1, probes: int = 0, points: Collection[str] = EXTENSION_POINTS,
                      default_plugins: bool | None = None, extenders: int = 0,
                      invalid: bool = False) -> SearchStrategy[Manifest] | SearchStrategy[InvalidConfig]:
    """KubeSchedulerConfiguration v1 mappings with 1 to `profiles` profiles: the default plugins kept
    (`default_plugins=True`; re-weighted or re-ordered at most), replaced by a profile of only
    PrioritySort, DefaultBinder and probes (`False`), or either and also disabled (`None`); up to
    `probes` probes (Probe0...) placed in multiPoint or at points from `points`, some before the
    default plugins, some with scoreExtensions; valid pluginConfig args; up to `extenders` extenders.

    With `invalid=True`, draws `InvalidConfig(config, error)`: a valid config with one defect
    that upstream rejects with a message containing `error`.

    Shrinks towards {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration"}
    (the v1 defaults) or, with probes, each probe once in multiPoint.
    """
    options = ConfigOptions.checked("scheduler_configs", profiles=profiles, probes=probes, points=points,
                                    default_plugins=default_plugins, extenders=extenders)
    if invalid:
        return st.composite(lambda draw: draw_invalid_config(draw, draw_config_plan(draw, options).config))()
    return st.composite(lambda draw: draw_config_plan(draw, options).config)()


__all__ = ["API_VERSION", "ConfigOptions", "ConfigPlan", "InvalidConfig", "KIND", "draw_config_plan",
           "scheduler_configs"]
