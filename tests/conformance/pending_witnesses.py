"""Witnesses (issue 32): for the older mutants the matrix had left pending (mutants.py, hard_mutants.py and
the event rules' mutants of tests/conformance/invariants/test_event_rules.py, on its hand-made scenarios),
and for the new mutants of pending_mutants.py and pending_mutants_2.py."""

from __future__ import annotations

import dataclasses
from typing import Callable

from reference.scenario import Scenario

from .invariants._kit import config, extender, node, pod, ported, scenario
from .invariants.test_event_rules import HAND as EVENT_WITNESSES
from .rule_mutants import (_PREFER_NODE_1, _REJECT_NODE_1, PROBES_0_1, TWO_NODES, WITNESSES, _defaults,
                           _probes, _with_spec)

ZONE = "topology.kubernetes.io/zone"


def _labelled(manifest: dict, **labels) -> dict:
    return {**manifest, "metadata": {**manifest["metadata"], "labels": labels}}


def _zoned(*zones: str) -> tuple[dict, ...]:
    return tuple(_labelled(node(f"node-{i}"), **{"kubernetes.io/hostname": f"node-{i}", ZONE: z})
                 for i, z in enumerate(zones))


def _extenders(script: dict, *extenders: dict, nodes=TWO_NODES) -> Callable[[], Scenario]:
    """One pod scripted for the suite's extender server; Probe0 at PreFilter and Reserve (no Score plugin,
    so the extenders' scores alone choose)."""
    points = {"preFilter": ["Probe0"], "reserve": ["Probe0"]}
    return lambda: scenario([pod(extenders=script)], nodes=nodes, cfg=config(points, extenders=extenders))


_PRIORITIZERS = (extender("ext-0", verbs=("prioritize",), weight=5),
                 extender("ext-1", verbs=("prioritize",), weight=1))
# ext-0 prefers node-0 by 5 x 10 x 1 = 50, ext-1 node-1 by 1 x 10 x 3 = 30.
_PRIORITIES = {"ext-0": {"prioritize": {"scores": {"node-0": 1}}},
               "ext-1": {"prioritize": {"scores": {"node-1": 3}}}}


def _anti_affine(name: str, app: str, on: str | None) -> dict:
    term = {"labelSelector": {"matchLabels": {"app": app}}, "topologyKey": ZONE}
    return _labelled(_with_spec(pod(name, on=on), affinity={"podAntiAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": [term]}}), app=app)


def _spread_witness() -> Scenario:
    """node-0 (zone-a) is tainted, node-1 (zone-b) holds a web pod: a second web pod there makes skew 2."""
    nodes = _zoned("zone-a", "zone-b")
    tainted = _with_spec(nodes[0], taints=[{"key": "k", "effect": "NoSchedule"}])
    return _defaults(_spread("pod-1"), nodes=(tainted, nodes[1]),
                     bound=(_spread("running-0", on="node-1"),))()


def _spread(name: str, on: str | None = None) -> dict:
    return _labelled(_with_spec(pod(name, on=on), topologySpreadConstraints=[
        {"maxSkew": 1, "topologyKey": ZONE, "whenUnsatisfiable": "DoNotSchedule",
         "labelSelector": {"matchLabels": {"app": "web"}}}]), app="web")


def _pdb_witness() -> Scenario:
    """node-0 holds a web pod a PodDisruptionBudget keeps, node-1 a db pod: the preemptor evicts on node-1."""
    nodes = (node("node-0", cpu="1"), node("node-1", cpu="1"))
    bound = tuple(_labelled(pod(f"running-{i}", priority=100, cpu="1", on=f"node-{i}"), app=app)
                  for i, app in enumerate(("web", "db")))
    pdb = {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
           "metadata": {"name": "pdb-0", "namespace": "default"},
           "spec": {"selector": {"matchLabels": {"app": "web"}}, "maxUnavailable": 0},
           "status": {"currentHealthy": 1, "desiredHealthy": 1, "disruptionsAllowed": 0, "expectedPods": 1}}
    sc = _defaults(pod("pod-0", priority=1000, cpu="1"), nodes=nodes, bound=bound)()
    return dataclasses.replace(sc, objects=(pdb,))


