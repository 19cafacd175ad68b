"""End to end: a KubeSchedulerConfiguration in, pods placed by the in-tree plugins out."""

import pytest

from conformance.cli import main
from reference.errors import ConfigError
from reference.scheduler.build import build_scheduler
from tests.builders import GI, node, pod

CPU_MEM = {"cpu": 4000, "memory": 8 * GI, "pods": 110}


def _sched(config=None):
    sched = build_scheduler(config, seed=3)
    sched.add_node(node("small", allocatable={"cpu": 2000, "memory": 4 * GI, "pods": 110}))
    sched.add_node(node("big", allocatable=CPU_MEM))
    return sched


def test_default_profile_places_a_pod_on_the_least_allocated_node():
    sched = _sched()
    sched.add_pod(pod("web", requests=[{"cpu": 1000, "memory": GI}]))
    sched.run_until_idle()
    result = sched.results()["default/web"]
    assert (result.phase, result.node) == ("bound", "big")
    assert [e.reason for e in sched.store.events] == ["Scheduled"]


def test_default_profile_reports_insufficient_resources_with_upstream_message():
    sched = _sched()
    sched.add_pod(pod("huge", requests=[{"cpu": 64000}]))
    sched.run_until_idle()
    result = sched.results()["default/huge"]
    assert result.phase == "unschedulable" and result.condition_reason == "Unschedulable"
    assert result.condition_message.startswith("0/2 nodes are available: 2 Insufficient cpu.")


def test_a_profile_without_score_plugins_still_binds():
    config = """
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      disabled: [{name: "*"}]
"""
    sched = _sched(config)
    sched.add_pod(pod("web", requests=[{"cpu": 100}]))
    sched.run_until_idle()
    assert sched.results()["default/web"].phase == "bound"
    assert sched.frameworks["default-scheduler"].score_plugins == []


def test_bad_config_is_one_clear_error():
    with pytest.raises(ConfigError, match=r"^percentageOfNodesToScore: Invalid value: 101"):
        build_scheduler({"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
                         "percentageOfNodesToScore": 101})


def test_cli_plugins_lists_the_default_expansion(tmp_path, capsys):
    path = tmp_path / "c.yaml"
    path.write_text("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n")
    assert main(["plugins", str(path)]) == 0
    out = capsys.readouterr().out
    assert "profile default-scheduler:" in out
    assert "bind        DefaultBinder" in out


def test_cli_reports_a_bad_config_on_one_line_without_traceback(tmp_path, capsys):
    path = tmp_path / "c.yaml"
    path.write_text("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nparallelism: 0\n")
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "parallelism: Invalid value: 0" in err and "Traceback" not in err
