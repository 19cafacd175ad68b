"""`validate` and `plugins` on a config that names the user's plugins: the user's build decides, as
kube-scheduler --config would; the stock reference refuses what it does not know (needs Go)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conformance import cli

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "plugins"
CONFIG = str(EXAMPLE / "configs" / "prefer-labeled.yaml")
OWN = ["--go-module", str(EXAMPLE), "--go-plugin", "PreferLabeled=example.com/sched-plugins/prefer.New"]
pytestmark = pytest.mark.skipif(shutil.which("go") is None, reason="needs a Go toolchain to build")


def test_validate_takes_the_users_build(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no [tool.sched-conformance] here
    assert cli.main(["validate", CONFIG]) == 2
    assert "PreferLabeled" in capsys.readouterr().err
    assert cli.main(["validate", CONFIG, *OWN]) == 0
    assert capsys.readouterr().out.strip() == f"{CONFIG}: valid (1 profile(s))"


def test_the_users_build_rejects_what_upstream_rejects(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    broken = tmp_path / "broken.yaml"
    broken.write_text(Path(CONFIG).read_text().replace("PreferLabeled", "PreferLabeledTypo"))
    assert cli.main(["validate", str(broken), *OWN]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"sched-conformance: {broken}: the scheduler build rejects it: ") and "PreferLabeledTypo" in err
    assert len(err.splitlines()) == 1


def test_plugins_lists_the_users_plugin_where_the_build_runs_it(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["plugins", CONFIG, "--json", *OWN]) == 0
    listed = json.loads(capsys.readouterr().out)
    (profile,) = listed.values()
    assert "PreferLabeled" in [entry["name"] for entry in profile["score"]["enabled"]]
    assert cli.main(["plugins", CONFIG, *OWN]) == 0
    assert any(line.startswith("  score") and "PreferLabeled" in line for line in capsys.readouterr().out.splitlines())
