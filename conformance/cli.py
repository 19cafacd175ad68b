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
import os
import sys
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


def parser() -> argparse.ArgumentParser:
    main_parser = _Parser(prog="sched-conformance", description=__doc__.splitlines()[0], epilog=EPILOG,
                          formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = main_parser.add_subparsers(dest="command", required=True)
    from .config_command import add_to as add_config_commands
    add_config_commands(sub)
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
    except BrokenPipeError:
        # `sched-conformance plugins FILE | head`: the reader left; say nothing more (Python's documented way).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except ConformanceError as e:
        print(f"sched-conformance: {e}", file=sys.stderr)
        return 2
    except ReferenceError_ as e:
        where = getattr(args, "config", None) or getattr(args, "directory", "")
        print(f"sched-conformance: {where}: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
