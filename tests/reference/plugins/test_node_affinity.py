"""Ports nodeaffinity/node_affinity_test.go (TestNodeAffinity, TestNodeAffinityPriority) and
TestValidateNodeAffinityArgs from apis/config/validation/validation_pluginargs_test.go.

Left out: Test_isSchedulableAfterNodeChange (queueing hints are not modelled) and
TestNodeAffinity_DeferredResizeSkipped (needs InPlacePodVerticalScalingSchedulerPreemption, off in v1.37.2).
"""

import pytest

from reference.cycle_state import CycleState
from reference.errors import ConfigError
from reference.interfaces import MAX_NODE_SCORE, NodeScore, PreFilterResult
from reference.nodeinfo import NodeInfo
from reference.plugins.node_affinity import (
    ERR_REASON_CONFLICT,
    ERR_REASON_ENFORCED,
    ERR_REASON_POD,
    NodeAffinity,
    NodeAffinityArgs,
)
from reference.status import SUCCESS, Code, Status
from reference.types import (
    Affinity,
    Node,
    NodeSelector,
    NodeSelectorRequirement,
    NodeSelectorTerm,
    Pod,
    PreferredSchedulingTerm,
)
from reference.types import NodeAffinity as NodeAffinitySpec

UAU = Code.UNSCHEDULABLE_AND_UNRESOLVABLE


def req(key, op, *values):
    return NodeSelectorRequirement(key, op, tuple(values))


def term(*exprs, fields=()):
    return NodeSelectorTerm(match_expressions=tuple(exprs), match_fields=tuple(fields))


def name_in(*names):
    return req("metadata.name", "In", *names)


def required(*terms):
    return NodeAffinitySpec(required=NodeSelector(tuple(terms)))


def preferred(*weighted):
    return NodeAffinitySpec(preferred=tuple(PreferredSchedulingTerm(w, t) for w, t in weighted))


def pod_with(node_affinity=None, node_selector=None):
    return Pod(name="p", affinity=Affinity(node_affinity=node_affinity) if node_affinity else None,
               node_selector=dict(node_selector or {}))


def uau(reason):
    return Status.new(UAU, reason)


SKIP = Status.new(Code.SKIP)

