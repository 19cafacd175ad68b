"""DynamicResources (dynamicresources/dynamicresources.go) for pods without claims, and its args.

Ported from dynamicresources_test.go: TestPlugin rows "empty" and "empty-with-extended-resources-enabled",
TestPostFilter "no claims", TestNormalizeScore (all rows). Left out: every TestPlugin row with
ResourceClaims, DeviceClasses or ResourceSlices (not modelled: NotModelledError, tested below),
"plugin disabled" rows (DynamicResourceAllocation is locked on), and the allocator, manager,
queueing-hint and pod-group tests. From validation_pluginargs_test.go TestValidateDynamicResourcesArgs:
the rows with every gate on ("…, disabled" rows need gates that are on in v1.37.2).
"""

import pytest

from reference.cycle_state import CycleState
from reference.errors import ConfigError, NotModelledError
from reference.interfaces import NodeScore, NodeToStatus
from reference.nodeinfo import NodeInfo
from reference.plugins.dynamic_resources import (
    SECOND,
    DynamicResources,
    DynamicResourcesArgs,
    format_go_duration,
    parse_go_duration,
)
from reference.status import SUCCESS, Code, Status
from reference.types import Container, Node, Pod

SKIP = Status.new(Code.SKIP)
NOT_FOUND = Status.as_status("not found")
PATH = "profiles[0].pluginConfig[0].args"


def run_cycle(plugin, pod):
    state = CycleState()
    info = NodeInfo.of(Node(name="worker", allocatable={"example.com/gpu": 1}))
    return {
        "pre_enqueue": plugin.pre_enqueue(pod),
        "pre_filter": plugin.pre_filter(state, pod, [info]),
        "filter": plugin.filter(state, pod, info),
        "post_filter": plugin.post_filter(state, pod, NodeToStatus()),
        "score": plugin.score(state, pod, info),
        "reserve": plugin.reserve(state, pod, "worker"),
        "pre_bind_pre_flight": plugin.pre_bind_pre_flight(state, pod, "worker"),
        "pre_bind": plugin.pre_bind(state, pod, "worker"),
    }


EMPTY_WANT = {
    "pre_enqueue": SUCCESS,
    "pre_filter": (None, SKIP),
    "filter": SUCCESS,
    "post_filter": (None, Status.new(Code.UNSCHEDULABLE)),
    "score": (0, SUCCESS),
    "reserve": SUCCESS,
    "pre_bind_pre_flight": SKIP,
    "pre_bind": SUCCESS,
}


@pytest.mark.parametrize("pod", [
    pytest.param(Pod(name="foo", namespace="default"), id="empty"),
    pytest.param(Pod(name="foo", namespace="default"), id="empty-with-extended-resources-enabled"),
    # Without DeviceClasses no extended resource is DRA-backed, so no special claim is made.
    pytest.param(Pod(name="foo", containers=(Container(name="c", requests={"example.com/gpu": 1}),)),
                 id="extended resource without a DeviceClass"),
])
def test_pod_without_claims(pod):
    assert run_cycle(DynamicResources(), pod) == EMPTY_WANT


def test_post_filter_no_claims_has_no_reasons():
    state = CycleState()
    plugin, pod = DynamicResources(), Pod(name="pod", namespace="default")
    plugin.pre_filter(state, pod, [])
    _, status = plugin.post_filter(state, pod, NodeToStatus())
    assert status.code is Code.UNSCHEDULABLE and status.reasons == ()


def test_without_pre_filter_state_every_point_errors():
    plugin, pod, state = DynamicResources(), Pod(name="p"), CycleState()
    info = NodeInfo.of(Node(name="n"))
    assert plugin.filter(state, pod, info) == NOT_FOUND
    assert plugin.post_filter(state, pod, NodeToStatus()) == (None, NOT_FOUND)
    assert plugin.score(state, pod, info) == (0, NOT_FOUND)
    assert plugin.reserve(state, pod, "n") == NOT_FOUND
    assert plugin.pre_bind_pre_flight(state, pod, "n") == NOT_FOUND
    assert plugin.pre_bind(state, pod, "n") == NOT_FOUND


def test_resource_claims_are_not_modelled():
    pod = Pod(name="p", resource_claims=({"name": "my-claim", "resourceClaimName": "claim"},))
    with pytest.raises(NotModelledError, match="not modelled by the reference"):
        DynamicResources().pre_enqueue(pod)
    with pytest.raises(NotModelledError):
        DynamicResources().pre_filter(CycleState(), pod, [])


