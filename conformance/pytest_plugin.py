"""pytest plugin (entry point `pytest11`): options, the backend fixture, and the report header.

The options are namespaced (`--conformance-backend`, ...; the table is conformance/options.py). Heavy
imports happen only when the suite runs; in any other pytest session the plugin only adds its options
and a marker.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from typing import Any, Iterator, NoReturn

import pytest

from .options import BY_DEST, CLUSTER_TARGET, DEFAULT_REPRODUCERS, add_pytest_options, cluster_options


def pytest_addoption(parser: pytest.Parser) -> None:
    add_pytest_options(parser.getgroup("sched-conformance", "kube-scheduler conformance suite"))


_CONTRACT_OPTIONS = ("conformance_check_plugins", "conformance_check_plugin_all", "conformance_contracts")


class SetupErrors:
    """Given to `pytest.main(plugins=...)` by `sched-conformance run` and `check-plugin`: a usage or setup error
    the session finds comes here, for the CLI to print as its one line (exit 2), instead of pytest's report."""

    def __init__(self) -> None:
        self.message: str | None = None

    @pytest.hookimpl(tryfirst=True)
    def pytest_configure(self, config: pytest.Config) -> None:
        config.stash[_SETUP_ERRORS] = self


_SETUP_ERRORS = pytest.StashKey[SetupErrors]()
_EXAMPLE_DB = pytest.StashKey["str | None"]()  # the environment's value, restored when the session ends


def setup_error(config: pytest.Config, message: str) -> NoReturn:
    """End the session before its first test (and before the header, where it is found that early) with
    `message`: a usage or setup error, one line naming the bad value and the fix."""
    errors = config.stash.get(_SETUP_ERRORS, None)
    if errors is not None:
        errors.message = message
        raise pytest.UsageError()  # pytest prints nothing for it; the CLI prints the message
    raise pytest.UsageError(f"sched-conformance: {message}")


def flag(config: pytest.Config, dest: str) -> str:
    """The option `dest` as the user typed it: the CLI's short flag under the CLI, else the pytest option."""
    option = BY_DEST[dest]
    return "--" + option.flag if _SETUP_ERRORS in config.stash else option.pytest_option


def _selected(config: pytest.Config) -> bool:
    """Whether this session runs a suite: the plugin does nothing else in other sessions."""
    return config.getoption("conformance_backend") is not None or any(
        config.getoption(dest) for dest in _CONTRACT_OPTIONS)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "conformance: a conformance-suite property test")
    if config.getoption("conformance_example_db"):
        from .search.profiles import EXAMPLE_DB_ENV
        config.stash[_EXAMPLE_DB] = os.environ.get(EXAMPLE_DB_ENV)
        os.environ[EXAMPLE_DB_ENV] = str(Path(config.getoption("conformance_example_db")).resolve())
    if config.getoption("conformance_kind_fixture"):
        _kind_fixture(config)
    if not _selected(config) and not config.getoption("conformance_invariants") and not cluster_options(config):
        return
    _progress_past_capture(config)
    from reference.errors import ReferenceError_

    from .core.errors import ConformanceError
    try:
        message = _configuration_problem(config)
    except (ConformanceError, ReferenceError_) as exc:
        message = str(exc)
    if message is not None:
        setup_error(config, message)


def _kind_fixture(config: pytest.Config) -> None:
    """Register the `kind_cluster` fixture on the suite's cluster: after pytest-kind's plugin (loaded with the
    entry points, before any pytest_configure), so that this definition is the one tests get."""
    option = flag(config, "conformance_kind_fixture")
    if not config.pluginmanager.has_plugin("pytest-kind"):
        setup_error(config, f"{option} replaces pytest-kind's kind_cluster fixture, and pytest-kind is not loaded: "
                            "pip install 'kube-scheduler-conformance[kind]' (and drop -p no:pytest-kind)")
    from .cluster import kind_fixture
    given = kind_fixture.conflicting_option(config)
    if given is not None:
        setup_error(config, f"{given}: {option} gives kind_cluster the suite's kind, kubectl, image and kubeconfig; "
                            f"drop {given} (or {option} for pytest-kind's own cluster)")
    _progress_past_capture(config)
    config.pluginmanager.register(kind_fixture, "sched-conformance-kind-fixture")


