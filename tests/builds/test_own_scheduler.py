"""Where the user's scheduler comes from (flags, --own-scheduler, pyproject), and the one-line errors
for configs that do not run on it; no Go needed."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.core import scenario_config
from conformance.backends.reference import ReferenceBackend
from conformance.builds import BuildSpecError
from conformance.core.errors import BackendFailure
from conformance.builds.own_scheduler import OwnSchedulerError, resolve
from reference.scenario import Scenario

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "plugins"
PREFER = "PreferLabeled=example.com/sched-plugins/prefer.New"
FREE_CPU = "FreeCPU=example.com/sched-plugins/freecpu.New"


def test_nothing_given_is_the_stock_scheduler(tmp_path):
    assert resolve(directory=tmp_path) is None


def test_the_pyproject_table_is_read_when_no_flag_is_given():
    own = resolve(directory=EXAMPLE)
    assert [p.describe() for p in own.spec.plugins] == [PREFER]
    assert own.spec.scheduler_config == EXAMPLE / "configs" / "prefer-labeled.yaml"
    assert own.builds


def test_flags_add_to_the_own_scheduler_file_and_win(tmp_path):
    file = tmp_path / "own.toml"
    file.write_text(f'go-modules = ["{EXAMPLE}"]\ngo-plugins = ["{PREFER}"]\nk8s-version = "1.36.3"\n')
    own = resolve(own_file=str(file), modules=[str(EXAMPLE)], plugins=[FREE_CPU], k8s_version="1.37.2")
    assert [p.name for p in own.spec.plugins] == ["PreferLabeled", "FreeCPU"]
    assert len(own.spec.modules) == 1 and own.spec.k8s_version == "v1.37.2"


def test_a_plugin_registered_by_the_file_and_a_flag_is_one_line(tmp_path):
    file = tmp_path / "own.toml"
    file.write_text(f'go-modules = ["{EXAMPLE}"]\ngo-plugins = ["{PREFER}"]\n')
    with pytest.raises(BuildSpecError, match=r"^--go-plugin PreferLabeled: also registered by .*own.toml"):
        resolve(own_file=str(file), modules=[str(EXAMPLE)], plugins=[PREFER])


def test_the_spec_round_trips_through_its_toml(tmp_path):
    own = resolve(modules=[str(EXAMPLE)], plugins=[PREFER, FREE_CPU], k8s_version="1.36.3")
    file = tmp_path / "own-scheduler.toml"
    file.write_text(own.spec.to_toml())
    again = resolve(own_file=str(file))
    assert (again.spec.modules, again.spec.plugins, again.spec.k8s_version) == \
        (own.spec.modules, own.spec.plugins, own.spec.k8s_version)


@pytest.mark.parametrize("text, message", [
    ("kind: Pod\n", "not a KubeSchedulerConfiguration"),
    ("profiles: [\n", "cannot read it as YAML"),
])
def test_a_config_that_is_not_one_is_named(tmp_path, text, message):
    config = tmp_path / "config.yaml"
    config.write_text(text)
    with pytest.raises(OwnSchedulerError, match=f"^--scheduler-config {config}: {message}"):
        resolve(scheduler_config=str(config)).config()


class Refusing:
    """A backend whose scheduler refuses the config as the upstream runner does."""
    name = "upstream"
    capabilities = frozenset({"plugin-list"})

    def __init__(self, error: str) -> None:
        self.error = error

    def run(self, scenario: Scenario):
        raise BackendFailure(f"the upstream scheduler refuses the scenario: {self.error}")


def test_an_unregistered_plugin_names_both_sides_and_the_fix(tmp_path):
    config = tmp_path / "config.yaml"
    config.write_text("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n")
    own = resolve(modules=[str(EXAMPLE)], plugins=[PREFER], scheduler_config=str(config))
    backend = Refusing('initializing profiles: creating profile for scheduler name default-scheduler: '
                       'PreFilterPlugin "Coscheduling" does not exist')
    with pytest.raises(OwnSchedulerError) as info:
        own.base_config(backend)
    assert str(info.value) == (f"--scheduler-config {config} names plugin Coscheduling, which the scheduler build "
                               "(upstream) does not register (registered: PreferLabeled); add --go-plugin "
                               "Coscheduling=import/path.Func with its --go-module, or remove it from the config")


def test_a_config_the_scheduler_rejects_is_one_line(tmp_path):
    config = tmp_path / "config.yaml"
    config.write_text("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n")
    own = resolve(scheduler_config=str(config))
    with pytest.raises(OwnSchedulerError, match=r"rejects it: profiles\[0\]: bad\n?$"):
        own.base_config(Refusing("profiles[0]: bad\nmore detail"))


def test_the_reference_lays_out_an_in_tree_config_and_refuses_out_of_tree_plugins(tmp_path):
    config = tmp_path / "config.yaml"
    config.write_text("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
                      "- plugins: {multiPoint: {enabled: [{name: PreferLabeled}]}}\n")
    own = resolve(scheduler_config=str(config))
    with pytest.raises(OwnSchedulerError, match="the reference does not know PreferLabeled; use --backend upstream"):
        own.base_config(type("NoList", (), {"name": "cluster", "capabilities": frozenset()})())
    user = own.config()
    with pytest.raises(BackendFailure, match="the reference does not implement plugin PreferLabeled"):
        ReferenceBackend().run(Scenario(config=user))


def test_out_of_tree_names_are_read_as_opaque_plugins():
    config = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration", "profiles": [
        {"plugins": {"multiPoint": {"disabled": [{"name": "*"}]},
                     "queueSort": {"enabled": [{"name": "PrioritySort"}]},
                     "bind": {"enabled": [{"name": "DefaultBinder"}]},
                     "score": {"enabled": [{"name": "Probe0"}, {"name": "MyScore", "weight": 3}]}},
         "pluginConfig": [{"name": "MyScore", "args": {"anything": 1}}]}]}
    profile = scenario_config.load(config)[1]["default-scheduler"]
    assert scenario_config.unknown_plugins(config) == {"MyScore"}
    assert profile.points["score"] == (("Probe0", 1), ("MyScore", 3))
    assert profile.plugin_args["MyScore"] == {"anything": 1}


@pytest.mark.parametrize("queue_sort", [None, "MySort"])
def test_an_opaque_plugin_sorts_only_where_the_config_enables_it_at_queue_sort(queue_sort):
    """multiPoint puts a user's plugin at every point it implements; upstream accepted the config, so it is no
    queue sort beside PrioritySort. One enabled at queueSort is the profile's queue sort."""
    plugins: dict = {"multiPoint": {"enabled": [{"name": "MyScore", "weight": 5}]}}
    if queue_sort:
        plugins["queueSort"] = {"enabled": [{"name": queue_sort}], "disabled": [{"name": "*"}]}
    config = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
              "profiles": [{"plugins": plugins}]}
    profile = scenario_config.load(config)[1]["default-scheduler"]
    assert profile.names("queueSort") == [queue_sort or "PrioritySort"]
    assert "MyScore" in profile.names("score") and "MyScore" in profile.names("filter")


def test_a_domain_table_alone_is_an_own_scheduler_and_reaches_the_generators(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.sched-conformance.domain]\nresources = ["example.com/fpga"]\n'
                                             '[tool.sched-conformance.domain.labels]\n"example.com/tier" = ["gold"]\n')
    own = resolve(directory=tmp_path)
    assert own is not None and not own.builds
    domain = own.domain()  # no plugins registered: nothing to read from sources
    assert dict(domain.labels) == {"example.com/tier": ("gold",)} and domain.resources == ("example.com/fpga",)


def test_a_bad_domain_table_names_the_file_and_the_entry(tmp_path):
    (tmp_path / "own.toml").write_text('[domain]\nresources = ["memory"]\n')
    with pytest.raises(BuildSpecError, match=r"own\.toml: domain\.resources: 'memory' is not an extended resource"):
        resolve(own_file=str(tmp_path / "own.toml"))
