"""Mutation testing of the reference scheduler with the property suite as the test.

    PYTHONPATH=. python benchmarks/mutation.py [--per-module 8] [--seed 19] [--results FILE] [--timeout 180]
                                               [--module reference/scheduler/queue.py ...] [--list]
    PYTHONPATH=. python benchmarks/mutation.py --run-suite     # the test command, run in the mutated copy

mutmut cannot drive this layout (it mutates in place and runs one test command per mutant over the
installed package, while the suite imports `reference` from the working tree and runs an extender
server), so this is a small AST-based driver. Operators: comparison flips (< <=, > >=, == !=, in /
not in, is / is not), `and`/`or` swaps, `not` removal, arithmetic swaps (+ -, * //), integer
constants +1 (0 <-> 1), True <-> False, `break` <-> `continue`, and deletion of a statement
(a call, an assignment, an augmented assignment; replaced by `pass`).

Every mutation point of every target module is enumerated in source order; `--per-module N` samples N
of them per module with `random.Random(seed)` (reproducible; `--list` prints the sample). Each mutant
is applied to a copy of the repository and the suite runs there in a subprocess: every invariant on
the reference backend, in the `mutation` profile (25 derandomized examples, no shrinking), stopping at
the first violation. Killed: an invariant failed, one was exercised in none of its examples (what
--strict-coverage fails), the reference crashed, or the run timed out.
Results go to a JSON-lines file, one line per mutant; a rerun skips the mutants already there
(resumable), and prints progress and the score at the end. `--differential` then runs each survivor
once more, against the upstream scheduler (SCHED_CONFORMANCE_BIN): the differential test of the suite
in the mutation profile, to tell the mutants only the differential kills.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGETS = (
    "reference/framework/runtime.py",            # framework runtime: every Run*
    "reference/framework/waiting_pods.py",       # Permit waiting pods
    "reference/scheduler/schedule_one.py",       # scheduling cycle: filtering, scoring, host selection
    "reference/scheduler/scheduler.py",          # scheduling and binding cycles, failure handling
    "reference/scheduler/queue.py",              # scheduling queue, backoff, nominator
    "reference/nodeinfo.py",                     # cache snapshot: NodeInfo, Snapshot
    "reference/scheduler/fit_error.py",          # FitError and diagnosis
    "reference/plugins/preemption/evaluator.py",  # preemption: candidates, victims, node choice
    "reference/plugins/preemption/executor.py",   # preemption: evictions, nominations
    "reference/extender.py",                     # HTTP extender client
)
DEFAULT_RESULTS = ROOT / ".sched-conformance" / "mutation" / "results.jsonl"
_COPY = ("reference", "generators", "conformance", "benchmarks")

_CMP_SWAP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
             ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
_BIN_SWAP = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult}


@dataclass(frozen=True)
class Mutant:
    module: str
    index: int     # the index of the mutation point in the module, in source order
    line: int
    operator: str

    @property
    def id(self) -> str:
        return f"{self.module}:{self.line}:{self.index}:{self.operator}"


def _points(tree: ast.AST) -> list[tuple[ast.AST, str]]:
    """(node, operator) for every mutation point, in a deterministic walk order."""
    out: list[tuple[ast.AST, str]] = []
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            out += [(node, f"cmp{i}:{type(op).__name__}") for i, op in enumerate(node.ops) if type(op) in _CMP_SWAP]
        elif isinstance(node, ast.BoolOp):
            out.append((node, f"boolop:{type(node.op).__name__}"))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            out.append((node, "not"))
        elif isinstance(node, ast.BinOp) and type(node.op) in _BIN_SWAP:
            out.append((node, f"binop:{type(node.op).__name__}"))
        elif isinstance(node, ast.Constant) and id(node) not in docstrings:
            if isinstance(node.value, bool):
                out.append((node, f"const:{node.value}"))
            elif isinstance(node.value, int):
                out.append((node, f"const:{node.value}"))
        elif isinstance(node, (ast.Break, ast.Continue)):
            out.append((node, type(node).__name__.lower()))
        elif isinstance(node, (ast.Expr, ast.Assign, ast.AugAssign)) and not (
                isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
            out.append((node, f"delete:{type(node).__name__}"))
    return out


def enumerate_mutants(module: str) -> list[Mutant]:
    tree = ast.parse((ROOT / module).read_text())
    return [Mutant(module, i, getattr(node, "lineno", 0), op) for i, (node, op) in enumerate(_points(tree))]


class _Apply(ast.NodeTransformer):
    def __init__(self, target: ast.AST, operator: str) -> None:
        self.target, self.operator = target, operator

    def generic_visit(self, node: ast.AST) -> ast.AST:
        node = super().generic_visit(node)
        if node is not self.target:
            return node
        op = self.operator
        if op.startswith("cmp"):
            i = int(op[3:op.index(":")])
            node.ops[i] = _CMP_SWAP[type(node.ops[i])]()
        elif op.startswith("boolop"):
            node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        elif op == "not":
            return node.operand
        elif op.startswith("binop"):
            node.op = _BIN_SWAP[type(node.op)]()
        elif op.startswith("const"):
            v = node.value
            node.value = (not v) if isinstance(v, bool) else (1 if v == 0 else 0 if v == 1 else v + 1)
        elif op == "break":
            return ast.copy_location(ast.Continue(), node)
        elif op == "continue":
            return ast.copy_location(ast.Break(), node)
        elif op.startswith("delete"):
            return ast.copy_location(ast.Pass(), node)
        return node


def mutated_source(mutant: Mutant) -> str:
    tree = ast.parse((ROOT / mutant.module).read_text())
    node, op = _points(tree)[mutant.index]
    assert op == mutant.operator, (mutant, op)
    return ast.unparse(ast.fix_missing_locations(_Apply(node, op).visit(tree)))


def describe(mutant: Mutant) -> tuple[str, str]:
    """The first line the mutation changes, before and after (both unparsed, so they compare)."""
    import difflib
    before = ast.unparse(ast.parse((ROOT / mutant.module).read_text())).splitlines()
    after = mutated_source(mutant).splitlines()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=before, b=after, autojunk=False).get_opcodes():
        if tag != "equal":
            return " / ".join(x.strip() for x in before[i1:i2])[:150], " / ".join(x.strip() for x in after[j1:j2])[:150]
    return "", ""


def sample(per_module: int, seed: int, modules: tuple[str, ...]) -> list[Mutant]:
    """`per_module` mutants of each module, drawn by a generator seeded with the seed and the module's
    path: a larger sample extends a smaller one, and adding a module leaves the others' samples alone."""
    chosen: list[Mutant] = []
    for module in modules:
        every = enumerate_mutants(module)
        rng = random.Random(f"{seed}:{module}")
        chosen += sorted(rng.sample(every, min(per_module, len(every))), key=lambda m: m.index)
    return chosen


