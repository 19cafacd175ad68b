"""The diff's scenario list is the same in every process (whatever PYTHONHASHSEED), and bad command lines end
in one line and exit 2, before anything is built."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.cli import main

ROOT = Path(__file__).resolve().parents[3]
# filter-short-circuit and score-calls-complete drew differently per hash seed (probe order from a set).
LISTING = ("import hashlib\nfrom conformance.diff.scenarios import fixed_scenarios\n"
           "items = list(fixed_scenarios('dev', only=('filter-short-circuit', 'score-calls-complete', 'general')))\n"
           "print(len(items), hashlib.sha256(''.join(d.name + d.scenario.to_json() for d in items).encode()).hexdigest())")


def listing(hash_seed: str) -> str:
    result = subprocess.run([sys.executable, "-c", LISTING], cwd=ROOT, capture_output=True, text=True, timeout=600,
                            env={**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout.strip()


def test_the_scenarios_are_the_same_in_every_process():
    first = listing("1")
    assert int(first.split()[0]) > 20
    assert listing("2") == first


@pytest.mark.parametrize("argv, expected", [
    (["--from-module", "examples/plugins"], "--from-module and --to-module go together"),
    ([], "diff needs two sides"),
    (["--from", "banana", "--to", "v1.37.1"], "--from 'banana': not a release version"),
    (["--from", "v1.37.1", "--to", "v1.37.1", "--feature-gates", "SchedulerAsyncPreemption"],
     "--feature-gates entry 'SchedulerAsyncPreemption': give Name=true or Name=false"),
    (["--from-module", "no/such/dir", "--to-module", "examples/plugins"], "--from-module 'no/such/dir'"),
    (["--from", "v1.37.1", "--to", "v1.37.1", "--only", "no-such-invariant"], "--only no-such-invariant: no such scenario source; the sources are "),
], ids=["one-module", "no-sides", "bad-version", "bad-gates", "missing-module", "bad-only"])
def test_bad_command_lines_are_one_line_and_exit_2(capsys, argv, expected, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["diff", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert expected in err and len(err.splitlines()) == 1 and "Traceback" not in err, err


def test_a_broken_baseline_is_refused_before_building(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    baseline = tmp_path / "accepted.yaml"
    baseline.write_text("accepted:\n- key: a\n- 3\n")
    assert main(["diff", "--from", "v1.37.1", "--to", "v1.37.1", "--baseline", str(baseline)]) == 2
    err = capsys.readouterr().err.strip()
    assert "accepted entry 2 (line 3) has no `key:` string" in err and len(err.splitlines()) == 1, err
