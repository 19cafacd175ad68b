"""Ports pkg/scheduler/apis/config/validation/validation_test.go TestValidateKubeSchedulerConfigurationV1
(21/21 scenarios; upstream compares error type and field, here the full one-line message is pinned
as field.Error.Error() renders it). The plugin args validators themselves are tested with the
args classes; here a fake DefaultPreemptionArgs stands in."""

from __future__ import annotations

from dataclasses import replace

import pytest

from reference.config import (
    ClientConnection,
    Extender,
    ExtenderManagedResource,
    KubeSchedulerConfiguration,
    LeaderElection,
    PluginConfig,
    PluginEntry,
    PluginSet,
    Plugins,
    Profile,
    validate_config,
    validation_errors,
)
from reference.errors import ConfigError

from . import fakes

REGISTRY = fakes.in_tree_fakes()


def one(name: str, weight: int | None = None) -> PluginSet:
    return PluginSet(enabled=(PluginEntry(name, weight),))


VALID = KubeSchedulerConfiguration(
    parallelism=8,
    client_connection=ClientConnection(accept_content_types="application/json", content_type="application/json",
                                       qps=10, burst=10),
    leader_election=LeaderElection(resource_lock="leases", leader_elect=True, lease_duration=30.0,
                                   renew_deadline=15.0, retry_period=5.0, resource_namespace="name",
                                   resource_name="name"),
    pod_initial_backoff_seconds=1,
    pod_max_backoff_seconds=1,
    profiles=(
        Profile(scheduler_name="me", percentage_of_nodes_to_score=35,
                plugins=Plugins(queueSort=one("CustomSort"), score=PluginSet(disabled=(PluginEntry("*"),))),
                plugin_config=(PluginConfig("DefaultPreemption", {"minCandidateNodesPercentage": 10,
                                                                  "minCandidateNodesAbsolute": 100}),)),
        Profile(scheduler_name="other", percentage_of_nodes_to_score=35,
                plugins=Plugins(queueSort=one("CustomSort"), bind=one("CustomBind"))),
    ),
    extenders=(Extender(prioritize_verb="prioritize", weight=1),),
)
P0, P1 = VALID.profiles


def with_profiles(*profiles: Profile, config: KubeSchedulerConfiguration = VALID) -> KubeSchedulerConfiguration:
    return replace(config, profiles=tuple(profiles))


def with_le(**kw) -> KubeSchedulerConfiguration:
    return replace(VALID, leader_election=replace(VALID.leader_election, **kw))


REMOVED_MSG = ('was invalid in version "kubescheduler.config.k8s.io/v1" '
               '(KubeSchedulerConfiguration is version "kubescheduler.config.k8s.io/v1")')
