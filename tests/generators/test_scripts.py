"""Probe and extender scripts parse as their consumers parse them, keep Permit timing away from
races, and name only probes, points and nodes that exist in the scenario."""

from __future__ import annotations

import json

from hypothesis import given

from conformance.extender.script import parse_script as parse_extender_script
from generators import extender_scripts, probe_scripts, scenarios
from generators._probes import CONFIG_POINT
from reference.config import expand_config, load_config
from reference.duration import parse_duration
from reference.plugins import in_tree_registry
from reference.probe import parse_script, probe_registry
from reference.scenario import EXTENDER_SCRIPT_ANNOTATION, PROBE_SCRIPT_ANNOTATION

from .support import FAST

NODES = ("node-0", "node-1", "node-2")
REGISTRY = in_tree_registry().merged(probe_registry())


def actions(script):
    """Every action of a probe script, per-attempt lists and byNode entries included, with its point."""
    for points in script.values():
        for point, value in points.items():
            for action in value if isinstance(value, list) else [value]:
                yield point, action
                for nested in action.get("byNode", {}).values():
                    yield point, nested


def check_permit_timing(script, max_timeout):
    for point, action in actions(script):
        timeout = parse_duration(action.get("timeout", "0s"))
        assert timeout <= max_timeout
        then = action.get("then")
        if then is not None:
            assert point == "Permit" and action.get("code") == "Wait"
            assert 0 < parse_duration(then["after"]) <= timeout / 2, action


@FAST
@given(probe_scripts(probes=3, nodes=NODES, max_permit_timeout=2.0))
def test_probe_scripts_parse_and_keep_permit_signals_apart_from_timeouts(script):
    parse_script(json.dumps(script))
    check_permit_timing(script, 2.0)
    for _, action in actions(script):
        named = set(action.get("byNode", {})) | set(action.get("result", [])) | set(action.get("scores", {}))
        assert named <= set(NODES)


@FAST
@given(probe_scripts(probes={"Probe2": ["Reserve"], "Probe5": ["permit"]}, per_attempt=False))
def test_probe_scripts_name_only_the_given_probes_and_points(script):
    assert {(probe, point) for probe, points in script.items() for point in points} <= {
        ("Probe2", "Reserve"), ("Probe5", "Permit")}
    assert not any(isinstance(v, list) for points in script.values() for v in points.values())


@FAST
@given(extender_scripts(extenders={"ext-0": ["filter", "preempt"], "ext-1": ["prioritize", "bind"]}, nodes=NODES,
                        victims={"node-0": ["default/running-0", "default/running-1"]}))
def test_extender_scripts_parse_as_the_extender_server_parses_them(script):
    parsed = parse_extender_script(json.dumps(script))
    assert set(parsed) <= {"ext-0", "ext-1"}
    for verbs in parsed.values():
        for action in verbs.values():
            assert set(action.fail) | set(action.unresolvable) | set(action.scores) <= set(NODES)
            for node, kept in (action.victims or {}).items():
                assert node == "node-0" and set(kept) <= {"default/running-0", "default/running-1"}


@FAST
@given(scenarios(profiles=2, probes=4, extenders=2, max_permit_timeout=1.0))
def test_scenario_scripts_name_only_probes_at_points_where_they_run(scenario):
    built = expand_config(load_config(scenario.config, registry=REGISTRY), REGISTRY)
    nodes = set(scenario.node_names())
    for pod in scenario.workload:
        annotations = pod["metadata"].get("annotations", {})
        profile = built[pod["spec"].get("schedulerName", "default-scheduler")]
        script = json.loads(annotations.get(PROBE_SCRIPT_ANNOTATION, "{}"))
        for probe, points in script.items():
            for point, value in points.items():
                assert probe in profile.names(CONFIG_POINT[point]), (probe, point)
                if point == "NormalizeScore":
                    assert profile.plugin_args[probe].score_extensions
                if isinstance(value, list):  # per-attempt actions need a probe counting attempts
                    assert any(p.startswith("Probe") for p in profile.names("preFilter"))
        check_permit_timing(script, 1.0)
        extender = parse_extender_script(annotations.get(EXTENDER_SCRIPT_ANNOTATION))
        configured = {e["urlPrefix"].rsplit("/", 1)[1]: {k[:-4] for k in e if k.endswith("Verb")}
                      for e in scenario.config.get("extenders", [])}
        for name, verbs in extender.items():
            assert set(verbs) <= configured[name]
            for action in verbs.values():
                assert set(action.fail) | set(action.unresolvable) | set(action.scores) <= nodes