def _source_hash(module: str) -> str:
    return hashlib.sha256((ROOT / module).read_bytes()).hexdigest()[:12]


def run_suite(profile: str = "mutation") -> int:
    """The test command: every invariant on the reference (mutation profile), with --strict-coverage;
    exit 1 at the first violation, naming it; 3 when the reference crashed; 4 on a vacuous pass."""
    sys.path.insert(0, str(Path.cwd()))
    from conformance.backends.reference import ReferenceBackend
    from conformance.extender.server import ExtenderServer
    from conformance.invariants import REGISTRY
    from conformance.search import Exercised, find_violation
    with ExtenderServer() as server:
        backend = ReferenceBackend(extender_server=server)
        for inv in REGISTRY.values():
            if inv.requires - set(backend.capabilities):
                continue
            exercised = Exercised()
            try:
                failure = find_violation(backend, inv, profile=profile, shrink=False, exercised=exercised)
            except Exception as exc:  # noqa: BLE001 - a crash of the mutated reference kills it too
                print(json.dumps({"killed_by": inv.id, "crash": f"{type(exc).__name__}: {exc}"[:300]}))
                return 3
            if failure is not None:
                print(json.dumps({"killed_by": inv.id}))
                return 1
            if exercised.exercised == 0:  # --strict-coverage: a pass that tested nothing
                print(json.dumps({"killed_by": f"strict-coverage:{inv.id}"}))
                return 4
    print(json.dumps({"killed_by": None}))
    return 0


def run_differential() -> int:
    """The differential test of the mutated reference against upstream; exit 1 when they disagree."""
    sys.path.insert(0, str(Path.cwd()))
    from conformance.backends import make_backend
    from conformance.differential import find_disagreement, scenarios_for
    from conformance.extender.server import ExtenderServer
    with ExtenderServer() as server:
        upstream = make_backend("upstream", extender_server=server)
        reference = make_backend("reference", extender_server=server)
        try:
            failure = find_disagreement(upstream, reference, scenarios_for(extenders=True, max_pods=4),
                                        profile="mutation", shrink=False)
        finally:
            upstream.close()
    print(json.dumps({"differential": failure is not None}))
    return 1 if failure is not None else 0


