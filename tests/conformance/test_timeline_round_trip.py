"""A scenario's timeline survives every way a scenario is written and read: JSON, YAML (reports), and
reproducer directories."""

import yaml

from conformance.reporting import reproducer
from reference.scenario import Scenario

NODE = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"},
        "status": {"allocatable": {"cpu": "1", "pods": "10"}}}
POD = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
       "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}}
TIMELINE = [
    {"when": "idle", "op": "create", "object": {**NODE, "metadata": {"name": "n2", "labels": {"zone": "b"}}}},
    {"when": 2.5, "op": "update", "kind": "Node", "name": "n1",
     "patch": {"metadata": {"labels": {"zone": "b"}}, "spec": {"taints": []}}},
    {"when": 0, "op": "delete", "kind": "Pod", "namespace": "default", "name": "p"},
]
SCENARIO = Scenario.from_dict({"nodes": [NODE], "workload": [POD], "timeline": TIMELINE})


def test_json_round_trip():
    again = Scenario.loads(SCENARIO.to_json())
    assert again == SCENARIO
    assert again.to_dict()["timeline"] == TIMELINE


def test_yaml_round_trip():
    text = yaml.safe_dump(SCENARIO.to_dict(), sort_keys=False, width=110)
    assert Scenario.loads(text) == SCENARIO


def test_timeline_is_written_last_but_deadline():
    data = Scenario.from_dict({**SCENARIO.to_dict(), "deadline": 10}).to_dict()
    assert list(data)[-2:] == ["timeline", "deadline"]


def test_reproducer_carries_the_timeline(tmp_path):
    out = reproducer.write(tmp_path / "r", SCENARIO, invariant="X1", backend="reference", message="m")
    scenario, _ = reproducer.read(out)
    assert scenario == SCENARIO
    assert "timeline" in (out / "README.md").read_text()


def test_reproducer_without_timeline_says_nothing_of_it(tmp_path):
    plain = Scenario.from_dict({"nodes": [NODE], "workload": [POD]})
    out = reproducer.write(tmp_path / "r", plain, invariant="X1", backend="reference", message="m")
    assert "timeline" not in (out / "README.md").read_text()
    assert "timeline" not in (out / "scenario.json").read_text()
