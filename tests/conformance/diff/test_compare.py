"""conformance/diff/compare.py on hand-made outcomes of one default-profile scenario: what counts as a
difference, its kind and cause, and what does not (upstream's random host choice and timing)."""

from __future__ import annotations

from reference.scenario import Scenario

from conformance.diff.compare import SideResult, differences
from conformance.diff.groups import cause_key
from conformance.invariants import Run
from conformance.core.outcome import Outcome

NODES = tuple({"apiVersion": "v1", "kind": "Node", "metadata": {"name": f"node-{i}"},
               "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"},
                          "capacity": {"cpu": "4", "memory": "8Gi", "pods": "110"}}} for i in range(2))
PODS = tuple({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": f"pod-{i}", "namespace": "default"},
              "spec": {"containers": [{"name": "c", "image": "pause"}]}} for i in range(2))
SCENARIO = Scenario(nodes=NODES, workload=PODS)
PLUGINS = {"default-scheduler": {"preFilter": {"enabled": [{"name": "NodeResourcesFit", "weight": 0}]},
                                 "filter": {"enabled": [{"name": "NodeName", "weight": 0},
                                                        {"name": "NodeResourcesFit", "weight": 0}]}}}


def calls(pod: str, attempt: int, seq: int, *, score: int = 10, fit_code: str = "Success",
          chosen: str = "node-0") -> list[dict]:
    out = [{"pod": pod, "attempt": attempt, "point": "PreFilter", "plugin": "NodeResourcesFit", "code": "Success"}]
    for node in ("node-0", "node-1"):
        out += [{"pod": pod, "attempt": attempt, "point": "Filter", "plugin": "NodeResourcesFit", "node": node,
                 "code": fit_code if node == "node-1" else "Success"},
                {"pod": pod, "attempt": attempt, "point": "Score", "plugin": "NodeResourcesFit", "node": node,
                 "code": "Success", "score": score}]
    out.append({"pod": pod, "attempt": attempt, "point": "Reserve", "plugin": "VolumeBinding", "node": chosen,
                "code": "Success"})
    return [{**r, "seq": seq + i} for i, r in enumerate(out)]


def side(*, nodes=("node-0", "node-0"), observed=None, events=(), phase="bound", plugins=PLUGINS,
         error: str = "") -> SideResult:
    if error:
        return SideResult(None, error)
    pods = {f"default/pod-{i}": {"phase": phase, "node": node if phase == "bound" else "", "attempts": 1}
            for i, node in enumerate(nodes)}
    bindings = [{"pod": p, "node": v["node"]} for p, v in pods.items() if v["phase"] == "bound"]
    outcome = Outcome.from_dict({"backend": "upstream", "kubernetesVersion": "v1.37.1", "pods": pods,
                                 "bindings": bindings, "events": list(events), "plugins": plugins,
                                 "observed": observed if observed is not None else
                                 calls("default/pod-0", 1, 0) + calls("default/pod-1", 1, 100)})
    return SideResult(Run(SCENARIO, outcome, frozenset({"observed-plugins"})))


def test_the_same_outcome_differs_nowhere():
    assert differences(side(), side()) == []


def test_a_random_host_choice_and_what_follows_it_are_no_difference():
    # Equal scores (not traced by probes): which node each pod got, and the second pod's calls, are open.
    later = calls("default/pod-0", 1, 0, chosen="node-1") + calls("default/pod-1", 1, 100, score=70)
    assert differences(side(nodes=("node-0", "node-0")), side(nodes=("node-1", "node-0"), observed=later)) == []


def test_the_first_cycle_is_compared_even_when_the_run_is_not_settled():
    changed = calls("default/pod-0", 1, 0, score=50) + calls("default/pod-1", 1, 100)
    found = differences(side(), side(nodes=("node-1", "node-1"), observed=changed))
    assert [(d.kind, d.pod, d.causes) for d in found] == [("plugin-calls", "default/pod-0",
                                                           (("Score", "NodeResourcesFit"),))]
    assert cause_key(found[0]).startswith("plugin-calls Score/NodeResourcesFit (the observed calls of "
                                          "attempt N")


