"""`sched-conformance cache list|prune`: the build cache, seen and trimmed by hand."""

from __future__ import annotations

import argparse
import datetime

from .. import paths
from .cache import DEFAULT_MAX, MAX_ENV, entries, evict, human, parse_size


def add_to(sub: argparse._SubParsersAction) -> None:
    c = sub.add_parser("cache", help="the build cache: list its entries, prune them",
                       description=f"Builds are cached under {paths.cache()} ($SCHED_CONFORMANCE_CACHE, "
                                   f"$XDG_CACHE_HOME); after each build the least recently used entries go until "
                                   f"it fits ${MAX_ENV} (default {DEFAULT_MAX}). Go's own caches (go env GOCACHE "
                                   f"GOMODCACHE) are Go's: `go clean -cache` trims them.")
    actions = c.add_subparsers(dest="cache_action", required=True)
    actions.add_parser("list", help="every entry: size, last use, what it is").set_defaults(run=_list)
    p = actions.add_parser("prune", help="remove entries, least recently used first")
    p.add_argument("--max-size", default="0", help="keep the most recently used entries up to this size (e.g. 2G); "
                                                  "default 0: remove all but the sources in use")
    p.set_defaults(run=_prune)


def _list(args: argparse.Namespace) -> int:
    found = entries()
    for entry in reversed(found):
        used = datetime.datetime.fromtimestamp(entry.last_used).strftime("%Y-%m-%d %H:%M")
        print(f"{human(entry.size):>7}  {used}  {entry.kind:<7}  {entry.path.name}  {entry.describe()}")
    print(f"{len(found)} entries, {human(sum(e.size for e in found))} in {paths.cache()}")
    return 0


def _prune(args: argparse.Namespace) -> int:
    removed = evict(max_size=parse_size(args.max_size))
    for entry in removed:
        print(f"removed {entry.path} ({human(entry.size)}, {entry.describe()})")
    left = entries()
    print(f"{len(removed)} entries removed ({human(sum(e.size for e in removed))}); {len(left)} left, "
          f"{human(sum(e.size for e in left))}")
    return 0


__all__ = ["add_to"]
