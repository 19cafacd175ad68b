"""`pytest -n 2` (pytest-xdist): each worker has its own backend, the ci profile draws the same examples
per invariant as one process does, and workers failing at once write their reproducers side by side."""

from __future__ import annotations

import hashlib
import json
import os
from collections import defaultdict
from pathlib import Path

import pytest

from conformance.backends.reference import ReferenceBackend
from conformance.pytest_plugin import DEFAULT_REPRODUCERS

from .mutants import _bind_retried_after_success, _each_framework, _reserve_not_short_circuited

pytest.importorskip("xdist", reason="pytest-xdist is not installed (the dev extra has it)")
pytest_plugins = ["pytester"]
ROOT = Path(__file__).resolve().parents[2]
HERE = __name__
PASSING = ("capacity-respected", "queue-priority-order", "unreserve-reverse-order")
# Each caught by its mutant within a few examples, and shrunk in seconds.
BROKEN = ("bound-at-most-once", "reserve-short-circuit")


class RecordingBackend(ReferenceBackend):
    """The reference, writing to $SCC_RECORDS/<pid>.jsonl its creation and each scenario with the test
    that ran it (one file per process, so the records themselves never interleave)."""

    def __init__(self, **options) -> None:
        super().__init__(**options)
        self._record({"created": True})

    def _record(self, entry: dict) -> None:
        entry = {"pid": os.getpid(), "worker": os.environ.get("PYTEST_XDIST_WORKER", ""), **entry}
        with open(Path(os.environ["SCC_RECORDS"]) / f"{os.getpid()}.jsonl", "a") as out:
            out.write(json.dumps(entry) + "\n")

    def run(self, scenario):
        test = os.environ["PYTEST_CURRENT_TEST"].rpartition(" ")[0]
        self._record({"test": test, "scenario": hashlib.sha256(scenario.to_json().encode()).hexdigest()})
        return super().run(scenario)


def recording(*, extender_server=None) -> RecordingBackend:
    return RecordingBackend(extender_server=extender_server)


def broken(*, extender_server=None) -> ReferenceBackend:
    """The reference with two rules broken, each caught by one of BROKEN."""
    def hook(sched) -> None:
        _bind_retried_after_success(sched)
        _each_framework(_reserve_not_short_circuited)(sched)
    return ReferenceBackend(extender_server=extender_server, hook=hook)


@pytest.fixture
def suite(pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    # Run under `pytest -n`, this process is a worker itself: its controller-to-be must not inherit the name.
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)

    def run(backend: str, invariants: tuple[str, ...], *args: str):
        selected = [a for inv in invariants for a in ("--conformance-invariant", inv)]
        return pytester.runpytest_subprocess("--pyargs", "conformance.suite", "-p", "no:cacheprovider",
                                             "--conformance-backend", f"python:{HERE}:{backend}",
                                             "--conformance-profile", "ci",
                                             "--conformance-max-examples", "5", *selected, *args)
    return run


def _records(directory: Path) -> list[dict]:
    return [json.loads(line) for f in sorted(directory.glob("*.jsonl")) for line in f.read_text().splitlines()]


def _examples(records: list[dict]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = defaultdict(list)
    for r in records:
        if "test" in r:
            out[r["test"]].append(r["scenario"])
    return dict(out)


def test_ci_draws_the_same_examples_per_invariant_on_workers_each_with_its_own_backend(suite, pytester, monkeypatch):
    alone, spread = pytester.mkdir("alone"), pytester.mkdir("spread")
    monkeypatch.setenv("SCC_RECORDS", str(alone))
    suite("recording", PASSING, "-p", "no:xdist").assert_outcomes(passed=len(PASSING))
    monkeypatch.setenv("SCC_RECORDS", str(spread))
    result = suite("recording", PASSING, "-n", "2")
    result.assert_outcomes(passed=len(PASSING))
    result.stdout.fnmatch_lines(["*sched-conformance: backend python:*, profile ci", "*2 workers [[]3 items[]]*"])

    records = _records(spread)
    assert _examples(records) == _examples(_records(alone))
    assert all(len(examples) == 5 for examples in _examples(records).values())
    # One backend per process: the controller's (opened before the workers, runs no scenario) and each worker's.
    created = [(r["pid"], r["worker"]) for r in records if "created" in r]
    assert len(created) == len({pid for pid, _ in created}) == 3
    assert {worker for _, worker in created} == {"", "gw0", "gw1"}
    assert {r["worker"] for r in records if "test" in r} == {"gw0", "gw1"}


def test_workers_failing_at_once_write_separate_reproducers_and_one_gitignore(suite, pytester):
    result = suite("broken", BROKEN, "-n", "2", "-v")
    result.assert_outcomes(failed=len(BROKEN))
    workers = {line.split("]")[0].lstrip("[") for line in result.stdout.lines if " FAILED " in line}
    assert workers == {"gw0", "gw1"}, "the failures were meant to happen on both workers"

    reproducers = pytester.path / DEFAULT_REPRODUCERS
    assert sorted(p.name for p in reproducers.iterdir()) == sorted(BROKEN)
    for inv in BROKEN:
        assert json.loads((reproducers / inv / "meta.json").read_text())["invariant"] == inv
        assert (reproducers / inv / "scenario.json").is_file()
    ignore = reproducers.parent / ".gitignore"
    assert ignore.read_text() == "# Created by sched-conformance: reproducers of failures, not sources.\n*\n"
    assert sorted(p.name for p in reproducers.parent.iterdir()) == [".gitignore", "reproducers"]


def test_an_existing_gitignore_is_left_as_it_is(suite, pytester):
    ignore = pytester.path / Path(DEFAULT_REPRODUCERS).parent / ".gitignore"
    ignore.parent.mkdir()
    ignore.write_text("# mine\n*\n")
    suite("broken", BROKEN[:1]).assert_outcomes(failed=1)
    assert ignore.read_text() == "# mine\n*\n"