OLDER_WITNESSES: dict[str, Callable[[], Scenario]] = {
    # mutants.py
    "cycle-state-reused": _probes({"Probe0": {"Reserve": [{"code": "Error"}, {}]}}),
    "plugins-bind-before-extender": lambda: scenario(
        [pod(probes={"Probe0": {"Bind": {"code": "Success"}}})],
        cfg=config({"preFilter": ["Probe0"], "bind": {"enabled": [{"name": "Probe0"}],
                                                      "disabled": [{"name": "DefaultBinder"}]}},
                   extenders=(extender(verbs=("filter", "bind")),))),
    "extender-filter-ignored": _extenders({"ext-0": {"filter": {"fail": {"node-0": "no"}}}}, extender(),
                                          nodes=(node(),)),
    "extender-filter-error-skipped": _extenders({"ext-0": {"filter": {"error": "boom"}}}, extender()),
    "ignorable-extender-error-fails": _extenders({"ext-0": {"filter": {"status": 500}}},
                                                 extender(ignorable=True)),
    "prioritize-error-fails": _extenders({"ext-0": {"prioritize": {"status": 500}}},
                                         extender(verbs=("prioritize",))),
    "extender-weights-ignored": _extenders(_PRIORITIES, *_PRIORITIZERS),
    "extender-scores-dropped": _extenders(_PRIORITIES, *_PRIORITIZERS),
    "evict-on-every-candidate": _defaults(pod("preemptor", priority=10, cpu="1"),
                                          nodes=(node("node-0", cpu="1"), node("node-1", cpu="1")),
                                          bound=(pod("victim-0", priority=0, cpu="1", on="node-0"),
                                                 pod("victim-1", priority=0, cpu="1", on="node-1"))),
    # hard_mutants.py
    "pdbs-ignored": _pdb_witness,
    "sidecar-ports-ignored": _defaults(ported("pod-0"), ported("pod-1", sidecar=True)),
    "existing-anti-affinity-ignored": _defaults(_labelled(pod("pod-1"), app="web"),
                                                nodes=_zoned("zone-a"),
                                                bound=(_anti_affine("running-0", "web", "node-0"),)),
    "spread-self-not-counted": _spread_witness,
    # pod-0 needs a web pod on its node, which comes next in the queue: only a wake-up lets pod-0 in
    "lost-wakeups": _defaults(_with_spec(pod("pod-0"), affinity={"podAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": [{"labelSelector": {"matchLabels": {"app": "web"}},
                                                            "topologyKey": "kubernetes.io/hostname"}]}}),
                              _labelled(pod("pod-1"), app="web")),
    # tests/conformance/invariants/test_event_rules.py (their hand-made scenarios)
    **{name: (lambda sc=sc: sc) for name, sc in EVENT_WITNESSES.items()},
}

NEW_WITNESSES: dict[str, Callable[[], Scenario]] = {
    "prefilter-unschedulable-stops": _probes({"Probe0": {"PreFilter": {"code": "Unschedulable"}}},
                                             PROBES_0_1),
    "prefilter-unresolvable-continues": _probes(
        {"Probe0": {"PreFilter": {"code": "UnschedulableAndUnresolvable"}}}, PROBES_0_1),
    "postfilter-continues-after-success": _probes(
        {"Probe0": {"Filter": {"code": "Unschedulable"}, "PostFilter": {"code": "Success"}}}, PROBES_0_1),
    "prescore-skip-is-error": _probes({"Probe0": {"PreScore": {"code": "Skip"}}}, nodes=TWO_NODES),
    "cycle-state-cleared-after-prefilter": _defaults(pod(cpu="1")),
    "ungated-pods-held": _defaults(pod()),
    "preenqueue-success-gates": _probes({}),
    "preenqueue-only-unresolvable-gates": _probes({"Probe0": {"PreEnqueue": {"code": "Unschedulable"}}}),
    "filters-after-prefilter-rejection": _probes({"Probe0": {"PreFilter": {"code": "Unschedulable"}}}),
    "filter-plugins-also-score": lambda: scenario([pod()], nodes=TWO_NODES,
                                                  cfg=config({"filter": ["Probe0"]})),
    "last-reserve-plugin-dropped": _probes({}, PROBES_0_1),
}


