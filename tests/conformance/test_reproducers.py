"""Reproducer directories as CI artifacts: paths relative to the project, so one downloaded into another checkout
replays there; a new failure replaces an old reproducer and a pass removes it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import SimpleNamespace

from conformance.builds.spec import make_spec
from conformance.contracts import reproducer as contract_reproducer
from conformance.reporting import reproducer
from reference.scenario import Scenario

SCENARIO = Scenario(config=None, nodes=(), pods=(), workload=())


def _project(root: Path) -> Path:
    """A checkout with a local Go module and a CRD file."""
    (root / "plugins").mkdir(parents=True)
    (root / "plugins" / "go.mod").write_text("module example.com/plugins\n\ngo 1.24\n")
    (root / "deploy").mkdir()
    (root / "deploy" / "crds.yaml").write_text("")
    return root


def _own_toml(root: Path, outside: Path) -> str:
    spec = make_spec(modules=[str(root / "plugins"), str(outside), "example.com/remote@v1.2.3"],
                     plugins=["Mine=example.com/plugins/mine.New"], crds=[str(root / "deploy" / "crds.yaml")],
                     k8s_version="1.37.2")
    return spec.to_toml()  # absolute paths, as the build describes itself


def test_a_reproducer_replays_from_another_checkout(tmp_path, monkeypatch):
    first = _project(tmp_path / "ci" / "checkout")
    outside = _project(tmp_path / "elsewhere") / "plugins"
    directory = first / ".sched-conformance" / "reproducers" / "x"
    reproducer.write(directory, SCENARIO, invariant="bound-at-most-once", backend="upstream", message="m",
                     own_scheduler=_own_toml(first, outside), root=first)

    stored = (directory / reproducer.OWN_SCHEDULER).read_text()
    assert str(first) not in stored and '"plugins"' in stored and '"deploy/crds.yaml"' in stored
    assert str(outside) in stored, "a module outside the project keeps its absolute path"
    assert '"example.com/remote@v1.2.3"' in stored and '"Mine=example.com/plugins/mine.New"' in stored
    readme = (directory / "README.md").read_text()
    assert "sched-conformance reproduce .sched-conformance/reproducers/x --backend upstream" in readme
    assert "project's root" in readme

    second = _project(tmp_path / "laptop" / "repo")
    shutil.copytree(first / ".sched-conformance", second / ".sched-conformance")
    monkeypatch.chdir(second)
    _, meta = reproducer.read(".sched-conformance/reproducers/x")
    spec = reproducer.own_scheduler_spec(".sched-conformance/reproducers/x", meta)
    assert [m.directory for m in spec.modules if m.local] == [(second / "plugins").resolve(), outside.resolve()]
    assert spec.crds == ((second / "deploy" / "crds.yaml").resolve(),)
    assert spec.k8s_version == "v1.37.2" and [p.name for p in spec.plugins] == ["Mine"]


def test_a_contract_reproducer_stores_relative_paths_too(tmp_path, monkeypatch):
    project = _project(tmp_path / "p")
    monkeypatch.chdir(project)
    violation = SimpleNamespace(property_id="plugin-deterministic", message="m", calls=[], results=[])
    failure = SimpleNamespace(violation=violation, plugin="Mine", prop=SimpleNamespace(watch=True),
                              example=SimpleNamespace(to_dict=lambda: {}))
    out = contract_reproducer.write(project / "r", failure, config=None, race=False,
                                    own_scheduler=_own_toml(project, project / "plugins"))
    assert str(project) not in (out / reproducer.OWN_SCHEDULER).read_text()
    assert "sched-conformance reproduce r\n" in (out / "README.md").read_text()
    spec = reproducer.own_scheduler_spec(out, json.loads((out / reproducer.META).read_text()))
    assert spec.modules[0].directory == (project / "plugins").resolve()


def test_a_new_failure_replaces_the_old_reproducer(tmp_path):
    directory = tmp_path / "x"
    reproducer.write(directory, SCENARIO, invariant="i", backend="upstream", message="m",
                     own_scheduler='go-modules = []\ngo-plugins = []\n', root=tmp_path)
    (directory / "notes.txt").write_text("from the old failure")
    reproducer.write(directory, SCENARIO, invariant="i", backend="upstream", message="m", root=tmp_path)
    assert sorted(p.name for p in directory.iterdir()) == \
        ["README.md", "manifests.yaml", "meta.json", "scenario.json", "scheduler-config.yaml"]


def test_a_pass_removes_only_its_own_reproducer(tmp_path):
    directory = tmp_path / "x"
    reproducer.write(directory, SCENARIO, invariant="i", backend="upstream", message="m", root=tmp_path)
    assert not reproducer.remove_stale(directory, invariant="i", backend="reference")
    assert not reproducer.remove_stale(directory, invariant="other", backend="upstream")
    assert directory.is_dir()
    assert reproducer.remove_stale(directory, invariant="i", backend="upstream")
    assert not directory.exists()
    assert not reproducer.remove_stale(directory, invariant="i", backend="upstream")
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "meta.json").write_text("not json")
    assert not reproducer.remove_stale(mine, invariant="i") and mine.is_dir()
