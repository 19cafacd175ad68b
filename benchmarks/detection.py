"""Detection power: which broken schedulers the whole suite catches, whatever invariant catches them.

    PYTHONPATH=. python benchmarks/detection.py [--profile ci] [--mutants tests/conformance/unseen_mutants.py]
                                                [--all-invariants] [--only NAME]

For every mutant in the given module (a list named UNSEEN_MUTANTS or MUTANTS of
`tests/conformance/mutants.Mutant`), runs every invariant's search (no shrinking) on the reference
with the mutant's hook, until one catches it (with --all-invariants: every invariant), and prints the
catching invariants and the count caught. The module is loaded by path, so the same mutants can be
run against another checkout's suite: run the script from that checkout (its `conformance` is the
one imported) with `--mutants` pointing here.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(Path.cwd())] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from conformance.backends.reference import ReferenceBackend  # noqa: E402 - after the path fix above
from conformance.extender.server import ExtenderServer  # noqa: E402
from conformance.invariants import REGISTRY  # noqa: E402
from conformance.search import find_violation  # noqa: E402


def load_mutants(path: Path) -> list:
    """The mutant list of a module given by path (its `from .mutants import` resolves in its package)."""
    package_dir = path.resolve().parent
    sys.path.append(str(package_dir.parent.parent))  # last: this checkout's packages come first
    name = ".".join(package_dir.relative_to(package_dir.parent.parent).parts + (path.stem,))
    spec = importlib.util.spec_from_file_location(name, path, submodule_search_locations=None)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return getattr(module, "UNSEEN_MUTANTS", None) or module.MUTANTS


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="ci")
    parser.add_argument("--mutants", default=str(_HERE.parent / "tests/conformance/unseen_mutants.py"))
    parser.add_argument("--all-invariants", action="store_true")
    parser.add_argument("--only", action="append", default=[], help="only the mutant of this name (repeatable)")
    args = parser.parse_args()
    mutants = [m for m in load_mutants(Path(args.mutants)) if not args.only or m.name in args.only]
    caught = 0
    with ExtenderServer() as server:
        for mutant in mutants:
            start = time.perf_counter()
            by = []
            named = [REGISTRY[mutant.invariant]] if mutant.invariant in REGISTRY else []
            # The invariant the mutant names goes first: when it catches, the others need not run.
            for inv in [*named, *(i for i in REGISTRY.values() if i not in named)]:
                backend = ReferenceBackend(hook=mutant.hook, extender_server=server)
                if inv.requires - set(backend.capabilities):
                    continue
                try:
                    found = find_violation(backend, inv, profile=args.profile, shrink=False) is not None
                except Exception as exc:  # noqa: BLE001 - the broken scheduler crashed: the test errors
                    by.append(f"{inv.id} (the scheduler crashed: {type(exc).__name__})")
                    if not args.all_invariants:
                        break
                    continue
                if found:
                    by.append(inv.id)
                    if not args.all_invariants:
                        break
            caught += bool(by)
            print(f"{mutant.name:36s} {'caught by ' + ', '.join(by) if by else 'NOT CAUGHT':60s} "
                  f"{time.perf_counter() - start:6.1f}s", flush=True)
    print(f"caught {caught}/{len(mutants)} with {len(REGISTRY)} invariants ({args.profile} profile)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