def _weights_2_1_witness(w0: int) -> Callable[[], Scenario]:
    """Probe0 (weight w0) prefers node-0 by 30; Probe1 (weight 1) prefers node-1 by 40 (w0 = 0, counted 1)
    or 80 (w0 = 2)."""
    def build() -> Scenario:
        cfg = config(multi_point=())
        cfg["profiles"][0]["plugins"]["multiPoint"]["enabled"] += [{"name": "Probe0", "weight": w0},
                                                                   {"name": "Probe1", "weight": 1}]
        script = {"Probe0": {"Score": {"byNode": {"node-0": {"score": 30}}}},
                  "Probe1": {"Score": {"byNode": {"node-1": {"score": 40 if w0 == 0 else 80}}}}}
        return scenario([pod(probes=script)], nodes=TWO_NODES, cfg=cfg)
    return build


def _timeline(*events: dict, gates=("example.com/a",)) -> Callable[[], Scenario]:
    """One node n1 and a gated pod p (test_event_rules.py's builders), with these timeline events."""
    from .invariants.test_event_rules import scenario as timeline_scenario
    from .test_timeline_reference import pod as timeline_pod
    return lambda: timeline_scenario(list(events), workload=[timeline_pod(
        "p", schedulingGates=[{"name": g} for g in gates])])


_UNGATE = {"op": "update", "kind": "Pod", "name": "p", "patch": {"spec": {"schedulingGates": None}}}
_WAIT_THEN_ALLOW = {"Permit": {"code": "Wait", "timeout": "2s",
                               "then": {"signal": "allow", "after": "500ms"}}}

NEW_WITNESSES_2: dict[str, Callable[[], Scenario]] = {
    "node-update-drops-node": _timeline(
        {"when": 1, "op": "update", "kind": "Node", "name": "n1",
         "patch": {"metadata": {"labels": {"a": "b"}}}},
        {"when": 2, **_UNGATE}),
    "one-gate-removed-ungates": _timeline(
        {"when": 1, "op": "update", "kind": "Pod", "name": "p",
         "patch": {"spec": {"schedulingGates": [{"name": "example.com/b"}]}}},
        gates=("example.com/a", "example.com/b")),
    "no-postfilter-after-prefilter-rejection": _probes({"Probe0": {"PreFilter": {"code": "Unschedulable"}}}),
    "last-feasible-node-dropped": _probes({"Probe0": _PREFER_NODE_1}, nodes=TWO_NODES),
    "infeasible-nodes-scored": _probes({"Probe0": _REJECT_NODE_1}, nodes=(*TWO_NODES, node("node-2"))),
    "last-node-not-scored": _probes({"Probe0": _PREFER_NODE_1}, nodes=TWO_NODES),
    "weights-squared": _weights_2_1_witness(2),
    "zero-weight-counted-two": _weights_2_1_witness(0),
    "permit-wait-rejects": _probes({"Probe0": _WAIT_THEN_ALLOW}),
    "permit-continues-after-rejection": _probes({"Probe0": {"Permit": {"code": "Unschedulable"}}},
                                                PROBES_0_1),
    "preflight-success-drops-prebind": _probes({}),
    "preflight-error-skips": _probes({"Probe0": {"PreBindPreFlight": {"code": "Error"}}}),
    "preflight-skip-fails": _probes({"Probe0": {"PreBindPreFlight": {"code": "Skip"}}}),
    "prebind-stops-at-success": _probes({}, PROBES_0_1),
}


def _two_profiles(scheduler_name: str) -> Callable[[], Scenario]:
    """Profiles default-scheduler and other-scheduler (Probe0 each); one pod naming `scheduler_name`."""
    def build() -> Scenario:
        cfg = config(multi_point=("Probe0",))
        cfg["profiles"].append({**cfg["profiles"][0], "schedulerName": "other-scheduler"})
        return scenario([_with_spec(pod(), schedulerName=scheduler_name)], cfg=cfg)
    return build


