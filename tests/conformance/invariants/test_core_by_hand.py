"""Each filtering/scoring/reserve/permit/binding mutant is caught on a small hand-built scenario that the
unbroken reference passes (independent of the search: the rule is checked on a scenario built by hand)."""

from __future__ import annotations

import pytest

from conformance.invariants import REGISTRY

from ..mutants import MUTANTS
from ._kit import config, node, pod, run_on_reference, scenario, violation

TWO_NODES = (node("node-0"), node("node-1"))
PROBES_0_1 = ("Probe0", "Probe1")

CASES = {
    "forward-order-unreserve": ({"Probe1": {"Reserve": {"code": "Unschedulable"}}}, PROBES_0_1, (node(),)),
    "prefilter-skip-ignored": ({"Probe0": {"PreFilter": {"code": "Skip"}}}, ("Probe0",), (node(),)),
    "prefilter-result-ignored": ({"Probe0": {"PreFilter": {"result": ["node-0"]}}}, ("Probe0",), TWO_NODES),
    "postfilter-with-feasible-node": ({}, ("Probe0",), (node(),)),
    "infeasible-node-chosen": ({"Probe0": {"Filter": {"byNode": {"node-1": {"code": "Unschedulable"}}}}},
                               ("Probe0",), TWO_NODES),
    "no-score-range-check": ({"Probe0": {"Score": {"score": 150}}}, ("Probe0",), TWO_NODES),
    "prescore-skip-ignored": ({"Probe0": {"PreScore": {"code": "Skip"}}}, ("Probe0",), TWO_NODES),
    "permit-timeout-ignored": ({"Probe0": {"Permit": {"code": "Wait", "timeout": "1s"}}}, ("Probe0",), (node(),)),
    "reject-after-wait-leaves-waiting-pod": (
        {"Probe0": {"Permit": {"code": "Wait", "timeout": "2s", "then": {"signal": "allow", "after": "500ms"}}},
         "Probe1": {"Permit": {"code": "Unschedulable"}}}, PROBES_0_1, (node(),)),
}


def _without_default_binder(cfg: dict) -> dict:
    """The probes are then the only Bind plugins, so their Bind actions decide."""
    multi = cfg["profiles"][0]["plugins"]["multiPoint"]
    multi["enabled"] = [e for e in multi["enabled"] if e["name"] != "DefaultBinder"]
    return cfg


def _caught(name: str, sc) -> None:
    """The unbroken reference passes the mutant's invariant on `sc`; the mutant violates it."""
    mutant = next(m for m in MUTANTS if m.name == name)
    inv = REGISTRY[mutant.invariant]
    inv.check(run_on_reference(sc))
    violation(inv, run_on_reference(sc, hook=mutant.hook))


@pytest.mark.parametrize("name", sorted(CASES))
def test_mutant_is_caught_by_hand(name: str) -> None:
    script, probes, nodes = CASES[name]
    _caught(name, scenario([pod(probes=script)], nodes=nodes, cfg=config(multi_point=probes)))


def test_weights_ignored_by_hand() -> None:
    """Probe0 (weight 1) prefers node-0 by 30; Probe1 (weight 5) prefers node-1 by 10: node-1 wins only
    when weights apply."""
    cfg = config(multi_point=())
    cfg["profiles"][0]["plugins"]["multiPoint"]["enabled"] += [{"name": "Probe0", "weight": 1},
                                                               {"name": "Probe1", "weight": 5}]
    script = {"Probe0": {"Score": {"byNode": {"node-0": {"score": 30}}}},
              "Probe1": {"Score": {"byNode": {"node-1": {"score": 10}}}}}
    _caught("weights-ignored", scenario([pod(probes=script)], nodes=TWO_NODES, cfg=cfg))


@pytest.mark.parametrize("name, script", [
    ("bind-continues-after-success", {"Probe0": {"Bind": {"code": "Success"}}, "Probe1": {"Bind": {"code": "Success"}}}),
    ("postbind-after-failed-bind", {"Probe0": {"Bind": {"code": "Error"}}}),
])
def test_binding_mutants_by_hand(name: str, script: dict) -> None:
    _caught(name, scenario([pod(probes=script)], cfg=_without_default_binder(config(multi_point=PROBES_0_1))))
