"""`scenario.timeline`: every refused event is one line naming `scenario.timeline[i].<field>` and the fix;
accepted timelines keep their events as written."""

import pytest

from reference.merge_patch import merge_patch
from reference.scenario import Scenario, ScenarioError
from reference.timeline import TimelineEvent, timeline_events


def _node(name="n1", **labels):
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": labels},
            "status": {"allocatable": {"cpu": "1", "pods": "10"}}}


def _pod(name, node="", cpu="500m", **spec):
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name},
            "spec": {**({"nodeName": node} if node else {}),
                     "containers": [{"name": "c", "resources": {"requests": {"cpu": cpu}}}], **spec}}


TOLERATION = {"key": "k", "operator": "Exists", "effect": "NoSchedule"}
PC = {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "high"},
      "value": 10}
RS = {"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "rs"},
      "spec": {"selector": {"matchLabels": {"app": "a"}}}}


def _scenario(*timeline, deadline=None):
    data = {"nodes": [_node()], "pods": [_pod("b", node="n1")],
            "workload": [_pod("p", tolerations=[TOLERATION], schedulingGates=[{"name": "g"}])],
            "objects": [PC, RS], "timeline": list(timeline)}
    if deadline is not None:
        data["deadline"] = deadline
    return Scenario.from_dict(data)


def _update(kind, name, patch, when=1, **extra):
    return {"when": when, "op": "update", "kind": kind, "name": name, "patch": patch, **extra}


def _delete(kind, name, when=1, **extra):
    return {"when": when, "op": "delete", "kind": kind, "name": name, **extra}


def _create(obj, when=1):
    return {"when": when, "op": "create", "object": obj}


def _containers(cpu):
    return {"spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": cpu}}}]}}