SCENARIOS = [
    ("good", VALID, []),
    ("bad-parallelism-invalid-value", replace(VALID, parallelism=0),
     ["parallelism: Invalid value: 0: should be an integer value greater than zero"]),
    ("bad-resource-name-not-set", with_le(resource_name=""), ["leaderElection.resourceName: Required value"]),
    ("bad-resource-namespace-not-set", with_le(resource_namespace=""),
     ["leaderElection.resourceNamespace: Required value"]),
    ("bad-resource-lock-not-leases", with_le(resource_lock="configmap"),
     ['leaderElection.resourceLock: Invalid value: "configmap": resourceLock value must be "leases"']),
    ("bad-percentage-of-nodes-to-score", replace(VALID, percentage_of_nodes_to_score=101),
     ["percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]"]),
    ("negative-percentage-of-nodes-to-score", replace(VALID, percentage_of_nodes_to_score=-1),
     ["percentageOfNodesToScore: Invalid value: -1: not in valid range [0-100]"]),
    ("scheduler-name-not-set", with_profiles(P0, replace(P1, scheduler_name="")),
     ["profiles[1].schedulerName: Required value"]),
    ("repeated-scheduler-name", with_profiles(replace(P0, scheduler_name="other"), P1),
     ["profiles[1].schedulerName: Duplicate value: {}"]),
    ("greater-than-100-profile-percentage-of-nodes-to-score",
     with_profiles(P0, replace(P1, percentage_of_nodes_to_score=101)),
     ["profiles[1].percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]"]),
    ("negative-profile-percentage-of-nodes-to-score", with_profiles(P0, replace(P1, percentage_of_nodes_to_score=-1)),
     ["profiles[1].percentageOfNodesToScore: Invalid value: -1: not in valid range [0-100]"]),
    ("different-queue-sort",
     with_profiles(P0, replace(P1, plugins=replace(P1.plugins, queueSort=one("AnotherSort")))),
     ['profiles[1].plugins.queueSort: Invalid value: {"Enabled":[{"Name":"AnotherSort","Weight":0}],'
      '"Disabled":null}: must be the same for all profiles']),
    ("one-empty-queue-sort", with_profiles(replace(P0, plugins=None), P1),
     ['profiles[1].plugins.queueSort: Invalid value: {"Enabled":[{"Name":"CustomSort","Weight":0}],'
      '"Disabled":null}: must be the same for all profiles']),
    ("extender-negative-weight", replace(VALID, extenders=(Extender(prioritize_verb="prioritize", weight=-1),)),
     ["extenders[0].weight: Invalid value: -1: must have a positive weight applied to it"]),
    ("extender-duplicate-managed-resources",
     replace(VALID, extenders=(replace(VALID.extenders[0], managed_resources=(
         ExtenderManagedResource("example.com/foo"), ExtenderManagedResource("example.com/foo"))),)),
     ['extenders[0].managedResources[1].name: Invalid value: "example.com/foo": '
      "duplicate extender managed resource name"]),
    ("extender-duplicate-bind",
     replace(VALID, extenders=(replace(VALID.extenders[0], bind_verb="foo"),
                               Extender(prioritize_verb="prioritize", bind_verb="bar", weight=1))),
     ['extenders: Invalid value: "found 2 extenders implementing bind": only one extender can implement bind']),
    ("invalid-node-percentage",
     with_profiles(replace(P0, plugin_config=(PluginConfig("DefaultPreemption", {
         "minCandidateNodesPercentage": 200, "minCandidateNodesAbsolute": 100}),)), P1),
     ["profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: Invalid value: 200: "
      "not in valid range [0, 100]"]),
    ("invalid-plugin-args",
     with_profiles(replace(P0, plugin_config=(PluginConfig("DefaultPreemption",
                                                           fakes.InterPodAffinityArgs({})),)), P1),
     ["profiles[0].pluginConfig[0].args: Invalid value: {}: has to match plugin args"]),
    ("duplicated-plugin-config",
     with_profiles(replace(P0, plugin_config=(PluginConfig("config"), PluginConfig("config"))), P1),
     ['profiles[0].pluginConfig[1]: Duplicate value: "config"']),
    ("mismatch-queue-sort", with_profiles(
        Profile(scheduler_name="me", plugins=Plugins(queueSort=one("PrioritySort")),
                plugin_config=(PluginConfig("PrioritySort"),)),
        Profile(scheduler_name="other", plugins=Plugins(queueSort=one("CustomSort")),
                plugin_config=(PluginConfig("CustomSort"),))),
     ['profiles[1].plugins.queueSort: Invalid value: {"Enabled":[{"Name":"CustomSort","Weight":0}],'
      '"Disabled":null}: must be the same for all profiles']),
    ("invalid-plugins", with_profiles(replace(P0, plugins=replace(P0.plugins, score=PluginSet(
        enabled=tuple(PluginEntry(n) for n in ("AzureDiskLimits", "CinderLimits", "EBSLimits", "GCEPDLimits")),
        disabled=(PluginEntry("*"),)))), P1),
     [f'profiles[0].plugins.score.enabled[{i}]: Invalid value: "{n}": {REMOVED_MSG}'
      for i, n in enumerate(("AzureDiskLimits", "CinderLimits", "EBSLimits", "GCEPDLimits"))]),
    ("valid-plugins", with_profiles(replace(P0, plugins=replace(P0.plugins, score=PluginSet(
        enabled=(PluginEntry("PodTopologySpread", 2),), disabled=(PluginEntry("*"),)))), P1), []),
]


@pytest.mark.parametrize("config, want", [pytest.param(*s[1:], id=s[0]) for s in SCENARIOS])
def test_validate_kube_scheduler_configuration_v1(config, want):
    assert [str(e) for e in validation_errors(config, registry=REGISTRY)] == want
    if not want:
        validate_config(config, registry=REGISTRY)
        return
    with pytest.raises(ConfigError) as info:
        validate_config(config, registry=REGISTRY)
    assert str(info.value) == (want[0] if len(want) == 1 else "[" + ", ".join(want) + "]")


def test_one_error_is_one_line_with_field_and_message():
    with pytest.raises(ConfigError) as info:
        validate_config(replace(VALID, parallelism=0), registry=REGISTRY)
    assert info.value.field == "parallelism"
    assert info.value.message == "Invalid value: 0: should be an integer value greater than zero"
    assert "\n" not in str(info.value)


def test_identical_messages_are_reported_once():
    # ErrorList.ToAggregate drops repeated messages.
    extenders = (Extender(bind_verb="a"), Extender(bind_verb="b"))
    config = replace(VALID, extenders=extenders, parallelism=0, pod_initial_backoff_seconds=0)
    with pytest.raises(ConfigError) as info:
        validate_config(config, registry=REGISTRY)
    assert str(info.value) == (
        "[parallelism: Invalid value: 0: should be an integer value greater than zero, "
        "podInitialBackoffSeconds: Invalid value: 0: must be greater than 0, "
        'extenders: Invalid value: "found 2 extenders implementing bind": only one extender can implement bind]')
    assert len(info.value.errors) == 3


