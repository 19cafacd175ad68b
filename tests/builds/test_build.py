"""Builds with a user's plugins (needs Go and the module proxy): the plugin really schedules, the second
build comes from the cache, and a factory of the wrong type is one line naming the flag."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conformance.backends.upstream import UpstreamBackend
from conformance.builds import BuildError, make_spec
from conformance.builds import build
from reference.scenario import Scenario

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "plugins"
pytestmark = pytest.mark.skipif(shutil.which("go") is None, reason="needs a Go toolchain to build")


def node(name: str, labels: dict) -> dict:
    resources = {"cpu": "4", "memory": "8Gi", "pods": "110"}
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": labels},
            "status": {"capacity": resources, "allocatable": resources}}


def test_the_users_plugin_schedules_and_the_second_build_is_cached(capfd):
    spec = make_spec(modules=[str(EXAMPLE)], plugins=["PreferLabeled=example.com/sched-plugins/prefer.New"])
    first = build(spec)
    capfd.readouterr()
    assert build(spec) == first
    assert capfd.readouterr().err == ""  # a cache hit is silent
    config = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
              "profiles": [{"schedulerName": "default-scheduler",
                            "plugins": {"multiPoint": {"enabled": [{"name": "PreferLabeled", "weight": 50}]}}}]}
    pods = [{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": f"pod-{i}"},
             "spec": {"containers": [{"name": "c", "image": "x"}]}} for i in range(3)]
    scenario = Scenario.from_dict({"version": 1, "config": config, "workload": pods, "nodes": [
        node("node-0", {}), node("node-1", {"example.com/preferred": "true"}), node("node-2", {})]})
    backend = UpstreamBackend(runner=first.runner)
    try:
        outcome = backend.run(scenario)
    finally:
        backend.close()
    assert {p.node for p in outcome.pods.values()} == {"node-1"}
    assert {"name": "PreferLabeled", "weight": 50} in outcome.plugins["default-scheduler"]["score"]["enabled"]


def test_a_factory_of_the_wrong_type_is_named(tmp_path, monkeypatch):
    monkeypatch.setenv("SCHED_CONFORMANCE_CACHE", str(tmp_path / "cache"))
    module = tmp_path / "bad"
    (module / "p").mkdir(parents=True)
    (module / "go.mod").write_text("module example.com/bad\n\ngo 1.26.0\n")
    (module / "p" / "p.go").write_text("package p\n\n// New is not a plugin factory.\nfunc New() int { return 0 }\n")
    with pytest.raises(BuildError) as info:
        build(make_spec(modules=[str(module)], plugins=["Bad=example.com/bad/p.New"]))
    first = str(info.value).splitlines()[0]
    assert first.startswith("--go-plugin Bad=example.com/bad/p.New: cannot use plugin0.New"), first
    assert "a plugin factory is func(context.Context, runtime.Object, framework.Handle)" in first
    # A failed build leaves nothing behind in the cache.
    assert list((tmp_path / "cache" / "builds").iterdir()) == []
