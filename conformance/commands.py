"""The suite's subcommands: run, invariants, reproduce, version, diff (conformance/diff)."""

from __future__ import annotations

import argparse
import json
import sys
from importlib import metadata
from pathlib import Path

from .reporting import reproducer
from .core.errors import ConformanceError


def add_to(sub: argparse._SubParsersAction) -> None:
    r = sub.add_parser("run", help="run the conformance suite (wraps pytest --pyargs conformance.suite)")
    r.add_argument("--backend", default="reference", help="reference, upstream, cluster or python:pkg.module:factory")
    r.add_argument("--compare", help="a second backend to compare with")
    r.add_argument("--profile", default="ci", choices=("dev", "ci", "thorough", "mutation"),
                   help="Hypothesis settings profile")
    r.add_argument("--invariant", action="append", default=[], help="only this invariant ID (repeatable)")
    r.add_argument("--reproducers", help="directory for reproducers of failures")
    r.add_argument("--cluster", choices=("local", "kind"), help="backend cluster on: local (default) or kind")
    r.add_argument("--kubeconfig", help="backend cluster on this kubeconfig's cluster")
    r.add_argument("--context", help="backend cluster: kubeconfig context")
    r.add_argument("--scheduler-name", help="backend cluster on a kubeconfig: the cluster's scheduler")
    r.add_argument("--allow-any-cluster", action="store_true",
                   help="backend cluster: also on a context that does not look like a test cluster")
    r.add_argument("--max-examples", help="examples per invariant instead of the profile's")
    own = _own_scheduler_flags(r)
    own.add_argument("--extender", action="append", default=[],
                     help="your running extender's http:// URL prefix (filter, prioritize; repeatable)")
    own.add_argument("--objects", help="package.module:name: your plugins' objects and pod labels as a Hypothesis "
                                       "strategy of generators.Extras (or a function Scenario -> one)")
    own.add_argument("--crd", action="append", default=[],
                     help="backend cluster: install the CustomResourceDefinitions of this YAML file for the run and "
                          "remove them afterwards (repeatable)")
    own.add_argument("--own-scheduler", help="TOML file with go-modules, go-plugins, go-imports, k8s-version, "
                                            "scheduler-config, objects, crds "
                                            "(default: [tool.sched-conformance] in ./pyproject.toml)")
    r.add_argument("--strict-coverage", action="store_true",
                   help="fail an invariant whose rule no example exercised (skipped invariants stay skipped)")
    r.add_argument("pytest_args", nargs=argparse.REMAINDER, help="after --: passed to pytest (e.g. --junitxml=x)")
    r.set_defaults(run=_run)
    c = sub.add_parser("check-plugin", help="check one plugin's contract properties, driving it directly "
                                            "(wraps pytest --pyargs conformance.contracts.suite)",
                       epilog="after --: passed to pytest (e.g. -- --junitxml=x)")
    c.add_argument("plugin", nargs="?", help="a plugin of the effective profile (in-tree or yours)")
    c.add_argument("--all", action="store_true", help="every plugin of the effective profile, in-tree included")
    c.add_argument("--list", action="store_true", help="the properties: id, statement, upstream source")
    c.add_argument("--contract", action="append", default=[], help="only this property id (repeatable)")
    c.add_argument("--profile", default="ci", choices=("dev", "ci", "thorough", "mutation"),
                   help="Hypothesis settings profile")
    c.add_argument("--max-examples", help="examples per property instead of the profile's")
    c.add_argument("--reproducers", help="directory for reproducers of failures")
    _own_scheduler_flags(c).add_argument(
        "--own-scheduler", help="TOML file with go-modules, go-plugins, go-imports, k8s-version, scheduler-config "
                                "(default: [tool.sched-conformance] in ./pyproject.toml)")
    # After a positional, REMAINDER would swallow the options: cli.main splits the pytest arguments off at `--`.
    c.set_defaults(run=_check_plugin, pytest_args=[])
    i = sub.add_parser("invariants", help="the catalogue: id, statement, upstream source, capabilities")
    i.add_argument("--json", action="store_true")
    i.add_argument("--coverage", action="store_true",
                   help="the rule coverage matrix as Markdown: which invariants check each framework rule")
    i.add_argument("--output", help="with --coverage: update the matrix section of this file (docs/coverage.md)")
    i.set_defaults(run=_invariants)
    p = sub.add_parser("reproduce", help="replay a reproducer directory written by a failing run")
    p.add_argument("directory")
    p.add_argument("--backend", help="default: the backend that failed")
    p.add_argument("--version", help="a diff's reproducer: replay on this side's release (e.g. v1.36.4) and show "
                                     "the outcome; default: both sides, compared")
    p.add_argument("--side", choices=("from", "to"), help="a diff's reproducer: replay on this side only (with "
                                                          "--version: that release with this side's modules)")
    p.set_defaults(run=_reproduce)
    from .diff.command import add_to as add_diff
    add_diff(sub)
    v = sub.add_parser("version", help="versions of the suite, the reference and the harness")
    v.set_defaults(run=_version)


