"""A contract failure's report: a flaky one is FLAKY with both outcomes; every one prints the seed and blob."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from conformance.contracts import REGISTRY
from conformance.contracts.base import ContractViolation
from conformance.contracts.report import describe
from conformance.contracts.search import ContractFailure
from conformance.search import Replay

PROP = REGISTRY["plugin-deterministic"]


def _failure(*, flaky: bool) -> ContractFailure:
    violation = ContractViolation(PROP.id, "answered Success, then Unschedulable\nsecond line", calls=[])
    replay = Replay(seed=7, derandomized=True, blob="@reproduce_failure('6', b'AA==')",
                    replayed="passed" if flaky else None)
    return ContractFailure(PROP, "Mine", SimpleNamespace(to_dict=lambda: {"pod": "p"}), violation, 3, 0.5,
                           flaky=flaky, replay=replay)


def test_a_flaky_contract_failure_shows_both_outcomes():
    text = describe(_failure(flaky=True), Path("r"))
    assert text.startswith(f"FLAKY: Mine breaks {PROP.id}: answered Success, then Unschedulable\n")
    assert f"Outcomes: the first run of this input: {PROP.id}: answered Success, then Unschedulable\n" in text
    assert "Hypothesis' replay of the same input: passed\n" in text


def test_a_contract_failure_prints_the_seed_and_blob():
    text = describe(_failure(flaky=False), Path("r"))
    assert not text.startswith("FLAKY") and "Outcomes:" not in text
    assert "\nSeed: 7 (derandomized" in text and "\nBlob: @reproduce_failure('6', b'AA==')\n" in text
    assert text.endswith("Reproduce with: sched-conformance reproduce r")
