"""Ports pkg/scheduler/apis/config/v1/defaults_test.go TestSchedulerDefaults (11/11 cases), with
the fake in-tree registry of fakes.py standing in for the args classes. TestPluginArgsDefaults
(per-kind args defaults) belongs to the args classes' own tests and is not ported here."""

from __future__ import annotations

from dataclasses import replace

import pytest

from reference.config import (
    ClientConnection,
    KubeSchedulerConfiguration,
    LeaderElection,
    PluginConfig,
    PluginEntry,
    PluginSet,
    Plugins,
    Profile,
    default_plugins,
    set_defaults,
)

from . import fakes

REGISTRY = fakes.in_tree_fakes()

# defaults_test.go pluginConfigs: default args of every enabled plugin that has an args kind, by name.
PLUGIN_CONFIGS = (
    PluginConfig("DefaultPreemption", fakes.DefaultPreemptionArgs({"minCandidateNodesPercentage": 10,
                                                                    "minCandidateNodesAbsolute": 100})),
    PluginConfig("DynamicResources", fakes.DynamicResourcesArgs({"filterTimeout": "10s", "bindingTimeout": "10m0s"})),
    PluginConfig("InterPodAffinity", fakes.InterPodAffinityArgs({"hardPodAffinityWeight": 1})),
    PluginConfig("NodeAffinity", fakes.NodeAffinityArgs({})),
    PluginConfig("NodeResourcesBalancedAllocation", fakes.NodeResourcesBalancedAllocationArgs(
        {"resources": fakes.RESOURCES})),
    PluginConfig("NodeResourcesFit", fakes.NodeResourcesFitArgs(
        {"scoringStrategy": {"type": "LeastAllocated", "resources": fakes.RESOURCES}})),
    PluginConfig("PodTopologySpread", fakes.PodTopologySpreadArgs({"defaultingType": "System"})),
    PluginConfig("VolumeBinding", fakes.VolumeBindingArgs(
        {"bindTimeoutSeconds": 600, "shape": [{"utilization": 0, "score": 10}, {"utilization": 100, "score": 0}]})),
)

EXPECTED = KubeSchedulerConfiguration(
    parallelism=16,
    enable_profiling=True,
    enable_contention_profiling=True,
    leader_election=LeaderElection(leader_elect=True, lease_duration=15.0, renew_deadline=10.0, retry_period=2.0,
                                   resource_lock="leases", resource_namespace="kube-system",
                                   resource_name="kube-scheduler"),
    client_connection=ClientConnection(qps=50.0, burst=100, content_type="application/vnd.kubernetes.protobuf"),
    percentage_of_nodes_to_score=0,
    pod_initial_backoff_seconds=1,
    pod_max_backoff_seconds=10,
    profiles=(Profile(scheduler_name="default-scheduler", plugins=default_plugins(), plugin_config=PLUGIN_CONFIGS),),
)
DEFAULT_PROFILE = EXPECTED.profiles[0]

BAR_BIND = PluginSet(enabled=(PluginEntry("BarPlugin"),), disabled=(PluginEntry("DefaultBinder"),))
UNKNOWN_ARGS = {"kind": "Unknown", "foo": 1}  # an out-of-tree shape the registry has no args class for

