"""The tree's shape, checked: no import cycle among the project's modules.

The layers themselves (a pure engine; ``tables``' sub-packages importing only downwards) are
import-linter's contracts in ``pyproject.toml``, run by ``scripts/test``; a cycle between
modules of one sub-package is what they do not see.

Only imports that run when a module loads count (``if TYPE_CHECKING:`` blocks and imports
inside functions are left out): those are the ones that can fail at start-up or tie two
modules into one.
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "tables", "ledger", "accounts", "config")


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in (REPO / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            name = ".".join(path.relative_to(REPO).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
    return names


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {m: {t for t in _imports(p) if t in modules and t != m} for m, p in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_the_finder_sees_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycle() -> None:
    assert _cycles(_graph()) == []
