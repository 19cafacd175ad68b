"""The per-rule mutant run (issue 32): every mutant of the proof matrix over the ci profile's scenarios.

    PYTHONPATH=. python benchmarks/rule_mutants.py [--only MUTANT ...] [--equivalence] [--invariant ID ...]
                                                   [--results FILE] [--fresh] [--profile ci]

For each proof of conformance/invariants/proofs.py:
  - caught by an invariant: that invariant's search runs on the reference with the mutant's hook, no
    shrinking; the result is "caught at example n" or "NOT CAUGHT" (expected only for a proof whose
    `no_search` says why the search cannot reach it: the witness still catches it);
  - "equivalent" (no invariant can see it): the mutant and the unmutated reference run every scenario the
    profile draws for every invariant (each distinct scenario once) and their outcomes (pods, trace, events,
    conditions, nominations, timings) must be equal; the first scenario where they differ is written next to
    the results file, because it makes the rule checkable.
`--equivalence` runs the equivalence check for the mutants named by `--only` whatever their proof says:
how to decide whether a new mutant is equivalent before recording it. `--invariant` narrows the scenarios
to those invariants' draws (faster, weaker).

Results go to a JSON-lines file (default benchmarks/.rule_mutants.jsonl), one line per mutant and check; a
rerun skips what is there (resumable; `--fresh` starts over). Progress is printed per mutant, and per
invariant during an equivalence check. The fast per-rule check, that each mutant misbehaves on its witness
and is caught there, is tests/conformance/test_rule_mutants.py.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

# Run as a script, this directory heads sys.path and benchmarks/generators.py would shadow `generators`.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from conformance.backends.reference import ReferenceBackend  # noqa: E402 - after the path fix above
from conformance.extender.server import ExtenderServer  # noqa: E402
from conformance.invariants import REGISTRY  # noqa: E402
from conformance.invariants.proofs import PROOFS, Proof  # noqa: E402
from conformance.search import find_violation  # noqa: E402
from tests.conformance.mutant_matrix import ALL_HOOKS  # noqa: E402

EQUIVALENCE = "equivalence"


def _digest(scenario: Any) -> str:
    return hashlib.sha256(scenario.to_json(indent=None).encode()).hexdigest()[:16]


class _Comparing:
    """A backend that runs each new scenario on the reference and on the mutant and remembers the first one
    whose outcomes differ; it answers with the reference's outcome, so every invariant passes and the search
    draws all of its examples."""

    def __init__(self, hook, server: ExtenderServer, seen: set[str]) -> None:
        self.reference = ReferenceBackend(extender_server=server)
        self.mutant = ReferenceBackend(extender_server=server, hook=hook)
        self.name, self.capabilities = self.reference.name, self.reference.capabilities
        self.seen = seen
        self.differs: tuple[Any, str] | None = None

    def run(self, scenario):
        outcome = self.reference.run(scenario)
        digest = _digest(scenario)
        if digest in self.seen or self.differs is not None:
            return outcome
        self.seen.add(digest)
        try:
            mutated = self.mutant.run(scenario).to_dict()
        except Exception as exc:  # noqa: BLE001 - a crash is a visible difference too
            self.differs = (scenario, f"the mutant crashed: {type(exc).__name__}: {exc}")
            return outcome
        expected = outcome.to_dict()
        if mutated != expected:
            fields = sorted(k for k in expected.keys() | mutated.keys() if expected.get(k) != mutated.get(k))
            self.differs = (scenario, "outcome fields differ: " + ", ".join(fields))
        return outcome


def equivalence(mutant: str, server: ExtenderServer, profile: str, invariants: list[str],
                results: Path) -> dict:
    seen: set[str] = set()
    start = time.perf_counter()
    for n, inv_id in enumerate(invariants, 1):
        backend = _Comparing(ALL_HOOKS[mutant], server, seen)
        inv = REGISTRY[inv_id]
        if inv.requires - set(backend.capabilities):
            continue
        find_violation(backend, inv, profile=profile, shrink=False)
        print(f"  {mutant}: {n}/{len(invariants)} {inv_id}, {len(seen)} distinct scenarios", flush=True)
        if backend.differs is not None:
            scenario, why = backend.differs
            saved = results.with_name(f"{results.stem}.{mutant}.scenario.json")
            saved.write_text(scenario.to_json())
            return {"equal": False, "scenarios": len(seen), "invariant": inv_id, "why": why,
                    "scenario": str(saved), "seconds": round(time.perf_counter() - start, 1)}
    return {"equal": True, "scenarios": len(seen), "seconds": round(time.perf_counter() - start, 1)}


def caught(proof: Proof, server: ExtenderServer, profile: str) -> dict:
    start = time.perf_counter()
    backend = ReferenceBackend(extender_server=server, hook=ALL_HOOKS[proof.mutant])
    failure = find_violation(backend, REGISTRY[proof.caught_by], profile=profile, shrink=False)
    out = {"caught": failure is not None, "seconds": round(time.perf_counter() - start, 1)}
    if failure is not None:
        out["example"] = failure.examples
    return out


def _done(results: Path) -> dict[tuple[str, str], dict]:
    if not results.exists():
        return {}
    lines = (json.loads(line) for line in results.read_text().splitlines() if line.strip())
    return {(r["mutant"], r["check"]): r for r in lines}


def _line(record: dict) -> str:
    if record["check"] == EQUIVALENCE:
        verdict = (f"equal on {record['scenarios']} scenarios" if record["equal"] else
                   f"DIFFERS ({record['why']}; {record['invariant']}'s draws; {record['scenario']})")
    else:
        verdict = (f"caught by {record['check']} at example {record['example']}" if record["caught"] else
                   f"NOT CAUGHT by {record['check']}" + (" (expected: " + record["no_search"] + ")"
                                                          if record.get("no_search") else ""))
    return f"{record['mutant']:44s} {verdict} [{record['seconds']}s]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", default=[], help="only this mutant (repeatable)")
    parser.add_argument("--equivalence", action="store_true",
                        help="check the --only mutants for equivalence whatever their proof says")
    parser.add_argument("--invariant", action="append", default=[],
                        help="equivalence: only the scenarios these invariants draw (repeatable)")
    parser.add_argument("--profile", default="ci")
    parser.add_argument("--results", type=Path, default=_HERE / ".rule_mutants.jsonl")
    parser.add_argument("--fresh", action="store_true", help="forget earlier results")
    args = parser.parse_args(argv)
    unknown = [m for m in args.only if m not in ALL_HOOKS]
    if unknown:
        print(f"rule_mutants: unknown mutant {unknown[0]!r}: name one of tests/conformance/mutant_matrix.py's "
              "ALL_HOOKS", file=sys.stderr)
        return 2
    if args.equivalence and not args.only:
        print("rule_mutants: --equivalence needs --only MUTANT", file=sys.stderr)
        return 2
    bad = [i for i in args.invariant if i not in REGISTRY]
    if bad:
        print(f"rule_mutants: unknown invariant {bad[0]!r}: see `sched-conformance invariants`", file=sys.stderr)
        return 2
    if args.fresh and args.results.exists():
        args.results.unlink()
    done = _done(args.results)
    invariants = args.invariant or sorted(REGISTRY)
    todo: list[tuple[str, str, Proof | None]] = []
    if args.equivalence:
        todo = [(m, EQUIVALENCE, None) for m in args.only]
    else:
        for p in PROOFS:
            if args.only and p.mutant not in args.only:
                continue
            check = p.caught_by or (EQUIVALENCE if p.reason.startswith("equivalent") else "")
            if check and (p.mutant, check, p) not in todo:
                todo.append((p.mutant, check, p))
    todo = list({(m, c): (m, c, p) for m, c, p in todo}.values())
    counts = {"caught": 0, "missed": 0, "equal": 0, "differs": 0}
    start = time.perf_counter()
    with ExtenderServer() as server:
        for n, (mutant, check, proof) in enumerate(todo, 1):
            record = done.get((mutant, check))
            if record is None:
                result = (equivalence(mutant, server, args.profile, invariants, args.results)
                          if check == EQUIVALENCE else caught(proof, server, args.profile))
                record = {"mutant": mutant, "check": check, **result,
                          **({"no_search": proof.no_search} if proof and proof.no_search else {})}
                with args.results.open("a") as out:
                    out.write(json.dumps(record) + "\n")
            if check == EQUIVALENCE:
                counts["equal" if record["equal"] else "differs"] += 1
            else:
                counts["caught" if record["caught"] else "missed"] += 1
            print(f"[{n}/{len(todo)}] {_line(record)}", flush=True)
    print(f"{counts['caught']} caught by their invariant's {args.profile} search, {counts['missed']} not; "
          f"{counts['equal']} equivalent on every scenario, {counts['differs']} differ "
          f"({time.perf_counter() - start:.0f} s; results in {args.results})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
