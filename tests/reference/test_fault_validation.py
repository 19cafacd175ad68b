"""Timeline faults (`op: fail | vanish | restart`): every refused entry is one line naming
`scenario.timeline[i].<field>` and the fix; accepted ones parse to `Fault` and change no object."""

import pytest

from reference.faults import Fault
from reference.scenario import Scenario, ScenarioError
from reference.timeline import TimelineState, timeline_events


def _node(name="n1"):
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name},
            "status": {"allocatable": {"cpu": "1", "pods": "10"}}}


def _pod(name, node=""):
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name},
            "spec": {**({"nodeName": node} if node else {}), "containers": [{"name": "c"}]}}


def _scenario(*timeline):
    return Scenario.from_dict({"nodes": [_node()], "pods": [_pod("b", node="n1")], "workload": [_pod("p")],
                               "timeline": list(timeline)})


FAIL = {"op": "fail", "call": "bind", "error": "conflict"}
VANISH = {"op": "vanish", "pod": "p", "point": "permit", "object": "node"}
RESTART = {"op": "restart", "pod": "p", "point": "prebind"}


@pytest.mark.parametrize("entry, message", [
    ({**FAIL, "call": "watch"}, "timeline[0].call: 'watch' is not a fail fault's call; use one of bind, status"),
    ({**FAIL, "call": None}, "timeline[0].call: None is not a fail fault's call"),
    ({**FAIL, "error": "teapot"}, "timeline[0].error: 'teapot' is not a fail fault's error; use one of conflict"),
    ({**VANISH, "point": "filter"}, "timeline[0].point: 'filter' is not a vanish fault's point; use one of reserve"),
    ({**RESTART, "point": "preempt"}, "timeline[0].point: 'preempt' is not a restart fault's point"),
    ({**VANISH, "object": "pvc"}, "timeline[0].object: 'pvc' is not a vanish fault's object; use one of pod"),
    ({**VANISH, "object": "victim"}, "timeline[0].object: 'victim' does not vanish at point 'permit'; use point: "
                                     "preempt for a victim"),
    ({**VANISH, "point": "preempt"}, "timeline[0].object: 'node' does not vanish at point 'preempt'; at point "
                                     "preempt only a victim vanishes"),
    ({**FAIL, "occurrence": 0}, "timeline[0].occurrence: 0 is not a count; use an integer >= 1"),
    ({**FAIL, "times": -1}, "timeline[0].times: -1 is not a count"),
    ({**FAIL, "times": 1.5}, "timeline[0].times: 1.5 is not a count"),
    ({**FAIL, "times": True}, "timeline[0].times: True is not a count"),
    ({**FAIL, "patch": {}}, "timeline[0].patch: a fail fault has no field 'patch'; drop it"),
    ({**VANISH, "call": "bind"}, "timeline[0].call: a vanish fault has no field 'call'"),
    ({**RESTART, "object": "pod"}, "timeline[0].object: a restart fault has no field 'object'"),
    ({**FAIL, "pod": "nobody"}, "timeline[0].pod: pod 'default/nobody' does not exist at this point of the "
                                "timeline; name a pod of the scenario or one an earlier event creates"),
    ({**RESTART, "pod": None}, "timeline[0].pod: None is not a pod (namespace/name); name the pod"),
    ({**VANISH, "pod": "a/b/c"}, "timeline[0].pod: 'a/b/c' is not a pod"),
    ({**FAIL, "pod": ""}, "timeline[0].pod: '' is not a pod (namespace/name); name the pod or omit pod"),
    ({**RESTART, "when": "later"}, "timeline[0].when: 'later' is neither \"idle\" nor a number"),
    ({**RESTART, "when": 1e9}, "timeline[0].when: 1000000000.0 is outside [0,"),
], ids=lambda v: v if isinstance(v, str) and len(v) < 40 else None)
def test_bad_fault_is_one_line_naming_the_field(entry, message):
    with pytest.raises(ScenarioError) as exc:
        _scenario(entry)
    text = str(exc.value)
    assert "\n" not in text
    assert text.startswith("scenario.timeline[0].")
    assert message in text


def test_a_fault_on_a_pod_deleted_earlier_is_refused():
    with pytest.raises(ScenarioError, match=r"timeline\[1\]\.pod: pod 'default/p' does not exist"):
        _scenario({"when": 0, "op": "delete", "kind": "Pod", "name": "p"}, RESTART)


def test_a_fault_on_a_pod_created_earlier_is_accepted():
    created = {"when": 0, "op": "create", "object": _pod("q")}
    sc = _scenario(created, {**RESTART, "pod": "default/q"})
    assert timeline_events(sc)[1] == Fault(1, 0.0, "restart", "default/q", point="prebind")


def test_faults_parse_with_their_defaults_and_arm_without_changing_objects():
    sc = _scenario(FAIL, {**VANISH, "when": "idle"}, {**RESTART, "when": 2},
                   {"op": "vanish", "pod": "p", "point": "preempt", "object": "victim"},
                   {**FAIL, "call": "status", "error": "timeout", "pod": "b", "occurrence": 2, "times": 3})
    events = timeline_events(sc)
    assert events == (Fault(0, 0.0, "fail", "", call="bind", error="conflict"),
                      Fault(1, None, "vanish", "default/p", point="permit", object="node"),
                      Fault(2, 2.0, "restart", "default/p", point="prebind"),
                      Fault(3, 0.0, "vanish", "default/p", point="preempt", object="victim"),
                      Fault(4, 0.0, "fail", "default/b", call="status", error="timeout", occurrence=2, times=3))
    state = TimelineState.of(sc)
    before = dict(state.objects)
    for event in events:
        assert state.apply(event) is None
    assert state.objects == before
    assert sc.to_dict()["timeline"][0] == FAIL
