"""Build a reference `Scheduler` from a KubeSchedulerConfiguration, as `scheduler.New` does."""

from __future__ import annotations

from typing import Any, Mapping

from .. import codec
from ..config import KubeSchedulerConfiguration, expand_config, load_config
from ..errors import FrameworkError
from ..extender import HTTPExtender
from ..framework.runtime import Framework, plugins_by_point
from ..interfaces import POINT_NAMES
from ..kinds import VOLUME_KINDS
from ..plugins import in_tree_registry
from ..registry import Registry
from ..scenario import Scenario
from ..types import Namespace, PodDisruptionBudget, Workload
from .api_server import ClusterStore
from .clock import VirtualClock
from .queue import DEFAULT_INITIAL_BACKOFF, DEFAULT_MAX_BACKOFF
from .scheduler import Scheduler


def build_scheduler(config: KubeSchedulerConfiguration | str | Mapping[str, Any] | None = None, *,
                    out_of_tree: Registry | None = None, features: Mapping[str, bool] | None = None,
                    seed: int = 0, max_attempts: int = 8, store: ClusterStore | None = None,
                    clock: VirtualClock | None = None) -> Scheduler:
    """A scheduler with one framework per profile; `config=None` means the v1 defaults.

    `out_of_tree` plugins (probes, a user's own) are merged into the in-tree registry, as
    `WithFrameworkOutOfTreeRegistry` does. `store` and `clock`: a restarted scheduler's (faults).
    Raises ConfigError / FrameworkError with upstream texts.
    """
    registry = in_tree_registry()
    if out_of_tree is not None:
        registry = registry.merged(out_of_tree)
    if not isinstance(config, KubeSchedulerConfiguration):
        config = load_config(config if config is not None else {
            "apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration"},
            registry=registry, features=features)
    expanded = expand_config(config, registry)
    frameworks: dict[str, Framework] = {}
    for name, profile in expanded.items():
        fw = Framework(name, {}, profile.score_weights,
                       percentage_of_nodes_to_score=profile.percentage_of_nodes_to_score)
        points = {p: profile.names(p) for p in POINT_NAMES}
        instances = {}
        for plugin in dict.fromkeys(n for names in points.values() for n in names):
            spec = registry.get(plugin)
            assert spec is not None  # expansion already rejected unknown names
            try:
                instances[plugin] = spec.factory(profile.plugin_args.get(plugin), fw)
            except (ValueError, TypeError) as e:
                raise FrameworkError(f'initializing plugin "{plugin}": {e}') from e
        fw.set_plugins(plugins_by_point(points, instances))
        frameworks[name] = fw
    # buildExtenders: ignorable extenders go last, keeping configured order within each group.
    extenders = [HTTPExtender.of(e) for e in config.extenders]
    extenders.sort(key=lambda e: e.is_ignorable())
    return Scheduler(frameworks, store=store, clock=clock, extenders=extenders, seed=seed, max_attempts=max_attempts,
                     percentage_of_nodes_to_score=config.percentage_of_nodes_to_score or 0,
                     pod_initial_backoff_seconds=(config.pod_initial_backoff_seconds
                                                  or DEFAULT_INITIAL_BACKOFF),
                     pod_max_backoff_seconds=config.pod_max_backoff_seconds if config.pod_max_backoff_seconds
                     is not None else DEFAULT_MAX_BACKOFF,
                     nominated_node_name_for_expectation=(features or {}).get(
                         "NominatedNodeNameForExpectation", True))


def add_objects(sched: Scheduler, objects) -> None:
    """Add the scheduler-relevant objects of a scenario's `objects` (Namespaces, PDBs, Workloads, storage)."""
    for manifest in objects:
        obj = codec.from_manifest(manifest)
        if manifest.get("kind") in VOLUME_KINDS:
            sched.put_volume_object(obj)
        elif isinstance(obj, Namespace):
            sched.add_namespace(obj)
        elif isinstance(obj, PodDisruptionBudget):
            sched.add_pdb(obj)
        elif isinstance(obj, Workload):
            sched.add_workload(obj)


def populate(sched: Scheduler, scenario: Scenario) -> None:
    """Add a scenario's objects, nodes, bound pods and then its workload pods, in that order."""
    add_objects(sched, scenario.objects)
    for manifest in scenario.nodes:
        sched.add_node(codec.node_from_manifest(manifest))
    for manifest in (*scenario.pods, *scenario.workload):
        sched.add_pod(codec.pod_from_manifest(manifest))


__all__ = ["add_objects", "build_scheduler", "populate"]