def test_a_filter_status_change_is_a_plugin_call_difference():
    changed = calls("default/pod-0", 1, 0, fit_code="Unschedulable") + calls("default/pod-1", 1, 100)
    found = differences(side(), side(observed=changed))
    assert [(d.kind, d.causes) for d in found][:1] == [("plugin-calls", (("Filter", "NodeResourcesFit"),))]


def test_plugin_list_changes_one_per_plugin_and_order():
    added = {"default-scheduler": {**PLUGINS["default-scheduler"], "preFilter": {"enabled": [
        {"name": "NodeResourcesFit"}, {"name": "NodeDeclaredFeatures"}]}}}
    reordered = {"default-scheduler": {**PLUGINS["default-scheduler"], "filter": {"enabled": [
        {"name": "NodeResourcesFit"}, {"name": "NodeName"}]}}}
    assert [cause_key(d) for d in differences(side(), side(plugins=added))] == [
        "plugin-list preFilter/NodeDeclaredFeatures (plugin added at preFilter)"]
    assert [cause_key(d) for d in differences(side(), side(plugins=reordered))] == [
        "plugin-list filter/(order) (the order of the plugins at filter)"]


def test_an_error_on_one_side_names_the_plugin_it_blames():
    error = ('the upstream scheduler refuses the scenario: initializing profiles: creating profile for scheduler '
             'name default-scheduler: plugin "NodeName" does not extend PreFilterPlugin plugin')
    found = differences(side(error=error), side())
    assert [(d.kind, d.causes, d.right) for d in found] == [("error", (("PreFilter", "NodeName"),), "runs")]
    assert differences(side(error=error), side(error=error)) == []


def test_in_a_settled_run_results_and_event_reasons_count_but_not_how_often():
    unschedulable = dict(nodes=("", ""), phase="unschedulable", observed=[])
    three = [{"pod": "default/pod-0", "reason": "FailedScheduling"}] * 3
    four = [{"pod": "default/pod-0", "reason": "FailedScheduling"}] * 4
    assert differences(side(**unschedulable, events=three), side(**unschedulable, events=four)) == []
    other = [{"pod": "default/pod-0", "reason": "FailedScheduling"}, {"pod": "default/pod-0", "reason": "Preempted"}]
    found = differences(side(**unschedulable, events=three), side(**unschedulable, events=other))
    assert [(d.kind, d.pod) for d in found] == [("status-text", "default/pod-0")]


def test_calls_cancelled_by_a_failing_probe_are_no_difference():
    # A probe's Score error cancels the other Score calls still running: how many of NodeResourcesFit's
    # happened is a race.
    failing = {"pod": "default/pod-0", "attempt": 1, "seq": 0, "point": "Score", "plugin": "Probe0",
               "node": "node-0", "code": "Error"}
    cancelled = [r for r in calls("default/pod-0", 1, 0) if not (r["point"] == "Score" and r["node"] == "node-1")]
    a, b = side(), side(observed=cancelled + calls("default/pod-1", 1, 100))
    for s in (a, b):
        object.__setattr__(s.run.outcome, "trace", (failing,))
    assert differences(a, b) == []
    # Without the probe's error, the missing call is a difference.
    assert differences(side(), side(observed=cancelled + calls("default/pod-1", 1, 100)))


def test_a_nominated_pods_pass_on_one_side_only_is_no_difference():
    # Whether an attempt already sees another pod's nomination (AddPod, then Filter again with it) races with
    # the scheduler recording that nomination.
    second_pass = [{"pod": "default/pod-0", "attempt": 1, "seq": 50 + i, "point": point, "plugin": "NodeResourcesFit",
                    "node": "node-0", "code": "Success"} for i, point in enumerate(("AddPod", "Filter"))]
    observed = calls("default/pod-0", 1, 0) + second_pass + calls("default/pod-1", 1, 100)
    assert differences(side(), side(observed=observed)) == []