@pytest.mark.parametrize("timeline, message", [
    (["idle"], "scenario.timeline[0]: expected an event mapping"),
    ([{"when": 1, "op": "delete", "kind": "Pod", "name": "b", "at": 2}],
     "scenario.timeline[0].at: unknown field"),
    ([{"op": "delete", "kind": "Pod", "name": "b"}], "scenario.timeline[0].when: None is neither \"idle\""),
    ([_delete("Pod", "b", when="soon")], "scenario.timeline[0].when: 'soon' is neither"),
    ([_delete("Pod", "b", when=True)], "scenario.timeline[0].when: True is neither"),
    ([_delete("Pod", "b", when=-1)], "scenario.timeline[0].when: -1 is outside [0, 30)"),
    ([_delete("Pod", "b", when=30)],
     "scenario.timeline[0].when: 30 is outside [0, 30), the scenario's deadline"),
    ([{"when": 1, "op": "patch", "kind": "Pod", "name": "b"}],
     "scenario.timeline[0].op: 'patch' is not an operation"),
    ([_delete("Deployment", "d")],
     "scenario.timeline[0].kind: 'Deployment' is not a kind the timeline changes"),
    ([_delete("Pod", "")], "scenario.timeline[0].name: '' is not an object name"),
    ([_delete("Node", "n1", namespace="default")], "scenario.timeline[0].namespace: Node is cluster-scoped"),
    ([_delete("Pod", "b", namespace=3)], "scenario.timeline[0].namespace: 3 is not a namespace name"),
    ([{**_delete("Pod", "b"), "patch": {}}], "scenario.timeline[0].patch: only an update takes a patch"),
    ([_update("Pod", "b", None)], "scenario.timeline[0].patch: None is not a JSON merge patch"),
    ([{**_delete("Pod", "b"), "object": _pod("x")}],
     "scenario.timeline[0].object: only a create takes a manifest"),
    ([{**_create(_node("n2")), "name": "n2"}],
     "scenario.timeline[0].name: a create takes the whole manifest"),
    ([{"when": 1, "op": "create"}], "scenario.timeline[0].object: None is not a manifest"),
    ([_create({"kind": "Secret", "metadata": {"name": "s"}})], "scenario.timeline[0].object.kind: 'Secret'"),
    ([_create({"kind": "Node", "metadata": {}})], "scenario.timeline[0].object.metadata.name: None"),
    ([_create(_node("n1"))], "scenario.timeline[0].object.metadata.name: Node 'n1' already exists"),
    ([_create({**_node("n2"), "status": {"allocatable": {"cpu": "lots"}}})],
     "scenario.timeline[0].object: Node.status.allocatable.cpu: 'lots' is not a Kubernetes quantity"),
    ([_create({**_pod("q"), "spec": {**_pod("q")["spec"], "priorityClassName": "high"}})],
     "scenario.timeline[0].object.spec.priority: missing; PriorityClass high gives 10"),
    ([_create({**PC, "metadata": {"name": "low"}, "globalDefault": True})],
     "scenario.timeline[0].object: PriorityClass low: globalDefault would give every pod"),
    ([_delete("Pod", "gone")], "scenario.timeline[0].name: Pod 'default/gone' does not exist"),
    ([_delete("Node", "n1"), _update("Node", "n1", {"metadata": {"labels": {"a": "b"}}})],
     "scenario.timeline[1].name: Node 'n1' does not exist at this point of the timeline"),
    ([_delete("Pod", "b", namespace="other")], "scenario.timeline[0].name: Pod 'other/b' does not exist"),
    ([_delete("Namespace", "default")], "scenario.timeline[0].name: namespace 'default' may not be deleted"),
    ([_create({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team"}}),
      _create({**_pod("q"), "metadata": {"name": "q", "namespace": "team"}}), _delete("Namespace", "team")],
     "scenario.timeline[2].name: namespace 'team' still holds Pod team/q; deleting the namespace would"),
    ([_update("Node", "n1", {"metadata": {"name": "n9"}})],
     "scenario.timeline[0].patch.metadata.name: an update cannot rename or move an object"),
    ([_update("Node", "n1", {"status": {"images": [{"names": ["x"]}]}})],
     "scenario.timeline[0].patch.status.images: cannot change"),
    ([_update("Node", "n1", {"status": {"allocatable": {"cpu": "lots"}}})],
     "scenario.timeline[0].patch: the patched Node is not valid"),
    ([_update("Pod", "b", {"spec": {"nodeName": "n2"}})],
     "scenario.timeline[0].patch.spec.nodeName: a pod's node cannot change"),
    ([_update("Pod", "p", {"spec": {"nodeName": "n1"}})],
     "scenario.timeline[0].patch.spec.nodeName: a pod's node cannot change"),
    ([_update("Pod", "b", _containers("250m"))],
     "scenario.timeline[0].patch.spec.containers: only a pending pod's containers may change and this pod is "
     "bound"),
    ([_update("Pod", "b", {"spec": {"tolerations": [TOLERATION]}})],
     "scenario.timeline[0].patch.spec.tolerations: only a pending pod's tolerations may change"),
    ([_update("Pod", "p", _containers("600m"))],
     "scenario.timeline[0].patch.spec.containers[0].resources.requests.cpu: raises 500m to 600m; requests "
     "may only"),
    ([_update("Pod", "p", {"spec": {"containers": [{"name": "d"}]}})],
     "scenario.timeline[0].patch.spec.containers: containers cannot be added, removed, renamed"),
    ([_update("Pod", "p", {"spec": {"containers": [{"name": "c", "image": "x",
                                                     "resources": {"requests": {"cpu": "500m"}}}]}})],
     "scenario.timeline[0].patch.spec.containers[0].image: cannot change on a pod"),
    ([_update("Pod", "p", {"spec": {"containers": [
        {"name": "c", "resources": {"requests": {"cpu": "1m", "memory": "1"}}}]}})],
     "scenario.timeline[0].patch.spec.containers[0].resources.requests: a resize cannot add or remove"),
    ([_update("Pod", "p", {"spec": {"tolerations": []}})],
     "scenario.timeline[0].patch.spec.tolerations: removes toleration"),
    ([_update("Pod", "p", {"spec": {"schedulingGates": [{"name": "g"}, {"name": "h"}]}})],
     "scenario.timeline[0].patch.spec.schedulingGates: adds gate 'h'; scheduling gates may only be removed"),
    ([_update("Pod", "p", {"spec": {"priority": 5}})],
     "scenario.timeline[0].patch.spec.priority: cannot change on a Pod"),
    ([_update("PriorityClass", "high", {"value": 20})],
     "scenario.timeline[0].patch.value: cannot change (the API server refuses it"),
    ([_update("ReplicaSet", "rs", {"spec": {"selector": {"matchLabels": {"app": "b"}}}})],
     "scenario.timeline[0].patch.spec.selector: is immutable on an apps/v1 ReplicaSet"),
    ([_update("ReplicaSet", "rs", {"status": {"replicas": 2}})],
     "scenario.timeline[0].patch.status.replicas: cannot change"),
], ids=lambda v: v if isinstance(v, str) else None)
def test_refused_event_names_index_and_field(timeline, message):
    with pytest.raises(ScenarioError) as exc:
        _scenario(*timeline)
    text = str(exc.value)
    assert text.startswith(message), text
    assert "\n" not in text


def test_timeline_field_must_be_a_list():
    with pytest.raises(ScenarioError, match=r"^scenario.timeline: expected a list of events, got dict"):
        Scenario.from_dict({"timeline": {"when": 1}})


def test_accepted_changes_parse_to_events():
    scenario = _scenario(
        _update("Node", "n1", {"metadata": {"labels": {"zone": "b"}},
                               "spec": {"taints": [], "unschedulable": True},
                               "status": {"allocatable": {"cpu": "2"}}}, when=0),
        _update("Pod", "b", {"metadata": {"labels": {"app": "x"}, "annotations": {"a": "b"}}}, when=2.5),
        _update("Pod", "p", {"spec": {"tolerations": [TOLERATION, {"key": "k2", "operator": "Exists"}],
                                      "schedulingGates": None, **_containers("250m")["spec"]}}, when="idle"),
        _update("ReplicaSet", "rs", {"metadata": {"labels": {"x": "y"}}, "spec": {"replicas": 3}},
                when="idle"),
        _create(_node("n2"), when="idle"),
        _delete("Node", "n2", when=1),
        _create(_node("n2"), when=1),
        _delete("Pod", "p", when="idle"),
        _create(_pod("p", node="n2"), when="idle"),
    )
    events = timeline_events(scenario)
    assert [e.when for e in events] == [0.0, 2.5, None, None, None, 1.0, 1.0, None, None]
    assert events[7] == TimelineEvent(7, None, "delete", "Pod", "p", "default")
    assert events[4].key == "n2" and events[7].key == "default/p"
    assert scenario.timeline[0]["patch"]["spec"]["unschedulable"] is True  # kept as written


def test_no_timeline_leaves_the_scenario_dict_unchanged():
    data = {"version": 1, "nodes": [_node()], "pods": [], "objects": [], "workload": [_pod("p")]}
    assert Scenario.from_dict(data).to_dict() == data


@pytest.mark.parametrize("target, patch, expected", [
    ({"a": 1, "b": {"c": 2, "d": 3}}, {"b": {"c": None, "e": 4}}, {"a": 1, "b": {"d": 3, "e": 4}}),
    ({"l": [1, 2]}, {"l": [3]}, {"l": [3]}),
    ({"a": {"b": 1}}, {"a": 5}, {"a": 5}),
    ({}, {"a": {"b": None, "c": 1}}, {"a": {"c": 1}}),
], ids=["nested-null-removes", "lists-replaced-whole", "scalar-replaces-mapping",
        "new-mapping-without-nulls"])
def test_merge_patch_follows_rfc_7386(target, patch, expected):
    before = repr(target)
    assert merge_patch(target, patch) == expected
    assert repr(target) == before
