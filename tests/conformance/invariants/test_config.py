"""plugin-order-matches-expansion: the reported ListPlugins against the reference expansion."""

from __future__ import annotations

import copy
import dataclasses

from conformance.backends.reference import ReferenceBackend
from conformance.invariants import REGISTRY
from conformance.search import find_violation

from ._kit import config, edited, pod, run_on_reference, scenario, violation

INV = REGISTRY["plugin-order-matches-expansion"]


def test_reference_reports_the_expansion() -> None:
    for cfg in (None, config({"filter": ["Probe1", "Probe0"]}), config({"score": ["Probe0"]}, defaults=True)):
        INV.check(run_on_reference(scenario([pod()], cfg=cfg)))


def test_a_reordered_point_names_profile_point_and_plugin() -> None:
    run = run_on_reference(scenario([pod()]))
    plugins = copy.deepcopy(dict(run.outcome.plugins))
    enabled = plugins["default-scheduler"]["filter"]["enabled"]
    enabled[1], enabled[2] = enabled[2], enabled[1]
    v = violation(INV, edited(run, plugins=plugins))
    assert "profile 'default-scheduler', point filter" in str(v) and v.plugin == enabled[2]["name"]


def test_a_weight_a_missing_point_or_profile_is_caught() -> None:
    run = run_on_reference(scenario([pod()]))
    plugins = copy.deepcopy(dict(run.outcome.plugins))
    plugins["default-scheduler"]["score"]["enabled"][0]["weight"] += 1
    violation(INV, edited(run, plugins=plugins))
    plugins = copy.deepcopy(dict(run.outcome.plugins))
    del plugins["default-scheduler"]["permit"]
    violation(INV, edited(run, plugins=plugins))
    assert "missing from the built framework" in str(violation(INV, edited(run, plugins={})))


class ProbesFirstBackend(ReferenceBackend):
    """Reports the probes before the in-tree plugins at every point, as a framework that put
    out-of-tree plugins ahead of the configured order would run them."""

    def run(self, sc):
        outcome = super().run(sc)
        plugins = {name: {point: _probes_first(plugin_set) for point, plugin_set in points.items()}
                   for name, points in outcome.plugins.items()}
        return dataclasses.replace(outcome, plugins=plugins)


def _probes_first(plugin_set: dict) -> dict:
    enabled = plugin_set.get("enabled")
    return {"enabled": sorted(enabled, key=lambda e: not e["name"].startswith("Probe"))} if enabled else plugin_set


def test_a_backend_with_a_broken_expansion_is_found_by_search() -> None:
    """Hooks cannot break this rule on the reference backend, which reports the expansion itself."""
    from generators import scenarios
    failure = find_violation(ProbesFirstBackend(), INV, profile="ci",
                             strategy=scenarios(max_nodes=1, max_pods=1, probes=2))
    assert failure is not None and failure.violation.invariant == INV.id
