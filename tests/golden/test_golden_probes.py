"""The golden probe traces (tests/golden/probes/) still hold on the reference, and the check bites.

harness/probe/golden_test.go holds the Go probes on the upstream scheduler to the same files.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from reference.probe import Probe, ProbeTracker
from reference.probe.trace import Trace
from reference.scenario import Scenario
from reference.status import Code, Status

from .builders import Golden
from .write_probes import GOLDEN_DIR, GOLDENS, WRITE_COMMAND, render, trace_of, write_all

REGENERATE = (f"if the probes changed on purpose (docs/probes.md), re-run `{WRITE_COMMAND}` and check the Go side: "
              "`cd harness && go test ./probe/ -run TestGoldenTraces`")


def load(name: str) -> dict[str, Any]:
    path = GOLDEN_DIR / f"{name}.json"
    if not path.is_file():
        pytest.fail(f"{path} is missing; {REGENERATE}")
    return json.loads(path.read_text())


def mismatch(want: list[dict[str, Any]], got: list[dict[str, Any]]) -> str | None:
    """The first difference between two traces, in words; None when they are equal."""
    for i, (w, g) in enumerate(zip(want, got)):
        if w != g:
            return f"record {i}: golden {json.dumps(w)}, reference {json.dumps(g)}"
    if len(want) != len(got):
        extra = (got if len(got) > len(want) else want)[min(len(want), len(got))]
        return f"golden has {len(want)} records, reference {len(got)}; first unmatched: {json.dumps(extra)}"
    return None


def golden_run(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The reference's trace of the scenario as the file holds it (what the Go test reads too)."""
    scenario = Scenario.from_dict(data["scenario"])
    return trace_of(Golden("file", data["about"], scenario))


# --- the goldens hold -------------------------------------------------------------------------------

def test_the_curated_list_is_large_and_names_are_unique():
    names = [g.name for g in GOLDENS]
    assert 30 <= len(names) <= 60 and len(set(names)) == len(names)


def test_the_directory_holds_exactly_the_curated_goldens():
    on_disk = sorted(p.stem for p in GOLDEN_DIR.glob("*.json"))
    assert on_disk == sorted(g.name for g in GOLDENS), REGENERATE


@pytest.mark.parametrize("golden", GOLDENS, ids=lambda g: g.name)
def test_reference_trace_equals_the_golden_file(golden: Golden):
    data = load(golden.name)
    assert data["scenario"] == golden.scenario.to_dict() and data["about"] == golden.about, \
        f"{golden.name}.json holds another scenario than tests/golden/scenarios_*.py; {REGENERATE}"
    diff = mismatch(data["trace"], golden_run(data))
    assert diff is None, f"{golden.name}: the reference's probe trace differs from the golden file at {diff}; " \
                         f"{REGENERATE}"


def test_writer_reproduces_the_files_byte_for_byte_and_drops_stale_ones(tmp_path):
    (tmp_path / "renamed-away.json").write_text("{}")
    written = write_all(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in written)
    for path in written:
        assert path.read_text() == (GOLDEN_DIR / path.name).read_text(), f"{path.name}: {REGENERATE}"


def test_every_trace_field_and_point_appears_in_some_golden():
    """The goldens cover the trace format of docs/probes.md (all but `leaked`, which needs a broken
    framework) and every status code the probes return."""
    records = [r for g in GOLDENS for r in load(g.name)["trace"]]
    fields = set().union(*records)
    assert fields >= {"seq", "t", "attempt", "pod", "plugin", "point", "node", "code", "reasons", "score",
                      "scores", "result", "nominate", "timeout", "delivered"}
    points = {r["point"] for r in records}
    assert points >= {"PreEnqueue", "PreFilter", "AddPod", "RemovePod", "Filter", "PostFilter", "PreScore", "Score",
                      "NormalizeScore", "Reserve", "Unreserve", "Permit", "Allow", "Reject", "PreBindPreFlight",
                      "PreBind", "Bind", "PostBind"}
    assert {r.get("code") for r in records} >= {c.upstream_name for c in Code}


# --- the check catches broken probes -----------------------------------------------------------------

def _swap_first_two_records(original):
    def snapshot(self):
        records = original(self)
        if len(records) > 2:
            records[1], records[2] = records[2], records[1]
        return records
    return snapshot


def _rejections_recorded_as_success(original):
    def record(self, point, pod, attempt, node="", status=None, **extra):
        if status is not None and status.is_rejected():
            status = Status.new(Code.SUCCESS, *status.reasons)
        return original(self, point, pod, attempt, node, status, **extra)
    return record


def _score_off_by_one(original):
    def score(self, state, pod, node_info):
        value, status = original(self, state, pod, node_info)
        return value + 1, status
    return score


def _bind_success_skipped(original):
    def bind(self, state, pod, node_name):
        attempt, _ = self._cycle(state, pod)
        status = Status.new(Code.SKIP)
        self._record("Bind", pod, attempt, node_name, status)
        return status
    return bind


def _cycles_never_advance(original):
    def next_cycle(self, pod):
        return 1
    return next_cycle


def _unreserve_untraced(original):
    def unreserve(self, state, pod, node_name):
        return None
    return unreserve


BROKEN = {
    "two-records-swapped": (Trace, "snapshot", _swap_first_two_records),
    "rejections-recorded-as-success": (Probe, "_record", _rejections_recorded_as_success),
    "score-off-by-one": (Probe, "score", _score_off_by_one),
    "bind-success-acts-as-skip": (Probe, "bind", _bind_success_skipped),
    "attempt-counter-stuck-at-1": (ProbeTracker, "next_cycle", _cycles_never_advance),
    "unreserve-not-traced": (Probe, "unreserve", _unreserve_untraced),
}


@pytest.mark.parametrize("broken", sorted(BROKEN))
def test_a_broken_probe_fails_some_golden(broken: str, monkeypatch):
    obj, name, make = BROKEN[broken]
    monkeypatch.setattr(obj, name, make(getattr(obj, name)))
    caught = [g.name for g in GOLDENS if mismatch(load(g.name)["trace"], golden_run(load(g.name)))]
    assert caught, f"no golden notices the probe mutant {broken!r}"


def test_render_writes_one_record_per_line():
    golden = GOLDENS[0]
    text = render(golden, [{"seq": 0}, {"seq": 1}])
    assert '\n  {"seq": 0},\n  {"seq": 1}\n ]\n}\n' in text and json.loads(text)["trace"] == [{"seq": 0}, {"seq": 1}]
