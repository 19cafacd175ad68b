"""Ports pkg/scheduler/apis/config/v1/default_plugins_test.go (TestApplyFeatureGates: 6/6 cases,
TestMergePlugins: 14/14 cases). The upstream DRA-disabled case runs at emulation version 1.34,
where NodeDeclaredFeatures is off too; here both gates are passed explicitly."""

from __future__ import annotations

import pytest

from reference.config import FEATURE_DEFAULTS, PluginEntry as P, PluginSet, Plugins, default_plugins, merge_plugins

BASE = [P("SchedulingGates"), P("PrioritySort"), P("NodeName"), P("NodeUnschedulable"), P("TaintToleration", 3),
        P("NodeAffinity", 2), P("NodePorts"), P("NodeResourcesFit", 1), P("VolumeRestrictions"),
        P("NodeVolumeLimits"), P("VolumeBinding"), P("VolumeZone"), P("PodTopologySpread", 2),
        P("InterPodAffinity", 2)]
TAIL = [P("DefaultPreemption"), P("NodeResourcesBalancedAllocation", 1), P("ImageLocality", 1), P("DefaultBinder")]
DRA = [P("DynamicResources", 2)]
NDF = [P("NodeDeclaredFeatures")]


def multi(*entries: P) -> Plugins:
    return Plugins(multiPoint=PluginSet(enabled=tuple(entries)))


@pytest.mark.parametrize("features, want", [
    pytest.param({"DynamicResourceAllocation": False, "NodeDeclaredFeatures": False}, [*BASE, *TAIL],
                 id="Feature gate DynamicResourceAllocation disabled"),
    pytest.param({"DynamicResourceAllocation": True}, [*BASE, *DRA, *TAIL, *NDF],
                 id="Feature gate DynamicResourceAllocation enabled"),
    pytest.param({"NodeDeclaredFeatures": True}, [*BASE, *DRA, *TAIL, *NDF],
                 id="Feature gate NodeDeclaredFeatures enabled"),
    pytest.param({"NodeDeclaredFeatures": False}, [*BASE, *DRA, *TAIL],
                 id="Feature gate NodeDeclaredFeatures disabled"),
    pytest.param({"GenericWorkload": True}, [*BASE, *DRA, *TAIL, *NDF, P("GangScheduling")],
                 id="Feature gate GenericWorkload enabled"),
    pytest.param({"GenericWorkload": True, "TopologyAwareWorkloadScheduling": True},
                 [*BASE, *DRA, *TAIL, *NDF, P("GangScheduling"), P("TopologyPlacementGenerator"),
                  P("PodGroupPodsCount", 1)],
                 id="Feature gate TopologyAwareWorkloadScheduling enabled"),
])
def test_apply_feature_gates(features, want):
    assert default_plugins(features) == multi(*want)


def test_v1_37_1_default_gates_give_testing_defaults_plugins_v1():
    # apis/config/testing/defaults/defaults.go PluginsV1.
    assert default_plugins() == multi(*BASE, *DRA, *TAIL, *NDF)
    assert FEATURE_DEFAULTS == {"NodeDeclaredFeatures": True, "InPlacePodVerticalScalingSchedulerPreemption": False,
                                "DynamicResourceAllocation": True, "GenericWorkload": False,
                                "TopologyAwareWorkloadScheduling": False}


def test_deferred_pod_scheduling_goes_before_node_resources_fit():
    names = [p.name for p in default_plugins({"InPlacePodVerticalScalingSchedulerPreemption": True}).multiPoint.enabled]
    assert names[names.index("NodeResourcesFit") - 1] == "DeferredPodScheduling"


def test_unknown_gate_is_rejected():
    with pytest.raises(ValueError, match="'Foo' is not read"):
        default_plugins({"Foo": True})


def ps(enabled=(), disabled=()) -> PluginSet:
    return PluginSet(tuple(P(*e) if isinstance(e, tuple) else P(e) for e in enabled),
                     tuple(P(d) for d in disabled))


def filt(enabled=(), disabled=()) -> Plugins:
    return Plugins(filter=ps(enabled, disabled))


