"""kind-node/runc-drop-caps.py: the capabilities the host lacks leave the spec, nothing else changes."""

import importlib.util
import json
from pathlib import Path

import pytest

WRAPPER = Path(__file__).resolve().parents[2] / "kind-node" / "runc-drop-caps.py"
ALL = ["CAP_CHOWN", "CAP_SYS_ADMIN", "CAP_SYS_RESOURCE", "CAP_NET_ADMIN"]


@pytest.fixture
def wrapper(monkeypatch):
    spec = importlib.util.spec_from_file_location("runc_drop_caps", WRAPPER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "missing_caps", lambda: {"CAP_SYS_RESOURCE"})
    execs = []
    monkeypatch.setattr(module.os, "execv", lambda path, argv: execs.append(argv))
    module.execs = execs
    return module


def _caps():
    return {kind: list(ALL) for kind in ("bounding", "effective", "permitted", "inheritable")}


def _without_resource():
    return {kind: [c for c in ALL if c != "CAP_SYS_RESOURCE"] for kind in ("bounding", "effective", "permitted",
                                                                         "inheritable")}


@pytest.mark.parametrize("bundle_flag", ["--bundle", "-b", "--bundle="])
def test_create_drops_the_missing_capability_from_the_bundle(wrapper, tmp_path, monkeypatch, bundle_flag):
    (tmp_path / "config.json").write_text(json.dumps({"ociVersion": "1.0.2", "process": {"capabilities": _caps()},
                                                      "hostname": "n"}))
    bundle = [bundle_flag + str(tmp_path)] if bundle_flag.endswith("=") else [bundle_flag, str(tmp_path)]
    argv = ["--root", "/run/runc", "--log", "/l.json", "--log-format", "json", "create", *bundle, "--pid-file",
            "/p", "id1"]
    monkeypatch.setattr("sys.argv", ["runc-drop-caps", *argv])
    wrapper.main()
    spec = json.loads((tmp_path / "config.json").read_text())
    assert spec["process"]["capabilities"] == _without_resource() and spec["hostname"] == "n"
    assert wrapper.execs == [[wrapper.RUNC, *argv]], "runc gets the arguments unchanged"


def test_exec_drops_it_from_the_process_spec(wrapper, tmp_path, monkeypatch):
    process = tmp_path / "process.json"
    process.write_text(json.dumps({"args": ["sh"], "capabilities": _caps()}))
    monkeypatch.setattr("sys.argv", ["w", "--root", "/r", "exec", "--process", str(process), "--detach", "id1"])
    wrapper.main()
    assert json.loads(process.read_text()) == {"args": ["sh"], "capabilities": _without_resource()}


def test_other_commands_and_complete_hosts_pass_through(wrapper, tmp_path, monkeypatch):
    (tmp_path / "config.json").write_text(json.dumps({"process": {"capabilities": _caps()}}))
    before = (tmp_path / "config.json").read_text()
    monkeypatch.setattr("sys.argv", ["w", "--root", "/r", "delete", "--force", "id1"])
    wrapper.main()
    monkeypatch.setattr(wrapper, "missing_caps", lambda: set())
    monkeypatch.setattr("sys.argv", ["w", "create", "--bundle", str(tmp_path), "id1"])
    wrapper.main()
    assert (tmp_path / "config.json").read_text() == before
    assert [argv[1:] for argv in wrapper.execs] == [["--root", "/r", "delete", "--force", "id1"],
                                                    ["create", "--bundle", str(tmp_path), "id1"]]


def test_missing_caps_reads_the_bounding_set(wrapper):
    spec = importlib.util.spec_from_file_location("fresh", WRAPPER)
    fresh = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fresh)
    status = Path("/proc/self/status").read_text()
    bounding = int(next(line.split()[1] for line in status.splitlines() if line.startswith("CapBnd:")), 16)
    expected = {f"CAP_{name}" for bit, name in enumerate(fresh.CAPS) if not bounding >> bit & 1}
    assert fresh.missing_caps() == expected
    assert fresh.CAPS.index("SYS_RESOURCE") == 24 and len(fresh.CAPS) == 41
