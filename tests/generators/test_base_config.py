"""Scenarios on a user's own config: every profile, plugin, order, weight and arg of theirs stays;
only probes are added between their plugins, and the simplest scenario has none."""

from __future__ import annotations

from hypothesis import HealthCheck, find, given, settings

from conformance.core import scenario_config
from generators import BaseConfig, scenarios
from reference.probe import PROBE_NAMES

USER = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
        "percentageOfNodesToScore": 50,
        "profiles": [
            {"schedulerName": "default-scheduler",
             "plugins": {"score": {"enabled": [{"name": "ImageLocality", "weight": 7}]},
                         "filter": {"disabled": [{"name": "NodePorts"}]}},
             "pluginConfig": [{"name": "NodeResourcesFit",
                               "args": {"scoringStrategy": {"type": "MostAllocated"}}}]},
            {"schedulerName": "second-scheduler"}]}
BASE = BaseConfig.from_plugin_lists(USER, scenario_config.plugin_lists(USER))
POINTS = ("preEnqueue", "preFilter", "filter", "postFilter", "preScore", "score", "reserve", "permit",
          "preBind", "bind", "postBind")


def without_probes(config: dict, profile: str) -> dict[str, list[str]]:
    expanded = scenario_config.load(config)[1][profile]
    return {p: [n for n in expanded.names(p) if n not in PROBE_NAMES] for p in POINTS}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios(probes=3, base=BASE))
def test_the_users_plugins_weights_and_args_stay(scenario):
    config = scenario.config
    assert config["percentageOfNodesToScore"] == 50
    for profile in ("default-scheduler", "second-scheduler"):
        assert without_probes(config, profile) == without_probes(USER, profile)
    first = scenario_config.load(config)[1]["default-scheduler"]
    assert first.score_weights["ImageLocality"] == 7
    assert first.plugin_args["NodeResourcesFit"].scoring_strategy.type == "MostAllocated"
    assert {p.get("spec", {}).get("schedulerName", "default-scheduler") for p in scenario.workload} <= \
        {"default-scheduler", "second-scheduler"}


def test_the_simplest_scenario_is_the_users_config_without_probes():
    simplest = find(scenarios(probes=3, base=BASE), lambda s: True)
    for profile in simplest.config["profiles"]:
        names = {e["name"] for s in profile["plugins"].values() for e in s.get("enabled", ())}
        assert not names & set(PROBE_NAMES)


def test_probes_land_between_the_users_plugins():
    def probe_between(s) -> bool:
        filters = scenario_config.load(s.config)[1]["default-scheduler"].names("filter")
        return any(n in PROBE_NAMES and 0 < i < len(filters) - 1 for i, n in enumerate(filters))
    found = find(scenarios(probes=3, base=BASE), probe_between,
                 settings=settings(max_examples=500, database=None, deadline=None))
    assert probe_between(found)


def test_a_situation_adopted_keeps_the_users_plugins_and_adds_its_probes_after_them():
    from conformance.invariants import REGISTRY
    from reference.scenario import Scenario
    situation = REGISTRY["permit-reject-wins"].situation
    drawn = find(situation.strategy(), lambda s: True)
    adopted = BASE.adopt(drawn)
    probe_points = {point: [e["name"] for e in sets.get("enabled") or () if e["name"] in PROBE_NAMES]
                    for point, sets in drawn.config["profiles"][0]["plugins"].items() if point != "multiPoint"}
    first = scenario_config.load(adopted.config)[1]["default-scheduler"]
    for point, probes in probe_points.items():
        names = first.names(point)
        users = [n for n in names if n not in PROBE_NAMES]
        assert users == without_probes(USER, "default-scheduler")[point], point
        # The situation's probes follow the user's plugins (at bind they precede them).
        assert names == (probes + users if point == "bind" else users + probes), point
    assert without_probes(adopted.config, "second-scheduler") == without_probes(USER, "second-scheduler")
    assert first.score_weights["ImageLocality"] == 7
    # A default-profile situation runs on the user's config as it is; pods go to the user's first profile
    # when theirs is not a profile of the user's.
    plain = Scenario.from_dict({"workload": [{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
                                              "spec": {"containers": [{"name": "c"}]}}]})
    assert BASE.adopt(plain).config == USER
    only_second = BaseConfig.from_plugin_lists({**USER, "profiles": USER["profiles"][1:]},
                                               {"second-scheduler": scenario_config.plugin_lists(USER)["second-scheduler"]})
    assert only_second.adopt(plain).workload[0]["spec"]["schedulerName"] == "second-scheduler"
