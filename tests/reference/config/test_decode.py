"""load_config / decode_config: strict v1 decoding (unknown and duplicate fields, wrong types name
the field path), Go durations, extenders, and the load -> default -> validate pipeline."""

from __future__ import annotations

import pytest

from reference.config import (
    Extender,
    ExtenderManagedResource,
    PluginEntry,
    decode_config,
    format_duration,
    load_config,
    parse_duration,
)
from reference.errors import ConfigError

from . import fakes

REGISTRY = fakes.in_tree_fakes()
HEAD = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"


def load(body: str, **kw):
    return load_config(HEAD + body, registry=REGISTRY, **kw)


def error_of(text: str) -> str:
    with pytest.raises(ConfigError) as info:
        load_config(text, registry=REGISTRY)
    return str(info.value)


def test_empty_document_gives_upstream_defaults():
    config = load("")
    assert config.parallelism == 16 and config.pod_initial_backoff_seconds == 1
    assert [p.scheduler_name for p in config.profiles] == ["default-scheduler"]


@pytest.mark.parametrize("text, want", [
    pytest.param("kind: KubeSchedulerConfiguration\n", "apiVersion: Object 'apiVersion' is missing; "
                 "set apiVersion: kubescheduler.config.k8s.io/v1", id="missing apiVersion"),
    pytest.param("apiVersion: kubescheduler.config.k8s.io/v1\n", "kind: Object 'Kind' is missing; "
                 "set kind: KubeSchedulerConfiguration", id="missing kind"),
    pytest.param("apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n",
                 'apiVersion: no kind "KubeSchedulerConfiguration" is registered for version '
                 '"kubescheduler.config.k8s.io/v1beta3" in scheme "pkg/scheduler/apis/config/scheme/scheme.go:29"; '
                 "use apiVersion kubescheduler.config.k8s.io/v1, kind KubeSchedulerConfiguration", id="old version"),
    pytest.param(HEAD + "foo: 1\n", 'foo: unknown field "foo"', id="unknown top-level field"),
    pytest.param(HEAD + "profiles:\n- schedulerName: a\n  plugins:\n    filter:\n      enable: []\n",
                 'profiles[0].plugins.filter.enable: unknown field "profiles[0].plugins.filter.enable"',
                 id="unknown nested field"),
    pytest.param(HEAD + "Parallelism: 3\n", 'Parallelism: unknown field "Parallelism"', id="case sensitive"),
    pytest.param(HEAD + "parallelism: '3'\n", "parallelism: cannot unmarshal string into Go value of type int32",
                 id="string for int"),
    pytest.param(HEAD + "parallelism: 1.5\n", "parallelism: cannot unmarshal number 1.5 into Go value of type int32",
                 id="fraction for int"),
    pytest.param(HEAD + "parallelism: 3000000000\n",
                 "parallelism: cannot unmarshal number 3000000000 into Go value of type int32", id="int32 overflow"),
    pytest.param(HEAD + "profiles:\n- plugins:\n    score:\n      enabled: [{name: A, weight: x}]\n",
                 "profiles[0].plugins.score.enabled[0].weight: cannot unmarshal string into Go value of type int32",
                 id="weight type"),
    pytest.param(HEAD + "profiles: {}\n", "profiles: cannot unmarshal object into Go value of type slice",
                 id="object for list"),
    pytest.param(HEAD + "extenders:\n- urlPrefix: u\n  httpTimeout: 5\n",
                 "extenders[0].httpTimeout: cannot unmarshal number 5 into Go value of type string",
                 id="number for duration"),
    pytest.param(HEAD + "extenders:\n- urlPrefix: u\n  httpTimeout: 5d\n",
                 'extenders[0].httpTimeout: time: unknown unit "d" in duration "5d"', id="bad duration unit"),
    pytest.param(HEAD + "parallelism: 1\nparallelism: 2\n", 'line 4: key "parallelism" already set in map',
                 id="duplicate key"),
    pytest.param(HEAD + "profiles:\n- pluginConfig:\n  - name: NodeAffinity\n    args: {kind: InterPodAffinityArgs}\n",
                 "profiles[0].pluginConfig[0]: args for plugin NodeAffinity were not of type "
                 "NodeAffinityArgs.kubescheduler.config.k8s.io, got InterPodAffinityArgs.kubescheduler.config.k8s.io",
                 id="args of another kind"),
    pytest.param(HEAD + "parallelism: 0\n",
                 "parallelism: Invalid value: 0: should be an integer value greater than zero", id="validation runs"),
])
def test_load_errors(text, want):
    assert error_of(text) == want