CASES = [
    ("empty config", KubeSchedulerConfiguration(), EXPECTED),
    ("no scheduler name", KubeSchedulerConfiguration(profiles=(Profile(),)), EXPECTED),
    ("two profiles",
     KubeSchedulerConfiguration(parallelism=16, profiles=(
         Profile(plugin_config=(PluginConfig("FooPlugin"),)),
         Profile(scheduler_name="custom-scheduler", plugins=Plugins(bind=BAR_BIND)))),
     replace(EXPECTED, profiles=(
         Profile(plugins=default_plugins(), plugin_config=(PluginConfig("FooPlugin"), *PLUGIN_CONFIGS)),
         Profile(scheduler_name="custom-scheduler", plugins=replace(default_plugins(), bind=BAR_BIND),
                 plugin_config=PLUGIN_CONFIGS)))),
    ("Prallelism with no port", KubeSchedulerConfiguration(parallelism=16), EXPECTED),
    ("set non default parallelism", KubeSchedulerConfiguration(parallelism=8), replace(EXPECTED, parallelism=8)),
    ("set non default delayCacheUntilActive", KubeSchedulerConfiguration(delay_cache_until_active=True),
     replace(EXPECTED, delay_cache_until_active=True)),
    ("set non default global percentageOfNodesToScore", KubeSchedulerConfiguration(percentage_of_nodes_to_score=50),
     replace(EXPECTED, percentage_of_nodes_to_score=50)),
    ("set non default profile percentageOfNodesToScore",
     KubeSchedulerConfiguration(profiles=(Profile(percentage_of_nodes_to_score=50),)),
     replace(EXPECTED, profiles=(replace(DEFAULT_PROFILE, percentage_of_nodes_to_score=50),))),
    ("set non default global and profile percentageOfNodesToScore",
     KubeSchedulerConfiguration(percentage_of_nodes_to_score=10, profiles=(Profile(percentage_of_nodes_to_score=50),)),
     replace(EXPECTED, percentage_of_nodes_to_score=10,
             profiles=(replace(DEFAULT_PROFILE, percentage_of_nodes_to_score=50),))),
    ("unknown plugin config",
     KubeSchedulerConfiguration(profiles=(Profile(plugin_config=(PluginConfig("OutOfTree", UNKNOWN_ARGS),)),)),
     replace(EXPECTED, profiles=(replace(DEFAULT_PROFILE, plugin_config=(
         PluginConfig("OutOfTree", UNKNOWN_ARGS), *PLUGIN_CONFIGS)),))),
    ("default DynamicResources", KubeSchedulerConfiguration(), EXPECTED),
]


@pytest.mark.parametrize("config, want", [pytest.param(*c[1:], id=c[0]) for c in CASES])
def test_scheduler_defaults(config, want):
    assert set_defaults(config, registry=REGISTRY) == want


def test_user_args_are_defaulted_and_keep_their_position():
    profile = Profile(plugin_config=(PluginConfig("InterPodAffinity", {}),))
    got = set_defaults(KubeSchedulerConfiguration(profiles=(profile,)), registry=REGISTRY).profiles[0].plugin_config
    assert got[0] == PluginConfig("InterPodAffinity", fakes.InterPodAffinityArgs({"hardPodAffinityWeight": 1}))
    assert [c.name for c in got].count("InterPodAffinity") == 1


def test_invalid_user_args_stay_raw_for_validation_to_report():
    raw = {"minCandidateNodesPercentage": 200}
    profile = Profile(plugin_config=(PluginConfig("DefaultPreemption", raw),))
    got = set_defaults(KubeSchedulerConfiguration(profiles=(profile,)), registry=REGISTRY).profiles[0].plugin_config
    assert got[0] == PluginConfig("DefaultPreemption", raw)


def test_plugins_enabled_only_at_pod_group_post_filter_get_no_default_args():
    # defaults.go pluginsNames omits PodGroupPostFilter.
    plugins = Plugins(multiPoint=PluginSet(disabled=(PluginEntry("*"),)),
                      podGroupPostFilter=PluginSet(enabled=(PluginEntry("DefaultPreemption"),)))
    got = set_defaults(KubeSchedulerConfiguration(profiles=(Profile(plugins=plugins),)), registry=REGISTRY)
    assert [c.name for c in got.profiles[0].plugin_config] == []


def test_gates_change_the_default_plugins():
    got = set_defaults(KubeSchedulerConfiguration(), registry=REGISTRY,
                       features={"DynamicResourceAllocation": False, "NodeDeclaredFeatures": False})
    names = [p.name for p in got.profiles[0].plugins.multiPoint.enabled]
    assert "DynamicResources" not in names and "NodeDeclaredFeatures" not in names
    assert "DynamicResources" not in [c.name for c in got.profiles[0].plugin_config]


def test_zero_extender_timeout_becomes_five_seconds():
    from reference.config import Extender
    got = set_defaults(KubeSchedulerConfiguration(extenders=(Extender(http_timeout=0.0),)), registry=REGISTRY)
    assert got.extenders[0].http_timeout == 5.0