def _own_scheduler_flags(parser: argparse.ArgumentParser) -> argparse._ArgumentGroup:
    own = parser.add_argument_group("your own scheduler (docs/own-scheduler.md)")
    own.add_argument("--go-module", action="append", default=[],
                     help="build with this Go module: ./dir or module/path@vX.Y.Z (repeatable)")
    own.add_argument("--go-plugin", action="append", default=[],
                     help="register NAME=import/path.Func from a --go-module (repeatable)")
    own.add_argument("--go-import", action="append", default=[],
                     help="link this package of a --go-module for its side effects, e.g. the scheme package "
                          "that registers your plugins' args types (repeatable)")
    own.add_argument("--k8s-version", help="build this Kubernetes release (default: the one your module requires)")
    own.add_argument("--scheduler-config", help="your KubeSchedulerConfiguration: the base of every scenario")
    return own


def _run(args: argparse.Namespace) -> int:
    import pytest
    argv = ["--pyargs", "conformance.suite", "-p", "no:cacheprovider", "--backend", args.backend,
            "--conformance-profile", args.profile]
    if args.compare:
        argv += ["--compare", args.compare]
    for inv in args.invariant:
        argv += ["--invariant", inv]
    if args.reproducers:
        argv += ["--reproducers", args.reproducers]
    if args.max_examples:
        argv += ["--conformance-max-examples", args.max_examples]
    argv += _passed_on(args, ("cluster", "kubeconfig", "context", "scheduler_name", "k8s_version",
                              "scheduler_config", "own_scheduler", "objects"),
                       ("go_module", "go_plugin", "go_import", "extender", "crd"))
    if args.allow_any_cluster:
        argv.append("--allow-any-cluster")
    if args.strict_coverage:
        argv.append("--strict-coverage")
    extra = [a for a in args.pytest_args if a != "--"]
    return int(pytest.main(argv + extra))


def _passed_on(args: argparse.Namespace, single: tuple[str, ...], repeated: tuple[str, ...]) -> list[str]:
    """The given options, as pytest options of the same names."""
    argv: list[str] = []
    for flag in single:
        if getattr(args, flag):
            argv += ["--" + flag.replace("_", "-"), getattr(args, flag)]
    for flag in repeated:
        for value in getattr(args, flag):
            argv += ["--" + flag.replace("_", "-"), value]
    return argv