_BINDER_EXTENDER = config({"preFilter": ["Probe0"], "bind": {"enabled": [{"name": "Probe0"}],
                                                          "disabled": [{"name": "DefaultBinder"}]}},
                          extenders=(extender(verbs=("filter", "bind")),))
_TOLERATES_K = {"tolerations": [{"key": "k", "operator": "Exists", "effect": "NoSchedule"}]}
_TOLERATES_UNSCHEDULABLE = {"tolerations": [{"key": "node.kubernetes.io/unschedulable", "operator": "Exists",
                                             "effect": "NoSchedule"}]}

NEW_WITNESSES_3: dict[str, Callable[[], Scenario]] = {
    "reserve-skip-succeeds": _probes({"Probe0": {"Reserve": {"code": "Skip"}}}),
    "filter-unresolvable-is-error": _probes({"Probe0": {"Filter": {"byNode": {
        "node-1": {"code": "UnschedulableAndUnresolvable"}}}}}, nodes=TWO_NODES),
    "unknown-scheduler-name-scheduled": lambda: scenario(
        [_with_spec(pod(), schedulerName="no-such-scheduler")],
                                                         cfg=config(multi_point=("Probe0",))),
    "second-profile-dropped": _two_profiles("other-scheduler"),
    "permit-skipped": _probes({"Probe0": {"Permit": {"code": "Unschedulable"}}}),
    "bind-not-written": _probes({}),
    "failed-bind-still-written": _probes({"Probe0": {"Bind": {"code": "Error"}}}, binder=False),
    "plugins-bind-after-extender": lambda: scenario([pod(probes={"Probe0": {"Bind": {"code": "Success"}}})],
                                                    cfg=_BINDER_EXTENDER),
    "postfilter-message-dropped": WITNESSES["postfilter-message-with-period"],
    "tolerated-taints-reject": _defaults(_with_spec(pod(), **_TOLERATES_K), nodes=(
        _with_spec(node(), taints=[{"key": "k", "effect": "NoSchedule"}]),)),
    "matching-selector-rejects": _defaults(_with_spec(pod(), nodeSelector={"zone": "a"}),
                                           nodes=(_labelled(node(), **{"kubernetes.io/hostname": "node-0",
                                                                       "zone": "a"}),)),
    "unschedulable-toleration-ignored": _defaults(_with_spec(pod(), **_TOLERATES_UNSCHEDULABLE),
                                                  nodes=(_with_spec(node(), unschedulable=True),)),
    "any-host-ports-conflict": _defaults(ported("pod-0", port=8080), ported("pod-1", port=9090)),
    "anti-affinity-against-any-pod": _defaults(_anti_affine("pod-0", "web", None), nodes=_zoned("zone-a"),
                                               bound=(_labelled(pod("running-0", on="node-0"), app="db"),)),
    "spread-against-any-pod": _defaults(_spread("pod-0"), nodes=_zoned("zone-a", "zone-b"),
                                        bound=(_labelled(pod("running-0", on="node-0"), app="db"),
                                               _labelled(pod("running-1", on="node-1"), app="db"))),
}


def _nominated(second: dict) -> Callable[[], Scenario]:
    """pod-0 (priority 10) is filtered out everywhere once and nominated to node-0 by Probe0's PostFilter;
    pod-1 (priority 1, scripted `second`) is filtered next and sees it there (AddPod)."""
    first = {"Probe0": {"Filter": [{"code": "Unschedulable"}, {}], "PostFilter": {"nominate": "node-0"}}}
    return lambda: scenario([pod("pod-0", priority=10, probes=first),
                             pod("pod-1", priority=1, probes=second)],
                            cfg=config(multi_point=("Probe0",)))


_FULL = dict(nodes=(node("node-0", cpu="1"),), bound=(pod("victim", priority=9, cpu="1", on="node-0"),))

