"""generators.Extras / with_extras: the user's objects and pod decorations added to drawn scenarios, and
Scenario.customObjects, where the kinds the reference does not model go."""

import importlib.util
from pathlib import Path

import pytest
from hypothesis import given, settings

from generators import Extras, scenarios, with_extras
from reference.scenario import Scenario, ScenarioError
from tests.shrink.minimal import minimal

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "scheduler-plugins" / "objects.py"
POD = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "pod-0", "namespace": "default"},
       "spec": {"containers": [{"name": "c"}]}}
GROUP = {"apiVersion": "scheduling.x-k8s.io/v1alpha1", "kind": "PodGroup",
         "metadata": {"name": "pg", "namespace": "default"}, "spec": {"minMember": 2}}


def _example():
    spec = importlib.util.spec_from_file_location("scheduler_plugins_objects", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_extras_route_kinds_and_decorate_pods():
    pdb = {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "b", "namespace": "default"},
           "spec": {"selector": {"matchLabels": {"a": "b"}}, "maxUnavailable": 1}}
    out = Extras(objects=(GROUP, pdb), labels={"default/pod-0": {"scheduling.x-k8s.io/pod-group": "pg"}},
                 annotations={"default/pod-0": {"note": "x"}}).apply(Scenario.from_dict({"workload": [POD]}))
    assert out.custom_objects == (GROUP,) and out.objects == (pdb,)
    assert out.workload[0]["metadata"]["labels"] == {"scheduling.x-k8s.io/pod-group": "pg"}
    assert out.workload[0]["metadata"]["annotations"] == {"note": "x"}
    assert Scenario.from_dict(out.to_dict()) == out, "customObjects round-trips through the scenario format"


def test_extras_naming_a_pod_that_is_not_there_name_the_pods_that_are():
    with pytest.raises(ScenarioError, match=r"Extras.labels\['default/nope'\]: no such pod .* default/pod-0"):
        Extras(labels={"default/nope": {"a": "b"}}).apply(Scenario.from_dict({"workload": [POD]}))


@pytest.mark.parametrize("bad, message", [
    ({**GROUP, "apiVersion": "v1"}, r"customObjects\[0\].apiVersion: 'v1' is not GROUP/VERSION"),
    ({**GROUP, "kind": "Service"}, r"customObjects\[0\].kind: Service is modelled by the reference; put it in objects"),
    ({**GROUP, "metadata": {"name": "Bad_Name"}}, r"customObjects\[0\].metadata.name: 'Bad_Name' is not a DNS"),
    ({**GROUP, "kind": "podGroup"}, r"customObjects\[0\].kind: 'podGroup' is not a Kind"),
])
def test_bad_custom_objects_name_the_field(bad, message):
    with pytest.raises(ScenarioError, match=message):
        Scenario.from_dict({"customObjects": [bad]})


def test_duplicate_custom_objects_are_refused():
    with pytest.raises(ScenarioError, match=r"customObjects\[1\]: duplicate PodGroup"):
        Scenario.from_dict({"customObjects": [GROUP, GROUP]})


def test_a_hook_that_returns_no_strategy_says_what_to_return():
    strategy = with_extras(scenarios(max_pods=1), lambda scenario: Extras())

    @settings(max_examples=1, database=None)
    @given(strategy)
    def draw(_):
        pass
    with pytest.raises(TypeError, match="must return a Hypothesis strategy of generators.Extras"):
        draw()


@settings(max_examples=40, deadline=None, database=None)
@given(with_extras(scenarios(max_pods=3), _example().pod_groups))
def test_example_pod_groups_name_only_their_scenarios_pods(s):
    groups = {(g["metadata"]["namespace"], g["metadata"]["name"]) for g in s.custom_objects}
    for p in s.workload:
        label = (p["metadata"].get("labels") or {}).get("scheduling.x-k8s.io/pod-group")
        if label is not None:
            assert (p["metadata"]["namespace"], label) in groups


def test_extras_shrink_towards_none():
    found = minimal(with_extras(scenarios(max_pods=3), _example().pod_groups), lambda s: bool(s.custom_objects))
    # One group of one pod, needing one member: the simplest scenario that has a group at all.
    assert len(found.workload) == 1 and len(found.custom_objects) == 1
    assert found.custom_objects[0]["spec"] == {"minMember": 1}
    assert minimal(with_extras(scenarios(max_pods=3), _example().pod_groups), lambda s: True).custom_objects == ()
