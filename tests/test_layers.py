"""Layering of `reference` and `generators`, read from their source with `ast`: no import cycles
inside either tree, and imports only downwards (conformance -> generators -> reference).

Every import statement counts, including function-local ones and those under `if TYPE_CHECKING:`:
a cycle hidden that way is still two modules that each need the other.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Iterable, Mapping

import pytest

ROOT = Path(__file__).resolve().parents[1]
TREES = ("reference", "generators")
# What each tree must never import: the layers above it.
FORBIDDEN = {"reference": ("generators", "conformance"), "generators": ("conformance",)}


def modules(tree: str, root: Path = ROOT) -> dict[str, Path]:
    """Dotted module name -> source file; a package is named by its `__init__.py`."""
    found = {}
    for path in sorted((root / tree).rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imported_names(name: str, path: Path) -> Iterable[str]:
    """Every dotted name module `name` imports, relative imports made absolute; for
    `from X import y`, both X and X.y (y may be a submodule)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                base = ".".join(parent + ([node.module] if node.module else []))
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)


def import_graph(mods: Mapping[str, Path]) -> dict[str, set[str]]:
    """Module -> the modules of `mods` it imports (a name resolves to its longest known prefix)."""
    graph: dict[str, set[str]] = {}
    for name, path in mods.items():
        targets = set()
        for imported in imported_names(name, path):
            parts = imported.split(".")
            known = next((".".join(parts[:n]) for n in range(len(parts), 0, -1) if ".".join(parts[:n]) in mods), None)
            if known is not None and known != name:
                targets.add(known)
        graph[name] = targets
    return graph


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in graph.get(node, ()):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_cycle_finder_finds_a_cycle_and_only_it():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"d"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_import_graph_reads_relative_local_and_type_checking_imports(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("def f():\n    from .sub import b\n")
    (pkg / "sub" / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..a import f\n")
    graph = import_graph(modules("pkg", tmp_path))
    assert graph["pkg.a"] == {"pkg.sub", "pkg.sub.b"}
    assert graph["pkg.sub.b"] == {"pkg.a"}
    assert cycles(graph) == [["pkg.a", "pkg.sub.b"]]


@pytest.mark.parametrize("tree", TREES)
def test_no_import_cycles(tree):
    assert cycles(import_graph(modules(tree))) == []


@pytest.mark.parametrize("tree", TREES)
def test_imports_go_downwards_only(tree):
    wrong = sorted((name, imported) for name, path in modules(tree).items()
                   for imported in imported_names(name, path)
                   if imported.split(".")[0] in FORBIDDEN[tree])
    assert wrong == []
