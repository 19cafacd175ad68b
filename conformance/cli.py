"""`sched-conformance`: command-line entry point.

Subcommands:
  run            run the conformance suite against a backend (wraps pytest)
  invariants     the catalogue of invariants
  check-plugin   check one plugin's contract properties, driving it directly (wraps pytest)
  reproduce DIR  replay a reproducer written by a failing run (of an invariant or a contract)
  version        versions of the suite and what it is pinned to
  plugins FILE   effective plugin list per extension point of every profile (what the suite compares)
  validate FILE  load, default and validate a KubeSchedulerConfiguration; one line per outcome
  diff           the same scenarios on two scheduler builds: what changed (upgrade gating)
  cache          the build cache: list, prune
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import NoReturn, Sequence

from . import commands
from .core.errors import ConformanceError

EPILOG = """exit codes (every command):
  0  pass: every test passed, the file is valid, nothing new differs
  1  a violation: a test failed, a reproducer reproduced, a new difference
  2  a usage or setup error: one line on stderr, `sched-conformance: <the bad value>: <the fix>`"""


class UsageError(ConformanceError):
    """A command line argparse rejects."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # argparse prints its usage block and exits; the suite's contract is one line and exit 2.
        raise UsageError(f"{message}; see `{self.prog} --help`")


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise ConformanceError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start}); pass a "
                               "KubeSchedulerConfiguration YAML file") from None
    except OSError as e:
        raise ConformanceError(f"cannot read {path!r}: {e.strerror}; pass an existing config file") from None


def _plugins(args: argparse.Namespace) -> int:
    from reference.config import effective_plugins, expand_config, list_plugins, load_config
    config = load_config(_read(args.config))
    if args.json:
        print(json.dumps({name: list_plugins(p) for name, p in expand_config(config).items()}, indent=2))
        return 0
    for name, points in effective_plugins(config).items():
        print(f"profile {name}:")
        for point, plugins in points.items():
            print(f"  {point:<11} {', '.join(plugins) if plugins else '-'}")
    return 0


def _validate(args: argparse.Namespace) -> int:
    from reference.config import expand_config, load_config
    config = load_config(_read(args.config))
    expand_config(config)
    print(f"{args.config}: valid ({len(config.profiles)} profile(s))")
    return 0


def parser() -> argparse.ArgumentParser:
    main_parser = _Parser(prog="sched-conformance", description=__doc__.splitlines()[0], epilog=EPILOG,
                          formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = main_parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("plugins", help="effective plugins per extension point of each profile")
    p.add_argument("config", help="KubeSchedulerConfiguration YAML (kubescheduler.config.k8s.io/v1)")
    p.add_argument("--json", action="store_true", help="print upstream's ListPlugins JSON shape")
    p.set_defaults(run=_plugins)
    v = sub.add_parser("validate", help="check a KubeSchedulerConfiguration like kube-scheduler --config")
    v.add_argument("config")
    v.set_defaults(run=_validate)
    commands.add_to(sub)
    from .builds.cache_command import add_to as add_cache_command
    add_cache_command(sub)
    from .cluster.cli import register as register_cluster_commands
    register_cluster_commands(sub)
    return main_parser


def main(argv: Sequence[str] | None = None) -> int:
    """Exit codes: 0 pass, 1 a violation, 2 a usage or setup error (one line on stderr)."""
    from reference.errors import ReferenceError_
    argv = list(sys.argv[1:] if argv is None else argv)
    passed_on: list[str] = []
    if argv[:1] == ["check-plugin"] and "--" in argv:
        argv, passed_on = argv[:argv.index("--")], argv[argv.index("--") + 1:]
    args = None
    try:
        args = parser().parse_args(argv)
        if passed_on:
            args.pytest_args = passed_on
        return args.run(args)
    except ConformanceError as e:
        print(f"sched-conformance: {e}", file=sys.stderr)
        return 2
    except ReferenceError_ as e:
        where = getattr(args, "config", None) or getattr(args, "directory", "")
        print(f"sched-conformance: {where}: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
