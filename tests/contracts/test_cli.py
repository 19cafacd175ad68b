"""`sched-conformance check-plugin`: one line for an unknown plugin, pytest underneath (--junitxml), and a
reproducer that `sched-conformance reproduce` replays."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from conformance import cli

from .conftest import BROKEN_OWN, needs_go

pytestmark = needs_go


def test_an_unknown_plugin_is_one_line_listing_the_profile(capsys):
    assert cli.main(["check-plugin", "NodeResourceFit"]) == 2
    # A fresh checkout builds the driver first; its progress lines come before the error, which is one line.
    lines = [line for line in capsys.readouterr().err.strip().splitlines()
             if not line.startswith("[sched-conformance")]
    assert len(lines) == 1
    err = lines[0]
    assert err.startswith("sched-conformance: plugin 'NodeResourceFit' is not in the effective profile; its plugins "
                          "are: ") and "NodeResourcesFit" in err


def test_plugin_and_all_together_is_one_line(capsys):
    assert cli.main(["check-plugin", "NodeResourcesFit", "--all"]) == 2
    assert "not both or neither" in capsys.readouterr().err


def test_a_broken_plugin_fails_in_junit_and_its_reproducer_replays(tmp_path, capsys):
    junit, repro = tmp_path / "junit.xml", tmp_path / "repro"
    code = cli.main(["check-plugin", "BrokenSort", "--own-scheduler", str(BROKEN_OWN), "--reproducers", str(repro),
                     "--contract", "queuesort-strict-weak-order", "--contract", "plugin-no-panic",
                     "--", "-q", f"--junitxml={junit}"])
    assert code == 1
    cases = {c.get("name"): c for c in ET.parse(junit).getroot().iter("testcase")}
    failed = cases["test_contract[BrokenSort-queuesort-strict-weak-order]"].find("failure")
    assert failed is not None and "BrokenSort breaks queuesort-strict-weak-order" in failed.get("message")
    assert cases["test_contract[BrokenSort-plugin-no-panic]"].find("skipped") is not None
    directory = repro / "BrokenSort-queuesort-strict-weak-order"
    assert {"input.yaml", "calls.json", "meta.json", "own-scheduler.toml", "README.md"} <= \
        {p.name for p in directory.iterdir()}
    capsys.readouterr()
    assert cli.main(["reproduce", str(directory)]) == 1
    assert "REPRODUCED queuesort-strict-weak-order on BrokenSort" in capsys.readouterr().out
