"""Plugins broken only in their own world (tests/contracts/brokenplugins/domain.go): on their own label value,
their own extended resource, past a table bound indexed by a parsed label, on nodes of more than 16 cores.
check-plugin catches each with no domain table: the vocabulary comes from the plugins' sources (and the node
sizes from the generators' real magnitudes); with the stock vocabulary alone the first three pass."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conformance.contracts import REGISTRY, find_violation
from conformance.contracts.inputs import _Vocabulary, use_domain

from .conftest import BROKEN_OWN, needs_go

pytestmark = needs_go

CAUGHT_BY = {"BrokenGoldTier": "score-normalized-range", "BrokenFreeQAT": "score-normalized-range",
             "BrokenSlotTable": "plugin-no-panic", "BrokenBigNode": "score-normalized-range"}
OWN_WORLD_ONLY = ("BrokenGoldTier", "BrokenFreeQAT", "BrokenSlotTable")


def _cores(node) -> float:
    cpu = node["status"]["allocatable"]["cpu"]
    return int(cpu[:-1]) / 1000 if cpu.endswith("m") else float(cpu)


# What the shrunk input must show: the plugin's own world, the only place its bug lives.
SHOWS = {
    "BrokenGoldTier": lambda n: n["metadata"].get("labels", {}).get("example.com/tier") == "gold",
    "BrokenFreeQAT": lambda n: int(n["status"]["allocatable"].get("example.com/qat", "0")) > 5,
    "BrokenSlotTable": lambda n: n["metadata"].get("labels", {}).get("example.com/slot", "0") in ("4", "5"),
    "BrokenBigNode": lambda n: _cores(n) > 16,
}


def test_the_vocabulary_is_read_from_the_plugins_sources(broken):
    domain = broken.own.domain()
    assert "gold" in domain.labels["example.com/tier"]
    assert {"4", "5"} <= set(domain.labels["example.com/slot"])  # around len(slotWeights)
    assert "example.com/qat" in domain.resources


@pytest.mark.parametrize("plugin", sorted(CAUGHT_BY))
def test_a_plugin_broken_in_its_own_world_is_caught(broken, plugin):
    prop = REGISTRY[CAUGHT_BY[plugin]]
    failure = find_violation(broken.driver(plugin), prop, profile="ci", max_examples=100, shrink_seconds=5)
    assert failure is not None, f"{prop.id} let {plugin} through"
    assert failure.violation.property_id == prop.id and failure.plugin == plugin
    assert any(SHOWS[plugin](n) for n in failure.example.nodes), failure.example


@pytest.fixture
def stock_vocabulary(broken):
    kept = _Vocabulary.domain
    use_domain(None)
    yield broken
    use_domain(kept)


@pytest.mark.parametrize("plugin", OWN_WORLD_ONLY)
def test_the_stock_vocabulary_alone_misses_it(stock_vocabulary, plugin):
    prop = REGISTRY[CAUGHT_BY[plugin]]
    assert find_violation(stock_vocabulary.driver(plugin), prop, profile="ci", max_examples=100) is None


ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("plugin", ["BrokenGoldTier", "BrokenFreeQAT", "BrokenBigNode"])
def test_a_whole_scheduler_run_names_the_plugin(tmp_path, plugin):
    """`run` on the user's scheduler with their config (the plugin in the default profile), no domain table."""
    config = tmp_path / "config.yaml"
    config.write_text("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
                      f"- schedulerName: default-scheduler\n  plugins:\n    multiPoint:\n      enabled:\n"
                      f"      - {{name: {plugin}}}\n")
    argv = [sys.executable, "-m", "conformance.cli", "run", "--backend", "upstream", "--own-scheduler", str(BROKEN_OWN),
            "--scheduler-config", str(config), "--invariant", "observed-score-range",
            "--reproducers", str(tmp_path / "reproducers"), "--plugin-coverage", str(tmp_path / "coverage")]
    result = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-2000:]
    assert f"[observed-score-range] {plugin} scored outside [0, 100]" in result.stdout, result.stdout[-3000:]
    assert "the plugins' own vocabulary:" in result.stderr + result.stdout
