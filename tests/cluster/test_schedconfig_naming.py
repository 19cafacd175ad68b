"""The rendered scheduler config (reuse key, probe collectors, extender URL) and namespace mapping."""

import pytest

from conformance.cluster.naming import NamespaceMap
from conformance.cluster.schedconfig import config_hash, probes_in, render, scheduler_names


def _probe_profile(**extra):
    return {"schedulerName": "p", "plugins": {"preFilter": {"enabled": [{"name": "Probe0"}]},
                                              "multiPoint": {"enabled": [{"name": "Probe3"}]}}, **extra}


def test_render_owns_client_connection_and_leader_election():
    out = render({"leaderElection": {"leaderElect": True}, "clientConnection": {"kubeconfig": "/x"},
                  "percentageOfNodesToScore": 50}, kubeconfig="/state/kubeconfig")
    assert out["clientConnection"] == {"kubeconfig": "/state/kubeconfig"}
    assert out["leaderElection"] == {"leaderElect": False}
    assert out["percentageOfNodesToScore"] == 50
    assert out["apiVersion"] == "kubescheduler.config.k8s.io/v1" and out["kind"] == "KubeSchedulerConfiguration"


def test_render_leaves_the_input_alone():
    config = {"profiles": [_probe_profile()]}
    render(config, kubeconfig="/k", collector_url="http://127.0.0.1:1/trace")
    assert "pluginConfig" not in config["profiles"][0]


def test_every_enabled_probe_gets_the_collector_and_keeps_its_args():
    profile = _probe_profile(pluginConfig=[{"name": "Probe0", "args": {"scoreExtensions": True}},
                                           {"name": "NodeResourcesFit", "args": {}}])
    out = render({"profiles": [profile]}, kubeconfig="/k", collector_url="http://127.0.0.1:9/trace")
    args = {e["name"]: e.get("args") for e in out["profiles"][0]["pluginConfig"]}
    assert args["Probe0"] == {"scoreExtensions": True, "collector": "http://127.0.0.1:9/trace"}
    assert args["Probe3"] == {"collector": "http://127.0.0.1:9/trace"}
    assert args["NodeResourcesFit"] == {}


def test_extender_url_is_substituted():
    config = {"extenders": [{"urlPrefix": "${EXTENDER_URL}/ext-0", "filterVerb": "filter"}]}
    out = render(config, kubeconfig="/k", extender_url="http://127.0.0.1:7/")
    assert out["extenders"][0]["urlPrefix"] == "http://127.0.0.1:7/ext-0"


def test_config_hash_ignores_key_order_and_sees_every_value():
    a = render({"profiles": [_probe_profile()], "parallelism": 4}, kubeconfig="/k")
    b = render({"parallelism": 4, "profiles": [_probe_profile()]}, kubeconfig="/k")
    assert config_hash(a) == config_hash(b)
    assert config_hash(a) != config_hash(render({"profiles": [_probe_profile()], "parallelism": 8}, kubeconfig="/k"))
    assert config_hash(a) != config_hash(render({"profiles": [_probe_profile()], "parallelism": 4}, kubeconfig="/k2"))


def test_probes_and_scheduler_names():
    assert probes_in({"profiles": [_probe_profile()]}) == ["Probe0", "Probe3"]
    assert probes_in(None) == []
    assert scheduler_names(None) == ["default-scheduler"]
    assert scheduler_names({"profiles": [{"schedulerName": "a"}, {}]}) == ["a", "default-scheduler"]


def test_namespace_map_round_trips_keys_and_messages():
    m = NamespaceMap.of("abcd1234", 3, ["default", "team-a"])
    assert m.to_cluster("default") == "scc-abcd1234-3-default"
    assert m.key_to_scenario("scc-abcd1234-3-team-a/pod-0") == "team-a/pod-0"
    assert m.key_to_cluster("default/pod-0") == "scc-abcd1234-3-default/pod-0"
    text = "Successfully assigned scc-abcd1234-3-team-a/pod-1 to node-0"
    assert m.text_to_scenario(text) == "Successfully assigned team-a/pod-1 to node-0"


@pytest.mark.parametrize("ns", ["n" * 60, "Has_Caps"])
def test_namespaces_that_would_not_be_valid_names_are_hashed(ns):
    cluster = NamespaceMap.of("abcd1234", 1, [ns]).to_cluster(ns)
    assert len(cluster) <= 63 and cluster.startswith("scc-abcd1234-1-")
    assert cluster.replace("-", "").isalnum() and cluster == cluster.lower()


def test_distinct_scenarios_never_share_a_namespace():
    assert NamespaceMap.of("r", 1, ["default"]).to_cluster("default") != NamespaceMap.of("r", 2, ["default"]).to_cluster("default")
