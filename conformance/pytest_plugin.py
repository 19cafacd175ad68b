"""pytest plugin (entry point `pytest11`): options, the backend fixture, and the report header.

The options are namespaced (`--conformance-backend`, ...; the table is conformance/options.py). Heavy
imports happen only when the suite runs; in any other pytest session the plugin only adds its options
and a marker.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from pathlib import Path
from typing import Any, Iterator, NoReturn

import pytest

from .options import BY_DEST, CLUSTER_TARGET, DEFAULT_REPRODUCERS, add_pytest_options


def pytest_addoption(parser: pytest.Parser) -> None:
    add_pytest_options(parser.getgroup("sched-conformance", "kube-scheduler conformance suite"))


_CONTRACT_OPTIONS = ("conformance_check_plugins", "conformance_check_plugin_all", "conformance_contracts")


def _cluster_options(config: pytest.Config) -> dict[str, Any]:
    return {key: config.getoption(dest) for key, dest in CLUSTER_TARGET.items() if config.getoption(dest)}


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
    if not _selected(config) and not config.getoption("conformance_invariants") and not _cluster_options(config):
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
    cluster_options = _cluster_options(config)
    if cluster_options and "cluster" not in (backend, config.getoption("conformance_compare")):
        given = flag(config, CLUSTER_TARGET[next(iter(cluster_options))])
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
    _capability_summary(terminalreporter, config)
    _exercised_summary(terminalreporter)
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


def _capability_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """Which of the invariant tests that ran the backend could check, and which it could not, with
    the capability it lacks."""
    if config.getoption("conformance_backend") is None or hasattr(config, "workerinput"):
        return
    session = _session(config)
    backend = session.started().get(session.backend_name)
    test = re.compile(rf"::test_invariant\[{re.escape(session.backend_name)}-([^\]]+)\]$")  # ids: backend-invariant
    ran = {match.group(1) for outcome in ("passed", "failed", "skipped", "error")
           for report in terminalreporter.stats.get(outcome, ())
           if (match := test.search(str(getattr(report, "nodeid", ""))))}
    if backend is None or not ran:
        return
    from .invariants import REGISTRY
    from .reporting.report import coverage
    terminalreporter.section("sched-conformance invariants")
    invariants = [inv for inv in REGISTRY.values() if inv.id in ran]
    for line in coverage(invariants, backend.name, backend.capabilities):
        terminalreporter.write_line(line)


def _kubernetes_version(config: pytest.Config) -> str:
    session = _session(config)
    try:
        return session.backend().kubernetes_version
    except Exception as exc:  # noqa: BLE001 - reported again, as a usage error, when the backends open
        return f"unknown ({str(exc).splitlines()[0]})"


class ConformanceSession:
    """Backends and the extender server for one pytest session, started on first use."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self._backends: dict[str, Any] = {}
        self._server: Any = None
        self._own: Any = None
        self._base: dict[str, Any] = {}
        self._domain: Any = None

    def own_scheduler(self) -> Any:
        """The user's scheduler from the own-scheduler options (--conformance-go-module, ...,
        --conformance-own-scheduler) or ./pyproject.toml, or None for the stock scheduler on generated configs."""
        if self._own is None:
            from .builds.own_scheduler import resolve
            opt = self.config.getoption
            self._own = resolve(modules=opt("conformance_go_modules"), plugins=opt("conformance_go_plugins"),
                                imports=opt("conformance_go_imports"),
                                k8s_version=opt("conformance_k8s_version"),
                                scheduler_config=opt("conformance_scheduler_config"),
                                own_file=opt("conformance_own_scheduler"),
                                extenders=opt("conformance_extenders"), objects=opt("conformance_objects"),
                                crds=opt("conformance_crds")) or False
            if self._own and self._own.spec.plugins and not hasattr(self.config, "workerinput"):
                from .builds.coverage import start_session
                start_session()  # the instrumented runner and driver count the user's statements here
        return self._own or None

    def resolved_own(self) -> Any:
        """The own scheduler if it was resolved (without resolving it now), or None."""
        return self._own or None

    def reproducer_options(self) -> dict[str, Any]:
        """What a reproducer needs to replay on the user's scheduler: its build, its extenders."""
        own = self.own_scheduler()
        if own is None:
            return {}
        return {"own_scheduler": own.spec.to_toml() if own.builds or own.spec.crds else None,
                "user_extenders": own.user_extenders()}

    def objects_hook(self) -> Any:
        """The user's `--conformance-objects` hook, or None."""
        own = self.own_scheduler()
        return own.objects_hook() if own is not None else None

    def domain(self) -> Any:
        """The user's vocabulary for the generators (their `domain` table and their plugins' sources), or None."""
        own = self.own_scheduler()
        if own is None:
            return None
        if self._domain is None:
            self._domain = own.domain()
        return self._domain

    def base_config(self, name: str | None = None) -> Any:
        """The user's config as every scenario's base (laid out by the backend `name`), or None."""
        name = name or self.backend_name
        own = self.own_scheduler()
        if own is None:
            return None
        if name not in self._base:
            self._base[name] = own.base_config(self.backend(name))
        return self._base[name]

    @property
    def backend_name(self) -> str:
        return self.config.getoption("conformance_backend") or "reference"

    def extender_server(self) -> Any:
        if self._server is None:
            from .extender.server import ExtenderServer
            self._server = ExtenderServer()
            self._server.start()
        return self._server

    def backend(self, name: str | None = None) -> Any:
        name = name or self.backend_name
        if name not in self._backends:
            from .backends import make_backend
            options: dict[str, Any] = {"extender_server": self.extender_server()}
            own = self.own_scheduler()
            if name == "upstream" and own is not None and own.builds:
                options["runner"] = own.runner()
            if name == "cluster":
                options.update(_cluster_options(self.config))
                if own is not None and own.builds:
                    options["scheduler_binary"] = str(own.kube_scheduler())
                if own is not None and own.spec.crds:
                    options["crds"] = own.spec.crds
                # Compared with the reference, the whole workload must be queued before the first pop.
                options["fresh_scheduler"] = bool(self.config.getoption("conformance_compare"))
            backend = make_backend(name, **options)
            extenders = own.user_extenders() if own is not None else []
            if extenders:
                from .extender.proxy import ExtenderProxy, UserExtenderBackend
                backend = UserExtenderBackend(backend, ExtenderProxy(extenders))
            self._backends[name] = backend
        return self._backends[name]

    def started(self) -> dict[str, Any]:
        return dict(self._backends)

    def close(self) -> None:
        for backend in self._backends.values():
            backend.close()
        self._backends.clear()
        if self._server is not None:
            self._server.stop()
            self._server = None


