"""The layers keep to their rooms: rules/ is pure, render/ never touches Discord or the store."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = {
    "rules": {
        "discord",
        "aiosqlite",
        "PIL",
        "asyncio",
        "random",
        "sqlite3",
        "service",
        "store",
        "cogs",
        "render",
    },
    "render": {"discord", "aiosqlite", "asyncio", "sqlite3", "service", "store", "cogs"},
    "store": {"discord", "PIL", "cogs", "service", "render"},
    "service": {"discord", "cogs"},
}


def _is_type_checking(node: ast.AST) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
        or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")
    )


def _runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node except those under ``if TYPE_CHECKING:``, which never run."""
    out: list[ast.AST] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        out.append(node)
        if _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))
    return out


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in _runtime_nodes(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports(layer: str) -> None:
    files = sorted((ROOT / layer).rglob("*.py"))
    assert files, f"{layer}/ has no Python files"
    bad = {
        str(f.relative_to(ROOT)): sorted(_imports(f) & FORBIDDEN[layer])
        for f in files
        if _imports(f) & FORBIDDEN[layer]
    }
    assert not bad, f"{layer}/ imports what it must not: {bad}"


def test_type_only_imports_are_allowed(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import random\nimport json\n")
    assert _imports(source) == {"typing", "json"}
    source.write_text("import random\n")
    assert _imports(source) == {"random"}
