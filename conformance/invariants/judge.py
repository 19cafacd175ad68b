"""The reference's own Filter plugins as judges of what any scheduler did, from the outcome alone.

No trace is needed, so the checks built on this run on every backend. What a scheduler saw when it
bound a pod is not in an outcome, only bounds of it:

- `definite`: pods present for every scheduling cycle: the scenario's bound pods that were never
  deleted (a victim may have gone before any cycle).
- `possible`: pods that may have been present for some cycle: every scenario pod, every pod bound
  at any time (binding goroutines run in parallel and Permit may hold a pod, so bind order is not
  cycle order), and `floating` pods: workload pods that ended unbound but may have been assumed on
  an unknown node in between (waiting at the end, or their profile or a binder extender can fail
  a binding after Reserve).
- For any set of pods bound together at the end, the last one scheduled saw all the others (each
  stayed assumed or bound from its own cycle on), so a set whose every member each plugin would
  reject next to the others is a certain violation (`group_rejected`).

A config the reference cannot read makes `Judge.of(run)` None; a user's plugins become inert
stand-ins (checks that would need their answers skip the pod: `stock_only`); a pod the reference
does not model (volumes, DRA claims) is not `judgeable`. The checks then skip, never guess.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cached_property
from typing import Callable, Iterable, Sequence

from reference import codec
from reference.cycle_state import CycleState
from reference.errors import ReferenceError_
from reference.framework.runtime import Framework
from reference.interfaces import FilterPlugin
from reference.kinds import VOLUME_KINDS
from reference.nodeinfo import Snapshot
from reference.scenario import pod_key
from reference.plugins import in_tree_registry
from reference.probe import PROBE_NAMES, ProbeTracker, probe_registry
from reference.scheduler.build import add_objects, build_scheduler
from reference.status import SUCCESS, Code, Status
from reference.types import Node, Pod
from reference.volumes import VolumeObjects

from ..core import scenario_config
from .run import Run

# Points after Reserve where a plugin may fail an assumed pod's binding (it then leaves the cache).
_AFTER_RESERVE = ("reserve", "permit", "preBind", "bind")
_EXCLUDED_BY_PREFILTER = "PreFilter result excludes the node"
_RESULT_KEY = "conformance/PreFilterResult"
# verdict(workload pod, node, the other pods) -> the status, None when the rule does not apply to the pod
Verdict = Callable[[str, str, list[Pod]], "Status | None"]


class Judge:
    """Per run: the reference's frameworks for the config the scheduler ran, and the states to judge on.

    A backend that does not honour each scenario's config (a cluster running its own scheduler)
    is judged against the stock v1 default profile: the outcome cannot say what it runs instead."""

    def __init__(self, run: Run, config, profiles: dict, frameworks: dict[str, Framework],
                 namespace_labels: dict, pdbs: list, state: int | None = None,
                 volumes: VolumeObjects | None = None) -> None:
        self.run = run
        self.config = config
        self.profiles = profiles
        self.frameworks = frameworks
        self.namespace_labels = namespace_labels
        self.pdbs = pdbs
        # None: the scenario's own cluster; k: the cluster after the first k applied timeline events.
        self.state = state
        # The storage objects the volume plugins read on this cluster (the frameworks share one store).
        self.volumes = volumes if volumes is not None else VolumeObjects()

    @staticmethod
    def of(run: Run) -> "Judge | None":
        """The run's judge (built once per run), or None when the reference cannot read the config."""
        cached = run.__dict__.get("_judge", False)
        if cached is not False:
            return cached
        judge = None
        honoured = "config-per-scenario" in run.capabilities
        document = run.scenario.config if honoured else None
        try:
            config, profiles = scenario_config.load(document)
            # A user's plugins fill their places as inert opaque plugins; every check that would need
            # them (`stock_only`) skips the pod.
            stand_ins = scenario_config.stand_ins(document)
            sched = build_scheduler(config, out_of_tree=probe_registry(ProbeTracker()).merged(stand_ins))
            add_objects(sched, run.scenario.objects)
            judge = Judge(run, config, profiles, sched.frameworks, sched.store.namespace_labels(),
                          list(sched.store.pdbs), volumes=sched.store.volumes)
        except (ReferenceError_, ValueError, KeyError, TypeError, NotImplementedError):
            judge = None
        run.__dict__["_judge"] = judge
        return judge

    @staticmethod
    def timeless(run: Run) -> "Judge | None":
        """The judge for checks that still judge on the scenario's own cluster: None (they skip) once a
        timeline event applied, since that cluster is then not the one every cycle saw."""
        return None if run.outcome.timeline and run.cluster.changed else Judge.of(run)

    @property
    def changed(self) -> bool:
        """Whether timeline events changed the cluster during the run (bindings are then judged per state)."""
        return self.state is None and self.run.cluster.changed

    def at(self, k: int) -> "Judge":
        """This judge on the cluster after the first k applied timeline events."""
        if not self.changed:
            return self
        views = self.__dict__.setdefault("_views", {})
        if k not in views:
            cluster = self.run.cluster
            labels = {m["metadata"]["name"]: dict((m["metadata"].get("labels") or {}))
                      for m in cluster.manifests(k, "Namespace")}
            pdbs = [codec.from_manifest(m) for m in cluster.manifests(k, "PodDisruptionBudget")]
            volumes = VolumeObjects()
            for kind in VOLUME_KINDS:
                for m in cluster.manifests(k, kind):
                    volumes.put(codec.from_manifest(m))
            views[k] = Judge(self.run, self.config, self.profiles, self.frameworks,
                             {**self.namespace_labels, **labels}, pdbs, state=k, volumes=volumes)
        return views[k]

    def views_at_binding(self, key: str) -> list["Judge"]:
        """This judge on each cluster the cycle that last bound `key` may have decided on."""
        if not self.changed:
            return [self]
        times = [b.get("t") for b in self.run.outcome.bindings if b.get("pod") == key]
        t = times[-1] if times and isinstance(times[-1], (int, float)) else None
        return [self.at(k) for k in self.run.cluster.at_binding(key, t)]

    def plugins_at(self, key: str, point: str) -> list[str]:
        """The pod's profile's plugins at `point` (v1 field name), as the judge reads the config."""
        profile = self.profiles.get(self.run.profile_of(key))
        return profile.names(point) if profile is not None else []

    # --- the scenario -------------------------------------------------------------------------

    @cached_property
    def nodes(self) -> dict[str, Node]:
        """The nodes (of the scenario, or of this judge's state; on a changed cluster, every node that
        existed at some point, as last seen)."""
        if self.state is not None:
            manifests = self.run.cluster.manifests(self.state, "Node")
        elif self.changed:
            manifests = [m for k in range(len(self.run.cluster.states))
                         for m in self.run.cluster.manifests(k, "Node")]
        else:
            manifests = self.run.scenario.nodes
        return {m["metadata"]["name"]: codec.node_from_manifest(m) for m in manifests}

    @cached_property
    def scenario_pods(self) -> list[Pod]:
        """The bound pods the scenario (or, in a state, the cluster then) holds."""
        if self.state is None:
            return [_with_uid(codec.pod_from_manifest(m)) for m in self.run.scenario.pods]
        return [_with_uid(codec.pod_from_manifest(m)) for m in self.run.cluster.manifests(self.state, "Pod")
                if (m.get("spec") or {}).get("nodeName") and pod_key(m) not in self.run.pod_objects]

    @cached_property
    def deleted(self) -> set[str]:
        return set(self.run.outcome.deleted)

    @cached_property
    def definite(self) -> list[Pod]:
        return [p for p in self.scenario_pods if p.key not in self.deleted]

    @cached_property
    def placed(self) -> dict[str, str]:
        """Workload pod -> node of its last binding, for pods never deleted, in bind order."""
        out: dict[str, str] = {}
        for b in self.run.outcome.bindings:
            key, node = b.get("pod"), b.get("node")
            if key in self.run.pod_objects and key not in self.deleted and node in self.nodes \
                    and key in self.run.live_pods:
                out.pop(key, None)
                out[key] = node
        return out

    def pod(self, key: str, node: str = "") -> Pod:
        """The workload pod (as it was in this judge's state, where it existed then) on `node`."""
        manifest = self.run.cluster.pod(self.state, key) if self.state is not None else None
        pod = codec.pod_from_manifest(manifest) if manifest is not None else self.run.pod_objects[key]
        return replace(_with_uid(pod), node_name=node)

    @cached_property
    def possible(self) -> list[Pod]:
        """Pods on known nodes that may have been present for some cycle (see the module docstring)."""
        pods = list(self.scenario_pods)
        seen = set()
        for b in self.run.outcome.bindings:
            key, node = b.get("pod"), b.get("node")
            if key in self.run.pod_objects and node in self.nodes and (key, node) not in seen:
                seen.add((key, node))
                pods.append(self.pod(key, node))
        return pods

    @cached_property
    def floating(self) -> list[Pod]:
        """Workload pods that ended unbound but may have been assumed somewhere (node unknown)."""
        binder = any(e.bind_verb for e in self.config.extenders)
        out = []
        for key, pod in self.run.pod_objects.items():
            result = self.run.outcome.pods.get(key)
            if key in self.placed or result is None or result.phase == "gated":
                continue
            if result.phase == "waiting" or binder or self._may_fail_after_reserve(key):
                out.append(self.pod(key))
        return out

    def _may_fail_after_reserve(self, key: str) -> bool:
        return not self.stock_only(key, _AFTER_RESERVE)

    def stock_only(self, key: str, points: Sequence[str]) -> bool:
        """Whether every plugin of the pod's profile at `points` is a stock one the reference knows."""
        registry = in_tree_registry()
        return all(n not in PROBE_NAMES and registry.get(n) is not None
                   for point in points for n in self.plugins_at(key, point))

    def judgeable(self, key: str) -> bool:
        """Whether the reference models everything about the pod its Filter plugins read."""
        pod = self.run.pod_objects[key]
        return not pod.volumes and not pod.resource_claims

    # --- plugins ------------------------------------------------------------------------------

    def framework(self, key: str) -> Framework | None:
        return self.frameworks.get(self.run.profile_of(key))

    def filter_plugin(self, key: str, name: str) -> FilterPlugin | None:
        """The pod's profile's Filter plugin `name`, if the profile runs it at Filter."""
        fw = self.framework(key)
        return next((p for p in fw.filter_plugins if p.name == name), None) if fw is not None else None

    def snapshot(self, others: Iterable[Pod]) -> Snapshot:
        return Snapshot(self.nodes.values(), others, self.namespace_labels)

    def prefilter(self, key: str, name: str, pod: Pod, snapshot: Snapshot) -> tuple[CycleState, Status]:
        """Run the plugin's PreFilter (if the profile runs it there) on `snapshot`, as the framework does."""
        fw = self.framework(key)
        assert fw is not None
        fw.set_snapshot(snapshot)
        fw.client.volumes = self.volumes  # type: ignore[attr-defined]
        state = CycleState()
        plugin = next((p for p in fw.pre_filter_plugins if p.name == name), None)
        if plugin is None:
            return state, SUCCESS
        result, status = plugin.pre_filter(state, pod, snapshot.node_info_list)
        if status.is_skip():
            state.skip_filter_plugins.add(name)
            return state, SUCCESS
        if status.is_success() and result is not None and result.node_names is not None:
            state.write(_RESULT_KEY, result.node_names)
        return state, status

    def verdict(self, key: str, name: str, node: str, others: Iterable[Pod]) -> Status | None:
        """PreFilter and Filter of plugin `name` for the workload pod on `node` next to `others`;
        None when the profile does not run it at Filter."""
        plugin = self.filter_plugin(key, name)
        if plugin is None:
            return None
        if node not in self.nodes:  # a state in which the node did not exist (yet, or any more)
            return Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, f"node {node} does not exist")
        pod = self.pod(key)
        snapshot = self.snapshot(others)
        state, status = self.prefilter(key, name, pod, snapshot)
        if not status.is_success():
            return status
        if name in state.skip_filter_plugins:
            return SUCCESS
        if _RESULT_KEY in state and node not in state.read(_RESULT_KEY):
            return Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, _EXCLUDED_BY_PREFILTER)
        info = snapshot.get(node)
        assert info is not None
        return plugin.filter(state, pod, info)

    def group_rejected(self, name: str, group: Sequence[str], base: Sequence[Pod] | None = None,
                       verdict: Verdict | None = None) -> dict[str, Status] | None:
        """Each workload pod of `group` (bound together at the end) judged next to `base` (default: the
        `definite` pods) and the others (by plugin `name`, or by `verdict(pod, node, others)`): the
        statuses if every one of them is rejected, else None. On a changed cluster each pod is judged
        on every state its binding cycle may have seen (`base` then is each state's `definite`, and a
        custom `verdict` is refused: it judges on one cluster), and must be rejected on all of them."""
        assert verdict is None or not self.changed, "a custom verdict judges on the scenario's cluster only"
        statuses = {}
        for key in group:
            status = None
            for view in self.views_at_binding(key):
                pods = (base if base is not None and not self.changed else view.definite)
                others = [*pods, *(view.pod(k, self.placed[k]) for k in group if k != key)]
                status = verdict(key, self.placed[key], others) if verdict is not None else \
                    view.verdict(key, name, self.placed[key], others)
                if status is None or not status.is_rejected():
                    return None
            if status is None:
                return None
            statuses[key] = status
        return statuses



def _with_uid(pod: Pod) -> Pod:
    return pod if pod.uid else replace(pod, uid=pod.key)


__all__ = ["Judge", "Verdict"]