def _run_mutant(work: Path, mutant: Mutant, timeout: float, command: tuple[str, ...] = ("--run-suite",)) -> dict:
    original = (ROOT / mutant.module).read_text()
    target = work / mutant.module
    try:
        target.write_text(mutated_source(mutant))
    except Exception as exc:  # noqa: BLE001 - unparse failures are reported, not fatal
        return {"status": "invalid", "detail": str(exc)}
    start = time.perf_counter()
    try:
        proc = subprocess.run([sys.executable, "benchmarks/mutation.py", *command], cwd=work, timeout=timeout,
                              capture_output=True, text=True)
    except subprocess.TimeoutExpired:
        return {"status": "killed", "killed_by": "timeout", "seconds": round(time.perf_counter() - start, 1)}
    finally:
        target.write_text(original)
    seconds = round(time.perf_counter() - start, 1)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    verdict = json.loads(lines[-1]) if lines else {"killed_by": "crash", "crash": proc.stderr[-300:]}
    status = "survived" if proc.returncode == 0 else "killed"
    return {"status": status, **verdict, "seconds": seconds}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run-suite", action="store_true", help="run the property suite here (the test command)")
    parser.add_argument("--per-module", type=int, default=8)
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--module", action="append", default=[], help="only this target module (repeatable)")
    parser.add_argument("--results", default=str(DEFAULT_RESULTS))
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds per mutant before it counts as killed")
    parser.add_argument("--list", action="store_true", help="print the sample and exit")
    parser.add_argument("--differential", action="store_true",
                        help="also run each survivor's differential test against upstream")
    parser.add_argument("--run-differential", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--suite-profile", default="mutation", help="the suite's profile per mutant (e.g. ci)")
    parser.add_argument("--survivors-of", help="only the sample's mutants that survived in this results file")
    args = parser.parse_args()
    if args.run_suite:
        return run_suite(args.suite_profile)
    if args.run_differential:
        return run_differential()
    modules = tuple(args.module) or TARGETS
    mutants = sample(args.per_module, args.seed, modules)
    if args.survivors_of:
        last = {}
        for line in Path(args.survivors_of).read_text().splitlines():
            r = json.loads(line)
            last[r["id"]] = r
        mutants = [m for m in mutants if last.get(m.id, {}).get("status") == "survived"]
    if args.list:
        for m in mutants:
            before, after = describe(m)
            print(f"{m.id}\n    - {before}\n    + {after}")
        print(f"{len(mutants)} mutants ({args.per_module} per module, seed {args.seed}) of "
              f"{sum(len(enumerate_mutants(m)) for m in modules)} mutation points")
        return 0
    results_path = Path(args.results)
    results_path.parent.mkdir(parents=True, exist_ok=True)
    done = {}
    if results_path.exists():
        for line in results_path.read_text().splitlines():
            r = json.loads(line)
            done[(r["id"], r["source"])] = r
    with tempfile.TemporaryDirectory(prefix="sched-mutation-") as tmp:
        work = Path(tmp)
        for name in _COPY:
            shutil.copytree(ROOT / name, work / name, ignore=shutil.ignore_patterns("__pycache__"))
        for i, mutant in enumerate(mutants, 1):
            key = (mutant.id, _source_hash(mutant.module))
            if key in done:
                r = done[key]
            else:
                command = ("--run-suite", "--suite-profile", args.suite_profile)
                r = {"id": mutant.id, "source": key[1], "profile": args.suite_profile,
                     **_run_mutant(work, mutant, args.timeout, command)}
                with results_path.open("a") as f:
                    f.write(json.dumps(r) + "\n")
                done[key] = r
            if args.differential and r["status"] == "survived" and "differential" not in r:
                verdict = _run_mutant(work, mutant, args.timeout * 3, ("--run-differential",))
                r = {**r, "differential": verdict.get("differential", verdict.get("killed_by"))}
                with results_path.open("a") as f:
                    f.write(json.dumps(r) + "\n")
                done[key] = r
            extra = f" differential: {r['differential']}" if "differential" in r else ""
            print(f"[{i}/{len(mutants)}] {mutant.id:64s} {r['status']:8s} {r.get('killed_by') or '':36s} "
                  f"{r.get('seconds', '')}s{extra}", flush=True)
    results = [done[(m.id, _source_hash(m.module))] for m in mutants]
    killed = sum(r["status"] == "killed" for r in results)
    valid = sum(r["status"] != "invalid" for r in results)
    print(f"mutation score: {killed}/{valid} killed ({100 * killed / max(valid, 1):.0f}%); survivors:")
    for m, r in zip(mutants, results):
        if r["status"] == "survived":
            print(f"  {m.id}: {(ROOT / m.module).read_text().splitlines()[m.line - 1].strip()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