def _check_plugin(args: argparse.Namespace) -> int:
    from .contracts import REGISTRY
    if args.list:
        for prop in REGISTRY.values():
            print(f"{prop.id}{' [race build]' if prop.race else ''}\n    {prop.statement}\n    source: {prop.source}")
        return 0
    if bool(args.plugin) == bool(args.all):
        raise ConformanceError("name one plugin (`check-plugin NodeResourcesFit`) or pass --all, not both or neither")
    for prop in args.contract:
        if prop not in REGISTRY:
            raise ConformanceError(f"--contract {prop}: no such property; use one of {', '.join(REGISTRY)}")
    if args.plugin:
        _known_plugin(args)
    import pytest
    argv = ["--pyargs", "conformance.contracts.suite", "-p", "no:cacheprovider", "--conformance-profile", args.profile]
    argv += ["--check-plugin-all"] if args.all else ["--check-plugin", args.plugin]
    for prop in args.contract:
        argv += ["--contract", prop]
    if args.max_examples:
        argv += ["--conformance-max-examples", args.max_examples]
    if args.reproducers:
        argv += ["--reproducers", args.reproducers]
    argv += _passed_on(args, ("k8s_version", "scheduler_config", "own_scheduler"),
                       ("go_module", "go_plugin", "go_import"))
    extra = [a for a in args.pytest_args if a != "--"]
    return int(pytest.main(argv + extra))


def _known_plugin(args: argparse.Namespace) -> None:
    """An unknown plugin name ends the command with one line listing the effective profile's plugins."""
    from .contracts.session import ContractSession
    from .builds.own_scheduler import resolve
    own = resolve(modules=args.go_module, plugins=args.go_plugin, imports=args.go_import,
                  k8s_version=args.k8s_version, scheduler_config=args.scheduler_config, own_file=args.own_scheduler)
    session = ContractSession(own)
    try:
        plugins = session.plugins()
    finally:
        session.close()
    if args.plugin not in plugins:
        raise ConformanceError(f"plugin {args.plugin!r} is not in the effective profile; its plugins are: "
                               f"{', '.join(plugins)}")


def _invariants(args: argparse.Namespace) -> int:
    from .invariants import REGISTRY
    if args.coverage:
        return _coverage(args.output)
    if args.output:
        raise ConformanceError("--output applies to --coverage; add --coverage or drop --output")
    if args.json:
        print(json.dumps([inv.to_dict() for inv in REGISTRY.values()], indent=2))
        return 0
    for inv in REGISTRY.values():
        caps = f" [needs {', '.join(sorted(inv.requires))}]" if inv.requires else ""
        print(f"{inv.id}{caps}\n    {inv.statement}\n    source: {inv.source}")
    return 0


COVERAGE_BEGIN, COVERAGE_END = "<!-- coverage-matrix:begin -->", "<!-- coverage-matrix:end -->"


def coverage_document(existing: str) -> str:
    """`existing` with the section between the coverage markers replaced by the rendered matrix
    (appended, with the markers, when it has none)."""
    from .invariants import REGISTRY
    from .invariants.coverage import render
    block = f"{COVERAGE_BEGIN}\n{render(REGISTRY)}{COVERAGE_END}"
    if COVERAGE_BEGIN in existing and COVERAGE_END in existing:
        head, rest = existing.split(COVERAGE_BEGIN, 1)
        return head + block + rest.split(COVERAGE_END, 1)[1]
    return existing + ("\n" if existing and not existing.endswith("\n") else "") + block + "\n"


def _coverage(output: str | None) -> int:
    from pathlib import Path

    from .invariants import REGISTRY
    from .invariants.coverage import problems, render
    issues = problems(REGISTRY)
    for issue in issues:
        print(f"sched-conformance: coverage matrix: {issue}", file=sys.stderr)
    if output is None:
        print(render(REGISTRY), end="")
    else:
        path = Path(output)
        path.write_text(coverage_document(path.read_text() if path.exists() else ""))
        print(f"{output}: coverage matrix updated")
    return 1 if issues else 0