def test_validate_false_returns_invalid_config():
    assert load("parallelism: 0\n", validate=False).parallelism == 0


def test_full_profile_and_extender():
    config = load("""
parallelism: 4
percentageOfNodesToScore: 30
podInitialBackoffSeconds: 2
podMaxBackoffSeconds: 20
leaderElection: {leaderElect: false}
clientConnection: {qps: 10, burst: 20}
profiles:
- schedulerName: a
  percentageOfNodesToScore: 50
  plugins:
    multiPoint:
      enabled: [{name: ImageLocality, weight: 5}]
  pluginConfig:
  - name: OutOfTree
    args: {anything: [1, 2]}
extenders:
- urlPrefix: http://127.0.0.1:8888/
  filterVerb: filter
  prioritizeVerb: prioritize
  weight: 2
  bindVerb: bind
  enableHTTPS: true
  tlsConfig: {insecure: true, certData: aGVsbG8=}
  httpTimeout: 1m30s
  nodeCacheCapable: true
  managedResources: [{name: example.com/foo, ignoredByScheduler: true}]
  ignorable: true
""")
    assert (config.parallelism, config.percentage_of_nodes_to_score) == (4, 30)
    assert (config.pod_initial_backoff_seconds, config.pod_max_backoff_seconds) == (2, 20)
    profile = config.profiles[0]
    assert profile.percentage_of_nodes_to_score == 50
    # A default plugin re-declared in multiPoint is replaced in place (mergePluginSet).
    assert profile.plugins.multiPoint.enabled[-3] == PluginEntry("ImageLocality", 5)
    assert profile.plugin_config[0].args == {"anything": [1, 2]}
    ext = config.extenders[0]
    assert isinstance(ext, Extender) and ext.http_timeout == 90.0 and ext.tls_config.cert_data == b"hello"
    assert ext.managed_resources == (ExtenderManagedResource("example.com/foo", True),)
    assert (ext.weight, ext.bind_verb, ext.enable_https, ext.node_cache_capable, ext.ignorable) == (
        2, "bind", True, True, True)


def test_extender_timeout_defaults_to_five_seconds():
    assert load("extenders: [{urlPrefix: u}]\n").extenders[0].http_timeout == 5.0


def test_mapping_input_and_matching_args_kind_is_stripped():
    config = decode_config({"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
                            "profiles": [{"pluginConfig": [{"name": "InterPodAffinity", "args": {
                                "apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "InterPodAffinityArgs",
                                "hardPodAffinityWeight": 5}}]}]}, registry=REGISTRY)
    assert config.profiles[0].plugin_config[0].args == {"hardPodAffinityWeight": 5}


@pytest.mark.parametrize("text, seconds, canonical", [
    ("5s", 5.0, "5s"), ("1m30s", 90.0, "1m30s"), ("1.5h", 5400.0, "1h30m0s"), ("500ms", 0.5, "500ms"),
    ("0", 0.0, "0s"), ("-2ms", -0.002, "-2ms"), ("1h2m3.5s", 3723.5, "1h2m3.5s"), ("10m0s", 600.0, "10m0s"),
])
def test_go_durations(text, seconds, canonical):
    assert parse_duration(text) == pytest.approx(seconds)
    assert format_duration(seconds) == canonical


@pytest.mark.parametrize("text, message", [
    ("", 'time: invalid duration ""'), ("1", 'time: missing unit in duration "1"'),
    ("1d", 'time: unknown unit "d" in duration "1d"'), ("s", 'time: invalid duration "s"'),
])
def test_bad_go_durations(text, message):
    with pytest.raises(ValueError) as info:
        parse_duration(text)
    assert str(info.value) == message
