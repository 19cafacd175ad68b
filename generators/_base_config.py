"""Scenarios on the user's own KubeSchedulerConfiguration: their profiles, plugin sets, args and
weights stay; only the probes around their plugins are drawn.

Which plugins run where is what the user's scheduler build says (its `ListPlugins`, as the upstream
runner reports it), because only the build knows which extension points an out-of-tree plugin
implements. Each profile is written out with every point's plugins named explicitly (multiPoint
disabled), the same plugins in the same order with the same weights, so that a probe can sit at an
exact place between two of the user's plugins: a probe before and one after a plugin show what the
plugin did by its effect.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from reference.probe import PROBE_NAMES
from reference.scenario import Scenario

from ._configs import ConfigOptions, ConfigPlan
from ._draw import Draw, Manifest, count, elements, flag, optional, subset
from ._profiles import PROBE_POINTS, ProfilePlan

WEIGHTED = ("score", "placementScore")
Layout = Mapping[str, tuple[tuple[str, int], ...]]  # point -> (plugin, weight) in run order


@dataclass(frozen=True)
class BaseConfig:
    """The user's config and, per profile, the plugins its build runs at each point."""

    config: Manifest
    layouts: Mapping[str, Layout]

    @classmethod
    def from_plugin_lists(cls, config: Mapping[str, Any], plugin_lists: Mapping[str, Mapping[str, Any]]) -> "BaseConfig":
        """`plugin_lists`: per profile, `ListPlugins` in the v1 JSON shape (an outcome's `plugins`)."""
        layouts = {profile: {point: tuple((e["name"], int(e.get("weight") or 0)) for e in (sets or {}).get("enabled") or ())
                             for point, sets in points.items()}
                   for profile, points in plugin_lists.items()}
        return cls(copy.deepcopy(dict(config)), layouts)

    @property
    def scheduler_names(self) -> tuple[str, ...]:
        return tuple(self.layouts)

    def plugins(self) -> frozenset[str]:
        return frozenset(name for layout in self.layouts.values() for entries in layout.values() for name, _ in entries)

    def adopt(self, scenario: Scenario) -> Scenario:
        """`scenario` (built for the stock scheduler: a situation) on the user's config instead of its own.

        A probe-only config (a situation's) gives its probes, their args and its extenders: each probe
        goes after the user's plugins at its points (at bind before them, as the situation puts it
        before DefaultBinder), in the first of the user's profiles; the in-tree plugins it kept are
        dropped, the user's plugins run instead. A scenario without a config (the default profile) runs
        on the user's config as it is. Workload pods go to that profile."""
        name = self.scheduler_names[0]
        config = copy.deepcopy(self.config)
        theirs = (scenario.config or {}).get("profiles") or ()
        if theirs:
            # Every profile written out as draw_based_plan does (queueSort must read the same in all).
            config["profiles"] = [_with_probes(self, other, theirs[0] if other == name else {})
                                  for other in self.scheduler_names]
            extenders = (scenario.config or {}).get("extenders") or ()
            if extenders:
                config["extenders"] = [*(config.get("extenders") or ()), *copy.deepcopy(list(extenders))]
        workload = tuple({**p, "spec": {**p["spec"], "schedulerName": name}}
                         if p["spec"].get("schedulerName", "default-scheduler") not in self.scheduler_names else p
                         for p in scenario.workload)
        return replace(scenario, config=config, workload=workload)


def _entry(name: str, weight: int, point: str) -> Manifest:
    return {"name": name, "weight": weight} if point in WEIGHTED else {"name": name}


def _with_probes(base: BaseConfig, scheduler_name: str, probe_profile: Manifest) -> Manifest:
    """The user's profile, every point explicit, with the probes of `probe_profile` added (see adopt)."""
    orders = _orders(base, scheduler_name)
    for point, sets in (probe_profile.get("plugins") or {}).items():
        probes = [dict(e) for e in (sets or {}).get("enabled") or () if e.get("name") in PROBE_NAMES]
        if point == "multiPoint" or not probes:
            continue
        orders[point] = probes + orders.get(point, []) if point == "bind" else orders.get(point, []) + probes
    profile = _explicit_profile(base, scheduler_name, orders)
    probe_args = [dict(c) for c in probe_profile.get("pluginConfig") or () if c.get("name") in PROBE_NAMES]
    if probe_args:
        profile["pluginConfig"] = [*(profile.get("pluginConfig") or ()), *probe_args]
    return profile


