"""pytest plugin (entry point `pytest11`): options, the backend fixture, and the report header.

Heavy imports happen only when the suite runs; in any other pytest session the plugin only adds
its options.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path
from typing import Any, Iterator

import pytest

DEFAULT_REPRODUCERS = ".sched-conformance/reproducers"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("sched-conformance", "kube-scheduler conformance suite")
    group.addoption("--backend", dest="conformance_backend", default=None,
                    help="backend to test: reference (default), upstream, cluster, python:pkg.module:factory")
    group.addoption("--compare", dest="conformance_compare", default=None,
                    help="a second backend: also check that both agree where upstream is deterministic")
    group.addoption("--conformance-profile", dest="conformance_profile", default="dev",
                    choices=("dev", "ci", "thorough", "mutation"),
                    help="Hypothesis settings: dev, ci (derandomized), thorough, mutation (25 examples, no shrink)")
    group.addoption("--conformance-max-examples", dest="conformance_max_examples", type=_positive, default=None,
                    help="examples per test instead of the profile's (e.g. to bound a slow backend)")
    group.addoption("--invariant", dest="conformance_invariants", action="append", default=[],
                    help="only this invariant ID (repeatable); see `sched-conformance invariants`")
    group.addoption("--strict-coverage", dest="conformance_strict_coverage", action="store_true",
                    help="fail an invariant whose rule no example exercised (a vacuous pass)")
    group.addoption("--reproducers", dest="conformance_reproducers", default=DEFAULT_REPRODUCERS,
                    help=f"directory for reproducers of failures (default {DEFAULT_REPRODUCERS})")
    # --backend cluster: which cluster (conformance/cluster/target.py); none given: the local control plane.
    group.addoption("--cluster", dest="conformance_cluster", default=None, choices=("local", "kind"),
                    help="backend cluster on: local (control plane from harness/bin, the default) or kind")
    group.addoption("--kubeconfig", dest="conformance_kubeconfig", default=None,
                    help="backend cluster on this kubeconfig's cluster")
    group.addoption("--context", dest="conformance_context", default=None, help="backend cluster: kubeconfig context")
    group.addoption("--scheduler-name", dest="conformance_scheduler_name", default=None,
                    help="backend cluster on a kubeconfig: the cluster's scheduler (default default-scheduler)")
    group.addoption("--allow-any-cluster", dest="conformance_allow_any_cluster", action="store_true",
                    help="backend cluster: also on a context that does not look like a test cluster")
    # The user's own scheduler (conformance/builds/own_scheduler.py): built with their Go plugins, run on their config.
    group.addoption("--go-module", dest="conformance_go_modules", action="append", default=[],
                    help="backend upstream: build with this Go module (./dir or module/path@vX.Y.Z; repeatable)")
    group.addoption("--go-plugin", dest="conformance_go_plugins", action="append", default=[],
                    help="backend upstream: register NAME=import/path.Func from a --go-module (repeatable)")
    group.addoption("--go-import", dest="conformance_go_imports", action="append", default=[],
                    help="backend upstream: link this package of a --go-module for its side effects, e.g. the "
                         "scheme package that registers your plugins' args types (repeatable)")
    group.addoption("--k8s-version", dest="conformance_k8s_version", default=None,
                    help="backend upstream: build this Kubernetes release (default: the one your module requires)")
    group.addoption("--scheduler-config", dest="conformance_scheduler_config", default=None,
                    help="your KubeSchedulerConfiguration: the base of every scenario (probes are added around "
                         "your plugins)")
    group.addoption("--extender", dest="conformance_extenders", action="append", default=[],
                    help="your running HTTP extender's URL prefix (filter and prioritize verbs; repeatable): "
                         "its answers are checked against the wire contract")
    # Plugin contracts (conformance/contracts): one plugin driven directly.
    group.addoption("--check-plugin", dest="conformance_check_plugins", action="append", default=[],
                    help="contract suite: check this plugin of the effective profile (repeatable)")
    group.addoption("--check-plugin-all", dest="conformance_check_plugin_all", action="store_true",
                    help="contract suite: check every plugin of the effective profile")
    group.addoption("--contract", dest="conformance_contracts", action="append", default=[],
                    help="contract suite: only this property id (repeatable); see `sched-conformance check-plugin "
                         "--list`")
    group.addoption("--objects", dest="conformance_objects", default=None,
                    help="package.module:name: your plugins' objects and pod labels, a Hypothesis strategy of "
                         "generators.Extras (or a function Scenario -> one), added to every scenario")
    group.addoption("--crd", dest="conformance_crds", action="append", default=[],
                    help="backend cluster: install the CustomResourceDefinitions of this YAML file for the run, "
                         "remove them afterwards (repeatable)")
    group.addoption("--own-scheduler", dest="conformance_own_scheduler", default=None,
                    help="a TOML file with go-modules, go-plugins, go-imports, k8s-version, scheduler-config, objects, crds "
                         "(default: [tool.sched-conformance] of ./pyproject.toml)")


_CLUSTER_OPTIONS = {"cluster": "conformance_cluster", "kubeconfig": "conformance_kubeconfig",
                    "context": "conformance_context", "scheduler_name": "conformance_scheduler_name",
                    "allow_any_cluster": "conformance_allow_any_cluster"}


def _cluster_options(config: pytest.Config) -> dict[str, Any]:
    return {key: config.getoption(dest) for key, dest in _CLUSTER_OPTIONS.items() if config.getoption(dest)}


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise pytest.UsageError(f"--conformance-max-examples {text!r}: use a whole number of at least 1")
    return int(text)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "conformance: a conformance-suite property test")
    if config.getoption("conformance_backend") is not None:
        from .core.errors import ConformanceError
        try:
            _session(config).own_scheduler()
        except ConformanceError as exc:
            raise pytest.UsageError(str(exc)) from None
    if config.getoption("conformance_invariants"):
        from .invariants import select
        try:
            select(config.getoption("conformance_invariants"))
        except KeyError as exc:
            raise pytest.UsageError(str(exc.args[0])) from None
    cluster_options = _cluster_options(config)
    if cluster_options and "cluster" not in (config.getoption("conformance_backend"), config.getoption("conformance_compare")):
        flag = "--" + next(iter(cluster_options)).replace("_", "-")
        raise pytest.UsageError(f"{flag} applies to the cluster backend; add --backend cluster or drop {flag}")


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
    """The run's summary: what the backend could check, and how often each rule was exercised."""
    _capability_summary(terminalreporter, config)
    _exercised_summary(terminalreporter)


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
    except Exception as exc:  # noqa: BLE001 - reported again, as a usage error, by the fixture
        return f"unknown ({str(exc).splitlines()[0]})"