MERGE_CASES = [
    ("AppendCustomPlugin", filt(["CustomPlugin"]), filt(["DefaultPlugin1", "DefaultPlugin2"]),
     filt(["DefaultPlugin1", "DefaultPlugin2", "CustomPlugin"])),
    ("InsertAfterDefaultPlugins2", filt(["CustomPlugin", "DefaultPlugin2"], ["DefaultPlugin2"]),
     filt(["DefaultPlugin1", "DefaultPlugin2"]),
     filt(["DefaultPlugin1", "CustomPlugin", "DefaultPlugin2"], ["DefaultPlugin2"])),
    ("InsertBeforeAllPlugins", filt(["CustomPlugin", "DefaultPlugin1", "DefaultPlugin2"], ["*"]),
     filt(["DefaultPlugin1", "DefaultPlugin2"]),
     filt(["CustomPlugin", "DefaultPlugin1", "DefaultPlugin2"], ["*"])),
    ("ReorderDefaultPlugins", filt(["DefaultPlugin2", "DefaultPlugin1"], ["*"]),
     filt(["DefaultPlugin1", "DefaultPlugin2"]), filt(["DefaultPlugin2", "DefaultPlugin1"], ["*"])),
    ("ApplyNilCustomPlugin", None, filt(["DefaultPlugin1", "DefaultPlugin2"]),
     filt(["DefaultPlugin1", "DefaultPlugin2"])),
    ("CustomPluginOverrideDefaultPlugin", filt([("Plugin1", 2), ("Plugin3", 3)]),
     filt(["Plugin1", "Plugin2", "Plugin3"]), filt([("Plugin1", 2), "Plugin2", ("Plugin3", 3)])),
    ("OrderPreserveAfterOverride", filt([("Plugin2", 2), ("Plugin1", 1)]), filt(["Plugin1", "Plugin2", "Plugin3"]),
     filt([("Plugin1", 1), ("Plugin2", 2), "Plugin3"])),
    ("RepeatedCustomPlugin", filt(["Plugin1", ("Plugin2", 2), "Plugin3", ("Plugin2", 4)]),
     filt(["Plugin1", "Plugin2", "Plugin3"]), filt(["Plugin1", ("Plugin2", 4), "Plugin3", ("Plugin2", 2)])),
    ("Append custom MultiPoint plugin", Plugins(multiPoint=ps(["CustomPlugin"])),
     Plugins(multiPoint=ps(["DefaultPlugin1", "DefaultPlugin2"])),
     Plugins(multiPoint=ps(["DefaultPlugin1", "DefaultPlugin2", "CustomPlugin"]))),
    ("Append disabled Multipoint plugins",
     Plugins(multiPoint=ps(["CustomPlugin", "CustomPlugin2"], ["DefaultPlugin2"]), score=ps([], ["CustomPlugin2"])),
     Plugins(multiPoint=ps(["DefaultPlugin1", "DefaultPlugin2"])),
     Plugins(multiPoint=ps(["DefaultPlugin1", "CustomPlugin", "CustomPlugin2"], ["DefaultPlugin2"]),
             score=ps([], ["CustomPlugin2"]))),
    ("override default MultiPoint plugins with custom value", Plugins(multiPoint=ps([("DefaultPlugin", 5)])),
     Plugins(multiPoint=ps(["DefaultPlugin"])), Plugins(multiPoint=ps([("DefaultPlugin", 5)]))),
    ("disabled MultiPoint plugin in default set", Plugins(multiPoint=ps(["CustomPlugin"])),
     Plugins(multiPoint=ps(["DefaultPlugin"], ["DefaultPlugin2"])),
     Plugins(multiPoint=ps(["DefaultPlugin", "CustomPlugin"], ["DefaultPlugin2"]))),
    ("disabled MultiPoint plugin in default set for specific extension point",
     Plugins(multiPoint=ps(["CustomPlugin"])),
     Plugins(multiPoint=ps(["DefaultPlugin"]), score=ps([], ["DefaultPlugin2"])),
     Plugins(multiPoint=ps(["DefaultPlugin", "CustomPlugin"]), score=ps([], ["DefaultPlugin2"]))),
    ("multipoint with only disabled gets merged", Plugins(multiPoint=ps([], ["DefaultPlugin"])),
     Plugins(multiPoint=ps(["DefaultPlugin"])), Plugins(multiPoint=ps([], ["DefaultPlugin"]))),
]


@pytest.mark.parametrize("custom, default, want", [pytest.param(*c[1:], id=c[0]) for c in MERGE_CASES])
def test_merge_plugins(custom, default, want):
    assert merge_plugins(default, custom) == want


def test_merge_covers_workload_plugin_sets():
    custom = Plugins(placementScore=ps(["Custom"]), podGroupPostFilter=ps([], ["X"]))
    merged = merge_plugins(Plugins(placementScore=ps(["Default"])), custom)
    assert merged.placementScore == ps(["Default", "Custom"])
    assert merged.podGroupPostFilter == ps([], ["X"])
