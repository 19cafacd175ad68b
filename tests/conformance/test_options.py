"""The option table (conformance/options.py): every CLI option of `run` and `check-plugin` reaches the pytest
plugin as the same value, and every pytest option of the plugin is namespaced."""

from __future__ import annotations

import os

import pytest

from conformance import cli
from conformance.options import OPTIONS, for_command, pytest_argv
from conformance.search.profiles import EXAMPLE_DB_ENV

pytest_plugins = ["pytester"]


def _given(option) -> list[str]:
    """The CLI arguments giving `option` a value that differs from its default."""
    if option.action == "store_true":
        return ["--" + option.flag]
    value = option.choices[-1] if option.choices else "3" if option.type else f"x-{option.flag}"
    return ["--" + option.flag, value] * (2 if option.action == "append" else 1)


@pytest.mark.parametrize("command", ["run", "check-plugin"])
def test_every_option_of_the_command_reaches_pytest_as_given(pytester, command):
    argv = [command, *(["--all"] if command == "check-plugin" else [])]
    argv += [arg for option in for_command(command) if option.flag != "all" for arg in _given(option)]
    args = cli.parser().parse_args(argv)
    config = pytester.parseconfig(*pytest_argv(args, command))
    for option in for_command(command):
        assert config.getoption(option.dest) == getattr(args, option.dest), option.flag
        assert getattr(args, option.dest) not in (None, [], False, option.pytest_default), option.flag


def test_the_plugin_registers_only_namespaced_options(pytester):
    config = pytester.parseconfig()
    group = next(g for g in config._parser._groups if g.name == "sched-conformance")
    names = [name for opt in group.options for name in opt.names()]
    assert names and all(name.startswith("--conformance-") for name in names), names
    assert len(names) == len(OPTIONS)


def test_example_db_holds_for_the_session_only(pytester, tmp_path, monkeypatch):
    monkeypatch.delenv(EXAMPLE_DB_ENV, raising=False)
    pytester.makepyfile(f"""
import os

def test_sees_it():
    assert os.environ[{EXAMPLE_DB_ENV!r}] == {str(tmp_path / "db")!r}
""")
    pytester.runpytest_inprocess("-p", "no:cacheprovider", "--conformance-example-db",
                                 str(tmp_path / "db")).assert_outcomes(passed=1)
    assert EXAMPLE_DB_ENV not in os.environ