class ConformanceSession:
    """Backends and the extender server for one pytest session, started on first use."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self._backends: dict[str, Any] = {}
        self._server: Any = None
        self._own: Any = None
        self._base: dict[str, Any] = {}

    def own_scheduler(self) -> Any:
        """The user's scheduler from --go-module/--go-plugin/--k8s-version/--scheduler-config/--own-scheduler
        or ./pyproject.toml, or None for the stock scheduler on generated configs."""
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
        return self._own or None

    def reproducer_options(self) -> dict[str, Any]:
        """What a reproducer needs to replay on the user's scheduler: its build, its extenders."""
        own = self.own_scheduler()
        if own is None:
            return {}
        return {"own_scheduler": own.spec.to_toml() if own.builds or own.spec.crds else None,
                "user_extenders": own.user_extenders()}

    def objects_hook(self) -> Any:
        """The user's `--objects` hook, or None."""
        own = self.own_scheduler()
        return own.objects_hook() if own is not None else None

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
            raise pytest.UsageError(str(exc)) from None
    return config.stash[_CONTRACTS]


def pytest_unconfigure(config: pytest.Config) -> None:
    if _KEY in config.stash:
        config.stash[_KEY].close()
    if _CONTRACTS in config.stash:
        config.stash[_CONTRACTS].close()


def _open_backends(config: pytest.Config) -> None:
    """Start the backend and the --compare one; an unavailable one ends the run with its one-line fix."""
    from .builds import BuildSpecError
    from .core.errors import BackendUnavailable
    from .builds.own_scheduler import OwnSchedulerError
    session = _session(config)
    try:
        session.backend()
        if config.getoption("conformance_compare"):
            session.backend(config.getoption("conformance_compare"))
        session.base_config()  # the user's config must run on their scheduler before any test starts
        session.objects_hook()
    except (BackendUnavailable, BuildSpecError, OwnSchedulerError) as exc:
        message = f"sched-conformance: {exc}"
    else:
        return
    if hasattr(config, "workerinput"):
        # pytest.exit in an xdist worker crashes the controller without the reason; failing the
        # session fixture fails each test with it instead.
        pytest.fail(message, pytrace=False)
    pytest.exit(message, returncode=4)


def pytest_sessionstart(session: pytest.Session) -> None:
    """Under pytest-xdist (`-n`), the controller runs no test but opens the backends before its workers
    start (xdist's own hook runs last): an unavailable backend ends the run once, with its reason, and
    a local control plane started here is the one every worker finds running and shares; it is tied
    to the controller, so it outlives the last worker. Each worker opens its own backend instance."""
    if session.config.pluginmanager.has_plugin("dsession") and session.config.getoption("conformance_backend"):
        _open_backends(session.config)


@pytest.fixture(scope="session")
def conformance(request: pytest.FixtureRequest) -> Iterator[ConformanceSession]:
    """The session's backends (started on first use) and options; one per xdist worker process."""
    _open_backends(request.config)
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
