"""The option table: every option of the suite declared once, for the `sched-conformance` subcommands that
take it (`--backend`, short) and for the pytest plugin (`--conformance-backend`, namespaced as `--cov-*` and
`--hypothesis-*` are, so it coexists with pytest-kind's `--kubeconfig` or a conftest's `--context`).

Imports nothing but the standard library: the CLI builds its parser and the pytest argv from it before
pytest starts, and pytest loads the plugin in every session of the environment.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any, Callable

PROFILES = ("dev", "ci", "thorough", "mutation")
DEFAULT_REPRODUCERS = ".sched-conformance/reproducers"
DEFAULT_PLUGIN_COVERAGE = ".sched-conformance/coverage"
OWN_SCHEDULER_GROUP = "your own scheduler (docs/own-scheduler.md)"


def positive_int(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: use a whole number of at least 1")
    return int(text)


def _percent(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(f"{text!r}: use a percentage between 0 and 100")
    return value


@dataclass(frozen=True)
class Option:
    """One option: `flag` is the CLI's (without `--`), the pytest option is `--conformance-<flag>` unless
    `pytest_flag` says otherwise; `dest` is what `config.getoption` reads."""

    flag: str
    dest: str
    help: str
    commands: tuple[str, ...]
    action: str = "store"  # store, append (repeatable) or store_true (a flag)
    choices: tuple[str, ...] | None = None
    type: Callable[[str], Any] | None = None
    pytest_flag: str | None = None
    pytest_default: Any = None
    cli_default: Any = None
    own_scheduler: bool = False  # shown in the CLI's own-scheduler group
    cluster_target: bool = False  # which cluster `--backend cluster` runs on: a keyword of its backend
    metavar: str | None = None  # default: the flag in capitals

    @property
    def pytest_option(self) -> str:
        return "--" + (self.pytest_flag or "conformance-" + self.flag)

    def _kwargs(self, default: Any) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"dest": self.dest, "action": self.action, "help": self.help}
        if self.action == "append":
            kwargs["default"] = []
        elif self.action == "store":
            kwargs.update(default=default, choices=self.choices, type=self.type)
        if self.action != "store_true" and self.choices is None:
            kwargs["metavar"] = self.metavar or self.flag.upper().replace("-", "_")
        return kwargs

    def argv(self, value: Any) -> list[str]:
        """`value` (as parsed by the CLI) as pytest arguments."""
        if self.action == "store_true":
            return [self.pytest_option] if value else []
        if self.action == "append":
            return [arg for item in value for arg in (self.pytest_option, str(item))]
        return [] if value is None else [self.pytest_option, str(value)]


_CLUSTER = "backend cluster"

OPTIONS: tuple[Option, ...] = (
    Option("backend", "conformance_backend", "backend to test: reference (the default), upstream, cluster, "
           "python:pkg.module:factory", ("run",), cli_default="reference"),
    Option("compare", "conformance_compare", "a second backend: also check that both agree where upstream is "
           "deterministic", ("run",), metavar="BACKEND"),
    Option("profile", "conformance_profile", "Hypothesis settings: dev, ci (derandomized; the CLI's default), "
           "thorough, mutation (25 examples, no shrinking)", ("run", "check-plugin"), choices=PROFILES,
           pytest_default="dev", cli_default="ci"),
    Option("max-examples", "conformance_max_examples", "examples per test instead of the profile's (e.g. to bound "
           "a slow backend)", ("run", "check-plugin"), type=positive_int, metavar="N"),
    Option("invariant", "conformance_invariants", "only this invariant ID (repeatable); see "
           "`sched-conformance invariants`", ("run",), action="append", metavar="ID"),
    Option("strict-coverage", "conformance_strict_coverage", "fail an invariant whose rule no example exercised "
           "(a vacuous pass)", ("run",), action="store_true"),
    Option("plugin-coverage", "conformance_plugin_coverage", "directory for the report of which statements of "
           f"your plugins the run reached (default {DEFAULT_PLUGIN_COVERAGE})", ("run", "check-plugin"),
           own_scheduler=True, pytest_default=DEFAULT_PLUGIN_COVERAGE, metavar="DIR"),
    Option("min-plugin-coverage", "conformance_min_plugin_coverage", "fail the run when it reached less than "
           "this percentage of your plugins' statements", ("run", "check-plugin"), type=_percent,
           own_scheduler=True, metavar="PERCENT"),
    Option("reproducers", "conformance_reproducers", f"directory for reproducers of failures (default "
           f"{DEFAULT_REPRODUCERS})", ("run", "check-plugin"), pytest_default=DEFAULT_REPRODUCERS, metavar="DIR"),
    Option("cluster", "conformance_cluster", f"{_CLUSTER} on: local (the control plane from harness/bin, the "
           "default) or kind", ("run",), choices=("local", "kind"), cluster_target=True),
    Option("kubeconfig", "conformance_kubeconfig", f"{_CLUSTER} on this kubeconfig's cluster", ("run",),
           cluster_target=True, metavar="FILE"),
    Option("context", "conformance_context", f"{_CLUSTER}: the kubeconfig's context", ("run",), cluster_target=True),
    Option("scheduler-name", "conformance_scheduler_name", f"{_CLUSTER} on a kubeconfig: the cluster's scheduler "
           "(default default-scheduler)", ("run",), cluster_target=True),
    Option("allow-any-cluster", "conformance_allow_any_cluster", f"{_CLUSTER}: also on a context that does not "
           "look like a test cluster", ("run",), action="store_true", cluster_target=True),
    Option("go-module", "conformance_go_modules", "build with this Go module: ./dir or module/path@vX.Y.Z "
           "(repeatable)", ("run", "check-plugin", "diff", "config"), action="append", own_scheduler=True,
           metavar="MODULE"),
    Option("go-plugin", "conformance_go_plugins", "register NAME=import/path.Func from a --go-module "
           "(repeatable)", ("run", "check-plugin", "diff", "config"), action="append", own_scheduler=True,
           metavar="NAME=PKG.FUNC"),
    Option("go-import", "conformance_go_imports", "link this package of a --go-module for its side effects, e.g. "
           "the scheme package that registers your plugins' args types (repeatable)",
           ("run", "check-plugin", "diff", "config"), action="append", own_scheduler=True, metavar="PACKAGE"),
    Option("k8s-version", "conformance_k8s_version", "build this Kubernetes release (default: the one your "
           "module requires)", ("run", "check-plugin", "config"), own_scheduler=True, metavar="VERSION"),
    Option("scheduler-config", "conformance_scheduler_config", "your KubeSchedulerConfiguration: the base of "
           "every scenario (probes are added around your plugins)", ("run", "check-plugin", "diff"),
           own_scheduler=True, metavar="FILE"),
    Option("extender", "conformance_extenders", "your running HTTP extender's http:// URL prefix (filter and "
           "prioritize verbs; repeatable): its answers are checked against the wire contract", ("run",),
           action="append", own_scheduler=True, metavar="URL"),
    Option("objects", "conformance_objects", "package.module:name: your plugins' objects and pod labels, a "
           "Hypothesis strategy of generators.Extras (or a function Scenario -> one), added to every scenario",
           ("run",), own_scheduler=True, metavar="MODULE:NAME"),
    Option("crd", "conformance_crds", f"{_CLUSTER}: install the CustomResourceDefinitions of this YAML file for "
           "the run and remove them afterwards (repeatable)", ("run",), action="append", own_scheduler=True,
           metavar="FILE"),
    Option("own-scheduler", "conformance_own_scheduler", "a TOML file with go-modules, go-plugins, go-imports, "
           "k8s-version, scheduler-config, objects, crds (default: [tool.sched-conformance] of ./pyproject.toml)",
           ("run", "check-plugin", "diff", "config"), own_scheduler=True, metavar="FILE"),
    Option("example-db", "conformance_example_db", "a directory for Hypothesis' example database, kept between "
           "runs (e.g. in the CI cache): the failures one run finds replay first in the next; the same as "
           "$SCHED_CONFORMANCE_EXAMPLE_DB", ("run", "check-plugin"), metavar="DIR"),
    Option("kind-fixture", "conformance_kind_fixture", "pytest-kind's kind_cluster fixture is the suite's offline "
           "kind cluster (kind, kubectl and node image built here, nothing downloaded)", (), action="store_true"),
    # The contract suite (conformance/contracts): `check-plugin NAME` is --conformance-check-plugin NAME.
    Option("check-plugin", "conformance_check_plugins", "contract suite: check this plugin of the effective "
           "profile (repeatable)", (), action="append", metavar="NAME"),
    Option("all", "conformance_check_plugin_all", "check every plugin of the effective profile, in-tree "
           "included", ("check-plugin",), action="store_true", pytest_flag="conformance-check-plugin-all"),
    Option("contract", "conformance_contracts", "only this contract property id (repeatable); see "
           "`sched-conformance check-plugin --list`", ("check-plugin",), action="append", metavar="ID"),
)

BY_DEST = {option.dest: option for option in OPTIONS}
# The cluster backend's keyword -> the option's dest.
CLUSTER_TARGET = {option.flag.replace("-", "_"): option.dest for option in OPTIONS if option.cluster_target}


def for_command(command: str) -> list[Option]:
    return [option for option in OPTIONS if command in option.commands]


def add_pytest_options(group: Any) -> None:
    """Every option, namespaced, on a pytest option group (`parser.getgroup(...)`)."""
    for option in OPTIONS:
        kwargs = option._kwargs(option.pytest_default)
        if kwargs.get("type") is not None:
            kwargs["type"] = _one_line(option)
        group.addoption(option.pytest_option, **kwargs)


def _one_line(option: Option) -> Callable[[str], Any]:
    """The option's type for pytest, whose argparse errors print the usage block: a bad value is one line."""
    import pytest

    def parse(text: str) -> Any:
        try:
            return option.type(text)  # type: ignore[misc]
        except argparse.ArgumentTypeError as exc:
            raise pytest.UsageError(f"{option.pytest_option} {exc}") from None
    return parse