NEW_WITNESSES_4: dict[str, Callable[[], Scenario]] = {
    "prefilter-result-drops-last": _probes({"Probe0": {"PreFilter": {"result": ["node-0", "node-1"]},
                                                       **_PREFER_NODE_1}}, nodes=TWO_NODES),
    "extensions-of-skipped-plugins": _nominated({"Probe0": {"PreFilter": {"code": "Skip"}}}),
    "extensions-never-called": _nominated({}),
    "extension-errors-ignored": _nominated({"Probe0": {"AddPod": {"code": "Error"}}}),
    "extension-success-fails": _nominated({}),
    "nominated-pods-not-added": _nominated({}),
    "assumed-pods-not-counted": lambda: scenario([pod("pod-0", cpu="1", probes={"Probe0": _WAIT_THEN_ALLOW}),
                                    pod("pod-1", cpu="1")], nodes=(node(cpu="1"),),
                                   cfg=config(multi_point=("Probe0",), defaults=True)),
    "rejected-pods-stay-assumed": lambda: scenario(
        [pod("pod-0", cpu="1", probes={"Probe0": {"Permit": {"code": "UnschedulableAndUnresolvable"}}}),
         pod("pod-1", cpu="1")], nodes=(node(cpu="1"),), cfg=config(multi_point=("Probe0",), defaults=True)),
    "events-never-truncated": _probes({"Probe0": {"Filter": {"code": "Unschedulable",
                                                             "reasons": ["r" * 1100]}}}),
    "adjacent-priority-spared": _defaults(pod("pod-0", cpu="1", priority=10), **_FULL),
    "every-pod-never-preempts": _defaults(pod("pod-0", cpu="1", priority=10), **_FULL),
    "zero-score-is-error": _probes({"Probe0": {"Score": {"score": 0}}}, nodes=TWO_NODES),
}


def _extender_beside_probe0() -> Scenario:
    """Probe0 (weight 1) prefers node-1 by 40; ext-0 (weight 3) node-0 by 1: 30 at x 10, 300 at x 100."""
    script = {"ext-0": {"prioritize": {"scores": {"node-0": 1}}}}
    cfg = config({"preFilter": ["Probe0"], "score": ["Probe0"]},
                 extenders=(extender(verbs=("prioritize",), weight=3),))
    probes = {"Probe0": {"Score": {"byNode": {"node-1": {"score": 40}}}}}
    return scenario([pod(probes=probes, extenders=script)], nodes=TWO_NODES, cfg=cfg)


def _score_disabled_for_probe1() -> Scenario:
    cfg = config(multi_point=("Probe0", "Probe1"))
    cfg["profiles"][0]["plugins"]["score"] = {"disabled": [{"name": "Probe1"}]}
    return scenario([pod()], nodes=TWO_NODES, cfg=cfg)


NEW_WITNESSES_5: dict[str, Callable[[], Scenario]] = {
    "removepod-while-filtering": _nominated({}),
    "extender-filter-keeps-first-node": lambda: scenario(
        [pod(probes={"Probe0": _PREFER_NODE_1}, extenders={"ext-0": {"filter": {}}})], nodes=TWO_NODES,
        cfg=config({"preFilter": ["Probe0"], "score": ["Probe0"]}, extenders=(extender(),))),
    "extender-failures-fail-the-cycle": _extenders({"ext-0": {"filter": {"fail": {"node-0": "no"}}}},
                                                   extender()),
    "extender-scores-scaled-by-100": _extender_beside_probe0,
    "rejected-retried-without-event": _probes({"Probe0": {"Filter": {"code": "Unschedulable"}}}),
    "disabled-score-plugin-runs": _score_disabled_for_probe1,
    "nominating-postfilter-is-an-error": _probes({"Probe0": {"Filter": {"code": "Unschedulable"},
                                                             "PostFilter": {"nominate": "node-0"}}}),
    "one-victim-too-few": _defaults(pod("pod-0", cpu="2", priority=10), nodes=(node(cpu="2"),),
                                    bound=(pod("victim-0", cpu="1", priority=1, on="node-0"),
                                           pod("victim-1", cpu="1", priority=1, on="node-0"))),
}

PENDING_WITNESSES: dict[str, Callable[[], Scenario]] = {
    **OLDER_WITNESSES, **NEW_WITNESSES, **NEW_WITNESSES_2, **NEW_WITNESSES_3, **NEW_WITNESSES_4,
    **NEW_WITNESSES_5}

__all__ = ["PENDING_WITNESSES"]
