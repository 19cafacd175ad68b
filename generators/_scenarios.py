"""`scenarios()`: a config, a cluster, and the pods to schedule with their probe and extender scripts."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Collection

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from reference.scenario import EXTENDER_SCRIPT_ANNOTATION, PROBE_SCRIPT_ANNOTATION, Scenario

from ._clusters import Owners, draw_bound_pods, draw_nodes, draw_owners, draw_pdbs, draw_services, namespace_objects
from ._base_config import BaseConfig, draw_based_plan
from ._configs import ConfigOptions, ConfigPlan, draw_config_plan
from ._draw import Draw, Manifest, elements
from ._extenders import draw_extender_script
from ._pods import draw_pod
from ._faults import draw_faults
from ._timeline import draw_timeline
from ._preemption import draw_preemptor, draw_target, draw_victims
from ._probes import EXTENSION_POINTS, ScriptTarget, draw_probe_script
from .pools import NAMESPACES, NODE_NAMES


@dataclass(frozen=True)
class _Options:
    config: ConfigOptions
    max_nodes: int
    max_pods: int
    max_permit_timeout: float
    preemption: bool
    gates: bool
    base: BaseConfig | None = None
    timeline: int = 0
    faults: int = 0


def _annotate(pod: Manifest, key: str, script: Manifest) -> None:
    if script:
        pod["metadata"].setdefault("annotations", {})[key] = json.dumps(script, separators=(",", ":"))


def _script(draw: Draw, pod: Manifest, plan: ConfigPlan, options: _Options, nodes: list[str],
            victims: dict[str, list[str]]) -> None:
    """Attach the pod's probe script (for its profile's probes) and extender script."""
    profile = plan.profile(pod["spec"].get("schedulerName", "default-scheduler"))
    target = ScriptTarget(profile.probes, options.config.points, profile.score_extensions)
    # Probes count attempts in PreFilter, so per-attempt actions need a probe there (docs/probes.md).
    per_attempt = any("preFilter" in points for points in profile.probes.values())
    _annotate(pod, PROBE_SCRIPT_ANNOTATION, draw_probe_script(
        draw, target, nodes, per_attempt=per_attempt, max_permit_timeout=options.max_permit_timeout))
    _annotate(pod, EXTENDER_SCRIPT_ANNOTATION, draw_extender_script(draw, plan.extenders, nodes, victims))


def _draw_scenario(draw: Draw, options: _Options) -> Scenario:
    plan = draw_config_plan(draw, options.config) if options.base is None else draw_based_plan(draw, options.base,
                                                                                                options.config)
    nodes = draw_nodes(draw, 1, options.max_nodes)
    names = [n["metadata"]["name"] for n in nodes]
    owners = draw_owners(draw, True) if not options.preemption else Owners()
    if options.preemption:
        target = draw_target(draw, nodes)
        bound = draw_victims(draw, nodes, owners=owners, namespaces=NAMESPACES)
    else:
        bound = draw_bound_pods(draw, nodes, max_pods=options.max_pods, respect_capacity=True, owners=owners,
                                namespaces=NAMESPACES)
    victims = {n: [f'{p["metadata"]["namespace"]}/{p["metadata"]["name"]}' for p in bound
                   if p["spec"]["nodeName"] == n] for n in names}
    scheduler_names = [p.scheduler_name for p in plan.profiles]
    workload: list[Manifest] = []
    if options.preemption:
        in_tree = [p.scheduler_name for p in plan.profiles if p.in_tree]
        workload.append(draw_preemptor(draw, nodes, target, scheduler_names=in_tree, namespaces=NAMESPACES))
        _script(draw, workload[0], plan, options, names, victims)

    def workload_pod(draw: Draw, i: int) -> Manifest:
        # Scripts are drawn with their pod, so that deleting the pod deletes them too.
        pod = owners.adopt(draw_pod(draw, f"pod-{i}", namespaces=NAMESPACES, nodes=names,
                                    scheduler_names=scheduler_names, gates=options.gates, owners=owners.references))
        _script(draw, pod, plan, options, names, victims)
        return pod
    first = len(workload)
    workload += elements(draw, 1 - first, options.max_pods - first, lambda d, i: workload_pod(d, first + i),
                         more=75)
    objects = [*namespace_objects([*bound, *workload]), *owners.objects, *draw_services(draw, True),
               *draw_pdbs(draw, True, bound)]
    scenario = Scenario(config=plan.config, nodes=tuple(nodes), pods=tuple(bound), objects=tuple(objects),
                        workload=tuple(workload))
    if options.timeline:  # drawn last: without it, every draw is what it was before timelines
        scenario = replace(scenario, timeline=draw_timeline(draw, scenario, options.timeline))
    if options.faults:  # drawn after the events, armed before them
        scenario = replace(scenario, timeline=(*draw_faults(draw, scenario, options.faults), *scenario.timeline))
    return scenario


def scenarios(*, max_nodes: int = 4, max_pods: int = 4, probes: int = 3,
              points: Collection[str] = EXTENSION_POINTS, default_plugins: bool | None = None,
              extenders: int = 0, max_permit_timeout: float = 2.0, profiles: int = 1, preemption: bool = False,
              gates: bool = False, base: BaseConfig | None = None, timeline: int = 0,
              faults: int = 0) -> SearchStrategy[Scenario]:
    """Scenarios: a config from `scheduler_configs()` (up to `profiles` profiles, up to `probes`
    probes placed at `points`, `default_plugins` as there, up to `extenders` extenders), 1 to
    `max_nodes` nodes, up to `max_pods` pods bound within capacity, Services, ReplicaSets, PDBs and
    Namespaces, and 1 to `max_pods` pods to schedule, each on one of the profiles, with a probe
    script for the points in `points` (Permit waits at most `max_permit_timeout` seconds) and an
    extender script. `gates` lets workload pods carry scheduling gates. `preemption` fills every
    node with lower-priority pods and makes the first workload pod a higher-priority one that fits
    only by evicting (the default plugins then stay, so that DefaultPreemption runs).

    `base` (a `BaseConfig`: the user's own config and the plugins its build runs) replaces the drawn
    config: every profile, plugin, weight and arg of the user's stays, probes are drawn between the
    user's plugins, and `profiles`, `default_plugins` and `extenders` do not apply.

    `timeline` (0: none) draws up to that many cluster events relevant to the drawn pods, and some that
    change nothing for them (generators/_timeline.py). `faults` (0: none) draws up to that many timeline
    faults for the workload pods, armed first (generators/_faults.py).

    Shrinks towards no fault, no timeline event, one node with ample capacity, one pod with one container and no
    requests, the default config (or, with probes, probes in multiPoint) and empty scripts.
    """
    if preemption and default_plugins is False:
        raise ValueError("scenarios(preemption=True, default_plugins=False): preemption needs DefaultPreemption "
                         "and NodeResourcesFit; pass default_plugins=True or None")
    config = ConfigOptions.checked("scenarios", profiles=profiles, probes=probes, points=points,
                                   default_plugins=True if preemption else default_plugins, extenders=extenders,
                                   preemption=preemption)
    if not 1 <= max_nodes <= len(NODE_NAMES):
        raise ValueError(f"scenarios(max_nodes={max_nodes!r}): use 1 to {len(NODE_NAMES)}")
    if not isinstance(max_pods, int) or max_pods < 1:
        raise ValueError(f"scenarios(max_pods={max_pods!r}): use 1 or more")
    if max_permit_timeout < 0:
        raise ValueError(f"scenarios(max_permit_timeout={max_permit_timeout!r}): use 0 or more seconds")
    if not isinstance(timeline, int) or timeline < 0:
        raise ValueError(f"scenarios(timeline={timeline!r}): use 0 (no events) or more")
    if not isinstance(faults, int) or isinstance(faults, bool) or faults < 0:
        raise ValueError(f"scenarios(faults={faults!r}): use 0 (no faults) or more")
    options = _Options(config, max_nodes, max_pods, float(max_permit_timeout), preemption, gates, base, timeline,
                       faults)
    return st.composite(lambda draw: _draw_scenario(draw, options))()


__all__ = ["scenarios"]