_KEY = pytest.StashKey[ConformanceSession]()


def _session(config: pytest.Config) -> ConformanceSession:
    if _KEY not in config.stash:
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
def conformance(request: pytest.FixtureRequest) -> Iterator[ConformanceSession]:
    """The session's backends (started on first use) and options; one per xdist worker process."""
    _open_backends(request.config, started=True)
    yield _session(request.config)


# --- exercised counts ------------------------------------------------------------------------------

ID_PROPERTY, EXERCISED_PROPERTY, EXAMPLES_PROPERTY = ("sched_conformance_id", "sched_conformance_exercised",
                                                     "sched_conformance_examples")


def record_exercised(item: pytest.Item, invariant_id: str, exercised: int, examples: int) -> None:
    """Attach the counts to the test's report as plain values (JUnit `<property>`s); user properties travel
    from xdist workers too."""
    item.user_properties.extend([(ID_PROPERTY, invariant_id), (EXERCISED_PROPERTY, exercised),
                                 (EXAMPLES_PROPERTY, examples)])


def _exercised_summary(terminalreporter: Any) -> None:
    """One line per invariant that ran: in how many examples its rule was exercised."""
    counts: dict[str, tuple[int, int]] = {}
    for reports in terminalreporter.stats.values():
        for report in reports:
            if getattr(report, "when", None) != "call":
                continue
            properties = dict(getattr(report, "user_properties", ()))
            if ID_PROPERTY in properties and EXERCISED_PROPERTY in properties:
                counts[properties[ID_PROPERTY]] = (properties[EXERCISED_PROPERTY], properties[EXAMPLES_PROPERTY])
    if not counts:
        return
    terminalreporter.section("sched-conformance: rules exercised")
    for invariant_id in sorted(counts):
        exercised, examples = counts[invariant_id]
        terminalreporter.write_line(f"{invariant_id}: exercised in {exercised}/{examples} examples")


@contextlib.contextmanager
def hypothesis_statistics(item: pytest.Item) -> Iterator[None]:
    """Collect the statistics of the search run inside `item` (not itself a @given test), so that
    `--hypothesis-show-statistics` prints them, events (the exercised count) included."""
    if not item.config.getoption("hypothesis_show_statistics", False):
        yield
        return
    from hypothesis.statistics import collector, describe_statistics

    def note(stats: dict) -> None:
        stats["nodeid"] = item.nodeid
        item.hypothesis_statistics = describe_statistics(stats)
    with collector.with_value(note):
        yield


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
