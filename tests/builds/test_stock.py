"""Stock binaries built on first use: a build script's progress, with a heartbeat while a step is silent, and
one line naming the cause when the binary cannot be had."""

from __future__ import annotations

import pytest

from conformance import paths
from conformance.builds import script, stock
from conformance.core import progress
from conformance.core.errors import BackendUnavailable


@pytest.fixture
def said(monkeypatch):
    lines: list[str] = []
    progress.set_sink(lines.append)
    yield lines
    progress.set_sink(None)


def test_build_lines_pass_on_and_a_silent_step_has_a_heartbeat(tmp_path, monkeypatch, said):
    monkeypatch.setattr(script, "HEARTBEAT", 0.2)
    fake = tmp_path / "build.sh"
    fake.write_text("echo '[build.sh +0s] step runner: go build ./cmd/runner' >&2\nsleep 0.7\n"
                    "echo 'cmd/runner/x.go:1:1: undefined: y' >&2\necho '[build.sh +1s] all done' >&2\n")
    code, output = script.run_build_script(["bash", fake], prefix="p")
    assert code == 0 and "undefined: y" in output
    assert said[0] == "[p] [build.sh +0s] step runner: go build ./cmd/runner"
    assert any(line.startswith("[p] still at step runner (") for line in said[1:-1]), said
    assert said[-1] == "[p] [build.sh +1s] all done"
    assert not any("undefined" in line for line in said)  # Go's output is for the error, not the progress


def test_a_binary_missing_from_the_given_directory_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv(paths.BIN_ENV, str(tmp_path))
    with pytest.raises(BackendUnavailable) as info:
        stock.stock_binary("runner")
    assert str(info.value) == (f"$SCHED_CONFORMANCE_BIN is {tmp_path}, which has no executable runner; build it "
                               "there (`harness/build.sh --out DIR`) or unset $SCHED_CONFORMANCE_BIN to let the "
                               "suite build it")


def test_without_go_a_missing_binary_names_what_to_install(tmp_path, monkeypatch):
    monkeypatch.delenv(paths.BIN_ENV, raising=False)
    monkeypatch.setattr(paths, "stock_bin", lambda: tmp_path)
    monkeypatch.setattr(stock.shutil, "which", lambda name: None)
    with pytest.raises(BackendUnavailable) as info:
        stock.stock_binary("driver-race")
    assert str(info.value).startswith("building driver-race needs Go and gcc (-race needs cgo): `go` is not on PATH")


def test_a_failed_build_names_the_first_go_error(tmp_path, monkeypatch):
    monkeypatch.delenv(paths.BIN_ENV, raising=False)
    harness = tmp_path / "harness"
    harness.mkdir()
    (harness / "build.sh").write_text("echo '[build.sh +0s] step runner: go build' >&2\n"
                                      "echo 'go: downloading x v1' >&2\necho 'probe/p.go:3:2: undefined: z' >&2\n"
                                      "exit 1\n")
    monkeypatch.setattr(paths, "harness", lambda: harness)
    monkeypatch.setattr(paths, "stock_bin", lambda: harness / "bin")
    monkeypatch.setattr(stock.shutil, "which", lambda name: "/usr/bin/go")
    with pytest.raises(BackendUnavailable) as info:
        stock.stock_binary("runner")
    assert str(info.value).startswith("building runner failed: probe/p.go:3:2: undefined: z; run `bash ")


def test_a_build_with_nothing_to_do_is_silent(tmp_path, said):
    fake = tmp_path / "build.sh"
    fake.write_text("echo '[build.sh +0s] step download: done in 0s' >&2\n"
                    "echo '[build.sh +0s] step driver: up to date' >&2\necho '[build.sh +0s] all done in 0s' >&2\n")
    code, output = script.run_build_script(["bash", fake], prefix="p")
    assert code == 0 and "up to date" in output
    assert said == []
