"""Outcome-only hard constraints: each catches a binding its plugin rejects, and accepts every order of
bindings upstream may produce (parallel binding goroutines, Permit holds)."""

from __future__ import annotations

import copy
import dataclasses

import pytest

from conformance.invariants import REGISTRY, Run
from conformance.reporting.report import coverage

from ._kit import edited, node, pod, ported, run_on_reference, scenario, violation, with_pod

TAINTS = REGISTRY["taints-tolerated"]
SELECTION = REGISTRY["node-selection-respected"]
UNSCHEDULABLE = REGISTRY["unschedulable-nodes-avoided"]
PORTS = REGISTRY["host-ports-free"]
CAPACITY = REGISTRY["capacity-respected"]
AFFINITY = REGISTRY["pod-affinity-respected"]
SPREAD = REGISTRY["topology-spread-respected"]
OUTCOME_ONLY = (TAINTS, SELECTION, UNSCHEDULABLE, PORTS, CAPACITY, AFFINITY, SPREAD)


def _with(manifest: dict, **spec) -> dict:
    out = copy.deepcopy(manifest)
    out["spec"] = {**out.get("spec", {}), **spec}
    return out


def _labelled(manifest: dict, **labels) -> dict:
    out = copy.deepcopy(manifest)
    out["metadata"].setdefault("labels", {}).update(labels)
    return out


def _bound(run: Run, *pairs: tuple[str, str]) -> Run:
    """The run as a backend would report it had it bound these pods, in this order."""
    pods = dict(run.outcome.pods)
    for key, where in pairs:
        pods[key] = type(pods[key])("bound", where, 1)
    return edited(run, bindings=tuple({"pod": k, "node": n, "t": 0.0} for k, n in pairs), pods=pods)


TAINTED = _with(node("node-1"), taints=[{"key": "example.com/dedicated", "effect": "NoSchedule"}])


def test_a_pod_bound_to_a_node_it_does_not_tolerate_is_caught() -> None:
    run = run_on_reference(scenario([pod("pod-0")], nodes=[node("node-0"), TAINTED]))
    assert run.outcome.pods["default/pod-0"].node == "node-0"
    TAINTS.check(run)
    assert run.exercised
    v = violation(TAINTS, _bound(run, ("default/pod-0", "node-1")))
    assert v.pod == "default/pod-0" and "example.com/dedicated" in str(v)


def test_a_tolerating_pod_may_go_to_the_tainted_node() -> None:
    tolerating = _with(pod("pod-0"), tolerations=[{"key": "example.com/dedicated", "operator": "Exists"}])
    run = run_on_reference(scenario([tolerating], nodes=[TAINTED]))
    TAINTS.check(_bound(run, ("default/pod-0", "node-1")))


def test_node_selector_and_unschedulable_nodes() -> None:
    selective = _with(pod("pod-0"), nodeSelector={"kubernetes.io/hostname": "node-0"})
    closed = _with(node("node-1"), unschedulable=True)
    run = run_on_reference(scenario([selective], nodes=[node("node-0"), closed]))
    SELECTION.check(run)
    UNSCHEDULABLE.check(run)
    assert "node-1" in str(violation(SELECTION, _bound(run, ("default/pod-0", "node-1"))))
    assert violation(UNSCHEDULABLE, _bound(run, ("default/pod-0", "node-1"))).plugin == "NodeUnschedulable"


@pytest.mark.parametrize("ip", ["", "0.0.0.0", "127.0.0.1"])
def test_a_sidecar_port_conflicts_with_a_container_port_whichever_bound_first(ip: str) -> None:
    sc = scenario([ported("pod-0", ip=ip), ported("pod-1", sidecar=True)], nodes=[node("node-0"), node("node-1")])
    run = run_on_reference(sc)
    PORTS.check(run)
    for order in (("default/pod-0", "default/pod-1"), ("default/pod-1", "default/pod-0")):
        v = violation(PORTS, _bound(run, *((k, "node-0") for k in order)))
        assert v.pod == order[-1]


def test_other_host_ips_do_not_conflict() -> None:
    sc = scenario([ported("pod-0", ip="127.0.0.1"), ported("pod-1", ip="10.0.0.1")])
    run = run_on_reference(sc)
    PORTS.check(_bound(run, ("default/pod-0", "node-0"), ("default/pod-1", "node-0")))


def test_init_containers_sidecars_and_overhead_count_towards_capacity() -> None:
    # Requests: max(init 1500m, sidecar 500m + container 500m) + overhead 100m = 1600m per pod.
    heavy = pod("pod-0", cpu="500m")
    heavy["spec"]["initContainers"] = [
        {"name": "side", "image": "registry.k8s.io/pause:3.10", "restartPolicy": "Always",
         "resources": {"requests": {"cpu": "500m"}}},
        {"name": "init", "image": "registry.k8s.io/pause:3.10", "resources": {"requests": {"cpu": "1500m"}}}]
    heavy["spec"].update(runtimeClassName="runc-overhead", overhead={"cpu": "100m"})
    other = copy.deepcopy(heavy)
    other["metadata"]["name"] = "pod-1"
    run = run_on_reference(scenario([heavy, other], nodes=[node("node-0", cpu="3"), node("node-1", cpu="3")]))
    CAPACITY.check(run)
    assert run.exercised
    v = violation(CAPACITY, _bound(run, ("default/pod-0", "node-0"), ("default/pod-1", "node-0")))
    assert v.pod == "default/pod-1" and "cpu" in str(v)


