"""differential.compare stops where upstream's asynchronous preemption makes two correct runs differ:
another pod's attempt may start before the victims are gone (SchedulerAsyncPreemption; found by
`--backend upstream --compare reference`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.differential import compare, first_preemption, horizon
from conformance.invariants import Violation

from reference.scenario import Scenario

from .invariants._kit import config, edited, node, pod, run_on_reference, scenario

PARTIAL_DRY_RUN = Path(__file__).parent / "data" / "partial_dry_run.json"

# pod-0 fits only by evicting low-0; pod-1 fits only on node-1, where nothing is evicted.
PREEMPTION = scenario([pod("pod-0", priority=100, cpu="2", probes={}), pod("pod-1", cpu="100m", probes={})],
                      nodes=[node("node-0", cpu="2"), node("node-1", cpu="1")],
                      bound=[pod("low-0", cpu="2", on="node-0")], cfg=config(defaults=True))


def rejected_later(run):
    """pod-1's Filter calls rejected: what it sees while a victim is still in the scheduler's cache."""
    trace = tuple(dict(r, code="Unschedulable") if r["pod"] == "default/pod-1" and r["point"] == "Filter" else r
                  for r in run.outcome.trace)
    return edited(run, trace=trace)


def test_the_reference_preempts_first():
    run = run_on_reference(PREEMPTION)
    assert run.outcome.deleted == ("default/low-0",) and run.outcome.pods["default/pod-0"].node == "node-0"
    assert [r["point"] for r in run.probe_records("default/pod-1", 1) if r["point"] == "Filter"]
    assert first_preemption(run) == horizon(run) == min(r["seq"] for r in run.probe_records("default/pod-0", 1))


def test_attempts_after_a_preemption_may_differ():
    run = run_on_reference(PREEMPTION)
    compare(run, rejected_later(run))


def test_without_a_deletion_they_must_not():
    run = edited(run_on_reference(PREEMPTION), deleted=())
    assert first_preemption(run) == float("inf")
    with pytest.raises(Violation, match="plugin calls of attempt 1"):
        compare(run, rejected_later(run))



def _dry_run_on_the_other_node(run):
    """What upstream reports when its random offset starts the dry run at node-1: the reference starts at 0."""
    swap = {"node-0": "node-1", "node-1": "node-0"}
    trace, dry = [], False
    for r in run.outcome.trace:
        dry = dry or (r["pod"] == "default/pod-0" and r["point"] == "RemovePod")
        if dry and r["pod"] == "default/pod-0" and r["point"] in ("RemovePod", "AddPod", "Filter"):
            r = dict(r, node=swap[r["node"]])
        trace.append(r)
    return edited(run, trace=tuple(trace))


def test_a_partial_dry_run_visits_random_nodes():
    """DefaultPreemption examines one candidate (minCandidateNodesAbsolute: 1) from a random offset, so the
    dry run's nodes differ between two correct runs (found by a dev-profile `--compare reference` run)."""
    sc = Scenario.from_dict(json.loads(PARTIAL_DRY_RUN.read_text()))
    run = run_on_reference(sc)
    assert {r["node"] for r in run.outcome.trace if r["point"] == "RemovePod"} == {"node-0"}
    compare(run, _dry_run_on_the_other_node(run))


def test_a_dry_run_over_every_node_must_agree():
    data = json.loads(PARTIAL_DRY_RUN.read_text())
    data["config"]["profiles"][0].pop("pluginConfig")  # minCandidateNodesAbsolute 100: every node is examined
    run = run_on_reference(Scenario.from_dict(data))
    assert {r["node"] for r in run.outcome.trace if r["point"] == "RemovePod"} == {"node-0", "node-1"}
    only_node_0 = tuple(r for r in run.outcome.trace
                        if not (r["point"] in ("RemovePod", "AddPod") and r["node"] == "node-1"))
    with pytest.raises(Violation, match="plugin calls of attempt 1"):
        compare(run, edited(run, trace=only_node_0))