# (id, pod, node labels, node name, want Filter status, want PreFilter status, want PreFilterResult, added affinity,
#  run PreFilter)
FILTER_CASES = [
    ("missing labels", pod_with(node_selector={"foo": "bar"}), {}, "", uau(ERR_REASON_POD), SUCCESS, None, None, True),
    ("same labels", pod_with(node_selector={"foo": "bar"}), {"foo": "bar"}, "", SUCCESS, SUCCESS, None, None, True),
    ("node labels are superset", pod_with(node_selector={"foo": "bar"}), {"foo": "bar", "baz": "blah"}, "", SUCCESS,
     SUCCESS, None, None, True),
    ("node labels are subset", pod_with(node_selector={"foo": "bar", "baz": "blah"}), {"foo": "bar"}, "",
     uau(ERR_REASON_POD), SUCCESS, None, None, True),
    ("Pod with matchExpressions using In operator that matches the existing node",
     pod_with(required(term(req("foo", "In", "bar", "value2")))), {"foo": "bar"}, "", SUCCESS, SUCCESS, None, None,
     True),
    ("Pod with matchExpressions using Gt operator that matches the existing node",
     pod_with(required(term(req("kernel-version", "Gt", "0204")))), {"kernel-version": "0206"}, "", SUCCESS, SUCCESS,
     None, None, True),
    ("Pod with matchExpressions using NotIn operator that matches the existing node",
     pod_with(required(term(req("mem-type", "NotIn", "DDR", "DDR2")))), {"mem-type": "DDR3"}, "", SUCCESS, SUCCESS,
     None, None, True),
    ("Pod with matchExpressions using Exists operator that matches the existing node",
     pod_with(required(term(req("GPU", "Exists")))), {"GPU": "NVIDIA-GRID-K1"}, "", SUCCESS, SUCCESS, None, None,
     True),
    ("Pod with affinity that don't match node's labels won't schedule onto the node",
     pod_with(required(term(req("foo", "In", "value1", "value2")))), {"foo": "bar"}, "", uau(ERR_REASON_POD), SUCCESS,
     None, None, True),
    ("Pod with empty MatchExpressions is not a valid value will match no objects and won't schedule onto the node",
     pod_with(required(term())), {"foo": "bar"}, "", uau(ERR_REASON_POD), SUCCESS, None, None, True),
    ("Pod with no Affinity will schedule onto a node", Pod(name="p"), {"foo": "bar"}, "", SUCCESS, SKIP, None, None,
     True),
    ("Pod with Affinity but nil NodeSelector will schedule onto a node", pod_with(NodeAffinitySpec(required=None)),
     {"foo": "bar"}, "", SUCCESS, SKIP, None, None, True),
    ("Pod with multiple matchExpressions ANDed that matches the existing node",
     pod_with(required(term(req("GPU", "Exists"), req("GPU", "NotIn", "AMD", "INTER")))), {"GPU": "NVIDIA-GRID-K1"},
     "", SUCCESS, SUCCESS, None, None, True),
    ("Pod with multiple matchExpressions ANDed that doesn't match the existing node",
     pod_with(required(term(req("GPU", "Exists"), req("GPU", "In", "AMD", "INTER")))), {"GPU": "NVIDIA-GRID-K1"},
     "", uau(ERR_REASON_POD), SUCCESS, None, None, True),
    ("Pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels and will schedule onto the node",
     pod_with(required(term(req("foo", "In", "bar", "value2")), term(req("diffkey", "In", "wrong", "value2")))),
     {"foo": "bar"}, "", SUCCESS, SUCCESS, None, None, True),
    ("Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) both are satisfied, "
     "will schedule onto the node",
     pod_with(required(term(req("foo", "Exists"))), {"foo": "bar"}), {"foo": "bar"}, "", SUCCESS, SUCCESS, None, None,
     True),
    ("Pod with an Affinity matches node's labels but the PodSpec.NodeSelector(the old thing that we are deprecating) "
     "is not satisfied, won't schedule onto the node",
     pod_with(required(term(req("foo", "Exists"))), {"foo": "bar"}), {"foo": "barrrrrr"}, "", uau(ERR_REASON_POD),
     SUCCESS, None, None, True),
    ("Pod with an invalid value in Affinity term won't be scheduled onto the node",
     pod_with(required(term(req("foo", "NotIn", "invalid value: ___@#$%^")))), {"foo": "bar"}, "",
     uau(ERR_REASON_POD), SUCCESS, None, None, True),
    ("Pod with matchFields using In operator that matches the existing node",
     pod_with(required(term(fields=[name_in("node1")]))), {}, "node1", SUCCESS, SUCCESS, PreFilterResult(
         frozenset({"node1"})), None, True),
    ("Pod with matchFields using In operator that does not match the existing node",
     pod_with(required(term(fields=[name_in("node1")]))), {}, "node2", uau(ERR_REASON_POD), SUCCESS,
     PreFilterResult(frozenset({"node1"})), None, True),
    ("Pod with two terms: matchFields does not match, but matchExpressions matches",
     pod_with(required(term(fields=[name_in("node1"), name_in("node2")]), term(req("foo", "In", "bar")))),
     {"foo": "bar"}, "node2", SUCCESS, SUCCESS, None, None, True),
    ("Pod with one term: matchFields does not match, but matchExpressions matches",
     pod_with(required(term(req("foo", "In", "bar"), fields=[name_in("node1")]))), {"foo": "bar"}, "node2",
     uau(ERR_REASON_POD), SUCCESS, PreFilterResult(frozenset({"node1"})), None, True),
    ("Pod with one term: both matchFields and matchExpressions match",
     pod_with(required(term(req("foo", "In", "bar"), fields=[name_in("node1")]))), {"foo": "bar"}, "node1", SUCCESS,
     SUCCESS, PreFilterResult(frozenset({"node1"})), None, True),
    ("Pod with two terms: both matchFields and matchExpressions do not match",
     pod_with(required(term(fields=[name_in("node1")]), term(req("foo", "In", "not-match-to-bar")))),
     {"foo": "bar"}, "node2", uau(ERR_REASON_POD), SUCCESS, None, None, True),
    ("Pod with two terms of node.Name affinity",
     pod_with(required(term(fields=[name_in("node1")]), term(fields=[name_in("node2")]))), {}, "node2", SUCCESS,
     SUCCESS, PreFilterResult(frozenset({"node1", "node2"})), None, True),
    ("Pod with two conflicting mach field requirements",
     pod_with(required(term(fields=[name_in("node1"), name_in("node2")]))), {"foo": "bar"}, "node2",
     uau(ERR_REASON_POD), uau(ERR_REASON_CONFLICT), None, None, True),
    ("Matches added affinity and Pod's node affinity", pod_with(required(term(req("zone", "In", "foo")))),
     {"zone": "foo"}, "node2", SUCCESS, SUCCESS, None, required(term(fields=[name_in("node2")])), True),
    ("Matches added affinity but not Pod's node affinity", pod_with(required(term(req("zone", "In", "bar")))),
     {"zone": "foo"}, "node2", uau(ERR_REASON_POD), SUCCESS, None, required(term(fields=[name_in("node2")])), True),
    ("Doesn't match added affinity", Pod(name="p"), {"zone": "foo"}, "node2", uau(ERR_REASON_ENFORCED), SUCCESS, None,
     required(term(req("zone", "In", "bar"))), True),
    ("Matches node selector correctly even if PreFilter is not called", pod_with(node_selector={"foo": "bar"}),
     {"foo": "bar", "baz": "blah"}, "", SUCCESS, None, None, None, False),
    ("Matches node affinity correctly even if PreFilter is not called",
     pod_with(required(term(req("GPU", "Exists"), req("GPU", "NotIn", "AMD", "INTER")))), {"GPU": "NVIDIA-GRID-K1"},
     "", SUCCESS, None, None, None, False),
]


