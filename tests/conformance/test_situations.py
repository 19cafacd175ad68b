"""Situations draw valid scenarios around their invariant's rule, and the search draws from them."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings

from conformance.backends.reference import ReferenceBackend
from conformance.extender.server import ExtenderServer
from conformance.invariants import REGISTRY, Run
from conformance.search import default_strategy
from reference.config import load_config
from reference.probe.script import parse_script
from reference.scenario import PROBE_SCRIPT_ANNOTATION, Scenario
from tests.generators.test_validity import assert_valid

FEW = settings(max_examples=15, deadline=None, derandomize=True, database=None)


@pytest.fixture(scope="module")
def backend():
    with ExtenderServer() as server:
        yield ReferenceBackend(extender_server=server)


SITUATED = sorted(inv.id for inv in REGISTRY.values() if inv.situation is not None)


def test_the_invariants_that_declare_a_situation():
    # The ci sample's reach rests on these: an invariant losing its situation must be a decision.
    # + every-node-evaluated (issue 32), the two event rules (issue 29), two fault rules (issue 31),
    # nominated-pods-added, feasible-nodes-scored and the two preemption-room rules (issue 32),
    # observed-reserve-released (issue 31), cycle-state-kept-in-attempt, fit-error-counts-nodes and
    # unreserved-pods-forgotten (issue 32), lower-priority-nominations-ignored, filter-error-message and
    # preenqueue-gating-plugin-first (issue 32, h32c); nomination-after-failure, scheduled-event-per-binding,
    # extender-filters-chained, preemption-skips-unresolvable-nodes, status-patched-on-change and
    # probe-rejected-pod-retried-after-node-event (issue 32, h32code: rules read from upstream's code);
    # error-backoff-bounded, preenqueue-on-backoff-entry, preemption-evicts-named-victims, deleted-pod-left-alone,
    # recreated-pod-scheduled, preemptor-reactivated, extender-interest, deleted-victims-were-bound,
    # unregistered-events-ignored, extender-requests-well-formed and preemption-lowest-victims (issue 32, h32d)
    assert len(SITUATED) == 75


@pytest.mark.parametrize("invariant_id", SITUATED)
def test_situation_scenarios_are_valid_and_the_reference_passes_them(invariant_id, backend):
    @FEW
    @given(REGISTRY[invariant_id].situation.strategy())
    def check(scenario: Scenario) -> None:
        scenario.check()
        if scenario.config is not None:
            load_config(scenario.config)
        for manifest in (*scenario.nodes, *scenario.pods, *scenario.objects, *scenario.workload):
            assert_valid(manifest)
        for pod in scenario.workload:
            script = (pod["metadata"].get("annotations") or {}).get(PROBE_SCRIPT_ANNOTATION)
            if script:
                parse_script(script)
        assert Scenario.from_dict(json.loads(scenario.to_json())) == scenario
        REGISTRY[invariant_id].check(Run(scenario, backend.run(scenario), frozenset(backend.capabilities)))
    check()


def test_search_draws_from_the_situation_and_the_general_scenarios():
    inv = REGISTRY["permit-reject-wins"]
    seen = []

    @settings(max_examples=40, deadline=None, derandomize=True, database=None)
    @given(default_strategy(inv))
    def draw(scenario: Scenario) -> None:
        profiles = (scenario.config or {}).get("profiles") or [{}]
        seen.append(json.dumps(profiles[0].get("plugins", {}).get("permit"), sort_keys=True))
    draw()
    situation = json.dumps({"enabled": [{"name": "Probe0"}, {"name": "Probe1"}]}, sort_keys=True)
    assert situation in seen
    assert any(s != situation for s in seen)


def test_a_weighted_situation_takes_most_draws_and_leaves_some_to_the_general_scenarios():
    """Constrained situations run the default profile (config None); the general scenarios write one."""
    inv = REGISTRY["taints-tolerated"]
    own = []

    @settings(max_examples=60, deadline=None, derandomize=True, database=None)
    @given(default_strategy(inv))
    def draw(scenario: Scenario) -> None:
        own.append(scenario.config is None)
    draw()
    assert len(own) // 2 <= sum(own) < len(own)
