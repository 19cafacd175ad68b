"""conformance/diff/engine.py: a difference is grouped only when it replays on both sides; one that shows once
and not again (the sides' own nondeterminism) is listed as flaky, never as a change between them."""

from __future__ import annotations

import dataclasses

from conformance.core.errors import BackendFailure
from conformance.diff.engine import Sides, run_all
from conformance.diff.scenarios import Drawn

from .test_compare import SCENARIO, side


class Scripted:
    """A backend answering each run with the next of `answers` ("ok": an outcome, else a BackendFailure with
    that message), the last one forever."""

    capabilities = frozenset({"observed-plugins"})

    def __init__(self, *answers: str) -> None:
        self.answers = answers
        self.runs = 0

    def run(self, scenario):
        self.runs += 1
        answer = self.answers[min(self.runs, len(self.answers)) - 1]
        if answer != "ok":
            raise BackendFailure(answer)
        return side().run.outcome


def drawn() -> list[Drawn]:
    return [Drawn("general", 0, SCENARIO)]


def test_a_difference_that_replays_is_grouped():
    sides = Sides(Scripted("ok"), Scripted("boom"), "a", "b")
    found, tally = run_all(sides, drawn())
    assert [d.name for _, d in found] == ["general#0"] and tally.flaky == []
    assert sides.b.runs == 3  # the first run and two replays


def test_a_difference_that_does_not_replay_is_flaky_not_grouped():
    sides = Sides(Scripted("ok"), Scripted("boom", "ok"), "a", "b")
    found, tally = run_all(sides, drawn())
    assert found == [] and tally.flaky == ["general#0"]


def test_a_fault_one_side_cannot_inject_is_not_run_rather_than_a_difference():
    """A runner before v1.37 injects fail faults only: its refusal of a restart would be a difference of the
    runners, not of the schedulers."""
    restart = dataclasses.replace(SCENARIO, timeline=({"op": "restart", "pod": "default/pod-0", "point": "bind"},))
    old, new = Scripted("boom"), Scripted("ok")
    old.capabilities = frozenset({"observed-plugins", "fault-fail"})
    new.capabilities = frozenset({"observed-plugins", "fault-fail", "fault-restart"})
    found, tally = run_all(Sides(old, new, "a", "b"), [Drawn("faults", 0, restart)])
    assert found == [] and tally.uninjectable == ["faults#0"] and tally.scenarios == 0
    assert old.runs == new.runs == 0
    both = Sides(new, Scripted("ok"), "a", "b")
    both.b.capabilities = new.capabilities
    found, tally = run_all(both, [Drawn("faults", 0, restart)])
    assert tally.uninjectable == [] and tally.scenarios == 1 and found == []
