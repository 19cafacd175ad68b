"""Shrinking sees the timeline: `sched-conformance diff` tries dropping each event, and sizes count events."""

from conformance.diff.groups import candidates
from conformance.search.invariants import scenario_size
from reference.scenario import Scenario

NODE = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"},
        "status": {"allocatable": {"cpu": "1", "pods": "10"}}}
POD = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{"name": "c"}]}}
CREATE = {"when": 1, "op": "create", "object": {**NODE, "metadata": {"name": "n2"}}}
RELABEL = {"when": 2, "op": "update", "kind": "Node", "name": "n2",
           "patch": {"metadata": {"labels": {"a": "b"}}}}


def test_candidates_drop_one_event_keeping_only_valid_timelines():
    scenario = Scenario.from_dict({"nodes": [NODE], "workload": [POD], "timeline": [CREATE, RELABEL]})
    timelines = [list(c.timeline) for c in candidates(scenario)]
    # Dropping the create leaves an update of a node that does not exist: not a candidate.
    assert timelines[0] == [CREATE]
    assert [RELABEL] not in timelines


def test_size_counts_events_only_when_there_are_some():
    assert "events" not in scenario_size(Scenario.from_dict({"nodes": [NODE], "workload": [POD]}))
    scenario = Scenario.from_dict({"nodes": [NODE], "workload": [POD], "timeline": [CREATE, RELABEL]})
    assert scenario_size(scenario)["events"] == 2