@pytest.mark.parametrize("pod,labels,node_name,want,want_pf,want_pf_result,added,run_pre_filter",
                         [pytest.param(*c[1:], id=c[0]) for c in FILTER_CASES])
def test_node_affinity_filter(pod, labels, node_name, want, want_pf, want_pf_result, added, run_pre_filter):
    plugin = NodeAffinity(NodeAffinityArgs(added))
    info = NodeInfo.of(Node(name=node_name, labels=labels))
    state = CycleState()
    if run_pre_filter:
        result, status = plugin.pre_filter(state, pod, [])
        assert status == want_pf
        assert result == want_pf_result
    assert plugin.filter(state, pod, info) == want


LABEL1 = {"foo": "bar"}
LABEL2 = {"key": "value"}
LABEL3 = {"az": "az1"}
LABEL4 = {"abc": "az11", "def": "az22"}
LABEL5 = {"foo": "bar", "key": "value", "az": "az1"}
AFFINITY1 = preferred((2, term(req("foo", "In", "bar"))))
AFFINITY2 = preferred(
    (2, term(req("foo", "In", "bar"))),
    (4, term(req("key", "In", "value"))),
    (5, term(req("foo", "In", "bar"), req("key", "In", "value"), req("az", "In", "az1"))),
)
BROKEN_KEY_ERROR = (
    "[0].matchExpressions[0].key: Invalid value: \"invalid key\": name part must consist of alphanumeric characters, "
    "'-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
    "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')")

# (id, pod node affinity, nodes [(name, labels)], expected scores, added affinity, run PreScore, PreScore status)
SCORE_CASES = [
    ("all nodes are same priority as NodeAffinity is nil", None, [("node1", LABEL1), ("node2", LABEL2),
                                                               ("node3", LABEL3)], [0, 0, 0], None, False, None),
    ("Skip is returned in PreScore when NodeAffinity is nil", None, [("node1", LABEL1)], None, None, True, SKIP),
    ("PreScore returns error when an incoming Pod has a broken affinity",
     preferred((2, term(req("invalid key", "In", "bar")))), [("node1", LABEL1)], None, None, True,
     Status.as_status(BROKEN_KEY_ERROR)),
    ("no node matches preferred scheduling requirements in NodeAffinity of pod so all nodes' priority is zero",
     AFFINITY1, [("node1", LABEL4), ("node2", LABEL2), ("node3", LABEL3)], [0, 0, 0], None, True, SUCCESS),
    ("only node1 matches the preferred scheduling requirements of pod", AFFINITY1,
     [("node1", LABEL1), ("node2", LABEL2), ("node3", LABEL3)], [MAX_NODE_SCORE, 0, 0], None, True, SUCCESS),
    ("all nodes matches the preferred scheduling requirements of pod but with different priorities ", AFFINITY2,
     [("node1", LABEL1), ("node5", LABEL5), ("node2", LABEL2)], [18, MAX_NODE_SCORE, 36], None, True, SUCCESS),
    ("added affinity", None, [("node1", LABEL1), ("node2", LABEL2)], [MAX_NODE_SCORE, 0], AFFINITY1, True, SUCCESS),
    ("added affinity and pod has default affinity", AFFINITY1, [("node1", LABEL1), ("node2", LABEL2),
                                                                ("node3", LABEL5)], [40, 60, MAX_NODE_SCORE],
     preferred((3, term(req("key", "In", "value")))), True, SUCCESS),
    ("calculate the priorities correctly even if PreScore is not called", AFFINITY2,
     [("node1", LABEL1), ("node5", LABEL5), ("node2", LABEL2)], [18, MAX_NODE_SCORE, 36], None, False, None),
]


@pytest.mark.parametrize("node_affinity,nodes,expected,added,run_pre_score,want_pre_score",
                         [pytest.param(*c[1:], id=c[0]) for c in SCORE_CASES])