@pytest.mark.parametrize("initial, maximum, want", [
    (0, 10, ["podInitialBackoffSeconds: Invalid value: 0: must be greater than 0"]),
    (5, 4, ["podMaxBackoffSeconds: Invalid value: 4: must be greater than or equal to PodInitialBackoffSeconds"]),
    (5, 5, []),
])
def test_backoff(initial, maximum, want):
    config = replace(VALID, pod_initial_backoff_seconds=initial, pod_max_backoff_seconds=maximum)
    assert [str(e) for e in validation_errors(config, registry=REGISTRY)] == want


@pytest.mark.parametrize("kw, want", [
    ({"lease_duration": 0.0}, ['leaderElection.leaseDuration: Invalid value: "0s": must be greater than zero',
                               'leaderElection.leaseDuration: Invalid value: "15s": '
                               "must be greater than `RenewDeadline`"]),
    ({"lease_duration": 10.0}, ['leaderElection.leaseDuration: Invalid value: "15s": '
                                "must be greater than `RenewDeadline`"]),
    ({"leader_elect": False, "lease_duration": 0.0, "resource_lock": "configmap"}, []),
])
def test_leader_election(kw, want):
    assert [str(e) for e in validation_errors(with_le(**kw), registry=REGISTRY)] == want


def test_client_connection_burst():
    config = replace(VALID, client_connection=replace(VALID.client_connection, burst=-1))
    assert [str(e) for e in validation_errors(config, registry=REGISTRY)] == [
        "clientConnection.burst: Invalid value: -1: must be non-negative"]


def test_no_profiles():
    assert [str(e) for e in validation_errors(replace(VALID, profiles=()), registry=REGISTRY)] == [
        "profiles: Required value"]


def test_only_one_queue_sort_in_first_profile():
    p0 = replace(P0, plugins=replace(P0.plugins, queueSort=PluginSet(
        enabled=(PluginEntry("CustomSort"), PluginEntry("Other")))))
    errs = [str(e) for e in validation_errors(with_profiles(p0), registry=REGISTRY)]
    assert errs == ["profiles[0].plugins.queueSort.Enabled: Invalid value: 2: only one queue sort plugin can be enabled"]


def test_queue_sort_args_must_match():
    p0 = replace(P0, plugin_config=(PluginConfig("CustomSort", {"a": 1}),))
    p1 = replace(P1, plugin_config=(PluginConfig("CustomSort", {"a": 2}),))
    assert [str(e) for e in validation_errors(with_profiles(p0, p1), registry=REGISTRY)] == [
        'profiles[1].pluginConfig.args: Invalid value: {"a":2}: queueSort must be the same for all profiles']


def test_removed_plugin_in_plugin_config_and_multi_point():
    # multiPoint is not among validation.go's stagesToPluginSet: only pluginConfig is flagged.
    p0 = replace(P0, plugins=replace(P0.plugins, multiPoint=one("EBSLimits")),
                 plugin_config=(PluginConfig("EBSLimits"),))
    assert [str(e) for e in validation_errors(with_profiles(p0, P1), registry=REGISTRY)] == [
        f'profiles[0].pluginConfig[0]: Invalid value: "EBSLimits": {REMOVED_MSG}']


def test_fit_args_are_not_validated_here():
    # The validator map key is "NodeResourcesFitArgs", not the plugin name.
    p0 = replace(P0, plugin_config=(PluginConfig("NodeResourcesFit", {"scoringStrategy": {"type": "Bad"}}),))
    assert validation_errors(with_profiles(p0, P1), registry=REGISTRY) == []


@pytest.mark.parametrize("name, want", [
    ("example.com/foo", []),
    ("foo", ['extenders[0].managedResources[0].name: Invalid value: "foo": is an invalid extended resource name']),
    ("kubernetes.io/foo", ['extenders[0].managedResources[0].name: Invalid value: "kubernetes.io/foo": '
                           "is an invalid extended resource name"]),
    ("example.com/-foo", ['extenders[0].managedResources[0].name: Invalid value: "example.com/-foo": name part must '
                          "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
                          "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
                          "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"]),
    ("/foo", ['extenders[0].managedResources[0].name: Invalid value: "/foo": prefix part must be non-empty']),
])
def test_extender_managed_resource_names(name, want):
    config = replace(VALID, extenders=(Extender(managed_resources=(ExtenderManagedResource(name),)),))
    assert [str(e) for e in validation_errors(config, registry=REGISTRY)] == want
