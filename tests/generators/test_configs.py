"""Generated scheduler configs: valid ones load in the reference and mean what the generator
planned; invalid ones are rejected with exactly their paired error."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generators import plugin_args, scheduler_configs
from generators._configs import ConfigOptions, draw_config_plan
from generators._invalid import DEFECTS
from generators._plugin_args import ARGS
from generators._profiles import KEEP, PROBE_POINTS, default_layout
from reference.config import expand_config, load_config
from reference.errors import ConfigError, FrameworkError
from reference.plugins import in_tree_registry
from reference.probe import PROBE_NAMES, probe_registry
from reference.scheduler.build import build_scheduler

from .support import FAST

REGISTRY = in_tree_registry().merged(probe_registry())


def expanded(config):
    return expand_config(load_config(config, registry=REGISTRY), REGISTRY)


def plans(**options):
    checked = ConfigOptions.checked("test", **{"profiles": 3, "probes": 4, "points": PROBE_POINTS,
                                               "default_plugins": None, "extenders": 3, **options})
    return st.composite(lambda draw: draw_config_plan(draw, checked))()


@FAST
@given(scheduler_configs(profiles=3, probes=4, extenders=3))
def test_valid_configs_build_a_scheduler(config):
    build_scheduler(config, out_of_tree=probe_registry())


@FAST
@given(plans())
def test_probes_run_where_the_plan_says(plan):
    profiles = expanded(plan.config)
    assert list(profiles) == [p.scheduler_name for p in plan.profiles]
    for profile in plan.profiles:
        built = profiles[profile.scheduler_name]
        for probe in PROBE_NAMES:
            assert {p for p in PROBE_POINTS if probe in built.names(p)} == set(profile.probes.get(probe, ())), probe
        normalizing = {p for p in profile.probes if built.plugin_args[p].score_extensions}
        assert normalizing == set(profile.score_extensions)
        in_tree = {n for p in PROBE_POINTS for n in built.names(p)} - set(KEEP) - set(PROBE_NAMES)
        assert bool(in_tree) == profile.in_tree


@FAST
@given(plans(default_plugins=True))
def test_default_plugins_true_keeps_every_default_plugin(plan):
    layout = default_layout()
    for built in expanded(plan.config).values():
        for point in PROBE_POINTS:
            assert set(layout.points[point]) <= set(built.names(point)), point
        assert built.names("queueSort") == ["PrioritySort"]


@FAST
@given(plans(default_plugins=False))
def test_default_plugins_false_leaves_only_probes_and_the_two_required(plan):
    for built in expanded(plan.config).values():
        for point in ("queueSort", *PROBE_POINTS):
            assert set(built.names(point)) - set(PROBE_NAMES) <= set(KEEP), point
        assert "DefaultBinder" in built.names("bind")
        assert not built.score_weights.keys() - set(PROBE_NAMES)


@FAST
@given(plans(points=("reserve", "permit")))
def test_points_focus_places_probes_only_there(plan):
    for built in expanded(plan.config).values():
        placed = {p for p in PROBE_POINTS for n in built.names(p) if n in PROBE_NAMES}
        assert placed <= {"reserve", "permit"}


@FAST
@given(scheduler_configs(invalid=True, profiles=3, probes=3, extenders=2))
def test_invalid_configs_are_rejected_with_their_error(invalid):
    with pytest.raises((ConfigError, FrameworkError)) as raised:
        build_scheduler(invalid.config, out_of_tree=probe_registry())
    assert invalid.error in str(raised.value)


@pytest.mark.parametrize("defect", DEFECTS)
@FAST
@given(plans(), st.data())
def test_each_defect_alone_breaks_a_config_the_reference_accepted(defect, plan, data):
    build_scheduler(plan.config, out_of_tree=probe_registry())
    config = copy.deepcopy(plan.config)
    expected = DEFECTS[defect](data.draw, config)
    with pytest.raises((ConfigError, FrameworkError)) as raised:
        build_scheduler(config, out_of_tree=probe_registry())
    assert expected in str(raised.value)


@FAST
@given(st.sampled_from(sorted(ARGS)).flatmap(lambda name: plugin_args(name).map(lambda args: (name, args))))
def test_plugin_args_are_args_upstream_validation_accepts(drawn):
    name, args = drawn
    profile = {"schedulerName": "default-scheduler", "pluginConfig": [{"name": name, "args": args}]}
    load_config({"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
                 "profiles": [profile]})


def test_plugin_args_name_a_plugin_with_args():
    with pytest.raises(ValueError, match="plugin_args\\('PrioritySort'\\): no args are drawn for it; use one of"):
        plugin_args("PrioritySort")