def _progress_past_capture(config: pytest.Config) -> None:
    """Progress of slow work (a cold build, check-plugin's -race driver built inside a test) reaches the
    terminal past pytest's capture, as it happens."""
    from .core.progress import set_sink
    capture = config.pluginmanager.getplugin("capturemanager")

    def sink(line: str) -> None:
        with capture.global_and_fixture_disabled() if capture is not None else contextlib.nullcontext():
            print(line, file=sys.stderr, flush=True)
    set_sink(sink)


def _configuration_problem(config: pytest.Config) -> str | None:
    """What is wrong with the options, as one line, found before any backend starts."""
    backend = config.getoption("conformance_backend")
    for name in filter(None, (backend, config.getoption("conformance_compare"))):
        from .backends import BUILTIN
        if name not in BUILTIN and not name.startswith("python:"):
            return (f"backend {name!r} is unknown: use one of {', '.join(BUILTIN)} "
                    "or python:package.module:factory")
    if config.getoption("conformance_invariants"):
        from .invariants import select
        try:
            select(config.getoption("conformance_invariants"))
        except KeyError as exc:
            return str(exc.args[0])
    targets = cluster_options(config)
    if targets and "cluster" not in (backend, config.getoption("conformance_compare")):
        given = flag(config, CLUSTER_TARGET[next(iter(targets))])
        return (f"{given} applies to the cluster backend; add {flag(config, 'conformance_backend')} cluster "
                f"or drop {given}")
    reproducers = Path(config.getoption("conformance_reproducers"))
    if _selected(config) and (reproducers.exists() and not reproducers.is_dir()):
        return (f"{flag(config, 'conformance_reproducers')} {reproducers}: is a file, so a failure's reproducer "
                "could not be written; give a directory (created when needed) or move the file")
    if backend is not None:
        _session(config).own_scheduler()
    return None


def pytest_report_header(config: pytest.Config) -> list[str] | None:
    backend = config.getoption("conformance_backend")
    if backend is None:
        return None
    version = _kubernetes_version(config)
    compare = config.getoption("conformance_compare")
    notes = [f"sched-conformance: {name}: {note}" for name, b in _session(config).started().items()
             for note in getattr(b, "notes", ())]
    return [f"sched-conformance: backend {backend}{' vs ' + compare if compare else ''}, Kubernetes {version}, "
            f"profile {config.getoption('conformance_profile')}", *notes]


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """The run's summary: what the backend could check, how often each rule was exercised, and how much of
    the user's plugin code ran."""
    from .reporting import plugin_coverage
    from .reporting.summary import capability_summary, exercised_summary
    if config.getoption("conformance_backend") is not None and not hasattr(config, "workerinput"):
        capability_summary(terminalreporter, _session(config))
    exercised_summary(terminalreporter)
    plugin_coverage.summary(terminalreporter, config)


def pytest_sessionfinish(session: pytest.Session) -> None:
    config = session.config
    if _KEY not in config.stash and _CONTRACTS not in config.stash:
        return
    from .reporting import plugin_coverage

    def close() -> None:  # the instrumented runner and drivers write their counters when they exit
        if _KEY in config.stash:
            config.stash[_KEY].close()
        if _CONTRACTS in config.stash:
            config.stash[_CONTRACTS].close()
    own = config.stash[_KEY].resolved_own() if _KEY in config.stash else None
    plugin_coverage.finish(session, own, close)


def _kubernetes_version(config: pytest.Config) -> str:
    session = _session(config)
    try:
        return session.backend().kubernetes_version
    except Exception as exc:  # noqa: BLE001 - reported again, as a usage error, when the backends open
        return f"unknown ({str(exc).splitlines()[0]})"




_KEY = pytest.StashKey[Any]()


def _session(config: pytest.Config) -> Any:
    if _KEY not in config.stash:
        from .suite.session import ConformanceSession
        config.stash[_KEY] = ConformanceSession(config)
    return config.stash[_KEY]


_CONTRACTS = pytest.StashKey[Any]()


def contract_session(config: pytest.Config) -> Any:
    """The contract suite's drivers, for the scheduler the own-scheduler options describe (or the stock one)."""
    if _CONTRACTS not in config.stash:
        from .contracts.session import ContractSession
        from .core.errors import ConformanceError
        try:
            config.stash[_CONTRACTS] = ContractSession(_session(config).own_scheduler())
        except ConformanceError as exc:
            setup_error(config, str(exc))
    return config.stash[_CONTRACTS]


