"""The pytest plugin in a user's repository: beside pytest-kind (which registers `--kubeconfig`), beside a conftest
that defines `--context` and `--kubeconfig`, and under `-W error` / `filterwarnings = ["error"]`, a user's own test
and the suite both run. Each session is a fresh `python -m pytest` (or `sched-conformance`) process, as in CI."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conformance import paths

ROOT = Path(__file__).resolve().parents[2]
SUITE = ["--pyargs", "conformance.suite", "--conformance-backend", "reference", "--conformance-max-examples", "2",
         "--conformance-invariant", "capacity-respected", "-k", "invariant or users_own"]
CLI = ["-c", "import sys; from conformance.cli import main; sys.exit(main())"]

USER_TEST = """
def test_users_own(request):
    assert request.config.getoption("{option}") == "{value}"
"""

USER_CONFTEST = """
def pytest_addoption(parser):
    parser.addoption("--context", default=None, help="the user's kube context")
    parser.addoption("--kubeconfig", default=None, help="the user's kubeconfig")
"""


def _run(cwd: Path, *argv: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    env.pop("PYTEST_ADDOPTS", None)
    env.pop("PYTEST_XDIST_WORKER", None)
    return subprocess.run([sys.executable, *argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def _passed(proc: subprocess.CompletedProcess, count: int) -> None:
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert f"{count} passed" in proc.stdout.splitlines()[-1], proc.stdout[-2000:]


def test_beside_pytest_kind(tmp_path):
    if importlib.util.find_spec("pytest_kind") is None:
        pytest.fail("pytest-kind is not installed: `pip install -e '.[dev]'` (it is in the dev extra)")
    (tmp_path / "test_user.py").write_text(USER_TEST.format(option="kubeconfig", value="users-kubeconfig.yaml"))
    user = _run(tmp_path, "-m", "pytest", "-p", "no:cacheprovider", "test_user.py", "--kubeconfig",
                "users-kubeconfig.yaml", "--cluster-name", "theirs")
    _passed(user, 1)
    both = _run(tmp_path, "-m", "pytest", "-p", "no:cacheprovider", "test_user.py", *SUITE, "--kubeconfig",
                "users-kubeconfig.yaml")
    _passed(both, 2)
    assert "kind-" in both.stdout  # pytest-kind was loaded: "plugins: ..., kind-22.11.1, ..."


def test_beside_a_conftest_defining_context_and_kubeconfig(tmp_path):
    (tmp_path / "conftest.py").write_text(USER_CONFTEST)
    (tmp_path / "test_user.py").write_text(USER_TEST.format(option="context", value="staging"))
    # pytest-kind (when installed) defines --kubeconfig too; this user has their own instead.
    argv = ["-m", "pytest", "-p", "no:cacheprovider", "-p", "no:pytest-kind", "test_user.py", "--context", "staging",
            "--kubeconfig", "theirs.yaml"]
    _passed(_run(tmp_path, *argv), 1)
    both = _run(tmp_path, *argv, *SUITE)
    _passed(both, 2)


def test_the_cli_under_W_error(tmp_path):
    """`sched-conformance run` imports neither Hypothesis nor anything pytest rewrites before pytest.main: under
    `-W error` pytest's "Module already imported so cannot be rewritten" warning would end the run."""
    proc = _run(tmp_path, *CLI, "run", "--invariant", "capacity-respected", "--max-examples", "2", "--", "-W", "error",
                "-k", "invariant")
    _passed(proc, 1)
    assert "PytestAssertRewriteWarning" not in proc.stdout + proc.stderr


def test_the_cli_and_the_plugin_in_a_project_that_turns_warnings_into_errors(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.pytest.ini_options]\nfilterwarnings = ["error"]\n')
    (tmp_path / "test_user.py").write_text("def test_users_own():\n    pass\n")
    cli = _run(tmp_path, *CLI, "run", "--invariant", "capacity-respected", "--max-examples", "2", "--", "-k",
               "invariant")
    _passed(cli, 1)
    assert "PytestAssertRewriteWarning" not in cli.stdout + cli.stderr
    plain = _run(tmp_path, "-m", "pytest", "-p", "no:cacheprovider", "test_user.py")
    _passed(plain, 1)
    both = _run(tmp_path, "-m", "pytest", "-p", "no:cacheprovider", "test_user.py", *SUITE)
    _passed(both, 2)


