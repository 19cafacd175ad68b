"""PodTopologySpreadArgs and InterPodAffinityArgs: v1 defaults (apis/config/v1/defaults.go) and
validation, ported from upstream apis/config/validation/validation_pluginargs_test.go
(TestValidatePodTopologySpreadArgs, TestValidateInterPodAffinityArgs; Kubernetes v1.37.2).

Upstream compares error types and fields only; the message bodies here follow apimachinery's
`field.Error` rendering for those types.
"""

from __future__ import annotations

import pytest

from reference.errors import ConfigError
from reference.plugins.inter_pod_affinity import InterPodAffinity, InterPodAffinityArgs
from reference.plugins.pod_topology_spread import (PodTopologySpread, PodTopologySpreadArgs,
                                                   SYSTEM_DEFAULT_CONSTRAINTS)
from reference.registry import spec_of
from reference.types import LabelSelector, TopologySpreadConstraint
from tests.reference.plugins._spread_builders import SnapshotHandle

PATH = "profiles[0].pluginConfig[0].args"


def tsc(max_skew, key, when, selector=None):
    return TopologySpreadConstraint(max_skew=max_skew, topology_key=key, when_unsatisfiable=when,
                                    label_selector=selector)


# --- PodTopologySpreadArgs -----------------------------------------------------------------------

def test_pod_topology_spread_defaults():
    args = PodTopologySpreadArgs.from_config(None, PATH)
    assert args == PodTopologySpreadArgs(default_constraints=(), defaulting_type="System")
    assert spec_of(PodTopologySpread).default_args() == args
    assert args.to_config() == {"defaultingType": "System"}


def test_pod_topology_spread_from_config_round_trips():
    raw = {"defaultingType": "List", "defaultConstraints": [
        {"maxSkew": 1, "topologyKey": "node", "whenUnsatisfiable": "DoNotSchedule"},
        {"maxSkew": 2, "topologyKey": "zone", "whenUnsatisfiable": "ScheduleAnyway", "minDomains": 2}]}
    args = PodTopologySpreadArgs.from_config(raw, PATH)
    assert args.default_constraints[1] == TopologySpreadConstraint(2, "zone", "ScheduleAnyway", min_domains=2)
    assert args.to_config() == raw


@pytest.mark.parametrize("constraints, defaulting_type", [
    pytest.param((tsc(1, "node", "DoNotSchedule"), tsc(2, "zone", "ScheduleAnyway")), "List", id="valid config"),
    pytest.param((), "List", id="list default constraints, no constraints"),
    pytest.param((), "System", id="system default constraints"),
])
def test_validate_pod_topology_spread_args_valid(constraints, defaulting_type):
    PodTopologySpreadArgs(constraints, defaulting_type).validate(PATH)