ZONE = "topology.kubernetes.io/zone"
ZONED = [_labelled(node(f"node-{i}"), **{ZONE: z}) for i, z in enumerate(("zone-a", "zone-a", "zone-b"))]


def _anti(name: str, app: str, key: str = ZONE) -> dict:
    return _labelled(_with(pod(name), affinity={"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": app}}, "topologyKey": key}]}}), app=app)


def test_anti_affinity_is_judged_in_both_directions() -> None:
    """Bound in either order, two pods of one zone with anti-affinity break it: the later one saw the other."""
    sc = scenario([_anti("pod-0", "web"), _labelled(pod("pod-1"), app="web")], nodes=ZONED)
    run = run_on_reference(sc)
    AFFINITY.check(run)
    for order in (("default/pod-0", "node-0"), ("default/pod-1", "node-1")), \
                 (("default/pod-1", "node-1"), ("default/pod-0", "node-0")):
        violation(AFFINITY, _bound(run, *order))
    AFFINITY.check(_bound(run, ("default/pod-0", "node-0"), ("default/pod-1", "node-2")))


def _affine(name: str, app: str, to: str) -> dict:
    return _labelled(_with(pod(name), affinity={"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": to}}, "topologyKey": ZONE}]}}), app=app)


def test_a_self_affine_group_may_start_anywhere_but_not_split() -> None:
    first, second = _affine("pod-0", "web", "web"), _affine("pod-1", "web", "web")
    run = run_on_reference(scenario([first, second], nodes=ZONED))
    AFFINITY.check(run)
    # Upstream binds in parallel: each may have been scheduled first, so a split is not certain for either.
    AFFINITY.check(_bound(run, ("default/pod-0", "node-0"), ("default/pod-1", "node-2")))
    bound_web = _labelled(pod("running-0", on="node-0"), app="web")
    run = run_on_reference(scenario([first], nodes=ZONED, bound=[bound_web]))
    violation(AFFINITY, _bound(run, ("default/pod-0", "node-2")))


def _spread(name: str, skew: int = 1) -> dict:
    return _labelled(_with(pod(name), topologySpreadConstraints=[
        {"maxSkew": skew, "topologyKey": ZONE, "whenUnsatisfiable": "DoNotSchedule",
         "labelSelector": {"matchLabels": {"app": "web"}}}]), app="web")


def test_spreading_counts_the_pods_the_last_one_certainly_saw() -> None:
    sc = scenario([_spread("pod-0"), _spread("pod-1"), _spread("pod-2")], nodes=ZONED)
    run = run_on_reference(sc)
    SPREAD.check(run)
    assert run.exercised
    # Two in zone-a and one in zone-b is within maxSkew 1 in any order.
    SPREAD.check(_bound(run, ("default/pod-0", "node-0"), ("default/pod-1", "node-2"), ("default/pod-2", "node-1")))
    # Three in zone-a: whichever came last saw the other two, skew 3.
    v = violation(SPREAD, _bound(run, *((f"default/pod-{i}", f"node-{i % 2}") for i in range(3))))
    assert "maxSkew" in str(v)


def test_a_scheduler_that_ignores_the_config_is_judged_by_the_stock_profile() -> None:
    no_taints = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
                 "profiles": [{"schedulerName": "default-scheduler",
                               "plugins": {"multiPoint": {"disabled": [{"name": "TaintToleration"}]}}}]}
    run = _bound(run_on_reference(scenario([pod("pod-0")], nodes=[TAINTED], cfg=no_taints)),
                 ("default/pod-0", "node-1"))
    TAINTS.check(run)
    violation(TAINTS, edited(run, capabilities={"preemption"}))


def test_pods_with_volumes_and_unknown_configs_are_not_judged() -> None:
    with_volume = _with(pod("pod-0"), volumes=[{"name": "v", "emptyDir": {}}])
    run = run_on_reference(scenario([with_volume], nodes=[TAINTED]))
    run = _bound(run, ("default/pod-0", "node-1"))
    TAINTS.check(run)
    assert not run.exercised


def test_the_report_names_what_a_backend_without_probes_skips() -> None:
    lines = coverage([REGISTRY["bind-first-non-skip"], *OUTCOME_ONLY], "cluster", {"preemption"})
    assert lines[0] == "checked on cluster (7):" and lines[1].startswith("  taints-tolerated, ")
    assert all(len(line) <= 110 for line in lines)  # wrapped, not one line of every ID
    assert lines[-2].startswith("skipped, cluster lacks probes (probes: ") and lines[-2].endswith("(1):")
    assert lines[-1] == "  bind-first-non-skip"


def test_a_config_with_a_users_plugins_is_judged_by_its_stock_plugins() -> None:
    """The user's Filter plugin only rejects more: TaintToleration still decides; liveness cannot judge."""
    users = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
             "profiles": [{"schedulerName": "default-scheduler",
                           "plugins": {"filter": {"enabled": [{"name": "MyFilter"}]}}}]}
    run = _bound(run_on_reference(scenario([pod("pod-0")], nodes=[TAINTED])), ("default/pod-0", "node-1"))
    theirs = Run(dataclasses.replace(run.scenario, config=users), run.outcome, run.capabilities)
    v = violation(TAINTS, theirs)
    assert v.plugin == "TaintToleration"
    stuck = with_pod(Run(theirs.scenario, run_on_reference(scenario([pod("pod-0", cpu="8")])).outcome,
                         run.capabilities), "default/pod-0")
    REGISTRY["schedulable-pods-bound"].check(stuck)
    assert not stuck.exercised