def test_inert_in_a_users_session(tmp_path):
    """Without a `--conformance-*` option the plugin adds options and a marker, and nothing else."""
    (tmp_path / "test_user.py").write_text(
        "import sys\n\ndef test_users_own():\n"
        "    assert not [m for m in sys.modules if m.startswith(('conformance.', 'generators'))"
        " and m not in ('conformance.pytest_plugin', 'conformance.options')]\n")
    proc = _run(tmp_path, "-m", "pytest", "-p", "no:cacheprovider", "-W", "error", "test_user.py")
    _passed(proc, 1)
    assert "sched-conformance" not in proc.stdout
    assert {p.name for p in tmp_path.iterdir()} <= {"test_user.py", "__pycache__"}


@pytest.mark.skipif(not (paths.stock_bin() / "driver").is_file() and shutil.which("go") is None,
                    reason="needs the stock plugin driver, or Go to build it")
def test_check_plugin_under_W_error(tmp_path):
    """The contract suite closes its driver processes' pipes: a ResourceWarning is an error under `-W error`."""
    proc = _run(tmp_path, *CLI, "check-plugin", "NodeResourcesFit", "--max-examples", "2", "--contract",
                "plugin-no-panic", "--contract", "plugin-deterministic", "--", "-W", "error")
    _passed(proc, 2)


KIND_USER_TEST = "def test_users_own(kind_cluster):\n    pass\n"


def test_the_kind_fixture_option_gives_kind_cluster_the_suites_cluster(tmp_path):
    """With --conformance-kind-fixture the `kind_cluster` tests get is the suite's (registered after pytest-kind's
    plugin); without it, pytest-kind's own. Which one runs on a cluster: tests/cluster/test_kind_fixture.py."""
    if importlib.util.find_spec("pytest_kind") is None:
        pytest.fail("pytest-kind is not installed: `pip install -e '.[dev]'` (it is in the dev extra)")
    (tmp_path / "test_user.py").write_text(KIND_USER_TEST)
    argv = ["-m", "pytest", "-p", "no:cacheprovider", "--fixtures-per-test", "-v", "test_user.py"]
    used = {option: [line for line in _run(tmp_path, *argv, *option).stdout.splitlines()
                     if line.startswith("kind_cluster -- ")] for option in ((), ("--conformance-kind-fixture",))}
    assert len(used[()]) == 1 and used[()][0].endswith(os.path.join("pytest_kind", "plugin.py:8")), used
    ours = used[("--conformance-kind-fixture",)]
    assert len(ours) == 1 and os.path.join("conformance", "cluster", "kind_fixture.py") in ours[0], used


@pytest.mark.parametrize("args, message", [
    (("-p", "no:pytest-kind"), "sched-conformance: --conformance-kind-fixture replaces pytest-kind's kind_cluster "
                               "fixture, and pytest-kind is not loaded: pip install 'kube-scheduler-conformance[kind]' "
                               "(and drop -p no:pytest-kind)"),
    (("--kind-image", "kindest/node:v1.35.0"), "sched-conformance: --kind-image: --conformance-kind-fixture gives "
                                               "kind_cluster the suite's kind, kubectl, image and kubeconfig; drop "
                                               "--kind-image (or --conformance-kind-fixture for pytest-kind's own "
                                               "cluster)"),
], ids=["without-pytest-kind", "with-kind-image"])
def test_the_kind_fixture_option_refuses_in_one_line(tmp_path, args, message):
    (tmp_path / "test_user.py").write_text(KIND_USER_TEST)
    proc = _run(tmp_path, "-m", "pytest", "-p", "no:cacheprovider", "--conformance-kind-fixture", *args, "test_user.py")
    assert proc.returncode == 4 and proc.stderr.strip().splitlines() == [f"ERROR: {message}"], proc.stderr
    assert {p.name for p in tmp_path.iterdir()} == {"test_user.py"}