def test_node_affinity_priority(node_affinity, nodes, expected, added, run_pre_score, want_pre_score):
    plugin = NodeAffinity(NodeAffinityArgs(added))
    pod = pod_with(node_affinity)
    infos = [NodeInfo.of(Node(name=n, labels=labels)) for n, labels in nodes]
    state = CycleState()
    if run_pre_score:
        status = plugin.pre_score(state, pod, infos)
        assert (status.code, status.message()) == (want_pre_score.code, want_pre_score.message())
        if not status.is_success():
            return
    scores = []
    for info in infos:
        score, status = plugin.score(state, pod, info)
        assert status.is_success()
        scores.append(NodeScore(info.name, score))
    assert plugin.score_extensions().normalize_score(state, pod, scores).is_success()
    assert [s.score for s in scores] == expected


# --- args (TestValidateNodeAffinityArgs) ---------------------------------------------------------

PATH = "profiles[0].pluginConfig[0].args"


@pytest.mark.parametrize("raw", [
    pytest.param(None, id="empty"),
    pytest.param({"addedAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
            {"matchExpressions": [{"key": "label-1", "operator": "In", "values": ["label-1-val"]}]}]},
        "preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 1, "preference": {"matchFields": [
                {"key": "metadata.name", "operator": "In", "values": ["node-1"]}]}}],
    }}, id="valid added affinity"),
])
def test_valid_node_affinity_args(raw):
    args = NodeAffinityArgs.from_config(raw, PATH)
    assert NodeAffinityArgs.from_config(args.to_config(), PATH) == args


def test_invalid_added_affinity_reports_both_fields():
    raw = {"addedAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
            {"matchExpressions": [{"key": "invalid/label/key", "operator": "In", "values": ["label-1-val"]}]}]},
        "preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 1, "preference": {"matchFields": [
                {"key": "metadata.name", "operator": "In", "values": ["node-1", "node-2"]}]}}],
    }}
    with pytest.raises(ConfigError) as err:
        NodeAffinityArgs.from_config(raw, PATH)
    text = str(err.value)
    assert text.startswith("[") and text.endswith("]")
    assert (f"{PATH}.addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]"
            ".matchExpressions[0].key: Invalid value: \"invalid/label/key\": a valid label key ") in text
    assert (f"{PATH}.addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].matchFields[0].values: "
            "Invalid value: [\"node-1\",\"node-2\"]: must have one element") in text


def test_single_error_keeps_its_field_path():
    raw = {"addedAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchExpressions": [{"key": "k", "operator": "Gt", "values": ["x"]}]}]}}}
    with pytest.raises(ConfigError) as err:
        NodeAffinityArgs.from_config(raw, PATH)
    assert err.value.field == (f"{PATH}.addedAffinity.requiredDuringSchedulingIgnoredDuringExecution"
                               ".nodeSelectorTerms[0].matchExpressions[0].values[0]")
    assert err.value.message == "Invalid value: \"x\": for 'Gt', 'Lt' operators, the value must be an integer"


def test_added_affinity_with_no_terms_rejects_every_node():
    plugin = NodeAffinity(NodeAffinityArgs(NodeAffinitySpec(required=NodeSelector(()))))
    state = CycleState()
    pod = Pod(name="p")
    assert plugin.pre_filter(state, pod, []) == (None, SUCCESS)
    assert plugin.filter(state, pod, NodeInfo.of(Node(name="n"))) == uau(ERR_REASON_ENFORCED)


def test_preferred_gt_with_non_integer_value_is_a_pre_score_error():
    # Pod validation does not parse Gt values, so such a pod reaches the scheduler.
    pod = pod_with(preferred((1, term(req("k", "Gt", "ten")))))
    status = NodeAffinity().pre_score(CycleState(), pod, [])
    assert status.code is Code.ERROR
    assert status.message() == ("[0].matchExpressions[0].values[0]: Invalid value: \"ten\": "
                                "for 'Gt', 'Lt' operators, the value must be an integer")


def test_zero_weight_preferred_terms_are_ignored_but_still_no_skip():
    pod = pod_with(preferred((0, term(req("foo", "In", "bar")))))
    plugin = NodeAffinity()
    state = CycleState()
    assert plugin.pre_score(state, pod, []).is_success()
    assert plugin.score(state, pod, NodeInfo.of(Node(name="n", labels=LABEL1))) == (0, SUCCESS)


def test_match_fields_with_other_key_compare_against_empty_string():
    # fields.OneTermNotEqualSelector on an absent field reads "", so NotIn ["x"] matches.
    pod = pod_with(required(term(fields=[req("spec.unschedulable", "NotIn", "x")])))
    plugin = NodeAffinity()
    assert plugin.filter(CycleState(), pod, NodeInfo.of(Node(name="n"))) == SUCCESS