def add_cli_options(parser: argparse.ArgumentParser, command: str) -> None:
    """The options `command` takes, with their short flags; the own-scheduler ones in their own group."""
    own: argparse._ArgumentGroup | None = None
    for option in for_command(command):
        target: Any = parser
        if option.own_scheduler:
            own = own or parser.add_argument_group(OWN_SCHEDULER_GROUP)
            target = own
        target.add_argument("--" + option.flag, **option._kwargs(option.cli_default))


def pytest_argv(args: argparse.Namespace, command: str) -> list[str]:
    """The options `command` was given, as the plugin's pytest options."""
    return [arg for option in for_command(command) for arg in option.argv(getattr(args, option.dest))]


def pytest_flag(dest: str) -> str:
    """The pytest option of `dest`."""
    return BY_DEST[dest].pytest_option


def cluster_options(config: Any) -> dict[str, Any]:
    """The cluster-target options given (a pytest config's values), by their backend keyword."""
    return {key: config.getoption(dest) for key, dest in CLUSTER_TARGET.items() if config.getoption(dest)}


__all__ = ["BY_DEST", "CLUSTER_TARGET", "DEFAULT_REPRODUCERS", "OPTIONS", "Option", "PROFILES",
           "add_cli_options", "add_pytest_options", "cluster_options", "for_command", "positive_int",
           "pytest_argv", "pytest_flag"]
