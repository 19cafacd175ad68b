"""The suite's subcommands: run, invariants, reproduce, version, diff (conformance/diff)."""

from __future__ import annotations

import argparse
import json
import sys
from importlib import metadata
from pathlib import Path

from .core.errors import ConformanceError
from .options import add_cli_options, pytest_argv, pytest_flag


def add_to(sub: argparse._SubParsersAction) -> None:
    r = sub.add_parser("run", help="run the conformance suite (wraps pytest --pyargs conformance.suite)",
                       epilog=f"after --: passed to pytest (e.g. -- --junitxml=x).\n\n{EXIT_CODES}",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_cli_options(r, "run")
    r.add_argument("pytest_args", nargs=argparse.REMAINDER, help="after --: passed to pytest (e.g. --junitxml=x)")
    r.set_defaults(run=_run)
    c = sub.add_parser("check-plugin", help="check one plugin's contract properties, driving it directly "
                                            "(wraps pytest --pyargs conformance.contracts.suite)",
                       epilog=f"after --: passed to pytest (e.g. -- --junitxml=x).\n\n{EXIT_CODES}",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("plugin", nargs="?", help="a plugin of the effective profile (in-tree or yours)")
    c.add_argument("--list", action="store_true", help="the properties: id, statement, upstream source")
    add_cli_options(c, "check-plugin")
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


EXIT_CODES = """exit codes:
  0  every test passed
  1  a violation: a test failed
  2  a usage or setup error (one line on stderr: the bad value, then the fix)"""


def _pytest(argv: list[str], args: argparse.Namespace) -> int:
    """pytest.main on `argv` and the arguments after `--`, with the suite's exit codes: a usage or setup error
    the session finds is printed here as the command's one line."""
    import pytest

    from .pytest_plugin import SetupErrors
    errors = SetupErrors()
    code = int(pytest.main(argv + [a for a in args.pytest_args if a != "--"], plugins=[errors]))
    if errors.message is not None:
        raise ConformanceError(errors.message)
    if code in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
        return code
    if code == pytest.ExitCode.NO_TESTS_COLLECTED:
        raise ConformanceError("no test was selected: check -k and the options after --")
    return 2  # pytest's own usage error (reported above by pytest), an interruption, or an internal error


def _run(args: argparse.Namespace) -> int:
    return _pytest(["--pyargs", "conformance.suite", "-p", "no:cacheprovider", *pytest_argv(args, "run")], args)


def _check_plugin(args: argparse.Namespace) -> int:
    if args.list:
        from .contracts import REGISTRY
        for prop in REGISTRY.values():
            print(f"{prop.id}{' [race build]' if prop.race else ''}\n    {prop.statement}\n    source: {prop.source}")
        return 0
    if bool(args.plugin) == bool(args.conformance_check_plugin_all):
        raise ConformanceError("name one plugin (`check-plugin NodeResourcesFit`) or pass --all, not both or neither")
    argv = ["--pyargs", "conformance.contracts.suite", "-p", "no:cacheprovider", *pytest_argv(args, "check-plugin")]
    if args.plugin:
        argv += [pytest_flag("conformance_check_plugins"), args.plugin]
    return _pytest(argv, args)


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
    """`existing` with the section between the coverage markers replaced by the rendered matrix and the
    mutant matrix (appended, with the markers, when it has none)."""
    from .invariants import REGISTRY
    from .invariants.coverage import render
    from .invariants.proofs import render as render_proofs
    block = f"{COVERAGE_BEGIN}\n{render(REGISTRY)}\n{render_proofs()}{COVERAGE_END}"
    if COVERAGE_BEGIN in existing and COVERAGE_END in existing:
        head, rest = existing.split(COVERAGE_BEGIN, 1)
        return head + block + rest.split(COVERAGE_END, 1)[1]
    return existing + ("\n" if existing and not existing.endswith("\n") else "") + block + "\n"


def _existing_document(path: Path) -> str:
    """The file --output names ("" when it is new), checked before anything is written."""
    if not path.parent.is_dir():
        raise ConformanceError(f"--output {path}: the directory {path.parent} does not exist; create it or name "
                               "a file in an existing directory")
    if path.is_dir():
        raise ConformanceError(f"--output {path}: is a directory; name a Markdown file (e.g. docs/coverage.md)")
    try:
        return path.read_text(encoding="utf-8") if path.exists() else ""
    except (OSError, UnicodeDecodeError) as exc:
        raise ConformanceError(f"--output {path}: cannot read it as UTF-8 text ({exc}); name a Markdown file") from None


def _coverage(output: str | None) -> int:
    from .invariants import REGISTRY
    from .invariants.coverage import problems, render
    existing = _existing_document(Path(output)) if output is not None else None
    issues = problems(REGISTRY)
    for issue in issues:
        print(f"sched-conformance: coverage matrix: {issue}", file=sys.stderr)
    if output is None:
        print(render(REGISTRY), end="")
    else:
        Path(output).write_text(coverage_document(existing or ""))
        print(f"{output}: coverage matrix updated")
    return 1 if issues else 0


def _reproduce(args: argparse.Namespace) -> int:
    from .backends import make_backend
    from .extender.server import ExtenderServer
    from .invariants import REGISTRY, Run, Violation
    from .contracts import reproducer as contract_reproducer
    from .reporting import reproducer
    meta = _meta(Path(args.directory), reproducer.META)
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


def _meta(directory: Path, name: str) -> dict:
    """The reproducer's meta.json ({} when it has none); a missing directory or unreadable file is a usage error."""
    if not directory.is_dir():
        raise ConformanceError(f"{directory}: no such directory; give a reproducer directory a failing run wrote "
                               "(under .sched-conformance/reproducers by default)")
    path = directory / name
    if not path.is_file():
        return {}
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ConformanceError(f"{path}: not the JSON a failing run writes ({str(exc).splitlines()[0]}); "
                               "replay an unmodified reproducer directory") from None
    if not isinstance(meta, dict):
        raise ConformanceError(f"{path}: not the JSON object a failing run writes; replay an unmodified "
                               "reproducer directory")
    return meta


def _own_runner(directory: str, meta: dict, backend_name: str) -> dict:
    """For a reproducer of the user's own scheduler, the backend's options from that build: the upstream
    backend's runner; on a cluster, its kube-scheduler and the CRDs the run installed."""
    if backend_name not in ("upstream", "cluster") or not meta.get("ownScheduler"):
        return {}
    from .builds import build
    from .reporting import reproducer
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
