"""Grouping keys (stable across seeds), shrinking candidates (smaller and valid), and the baseline file."""

from __future__ import annotations

import pytest

from reference.scenario import Scenario

from conformance.diff.baseline import BaselineError, apply, read, write
from conformance.diff.groups import Group, candidates, cause_key, causes_of
from conformance.differential import Disagreement

from .test_compare import NODES, PODS


def calls(pod: str, attempt: int, causes) -> Disagreement:
    return Disagreement(f"the probe calls of attempt {attempt}", pod, [], [], "plugin-calls", tuple(causes))


def test_keys_leave_out_pods_attempts_and_probe_numbers():
    a = calls("default/pod-0", 1, [("Filter", "Probe0")])
    b = calls("team-a/pod-3", 4, [("Filter", "Probe2")])
    assert cause_key(a) == cause_key(b) == "plugin-calls Filter/Probe* (the probe calls of attempt N)"
    assert cause_key(calls("default/pod-0", 1, [("Filter", "NodeName")])) != cause_key(a)


def test_a_scenario_belongs_to_each_plugin_list_change_and_each_cause_of_its_first_behaviour_difference():
    listed = Disagreement("plugin added at preFilter", "", [], ["NodeName"], "plugin-list", (("preFilter", "NodeName"),))
    first = calls("default/pod-0", 1, [("PreFilter", "NodeName"), ("PreFilter", "TaintToleration")])
    later = Disagreement("the phase", "default/pod-1", "bound", "unschedulable", "schedulability")
    keys = causes_of([listed, first, later])
    assert sorted(keys) == ["plugin-calls PreFilter/NodeName (the probe calls of attempt N)",
                            "plugin-calls PreFilter/TaintToleration (the probe calls of attempt N)",
                            "plugin-list preFilter/NodeName (plugin added at preFilter)"]


def test_candidates_are_smaller_valid_scenarios():
    bound = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "running", "namespace": "default"},
             "spec": {"nodeName": "node-1", "containers": [{"name": "c", "image": "pause"}]}}
    scenario = Scenario(nodes=NODES, pods=(bound,), workload=PODS)
    smaller = list(candidates(scenario))
    assert smaller, "a scenario with two pods and two nodes has smaller variants"
    for candidate in smaller:
        candidate.check()
        assert (len(candidate.workload), len(candidate.nodes), len(candidate.pods)) != (2, 2, 1)
        assert candidate.workload, "never an empty workload"
        assert all(p["spec"]["nodeName"] in candidate.node_names() for p in candidate.pods)
    # Dropping node-1 drops the pod bound to it.
    assert any(len(c.nodes) == 1 and c.node_names() == ["node-0"] and not c.pods for c in smaller)


def group(key: str) -> Group:
    return Group(key, "plugin-calls", ())


def test_the_baseline_round_trips_and_keeps_notes(tmp_path):
    file = tmp_path / "accepted.yaml"
    groups = [group("plugin-list preFilter/NodeName (plugin added at preFilter)"), group("error (x)")]
    write(file, groups, from_label="v1.36.4", to_label="v1.37.1", previous={"error (x)": "known"})
    accepted = read(file)
    assert accepted["error (x)"] == "known" and set(accepted) == {g.key for g in groups}
    fresh = [group("error (x)"), group("placement (y)")]
    apply(fresh, accepted)
    assert [g.accepted for g in fresh] == ["known", None]


@pytest.mark.parametrize("text, expected", [
    ("accepted: [\n  - key: a\n  - {key: b", "line 2"),
    ("accepted: {key: a}\n", "no `accepted:` list"),
    ("accepted:\n- key: a\n- note: no key\n", "accepted entry 2 (line 3) has no `key:` string"),
], ids=["not-yaml", "not-a-list", "entry-without-key"])
def test_a_baseline_that_does_not_parse_names_the_line_and_the_shape(tmp_path, text, expected):
    file = tmp_path / "accepted.yaml"
    file.write_text(text)
    with pytest.raises(BaselineError) as info:
        read(file)
    message = str(info.value)
    assert expected in message and "expected a mapping with `accepted:`" in message and "\n" not in message