MAX_INT32 = 2**31 - 1


@pytest.mark.parametrize("scores,expected", [
    pytest.param([], [], id="empty"),
    pytest.param([42], [100], id="single-score"),
    pytest.param([8, 8], [100, 100], id="all-same"),
    pytest.param([MAX_INT32, MAX_INT32], [100, 100], id="all-same-very-large"),
    pytest.param([MAX_INT32, 0], [100, 0], id="max-and-min-values"),
    pytest.param([99, 98, 97], [100, 98, 97], id="mid-value"),
    pytest.param([MAX_INT32, MAX_INT32 - 1, 1, 0], [100, 99, 0, 0], id="large-spread-lost-precision"),
])
def test_normalize_score(scores, expected):
    node_scores = [NodeScore(f"node-{i + 1}", s) for i, s in enumerate(scores)]
    assert DynamicResources().normalize_score(CycleState(), Pod(name="p"), node_scores).is_success()
    assert [s.score for s in node_scores] == expected


# --- args -------------------------------------------------------------------------------------

def test_v1_defaults():
    args = DynamicResourcesArgs.from_config(None, PATH)
    assert (args.filter_timeout, args.binding_timeout) == (10 * SECOND, 600 * SECOND)
    assert args.to_config() == {"filterTimeout": "10s", "bindingTimeout": "10m0s"}
    assert DynamicResourcesArgs.from_config(args.to_config(), PATH) == args


@pytest.mark.parametrize("raw", [
    pytest.param({"filterTimeout": "10s", "bindingTimeout": "10m0s"}, id="valid args (default)"),
    pytest.param({"bindingTimeout": "30s"}, id="valid BindingTimeout"),
    pytest.param({"filterTimeout": "0s"}, id="zero FilterTimeout disables the timeout"),
])
def test_valid_args(raw):
    DynamicResourcesArgs.from_config(raw, PATH)


@pytest.mark.parametrize("raw,message", [
    pytest.param({"filterTimeout": "-1s"}, f'{PATH}.filterTimeout: Invalid value: "-1s": must be zero or positive',
                 id="negative FilterTimeout"),
    pytest.param({"bindingTimeout": "0s"}, f'{PATH}.bindingTimeout: Invalid value: "0s": must be at least 1 second',
                 id="BindingTimeout < 1s (0s)"),
    pytest.param({"bindingTimeout": "-1s"}, f'{PATH}.bindingTimeout: Invalid value: "-1s": must be at least 1 second',
                 id="BindingTimeout < 1s (negative)"),
    pytest.param({"filterTimeout": "-1s", "bindingTimeout": "500ms"},
                 f'[{PATH}.filterTimeout: Invalid value: "-1s": must be zero or positive, '
                 f'{PATH}.bindingTimeout: Invalid value: "500ms": must be at least 1 second]',
                 id="both invalid aggregate"),
    pytest.param({"filterTimeout": "10"}, f'{PATH}.filterTimeout: time: missing unit in duration "10"',
                 id="duration without unit"),
    pytest.param({"filterTimeout": "1s", "timeout": "1s"}, None, id="unknown field"),
])
def test_invalid_args(raw, message):
    with pytest.raises(ConfigError) as err:
        DynamicResourcesArgs.from_config(raw, PATH)
    if message is not None:
        assert str(err.value) == message


@pytest.mark.parametrize("text,ns,canonical", [
    ("10s", 10 * SECOND, "10s"), ("1h", 3600 * SECOND, "1h0m0s"), ("1.5s", 1_500_000_000, "1.5s"),
    ("90s", 90 * SECOND, "1m30s"), ("-1s", -SECOND, "-1s"), ("0", 0, "0s"), ("300ms", 300_000_000, "300ms"),
    ("1us", 1000, "1µs"), ("1500ns", 1500, "1.5µs"), (".5s", 500_000_000, "500ms"),
    ("2562047h47m16.854775807s", 2**63 - 1, "2562047h47m16.854775807s"),
])
def test_go_durations(text, ns, canonical):
    assert parse_go_duration(text) == ns
    assert format_go_duration(ns) == canonical


@pytest.mark.parametrize("text", ["", "abc", "1", "1x", "-", "9223372036854775808ns"])
def test_invalid_go_durations(text):
    with pytest.raises(ValueError, match="^time: "):
        parse_go_duration(text)

