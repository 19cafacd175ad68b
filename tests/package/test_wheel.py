"""The package as users install it: the wheel carries the Go and image sources and no build output, builds
and twine's checks are clean, and from a fresh virtualenv outside the checkout the reference and upstream
suites and check-plugin run, building what they need into the user's cache (never into site-packages).
The documented CI jobs run against the same installation (tests/builds/test_own_scheduler_doc.py,
tests/conformance/diff/test_upgrade_gating_doc.py)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conformance.paths import SOURCE_DIRS
from tests.installed import ROOT

needs_go = pytest.mark.skipif(shutil.which("go") is None, reason="needs a Go toolchain to build")


def run(installed, argv, cwd: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(installed.cli), *argv], cwd=cwd, env=installed.env(**env), capture_output=True,
                          text=True, timeout=1800)


@pytest.fixture(scope="module")
def user_cache(installed):
    """A cache of the user's own, empty at first: the stock binaries are built into it on first use."""
    directory = installed.venv.parent / "user-cache"
    directory.mkdir(exist_ok=True)
    return directory


def test_the_wheel_carries_the_sources_and_no_build_output(installed):
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    tracked = subprocess.run(["git", "ls-files", *SOURCE_DIRS], cwd=ROOT, capture_output=True, text=True).stdout.split()
    assert "harness/cmd/runner/main_test.go" in tracked  # the runner's entry point is a test file
    missing = [path for path in tracked if f"conformance/_sources/{path}" not in names]
    assert not missing, f"MANIFEST.in or setup.py leaves these out of the wheel: {missing}"
    assert not [n for n in names if "/_sources/harness/bin/" in n or n.startswith("tests/")]


def test_build_and_twine_check_are_clean(tmp_path):
    built = subprocess.run([sys.executable, "-m", "build", "--outdir", str(tmp_path), str(ROOT)],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr[-2000:]
    # setuptools says for every wheel that it does not byte-compile (pip does, on install); anything else counts.
    warnings = [line for line in (built.stdout + built.stderr).splitlines()
                if "warn" in line.lower() and "byte-compiling is disabled" not in line]
    assert not warnings, warnings
    checked = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *map(str, tmp_path.iterdir())],
                             capture_output=True, text=True, timeout=300)
    assert checked.returncode == 0 and checked.stdout.count("PASSED") == 2, checked.stdout + checked.stderr


def test_the_reference_suite_runs_outside_the_checkout(installed):
    project = installed.project("reference")
    result = run(installed, ["run", "--backend", "reference", "--max-examples", "2"], project)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert " passed" in result.stdout.splitlines()[-1] and "failed" not in result.stdout.splitlines()[-1]


@needs_go
def test_the_upstream_suite_builds_its_runner_into_the_users_cache(installed, user_cache):
    project = installed.project("upstream")
    result = run(installed, ["run", "--backend", "upstream", "--max-examples", "2"], project,
                 SCHED_CONFORMANCE_CACHE=str(user_cache))
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "backend upstream, Kubernetes v1." in result.stdout
    assert "failed" not in result.stdout.splitlines()[-1]
    runners = list(user_cache.glob("sources/*/harness/bin/runner"))
    assert len(runners) == 1, sorted(str(p) for p in user_cache.rglob("*"))[:20]
    site_packages = next(installed.venv.glob("lib/python*/site-packages"))
    assert not list(site_packages.glob("conformance/_sources/harness/bin"))
    assert sorted(p.name for p in project.iterdir()) == ["examples"]  # nothing written into the user's tree


@needs_go
def test_check_plugin_builds_the_driver_and_checks_a_plugin(installed, user_cache):
    project = installed.project("check-plugin")
    result = run(installed, ["check-plugin", "NodeResourcesFit", "--max-examples", "2", "--contract",
                             "plugin-deterministic"], project, SCHED_CONFORMANCE_CACHE=str(user_cache))
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "1 passed" in result.stdout.splitlines()[-1]
    assert list(user_cache.glob("sources/*/harness/bin/driver"))


def test_the_kind_extra_gives_kind_cluster_the_suites_cluster(installed):
    """`pip install 'kube-scheduler-conformance[kind]'` brings pytest-kind, and its `kind_cluster` is then the suite's
    with --conformance-kind-fixture (on a real cluster: tests/cluster/test_kind_fixture.py)."""
    extra = subprocess.run([str(installed.python), "-m", "pip", "install", "--quiet", f"{installed.wheel}[kind]"],
                           capture_output=True, text=True, env=installed.env(), timeout=600)
    assert extra.returncode == 0, extra.stderr[-2000:]
    project = installed.project("kind", examples=False)
    (project / "test_user.py").write_text("def test_users_own(kind_cluster):\n    pass\n")
    used = subprocess.run([str(installed.python), "-m", "pytest", "-p", "no:cacheprovider", "--fixtures-per-test",
                           "-v", "--conformance-kind-fixture", "test_user.py"], cwd=project, env=installed.env(),
                          capture_output=True, text=True, timeout=300)
    assert used.returncode == 0, used.stdout[-2000:] + used.stderr[-2000:]
    fixture = [line for line in used.stdout.splitlines() if line.startswith("kind_cluster -- ")]
    assert len(fixture) == 1 and "site-packages/conformance/cluster/kind_fixture.py" in fixture[0], used.stdout