def _orders(base: BaseConfig, scheduler_name: str) -> dict[str, list[Manifest]]:
    """The user's plugins at each point, in run order, as config entries."""
    return {point: [_entry(n, w, point) for n, w in entries] for point, entries in base.layouts[scheduler_name].items()}


def _explicit_profile(base: BaseConfig, scheduler_name: str, orders: Mapping[str, list[Manifest]]) -> Manifest:
    """The user's profile (args and all) with every point's plugins named explicitly, multiPoint disabled."""
    profile = copy.deepcopy(_user_profile(base.config, scheduler_name))
    profile["schedulerName"] = scheduler_name
    profile["plugins"] = {"multiPoint": {"disabled": [{"name": "*"}]},
                          **{point: {"enabled": order} for point, order in orders.items() if order}}
    return profile


def _user_profile(config: Manifest, scheduler_name: str) -> Manifest:
    for profile in config.get("profiles") or ():
        if (profile.get("schedulerName") or "default-scheduler") == scheduler_name:
            return profile
    return {"schedulerName": scheduler_name}


def draw_based_profile(draw: Draw, base: BaseConfig, scheduler_name: str, *, max_probes: int,
                       allowed: Sequence[str]) -> tuple[Manifest, ProfilePlan]:
    """The user's profile with up to `max_probes` probes placed between its plugins at `allowed` points.

    Shrinks towards no probe; a probe towards every allowed point, in front of the user's plugins."""
    orders = _orders(base, scheduler_name)
    placements: dict[str, frozenset[str]] = {}
    normalizing: list[str] = []

    def place(draw: Draw, i: int) -> tuple[str, list[tuple[str, int]], bool]:
        """One probe: its points, its index in each point's order, scoreExtensions (applied when kept)."""
        points = optional(draw, 50, lambda d: subset(d, allowed, min_size=1, max_size=3)) or list(allowed)
        inserts = [(point, count(draw, 0, len(orders.get(point, ())))) for point in points]
        return PROBE_NAMES[i], inserts, "score" in points and draw(flag(30))

    def apply(placement: tuple[str, list[tuple[str, int]], bool]) -> None:
        probe, inserts, normalize = placement
        for point, index in inserts:
            orders.setdefault(point, []).insert(index, _entry(probe, 1, point))
        placements[probe] = frozenset(point for point, _ in inserts)
        if normalize:
            normalizing.append(probe)

    elements(draw, 0, max_probes, place, more=75, kept=apply)
    profile = _explicit_profile(base, scheduler_name, orders)
    plugin_config = [c for c in profile.get("pluginConfig") or () if c.get("name") not in normalizing]
    plugin_config += [{"name": p, "args": {"scoreExtensions": True}} for p in normalizing]
    if plugin_config:
        profile["pluginConfig"] = plugin_config
    return profile, ProfilePlan(scheduler_name, placements, frozenset(normalizing), True)


def draw_based_plan(draw: Draw, base: BaseConfig, options: ConfigOptions) -> ConfigPlan:
    """The user's config, every profile kept, with probes drawn around the plugins (see the module)."""
    allowed = tuple(p for p in options.allowed_points() if p in PROBE_POINTS)
    drawn = [draw_based_profile(draw, base, name, max_probes=options.probes, allowed=allowed)
             for name in base.scheduler_names]
    config = copy.deepcopy(base.config)
    config["profiles"] = [profile for profile, _ in drawn]
    return ConfigPlan(config, tuple(plan for _, plan in drawn), ())


__all__ = ["BaseConfig", "draw_based_plan", "draw_based_profile"]
