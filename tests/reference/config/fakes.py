"""Fake plugins for the config tests: the v1.37.2 in-tree names with their upstream interfaces
(no behaviour), fake args classes with v1 defaults, and framework_test.go's test plugins."""

from __future__ import annotations

from typing import Any, ClassVar, Mapping

from reference.config import PlacementGeneratePlugin, PlacementScorePlugin, PodGroupPostFilterPlugin
from reference.errors import ConfigError
from reference.interfaces import (
    BindPlugin,
    FilterPlugin,
    PermitPlugin,
    PostBindPlugin,
    PostFilterPlugin,
    PreBindPlugin,
    PreEnqueuePlugin,
    PreFilterPlugin,
    PreScorePlugin,
    QueueSortPlugin,
    ReservePlugin,
    ScorePlugin,
)
from reference.registry import PluginArgs, Registry


class FakeArgs(PluginArgs):
    """Raw args merged over `DEFAULTS`; `check` returns (field, bad value, detail) problems."""

    DEFAULTS: ClassVar[dict[str, Any]] = {}

    def __init__(self, values: Mapping[str, Any]) -> None:
        self.values = dict(values)

    @classmethod
    def check(cls, values: Mapping[str, Any]) -> list[tuple[str, Any, str]]:
        return []

    @classmethod
    def from_config(cls, raw, path):
        values = {**cls.DEFAULTS, **(raw or {})}
        problems = cls.check(values)
        if problems:
            name, bad, detail = problems[0]
            raise ConfigError(f"Invalid value: {bad}: {detail}", field=f"{path}.{name}" if path else name)
        return cls(values)

    def to_config(self):
        return dict(self.values)

    def __eq__(self, other):
        return type(other) is type(self) and other.values == self.values

    def __repr__(self):
        return f"{type(self).__name__}({self.values})"


def _args(kind: str, defaults: dict[str, Any], check=None) -> type[FakeArgs]:
    attrs: dict[str, Any] = {"KIND": kind, "DEFAULTS": defaults}
    if check:
        attrs["check"] = classmethod(lambda cls, v: check(v))
    return type(kind, (FakeArgs,), attrs)


def _percentage(v):
    p = v.get("minCandidateNodesPercentage")
    return [("minCandidateNodesPercentage", p, "not in valid range [0, 100]")] if not 0 <= p <= 100 else []


RESOURCES = [{"name": "cpu", "weight": 1}, {"name": "memory", "weight": 1}]
DefaultPreemptionArgs = _args("DefaultPreemptionArgs",
                              {"minCandidateNodesPercentage": 10, "minCandidateNodesAbsolute": 100}, _percentage)
DynamicResourcesArgs = _args("DynamicResourcesArgs", {"filterTimeout": "10s", "bindingTimeout": "10m0s"})
InterPodAffinityArgs = _args("InterPodAffinityArgs", {"hardPodAffinityWeight": 1})
NodeAffinityArgs = _args("NodeAffinityArgs", {})
NodeResourcesBalancedAllocationArgs = _args("NodeResourcesBalancedAllocationArgs", {"resources": RESOURCES})
NodeResourcesFitArgs = _args(
    "NodeResourcesFitArgs", {"scoringStrategy": {"type": "LeastAllocated", "resources": RESOURCES}},
    lambda v: ([("scoringStrategy.type", repr(v["scoringStrategy"]["type"]), "invalid")]
               if v["scoringStrategy"].get("type") not in ("LeastAllocated", "MostAllocated") else []))
PodTopologySpreadArgs = _args("PodTopologySpreadArgs", {"defaultingType": "System"})
VolumeBindingArgs = _args("VolumeBindingArgs", {"bindTimeoutSeconds": 600, "shape": [
    {"utilization": 0, "score": 10}, {"utilization": 100, "score": 0}]})


def _plugin(name: str, *bases: type, args: type[PluginArgs] | None = None) -> type:
    attrs: dict[str, Any] = {"NAME": name}
    if args is not None:
        attrs["ARGS"] = args
    return type(name, bases, attrs)