def contract_targets(config: pytest.Config) -> tuple[list[str], list[str]]:
    """The plugins (--conformance-check-plugin, or every one with --conformance-check-plugin-all) and the
    property ids (--conformance-contract, else all) the contract suite checks; unknown ones are a setup error."""
    from .contracts import REGISTRY
    from .core.errors import ConformanceError
    wanted = config.getoption("conformance_contracts")
    unknown = [p for p in wanted if p not in REGISTRY]
    if unknown:
        setup_error(config, f"{flag(config, 'conformance_contracts')} {unknown[0]}: no such property; use one of "
                            f"{', '.join(REGISTRY)}")
    try:
        known = contract_session(config).plugins()
    except ConformanceError as exc:  # the driver did not start: a build failed, or the user's config
        setup_error(config, str(exc))
    plugins = list(known) if config.getoption("conformance_check_plugin_all") else \
        list(config.getoption("conformance_check_plugins"))
    if not plugins:
        setup_error(config, f"no plugin to check: name one with {flag(config, 'conformance_check_plugins')} NAME "
                            f"(repeatable) or pass {flag(config, 'conformance_check_plugin_all')}")
    for name in plugins:
        if name not in known:
            setup_error(config, f"plugin {name!r} is not in the effective profile; its plugins are: "
                                f"{', '.join(known)}")
    return plugins, wanted or list(REGISTRY)


def pytest_unconfigure(config: pytest.Config) -> None:
    from .core.progress import set_sink
    set_sink(None)
    if _EXAMPLE_DB in config.stash:
        from .search.profiles import EXAMPLE_DB_ENV
        previous = config.stash[_EXAMPLE_DB]
        if previous is None:
            os.environ.pop(EXAMPLE_DB_ENV, None)
        else:
            os.environ[EXAMPLE_DB_ENV] = previous
    if _KEY in config.stash:
        config.stash[_KEY].close()
    if _CONTRACTS in config.stash:
        config.stash[_CONTRACTS].close()


def _open_backends(config: pytest.Config, started: bool = False) -> None:
    """Start the backend and the --conformance-compare one; an unavailable one ends the run with its one-line
    fix (a usage error before the session `started`, else pytest.exit)."""
    from reference.errors import ReferenceError_

    from .core.errors import ConformanceError
    session = _session(config)
    try:
        session.backend()
        if config.getoption("conformance_compare"):
            session.backend(config.getoption("conformance_compare"))
        session.base_config()  # the user's config must run on their scheduler before any test starts
        session.objects_hook()
        session.domain()
    except (ConformanceError, ReferenceError_) as exc:
        message = str(exc)
    else:
        return
    if hasattr(config, "workerinput"):
        # A usage error in an xdist worker crashes the controller without the reason; failing the
        # session fixture fails each test with it instead.
        pytest.fail(f"sched-conformance: {message}", pytrace=False)
    if started:
        pytest.exit(f"sched-conformance: {message}", returncode=pytest.ExitCode.USAGE_ERROR)
    setup_error(config, message)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """Start the backends (or the contract suite's drivers) before the terminal reporter's header, so that an
    unavailable one ends the run with its one line before anything else is printed. Under pytest-xdist (`-n`),
    the controller runs no test but opens them before its workers start: a local control plane started
    here is the one every worker finds running and shares; it is tied to the controller, so it outlives
    the last worker. Each worker opens its own backend instance."""
    config = session.config
    if hasattr(config, "workerinput"):
        return
    if config.getoption("conformance_backend"):
        _open_backends(config)
    if any(config.getoption(dest) for dest in _CONTRACT_OPTIONS):
        contract_targets(config)


@pytest.fixture(scope="session")
def conformance(request: pytest.FixtureRequest) -> Iterator[Any]:
    """The session's backends (started on first use) and options; one per xdist worker process."""
    _open_backends(request.config, started=True)
    yield _session(request.config)


def reproducers_dir(config: pytest.Config) -> Path:
    """Where reproducers go; the default directory ignores itself in git, as .pytest_cache does."""
    directory = Path(config.getoption("conformance_reproducers"))
    if directory == Path(DEFAULT_REPRODUCERS):
        root = directory.parent
        root.mkdir(parents=True, exist_ok=True)
        # Exclusive creation: xdist workers failing at once write it once, and a user's edit stays.
        with contextlib.suppress(FileExistsError), open(root / ".gitignore", "x") as ignore:
            ignore.write("# Created by sched-conformance: reproducers of failures, not sources.\n*\n")
    return directory
