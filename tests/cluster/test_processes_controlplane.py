"""Process handling and the control plane's failure reports, with small stand-in binaries."""

import os
import shutil
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conformance.cluster import processes
from conformance.cluster.controlplane import ControlPlane
from conformance.cluster.local_scheduler import probe_check
from conformance.cluster.state import StateDir
from conformance.core.errors import BackendUnavailable


def _sleeper(path: Path) -> Path:
    """A copy of `sleep` under another name: /proc shows that name, as for a real component."""
    shutil.copy(shutil.which("sleep"), path)
    return path


def _script(path: Path, body: str) -> Path:
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_spawn_alive_stop(tmp_path):
    binary = _sleeper(tmp_path / "etcd")
    pid = processes.spawn([str(binary), "30"], tmp_path / "log")
    assert processes.alive(pid, "etcd")
    assert not processes.alive(pid, "kube-apiserver"), "a pid running something else is not ours"
    assert processes.stop(pid, "etcd", grace=2)
    assert not processes.alive(pid, "etcd")
    assert not processes.stop(pid, "etcd", grace=2), "stopping twice is fine and reports nothing stopped"


def test_a_tied_child_dies_with_its_parent(tmp_path):
    sleeper = _sleeper(tmp_path / "etcd")
    code = ("import sys, time; from pathlib import Path; from conformance.cluster import processes; "
            f"print(processes.spawn([{str(sleeper)!r}, '30'], Path({str(tmp_path / 'log')!r}), tied=True), flush=True); "
            "time.sleep(30)")
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    child = int(parent.stdout.readline())
    # Until the fork has exec'd setpriv, /proc still shows python; setpriv arms the death signal just
    # before it execs the binary. Wait for that exec: before it, a loaded machine sees neither.
    deadline = time.monotonic() + 5
    while Path(f"/proc/{child}/comm").read_text().strip() != "etcd" and time.monotonic() < deadline:
        time.sleep(0.01)
    assert processes.alive(child, "etcd")
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 5
    while processes.alive(child, "etcd") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not processes.alive(child, "etcd")


def test_wait_until_reports_an_early_exit_with_the_log(tmp_path):
    binary = _script(tmp_path / "dies", "echo 'listen tcp 127.0.0.1:1: bind: address already in use'; exit 1")
    log = tmp_path / "dies.log"
    pid = processes.spawn([str(binary)], log)
    with pytest.raises(BackendUnavailable, match=rf"dies exited during start \(a port it needs is taken.*see {log}"):
        processes.wait_until(lambda: False, pid=pid, binary="dies", what="dies", log=log, timeout=10)


def test_wait_until_times_out_naming_the_log(tmp_path):
    binary = _sleeper(tmp_path / "slow")
    log = tmp_path / "slow.log"
    pid = processes.spawn([str(binary), "30"], log)
    try:
        with pytest.raises(BackendUnavailable, match=f"slow did not become ready in 0 s; see {log}"):
            processes.wait_until(lambda: False, pid=pid, binary="slow", what="slow", log=log, timeout=0.2)
    finally:
        processes.stop(pid, "slow", grace=1)


def test_port_taken():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        assert processes.port_taken(s.getsockname()[1])
    assert not processes.port_taken(processes.free_port())


@pytest.mark.parametrize("output,expected", [
    ('I1 server.go:187] "Starting Kubernetes Scheduler" version="v1.37.1"\nsleep', True),
    ('E1 run.go:72] "command failed" err="... PreFilterPlugin \\"Probe0\\" does not exist"', False),
])
def test_probe_check_reads_the_schedulers_answer(tmp_path, output, expected):
    lines = "\n".join(f"echo '{ln}'" if ln != "sleep" else "exec sleep 30" for ln in output.split("\n"))
    binary = _script(tmp_path / "kube-scheduler", lines)
    assert probe_check(binary, tmp_path / "work") is expected


def test_probe_check_refuses_a_binary_that_is_not_a_scheduler(tmp_path):
    binary = _script(tmp_path / "kube-scheduler", "echo hello")
    with pytest.raises(BackendUnavailable, match="neither accepted nor rejected plugin Probe0: hello"):
        probe_check(binary, tmp_path / "work")


def test_up_names_the_missing_binary_and_the_build_command(tmp_path):
    cp = ControlPlane(StateDir(tmp_path / "state"), binaries=tmp_path / "bin")
    with pytest.raises(BackendUnavailable, match=rf"etcd not found at {tmp_path}/bin/etcd; build it with "
                                                 r"`harness/build.sh --control-plane`"):
        cp.up()


def _fake_bin(tmp_path: Path, etcd_body: str) -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    _script(bin_dir / "etcd", etcd_body)
    _sleeper(bin_dir / "kube-apiserver")
    _sleeper(bin_dir / "kube-scheduler")
    return bin_dir


def test_up_reports_a_component_that_dies_with_its_log(tmp_path):
    state = StateDir(tmp_path / "state")
    cp = ControlPlane(state, binaries=_fake_bin(tmp_path, "echo 'etcd: cannot access data directory'; exit 1"))
    with pytest.raises(BackendUnavailable, match=f"etcd exited during start: .*cannot access data directory.*"
                                                 f"see {state.log('etcd')}"):
        cp.up()
    assert cp.down() == ["control plane not running"]


def test_up_refuses_a_taken_port(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        cp = ControlPlane(StateDir(tmp_path / "state"), binaries=_fake_bin(tmp_path, "exit 0"),
                          apiserver_port=port)
        with pytest.raises(BackendUnavailable, match=f"port 127.0.0.1:{port} is taken"):
            cp.up()


def test_status_and_down_when_nothing_was_started(tmp_path):
    cp = ControlPlane(StateDir(tmp_path / "state"))
    status = cp.status()
    assert not status.ready and status.lines()[0] == "control plane not running"
    assert all("never started" in c.line() for c in status.components)
    assert cp.down() == ["control plane not running"] == cp.down()


def test_down_after_a_crash_stops_survivors_and_forgets_the_state(tmp_path):
    state = StateDir(tmp_path / "state")
    state.prepare()
    survivor = processes.spawn([str(_sleeper(tmp_path / "etcd")), "30"], state.log("etcd"))
    # As a crash leaves it: the apiserver's pid is dead, etcd still runs.
    state.write({"server": "https://127.0.0.1:1", "etcd": {"pid": survivor, "port": 1},
                 "kube-apiserver": {"pid": 2 ** 22 + 7, "port": 2}})
    cp = ControlPlane(state)
    assert [c.running for c in cp.status().components] == [True, False, False]
    assert not cp.status().ready
    assert cp.down() == [f"stopped etcd (pid {survivor})"]
    assert not processes.alive(survivor, "etcd") and state.read() == {}
    assert cp.down() == ["control plane not running"]