def _reproduce(args: argparse.Namespace) -> int:
    from .backends import make_backend
    from .extender.server import ExtenderServer
    from .invariants import REGISTRY, Run, Violation
    from .contracts import reproducer as contract_reproducer
    meta = json.loads(meta_file.read_text()) if (meta_file := Path(args.directory) / reproducer.META).is_file() else {}
    if contract_reproducer.is_contract(meta):
        return contract_reproducer.replay(args.directory, meta)
    scenario, meta = reproducer.read(args.directory)
    if meta.get("invariant") == "diff":
        from .diff.replay import replay
        return replay(args.directory, scenario, meta, args.version, args.side)
    if args.version or args.side:
        raise ConformanceError(f"--version and --side apply to a diff's reproducer; {args.directory} is one of "
                               f"{meta.get('invariant')!r}: drop them")
    backend_name = args.backend or meta.get("backend") or "reference"
    if meta.get("invariant") == "differential":
        return _reproduce_differential(args.directory, scenario, backend_name, meta.get("compare") or "reference", meta)
    inv = REGISTRY.get(meta.get("invariant", ""))
    if inv is None:
        raise ConformanceError(f"{args.directory}: meta.json names no known invariant "
                               f"({meta.get('invariant')!r}); see `sched-conformance invariants`")
    with ExtenderServer() as server:
        backend = _with_user_extenders(make_backend(backend_name, extender_server=server,
                                                    **_own_runner(args.directory, meta, backend_name)), meta)
        try:
            run = Run(scenario, backend.run(scenario), frozenset(backend.capabilities))
            try:
                inv.check(run)
            except Violation as violation:
                print(f"REPRODUCED on {backend_name}:\n{violation}")
                return 1
        finally:
            backend.close()
    print(f"{inv.id} holds on {backend_name} for {args.directory}: the failure does not reproduce")
    return 0


def _own_runner(directory: str, meta: dict, backend_name: str) -> dict:
    """For a reproducer of the user's own scheduler, the backend's options from that build: the upstream
    backend's runner; on a cluster, its kube-scheduler and the CRDs the run installed."""
    if backend_name not in ("upstream", "cluster") or not meta.get("ownScheduler"):
        return {}
    from .builds import build
    spec = reproducer.own_scheduler_spec(directory, meta)
    if backend_name == "upstream":
        return {"runner": build(spec).runner}
    return {**({"scheduler_binary": str(build(spec).kube_scheduler)} if not spec.empty else {}),
            **({"crds": spec.crds} if spec.crds else {})}


def _with_user_extenders(backend, meta: dict):
    """The backend behind the recording proxy again, for a reproducer of the user's extenders."""
    if not meta.get("userExtenders"):
        return backend
    from .extender.proxy import ExtenderProxy, UserExtenderBackend
    return UserExtenderBackend(backend, ExtenderProxy(meta["userExtenders"]))


def _reproduce_differential(directory: str, scenario, backend_name: str, other_name: str, meta: dict) -> int:
    """Run the scenario on the backend and on the one it was compared with (meta.json `compare`)."""
    from .backends import make_backend
    from .differential import compare, run_both
    from .extender.server import ExtenderServer
    from .invariants import Violation
    with ExtenderServer() as server:
        backends = [_with_user_extenders(make_backend(name, extender_server=server,
                                                      **_own_runner(directory, meta, name)), meta)
                    for name in (backend_name, other_name)]
        try:
            compare(*run_both(*backends, scenario))
        except Violation as violation:
            print(f"REPRODUCED on {backend_name} vs {other_name}:\n{violation}")
            return 1
        finally:
            for backend in backends:
                backend.close()
    print(f"{backend_name} and {other_name} agree on {directory}: the failure does not reproduce")
    return 0


def _version(args: argparse.Namespace) -> int:
    from .backends.reference import KUBERNETES_VERSION
    try:
        version = metadata.version("kube-scheduler-conformance")
    except metadata.PackageNotFoundError:
        version = "unknown (not installed)"
    print(f"sched-conformance {version}\nreference: Kubernetes {KUBERNETES_VERSION}\npython: {sys.version.split()[0]}")
    return 0


__all__ = ["COVERAGE_BEGIN", "COVERAGE_END", "add_to", "coverage_document"]
