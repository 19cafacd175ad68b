"""What each plugin does with a selector that does not parse, as upstream (v1.37.2):
PodTopologySpread fails PreFilter/PreScore with an error (podtopologyspread/plugin.go getConstraints,
scoring.go initPreScoreState), `helper.DefaultSelector` skips a controller whose selector fails,
preemption's PDB accounting skips such a PDB (preemption/util.go), and node inclusion follows
`nodeaffinity.GetRequiredNodeAffinity` (a term that does not parse matches no node)."""

from __future__ import annotations

import pytest

from reference.cycle_state import CycleState
from reference.plugins.node_affinity.selector import RequiredNodeAffinity
from reference.plugins.pod_topology_spread.common import Constraint, default_selector
from reference.plugins.pod_topology_spread.plugin import PodTopologySpread
from reference.plugins.preemption.evaluator import filter_pods_with_pdb_violation
from reference.status import Code
from reference.types import (Affinity, LabelSelector, LabelSelectorRequirement, NodeAffinity, NodeSelector,
                             NodeSelectorRequirement, NodeSelectorTerm, OwnerReference, PodDisruptionBudget,
                             TopologySpreadConstraint, Workload)
from tests.builders import FakeHandle, node, pod

BAD = LabelSelector(match_expressions=(LabelSelectorRequirement("app", "In"),))
BAD_TEXT = "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty"


@pytest.mark.parametrize("when,point,want", [
    ("DoNotSchedule", "pre_filter", f"get constraints from pod: obtaining pod's hard topology spread constraints: "
                                    f"{BAD_TEXT}"),
    ("ScheduleAnyway", "pre_score", f"calculating preScoreState: obtaining pod's soft topology spread constraints: "
                                    f"{BAD_TEXT}"),
])
def test_spread_constraint_with_a_bad_selector_is_an_error(when, point, want):
    p = pod("p", topology_spread_constraints=(TopologySpreadConstraint(1, "zone", when, BAD),))
    handle = FakeHandle([node("n1", labels={"zone": "a"})])
    plugin = PodTopologySpread.new(None, handle)
    result = getattr(plugin, point)(CycleState(), p, handle.snapshot().node_info_list)
    status = result[1] if point == "pre_filter" else result
    assert (status.code, status.message()) == (Code.ERROR, want)


def test_default_selector_skips_a_controller_whose_selector_does_not_parse():
    owner = OwnerReference("ReplicaSet", "rs", controller=True)
    p = pod("p", labels={"app": "web"}, owner_references=(owner,))
    svc = Workload("Service", "svc", selector=LabelSelector({"app": "web"}))
    bad_rs = Workload("ReplicaSet", "rs", selector=BAD)
    assert default_selector(p, [svc, bad_rs]) == LabelSelector({"app": "web"})
    good_rs = Workload("ReplicaSet", "rs", selector=LabelSelector({"tier": "x"}))
    assert default_selector(p, [svc, good_rs]).match_expressions == (LabelSelectorRequirement("tier", "In", ("x",)),)


def test_a_pdb_whose_selector_does_not_parse_matches_no_pod():
    victim = pod("v", labels={"app": "web"})
    assert filter_pods_with_pdb_violation([victim], [PodDisruptionBudget("bad", selector=BAD)]) == ([], [victim])


def _required(*requirements, fields=()):
    term = NodeSelectorTerm(match_expressions=tuple(requirements), match_fields=tuple(fields))
    return pod("p", affinity=Affinity(node_affinity=NodeAffinity(required=NodeSelector((term,)))))


@pytest.mark.parametrize("p,matches", [
    pytest.param(_required(NodeSelectorRequirement("zone", "NotIn")), False,
                 id="NotIn without values does not parse: the term matches no node"),
    pytest.param(_required(NodeSelectorRequirement("zone", "Exists", ("a",))), False,
                 id="Exists with values does not parse"),
    pytest.param(_required(NodeSelectorRequirement("zone", "=", ("a",))), False,
                 id="'=' is not a node selector operator"),
    pytest.param(_required(fields=(NodeSelectorRequirement("metadata.uid", "In", ("",)),)), True,
                 id="a field the node lacks reads as the empty string"),
    pytest.param(_required(NodeSelectorRequirement("zone", "In", ("a",))), True, id="a valid term"),
])
def test_node_inclusion_policy_follows_required_node_affinity(p, matches):
    n = node("n1", labels={"zone": "a"})
    c = Constraint(max_skew=1, topology_key="zone", selector=None)
    assert c.match_node_inclusion_policies(p, n, RequiredNodeAffinity.of(p)) is matches