PF = (PreFilterPlugin, FilterPlugin)
SCORING = (PreScorePlugin, ScorePlugin)
IN_TREE_FAKES = (
    _plugin("SchedulingGates", PreEnqueuePlugin),
    _plugin("PrioritySort", QueueSortPlugin),
    _plugin("NodeName", *PF),
    _plugin("NodeUnschedulable", *PF),
    _plugin("TaintToleration", *PF, *SCORING),
    _plugin("NodeAffinity", *PF, *SCORING, args=NodeAffinityArgs),
    _plugin("NodePorts", *PF),
    _plugin("NodeResourcesFit", *PF, *SCORING, args=NodeResourcesFitArgs),
    _plugin("VolumeRestrictions", *PF),
    _plugin("NodeVolumeLimits", *PF),
    _plugin("VolumeBinding", *PF, *SCORING, ReservePlugin, PreBindPlugin, args=VolumeBindingArgs),
    _plugin("VolumeZone", *PF),
    _plugin("PodTopologySpread", *PF, *SCORING, args=PodTopologySpreadArgs),
    _plugin("InterPodAffinity", *PF, *SCORING, args=InterPodAffinityArgs),
    _plugin("DynamicResources", PreEnqueuePlugin, *PF, PostFilterPlugin, ScorePlugin, ReservePlugin,
            PreBindPlugin, args=DynamicResourcesArgs),
    _plugin("DefaultPreemption", PreEnqueuePlugin, PostFilterPlugin, args=DefaultPreemptionArgs),
    _plugin("NodeResourcesBalancedAllocation", *SCORING, args=NodeResourcesBalancedAllocationArgs),
    _plugin("ImageLocality", ScorePlugin),
    _plugin("DefaultBinder", BindPlugin),
    _plugin("NodeDeclaredFeatures", *PF),
)


def in_tree_fakes() -> Registry:
    return Registry.of(*IN_TREE_FAKES)


# framework_test.go's plugins (names and interfaces).
ALL_POINTS = (PreEnqueuePlugin, QueueSortPlugin, PreFilterPlugin, FilterPlugin, PostFilterPlugin, PreScorePlugin,
              ScorePlugin, ReservePlugin, PermitPlugin, PreBindPlugin, BindPlugin, PostBindPlugin,
              PlacementGeneratePlugin, PlacementScorePlugin, PodGroupPostFilterPlugin)
TEST_PLUGIN = "test-plugin"
QUEUE_SORT = "no-op-queue-sort-plugin"
BIND = "bind-plugin"
SCORE_1, SCORE_2 = "score-plugin-1", "score-plugin-2"
NORMALIZE_1, NORMALIZE_2 = "score-with-normalize-plugin-1", "score-with-normalize-plugin-2"
PLACEMENT_SCORE_1 = "placement-score-plugin-1"
PLACEMENT_GENERATE = "placement-generate-plugin"
NOT_SCORE = "plugin-not-implementing-score"
DUPLICATE = "duplicate-plugin"
PRE_FILTER = "prefilter-plugin"


def framework_fakes() -> Registry:
    # TestPlugin implements every point except PreEnqueue (framework_test.go TestPlugin has no PreEnqueue).
    test_plugin = _plugin(TEST_PLUGIN, *[b for b in ALL_POINTS if b is not PreEnqueuePlugin])
    return Registry.of(
        test_plugin,
        _plugin(QUEUE_SORT, QueueSortPlugin),
        _plugin(BIND, BindPlugin),
        _plugin(SCORE_1, *SCORING),
        _plugin(SCORE_2, *SCORING),
        _plugin(NORMALIZE_1, ScorePlugin),
        _plugin(NORMALIZE_2, ScorePlugin),
        _plugin(PLACEMENT_SCORE_1, PlacementScorePlugin),
        _plugin(PLACEMENT_GENERATE, PlacementGeneratePlugin),
        _plugin(NOT_SCORE, FilterPlugin),
        _plugin(DUPLICATE, PreFilterPlugin),
        _plugin(PRE_FILTER, PreFilterPlugin),
    )
