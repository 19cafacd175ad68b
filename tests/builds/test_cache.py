"""The build cache: entries listed with what they are, least recently used removed first, never the entry
just built, and `sched-conformance cache` as a command."""

from __future__ import annotations

import json

import pytest

from conformance import cli, paths
from conformance.builds import cache


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("SCHED_CONFORMANCE_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def make_build(name: str, size: int, used: float, version: str = "v1.37.2"):
    directory = paths.builds() / name
    (directory / "bin").mkdir(parents=True)
    (directory / "bin" / "runner").write_bytes(b"x" * size)
    (directory / "built.json").write_text(json.dumps({"k8sVersion": version, "plugins": [f"{name}=m/p.New"]}))
    (directory / ".last-used").write_text(str(used))
    return directory


def test_the_cache_follows_xdg_and_its_own_variable(monkeypatch, tmp_path):
    monkeypatch.delenv("SCHED_CONFORMANCE_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert paths.cache() == tmp_path / "xdg" / "sched-conformance"
    monkeypatch.setenv("SCHED_CONFORMANCE_CACHE", str(tmp_path / "own"))
    assert paths.builds() == tmp_path / "own" / "builds"


def test_eviction_removes_the_least_recently_used_first(cache_dir):
    old, middle, new = make_build("old", 4000, 1.0), make_build("middle", 4000, 2.0), make_build("new", 4000, 3.0)
    removed = cache.evict(max_size=9000)
    assert [e.path for e in removed] == [old]
    assert middle.exists() and new.exists()


def test_eviction_never_removes_the_entry_in_use(cache_dir):
    old, new = make_build("old", 4000, 1.0), make_build("new", 4000, 2.0)
    cache.evict(keep=old, max_size=0)
    assert old.exists() and not new.exists()


def test_the_cap_comes_from_the_environment(cache_dir, monkeypatch):
    make_build("a", 3000, 1.0), make_build("b", 3000, 2.0)
    monkeypatch.setenv(cache.MAX_ENV, "0")
    assert cache.evict() == []  # 0 turns the cap off
    monkeypatch.setenv(cache.MAX_ENV, "4K")
    assert [e.path.name for e in cache.evict()] == ["a"]


@pytest.mark.parametrize("text,size", [("10G", 10 << 30), ("500M", 500 << 20), ("0", 0), ("1.5K", 1536),
                                       ("2GiB", 2 << 30)])
def test_sizes_parse(text, size):
    assert cache.parse_size(text) == size


def test_the_cache_command_lists_and_prunes(cache_dir, capsys):
    make_build("a", 1000, 1.0), make_build("b", 2000, 2.0, version="v1.36.4")
    assert cli.main(["cache", "list"]) == 0
    out = capsys.readouterr().out
    assert out.index("  b  Kubernetes v1.36.4 with b=m/p.New") < out.index("  a  Kubernetes v1.37.2 with a=m/p.New")
    assert "2 entries" in out
    assert cli.main(["cache", "prune", "--max-size", "2500"]) == 0
    assert "removed" in capsys.readouterr().out and not (paths.builds() / "a").exists()
    assert cli.main(["cache", "prune"]) == 0
    assert list(paths.builds().iterdir()) == []


def test_a_bad_size_is_one_line(cache_dir, capsys):
    assert cli.main(["cache", "prune", "--max-size", "lots"]) == 2
    assert capsys.readouterr().err.strip() == ("sched-conformance: size 'lots': give a number with an optional unit "
                                               "K, M, G or T, e.g. 10G")


def test_installed_sources_are_copied_once_and_whole(tmp_path, monkeypatch, cache_dir):
    packaged = tmp_path / "packaged"
    for name in paths.SOURCE_DIRS:
        (packaged / name).mkdir(parents=True)
    (packaged / "harness" / "go.mod").write_text("module x\n")
    (packaged / "harness" / "build.sh").write_text("#!/bin/sh\n")
    (packaged / "harness" / "bin").mkdir()
    (packaged / "harness" / "bin" / "stale").write_text("build output is not a source")
    monkeypatch.setattr(paths, "PACKAGED", packaged)
    monkeypatch.setattr(paths, "checkout", lambda: None)
    paths.sources.cache_clear()
    try:
        first = paths.sources()
        paths.sources.cache_clear()
        assert paths.sources() == first and first.parent == cache_dir / "sources"
        assert (first / "harness" / "go.mod").read_text() == "module x\n"
        assert (first / "harness" / "build.sh").stat().st_mode & 0o111
        assert not (first / "harness" / "bin").exists()
        (packaged / "harness" / "go.mod").write_text("module y\n")  # another release of the package
        paths.sources.cache_clear()
        assert paths.sources() != first
    finally:
        paths.sources.cache_clear()