@pytest.mark.parametrize("constraints, defaulting_type, field, message", [
    pytest.param((tsc(-1, "node", "DoNotSchedule"),), "List", "defaultConstraints[0].maxSkew",
                 "Invalid value: -1: not in valid range (0, inf)", id="maxSkew less than zero"),
    pytest.param((tsc(1, "", "DoNotSchedule"),), "List", "defaultConstraints[0].topologyKey",
                 "Required value: can not be empty", id="empty topology key"),
    pytest.param((tsc(1, "node", ""),), "List", "defaultConstraints[0].whenUnsatisfiable",
                 "Required value: can not be empty", id="whenUnsatisfiable is empty"),
    pytest.param((tsc(1, "node", "unknown action"),), "List", "defaultConstraints[0].whenUnsatisfiable",
                 'Unsupported value: "unknown action": supported values: "DoNotSchedule", "ScheduleAnyway"',
                 id="whenUnsatisfiable contains unsupported action"),
    pytest.param((tsc(1, "node", "DoNotSchedule"), tsc(2, "node", "DoNotSchedule")), "List",
                 "defaultConstraints[1]", 'Duplicate value: "{node, DoNotSchedule}"', id="duplicated constraints"),
    pytest.param((tsc(1, "key", "DoNotSchedule", LabelSelector(match_labels={"a": "b"})),), "List",
                 "defaultConstraints[0].labelSelector",
                 "Forbidden: constraint must not define a selector, as they deduced for each pod",
                 id="label selector present"),
    pytest.param((), "unknown", "defaultingType", 'Unsupported value: "unknown": supported values: "System", "List"',
                 id="wrong constraints"),
    pytest.param((tsc(1, "key", "DoNotSchedule"),), "System", "defaultingType",
                 'Invalid value: "System": when .defaultConstraints are not empty',
                 id="system default constraints, but has constraints"),
    pytest.param((tsc(1, "a/b/c", "DoNotSchedule"),), "List", "defaultConstraints[0].topologyKey",
                 "Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric characters, '-', '_' or "
                 "'.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
                 "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an "
                 "optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                 id="topology key is not a label key"),
])
def test_validate_pod_topology_spread_args_invalid(constraints, defaulting_type, field, message):
    with pytest.raises(ConfigError) as e:
        PodTopologySpreadArgs(constraints, defaulting_type).validate(PATH)
    assert e.value.field == f"{PATH}.{field}"
    assert e.value.message == message
    assert str(e.value) == f"{PATH}.{field}: {message}"


def test_validate_pod_topology_spread_args_aggregates_errors():
    with pytest.raises(ConfigError) as e:
        PodTopologySpreadArgs((tsc(0, "", "DoNotSchedule"),), "List").validate("")
    assert str(e.value) == ("[defaultConstraints[0].maxSkew: Invalid value: 0: not in valid range (0, inf), "
                            "defaultConstraints[0].topologyKey: Required value: can not be empty]")


def test_from_config_validates():
    with pytest.raises(ConfigError, match="defaultingType: Unsupported value"):
        PodTopologySpreadArgs.from_config({"defaultingType": "Sometimes"}, PATH)


def test_system_defaulting_uses_system_constraints():
    p = PodTopologySpread.new(PodTopologySpreadArgs(), SnapshotHandle())
    assert p.default_constraints == SYSTEM_DEFAULT_CONSTRAINTS
    assert [(c.topology_key, c.max_skew) for c in SYSTEM_DEFAULT_CONSTRAINTS] == [
        ("kubernetes.io/hostname", 3), ("topology.kubernetes.io/zone", 5)]


# --- InterPodAffinityArgs ----------------------------------------------------------------------

def test_inter_pod_affinity_defaults():
    args = InterPodAffinityArgs.from_config(None, PATH)
    assert args == InterPodAffinityArgs(hard_pod_affinity_weight=1, ignore_preferred_terms_of_existing_pods=False)
    assert spec_of(InterPodAffinity).default_args() == args
    assert args.to_config() == {"hardPodAffinityWeight": 1, "ignorePreferredTermsOfExistingPods": False}


def test_inter_pod_affinity_explicit_zero_weight_is_kept():
    assert InterPodAffinityArgs.from_config({"hardPodAffinityWeight": 0}, PATH).hard_pod_affinity_weight == 0


@pytest.mark.parametrize("weight", [pytest.param(10, id="valid args"), 0, 100])
def test_validate_inter_pod_affinity_args_valid(weight):
    InterPodAffinityArgs(hard_pod_affinity_weight=weight).validate(PATH)


@pytest.mark.parametrize("weight", [pytest.param(-1, id="hardPodAffinityWeight less than min"),
                                    pytest.param(101, id="hardPodAffinityWeight more than max")])
def test_validate_inter_pod_affinity_args_invalid(weight):
    with pytest.raises(ConfigError) as e:
        InterPodAffinityArgs.from_config({"hardPodAffinityWeight": weight}, PATH)
    assert e.value.field == f"{PATH}.hardPodAffinityWeight"
    assert e.value.message == f"Invalid value: {weight}: not in valid range [0, 100]"
