"""The example module's variant broken only in its own world (examples/plugins/preferlevel): PreferLevel scores
200 on nodes labelled with its own value example.com/preference=critical. With no domain table, the vocabulary
read from the module's sources reaches it: `check-plugin` reports score-normalized-range and a whole-scheduler
`run` observed-score-range, each naming PreferLevel on a node carrying that label value."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from .conftest import needs_go

pytestmark = needs_go

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "plugins"
OWN = ["--go-module", str(EXAMPLE), "--go-plugin", "PreferLevel=example.com/sched-plugins/preferlevel.New",
       "--scheduler-config", str(EXAMPLE / "configs" / "prefer-level.yaml")]


def cli(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "conformance.cli", *argv], cwd=ROOT, capture_output=True,
                          text=True, timeout=1800)


def critical_nodes(reproducer: Path) -> list[str]:
    """The nodes of a reproducer's scenario that carry the plugin's own label value."""
    text = "\n".join(p.read_text() for p in reproducer.rglob("*") if p.suffix in (".json", ".yaml"))
    return [line for line in text.splitlines() if "example.com/preference" in line and "critical" in line]


def test_check_plugin_catches_it_on_its_own_label_value(tmp_path):
    result = cli("check-plugin", "PreferLevel", *OWN, "--contract", "score-normalized-range",
                 "--reproducers", str(tmp_path))
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-2000:]
    assert "PreferLevel" in result.stdout and "score-normalized-range" in result.stdout, result.stdout[-3000:]
    assert critical_nodes(tmp_path), f"the shrunk input shows no critical node: {result.stdout[-3000:]}"


def test_a_whole_scheduler_run_names_it(tmp_path):
    result = cli("run", "--backend", "upstream", *OWN, "--invariant", "observed-score-range",
                 "--reproducers", str(tmp_path / "reproducers"), "--plugin-coverage", str(tmp_path / "coverage"))
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-2000:]
    assert "[observed-score-range] PreferLevel scored outside [0, 100]" in result.stdout, result.stdout[-3000:]
    assert "the plugins' own vocabulary:" in result.stderr + result.stdout
    assert critical_nodes(tmp_path / "reproducers"), result.stdout[-3000:]


def test_the_label_value_is_read_from_the_variant_alone():
    """No domain table: the harness's vocabulary finds the value in preferlevel.go."""
    out = subprocess.run([str(ROOT / "harness" / "bin" / "vocabulary"), str(EXAMPLE)], capture_output=True,
                         text=True, check=True).stdout
    vocabulary = json.loads(out)
    assert "critical" in vocabulary["labels"]["example.com/preference"], vocabulary
    assert vocabulary["sources"]["labels/example.com/preference=critical"].startswith("preferlevel/"), vocabulary
